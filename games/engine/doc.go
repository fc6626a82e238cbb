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
//     "advanced" and "strongest", a second turn: the best few actions are
//     followed by the own PostTurn and every candidate reply of the
//     opponent. "random" and "greedy" are the reference players.
//
// Invariants: a search is single-threaded and its budgets are counted in
// nodes and plies, so a level with a seed chooses the same move for the
// same position and history on any machine and at any GOMAXPROCS; time is
// only a cap (a search stopped by its time cap may choose differently).
// Every search starts with a cleared table, so a move does not depend on
// earlier searches either (a resumed game plays on as if never stopped).
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
