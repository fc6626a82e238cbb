// Package engine is the computer player of the 8x8 games: an alpha-beta
// search over games/chess's move generator for Survival Chess: Tartan Grid
// and standard chess (issue 16, item 1), and the simple players (random,
// greedy) that measure it, and the Team Chess player. It is pure: it
// imports only games/ packages (games/chess, games/teamchess) and the
// standard library, and never Discord, rendering or storage.
//
// Layers, one file per concept:
//
//   - search.go: Searcher, a negamax alpha-beta search with iterative
//     deepening, aspiration windows (from depth 4, for a search that
//     chooses the best move only: a level's Margin needs exact scores
//     from an open window), principal variation search, a transposition
//     table keyed by the position's Zobrist hash (tt.go: buckets of four
//     entries, replaced by depth and age), move ordering (order.go: the
//     table's move, MVV-LVA captures and promotions, two killers a ply,
//     quiet moves by a history with a malus for the quiet moves a cut-off
//     passed over), late move reductions (logarithmic in depth and move
//     number, for quiet moves that neither escape nor give check), a
//     check extension, a one-ply extension of a forced move, and a
//     quiescence search. Null-move pruning is on in standard chess only,
//     for a side with a piece besides pawns and king and not in check: in
//     Survival Chess it is off, because passing is not a legal move
//     there and captures are mandatory, so a side is often in zugzwang
//     (its only moves are captures that lose, or a move that offers the
//     opponent a forced capture), which is exactly the position where the
//     null move's "I could pass" assumption is wrong. Team Chess is
//     searched by teamchess.go, which has no null move either (a pass is
//     legal there only for a besieged side). In Survival Chess every
//     capture is forced, so when the side to move has a capture the
//     quiescence search has no "stand pat": it follows the forced-capture
//     chain, every capture for two plies and the three best-ordered ones
//     after, to a depth cap; a side without a capture stands pat or tries
//     its promotions (every kind in the first two quiescence plies,
//     queens after). Time: Limits.Time is a hard cap; Limits.Soft (time
//     management, ClockLimits) starts no iteration past it; a search
//     stopped by the hard cap plays a move of the unfinished iteration
//     that was searched completely and beat the last iteration's best.
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
//     Random and Greedy. The levels below strongest are limited by
//     depth and noise (Margin; their node budgets cap a rare huge tree)
//     and complete depth 2 whatever their node budget (Level.MinDepth),
//     short of a huge position (eight times the budget spent);
//     strongest has no node budget: it searches until the time it is
//     given (a bound of untimedNodes when given none).
//   - sandtable.go, sandtable_eval.go, sandtable_deploy.go: the SandTable
//     Chess player (issue 16, item 1). SandTableDeployment plans a seeded
//     deployment (Bases in corner fortresses of Anti-Air and Mines,
//     Vehicles with Infantry beside them to crew them on the first turn, a
//     mined front line). SandTablePlayer.Choose returns the next single
//     action (one Main action or one hazard use, or the deployment's
//     confirmation) from the side's view only: it refuses a full Position,
//     and plays on Position.Playable, the view made playable without the
//     other side's hidden Drone orders. Each candidate action (every
//     Vehicle move, capturing and boarding Infantry steps, greedy sets of
//     Infantry steps; every Mine and Anti-Air placement, each Drone scored
//     by its target) is applied to a copy and evaluated: material, Bases,
//     progress to the all-Tanks and all-Airplanes victories, neutral
//     Vehicles, and the threats of the opponent's best next Main action
//     (Tank sweeps, Airplane strikes, dismounts, Infantry captures). The
//     levels differ by budgets of positions tried, seeded noise and, for
//     "advanced" and "strongest", a search over whole turns (issue 24):
//     candidates, best first, are followed by the own PostTurn and every
//     candidate reply of the opponent (advanced: the best 4; strongest:
//     all, then all again with our best answer to each reply), as far
//     as the budget and the time cap allow, with the pending Drones of the
//     opponent (a public count) counted as a risk; only candidates
//     searched to the end compete. Look-ahead plays actions with
//     Position.PlayForSearch (no log text). "random" and "greedy" are the
//     reference players.
//
// Invariants: a search is single-threaded and its budgets are counted in
// nodes and plies, so a level with a seed chooses the same move for the
// same position and history on any machine and at any GOMAXPROCS; time is
// only a cap (a search stopped by its time cap may choose differently).
// Every search of a level with a node budget starts with a cleared table,
// so a move does not depend on earlier searches either (a resumed game
// plays on as if never stopped). The strongest level is bound by time, so
// not reproducible anyway: it keeps its table from move to move
// (Limits.KeepTable), earlier searches' entries aged.
// The chosen move is always one of the position's legal moves.
//
// Stopping: every player has a context entry point (Searcher.SearchContext,
// SearchPlayer.ChooseContext and ChooseContext for any Player,
// TeamChessPlayer.ChooseContext, SandTablePlayer.ChooseContext) whose
// cancellation stops the search at once and whose deadline caps it; the
// older entry points (a time cap, Stop) are wrappers. Every loop that can
// be long watches the context and the deadline, move listing included (a
// Team Chess position can have hundreds of thousands of moves, listed
// lazily by teamchess.AllLegalMoves), and no move ordering is quadratic
// (sorts are O(n log n); inside the tree the next best move is picked
// lazily). A stopped search answers the best move of its last completed
// iteration, else the best found so far, else the best-ordered legal move
// listed so far.
package engine
