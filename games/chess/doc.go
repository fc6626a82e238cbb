// Package chess is the rules engine for the 8x8 games of SandTable Bot:
// standard FIDE chess, Survival Chess: Tartan Grid (shared/seeds/001) and
// the Team Chess base (shared/seeds/003). It is pure Go with no Discord,
// rendering or storage imports: the referee the other packages build on.
//
// Layers, one file per concept:
//
//   - types.go, bitboard.go, magics.go: squares, pieces, bitboards and
//     fancy-magic slider attacks.
//   - position.go, movegen.go: Position, a small copyable value; legal move
//     generation with check and pin masks (allocation-free hot path).
//   - fen.go: ParseFEN (validated, typed *FENError) and Position.FEN.
//   - move.go, san.go, parse.go: Move, UCI, SAN, and ParseMove, a lenient
//     SAN/UCI reader whose *MoveError says why a move is illegal.
//   - listing.go: Listing, what a refusal names as legal instead (forced
//     captures, or the legal moves when few) in the notation typed.
//   - play.go: Play, IsLegal, captures, Team Chess sacrifice hooks.
//   - status.go, game.go, pgn.go: results (Status, Claim), Game (history,
//     repetition, replay) and PGN export.
//   - perft.go: Perft, PerftBulk, PerftDivide.
//
// Variants differ only in a few places, switched on Position.Variant:
//
//   - Survival: kings are ordinary pieces (no check, capturable, any number
//     including none), no castling, capture is mandatory (when any capture
//     including en passant is legal, only captures are legal), promotion to
//     queen, rook, bishop, knight or king, a side with no pieces loses.
//   - TeamChess: FIDE movement and check; a pawn move reaching the last rank
//     is a Sacrifice instead of a promotion. The core generates the bare
//     sacrifice and offers SacrificeCandidates, Move.WithPlaced,
//     Move.WithRemoved, Move.WithTag and IsLegal so the Team Chess layer can
//     add the roles (Royal Guard places a queen, Assassin removes a piece,
//     Saboteur and Political Agent act outside the board) without changing
//     the core.
//
// Invariants: a Position from ParseFEN is valid for its variant and stays
// valid under Play; methods never panic on user input; Game.Play and
// Position.Play change nothing when they return an error.
//
// Rulings on ambiguous rule texts are in docs/rules/chess.md and
// docs/rules/survival.md.
package chess
