// Package render draws board images as PNGs for Discord embeds: 8x8 chess
// boards (Survival Chess: Tartan Grid, Team Chess, FIDE chess) and 20x20
// SandTable Chess boards, plus a legend of the SandTable icons.
//
// Inputs are plain values (ChessBoard, SandTableBoard) that callers fill
// from their engine positions; this package imports no rules engine, no
// Discord and no storage code.
//
// Every piece is our own vector drawing, made with gg from code (no image
// files), with the embedded Go Bold font for coordinates and numbers. The
// drawings are made once per image size, square background and overlay and
// kept as sprites in a fixed palette; an image request only copies the
// cached frame (margins, coordinates, empty squares) and one tile per
// occupied or highlighted square into a paletted image and encodes it as
// an 8-bit palette PNG (see the benchmarks in bench_test.go).
//
// Replays (replay.go) are animated GIFs of a whole game, made as lichess's
// lila-gif makes them: one global palette (the PNG's), the first board
// whole, then each board as the bounding rectangle of the pixels that
// changed, the unchanged ones inside it transparent, drawn over the board
// before (disposal "none"), the last board held longer. gifenc.go writes
// them with its own LZW (a (code, byte)-indexed table and a fast path for
// the transparent runs), frame by frame; a replay is capped at Discord's
// 10 MiB by drawing it smaller, then with fewer boards.
//
// A Renderer is safe for concurrent use by many goroutines. A SandTable
// image draws everything its SandTableBoard holds: what is secret is
// decided once, by the engine's view for the viewer (games/sandtable's
// Position.View), which render/sandboard converts; this package never
// filters again.
package render
