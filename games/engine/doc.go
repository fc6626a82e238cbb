// Package engine is the computer player of the 8x8 games: an alpha-beta
// search over games/chess's move generator for Survival Chess: Tartan Grid
// and standard chess (issue 16, item 1), and the simple players (random,
// greedy) that measure it, and the Team Chess player. It is pure: it
// imports only games/ packages (games/chess, games/teamchess) and the
// standard library, and never Discord, rendering or storage.
//
// Layers, one file per concept:
//
//   - search.go: Searcher, a negamax alpha-beta search with principal
//     variation search, iterative deepening, a transposition table keyed by
//     the position's Zobrist hash (tt.go), move ordering (order.go: the
//     table's move, MVV-LVA captures, killers, history), late move
//     reductions for quiet moves, and a quiescence search. In Survival
//     Chess every capture is forced, so when the side to move has a capture
//     the quiescence search has no "stand pat": it follows the whole
//     forced-capture chain (to a depth cap), and a node with a single legal
//     move is extended by one ply.
//   - eval.go, eval_chess.go, eval_survival.go: static evaluations, in
//     centipawns from the side to move's point of view. Chess: material and
//     piece-square tables. Survival: material with extinction in mind (the
//     number of pieces left, a bonus as the opponent nears elimination),
//     mobility, pawn advancement (promotion races) and the dead positions
//     of docs/rules/survival.md.
//   - teamchess.go: TeamChessPlayer, the Team Chess player: an
//     alpha-beta search over whole games/teamchess Game values (sacrifice
//     roles and targets, forced replies, the siege decision weighing
//     honour, stagnation and fatigue), with the same level names; a node
//     is a search copy of the game (teamchess.Game.CopyForSearch, one per
//     ply, reused) advanced with PlayLegal or DecideSiege.
//   - player.go: Player, the named levels ("beginner" … "strongest"),
//     Random and Greedy.
//
// Invariants: a search is single-threaded and its budgets are counted in
// nodes and plies, so a level with a seed chooses the same move for the
// same position and history on any machine and at any GOMAXPROCS; time is
// only a cap (a search stopped by its time cap may choose differently).
// Every search starts with a cleared table, so a move does not depend on
// earlier searches either (a resumed game plays on as if never stopped).
// The chosen move is always one of the position's legal moves.
package engine
