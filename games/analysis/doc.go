// Package analysis is the analysis of finished 8x8 games (issue 24, item
// 5): every position of a game (Survival, chess or Team Chess) searched by
// the variant's engine (games/engine) for a fixed time, and every move
// judged as lichess judges it: its evaluation, an inaccuracy, mistake or
// blunder by the drop of its player's winning chances, and each side's
// accuracy (lichess.go transcribes lichess's formulas, citing their
// sources). Report.PGN writes the game annotated in lichess's PGN form.
//
// Evaluations are from White's point of view. lichess's curve is calibrated
// for chess centipawns; each variant's Curve scales its engine's centipawns
// onto it (docs/analysis.md).
//
// It is pure: it imports games/ packages and the standard library only. An
// analysis is single-threaded (one search at a time), and its results
// depend on the machine's speed as every timed search does; with
// Options.Depth and a generous MoveTime it is reproducible.
package analysis
