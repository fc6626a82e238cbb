// Package teamchess is the pure game state of Team Chess
// (shared/seeds/003, issue 6) on the chess engine's Team Chess base
// (games/chess, variant chess.TeamChess). It has no Discord, rendering or
// storage imports. Rulings are in docs/rules/teamchess.md, each with its
// test.
//
// Board level (functions on a *chess.Position):
//
//   - LegalMoves, HasLegalMove, CountLegalMoves, RoleOptions: the core's
//     8th-rank sacrifices expanded into the four roles of rule 3 (Royal
//     Guard, Assassin, Saboteur, Political Agent). A Move is a chess.Move
//     whose tag carries the Role, plus the forced reply of a Saboteur.
//   - ParseMove, SAN, MoveTexts, Complete: the player notation
//     (e8=Assassin:xd4, e8=Saboteur:Nf6, e8=RoyalGuard, e8=PoliticalAgent),
//     the UCI-style form (e7e8a:d4, e7e8s:g8f6, e7e8g, e7e8p), and cheap
//     prefix completion for autocomplete. Listing: what a refused move
//     names as legal, one entry per sacrifice role (e8=Assassin:<target>).
//   - Perft, PerftDivide: move-tree counts with each sacrifice counted once
//     per distinct choice.
//
// Game level: a Game holds the board and both teams' ordered commander
// queues (ruling 1), the active commanders and everyone's personal wins and
// losses, tag-outs (ruling 2), the Saboteur's forced move (ruling 3), the
// siege decision (ruling 4), stagnation counters and fatigue (ruling 5),
// and the result with its win category (ruling 6; honour in honour.go).
// Actions (Play, TagOut, Resign, SiegeWin, SiegeContinue, Timeout, or Apply
// with a stored Action) are validated first and change nothing when
// refused; each returns the new record entries (Event). Automatic
// consequences (a besieged side's pass, fatigue at the end of a round, a
// Political Agent's revolution, mutual loss) happen inside the action that
// causes them.
//
// A Game serialises as State (start FEN, queues, actions and, once over,
// the result it was given), which Restore replays deterministically,
// keeping the stored result's category; MarshalJSON and Load wrap it in
// JSON. Snapshot and Resume go on from a stored snapshot of the game
// (board, queues, counters, pending decisions, the recent record) without
// replaying its actions; a resumed game's record begins at the latest move
// before the snapshot, and Replay gives the whole one. PGN exports the game
// with custom tags. Summary, PlayerStats, Tally and Rank are the pure
// leaderboard logic.
//
// For a computer player's search (search.go): CopyForSearch copies a Game
// without its record, and PlayLegal and DecideSiege advance such a copy
// by moves from LegalMoves (AppendLegalMoves) and siege decisions, through
// the same rules code as Apply but without parsing, validation, SAN or
// record entries. A search copy is never stored or shown.
//
// Invariants: a Game's position is always a valid Team Chess position; in
// the Playing phase the side to move has a legal move (otherwise it is
// checkmated and the game is Finished, or besieged and the game waits in
// SiegeDecision); a pending forced move is legal; every commander with a
// personal loss precedes the active one in its queue, or is the active one
// of a finished game.
package teamchess
