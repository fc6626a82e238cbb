// Package sandtable is the rules engine of SandTable Chess
// (shared/seeds/000: a 20x20 war game of Bases, Tanks, Airplanes, Infantry,
// Mines, Anti-Air and Drones), with the rulings of docs/rules/sandtable.md.
// It is pure Go: no Discord, rendering or storage.
//
// A Position holds everything, secrets included: pieces with stable IDs
// (Infantry keep theirs inside Vehicles), crews, the phase (Deployment,
// PreTurn, Main, PostTurn, Finished), the side to move, pending Drones,
// Craters and the deployment drafts. Its fields are private: other
// packages read it through accessors that return copies (Phase, ToMove,
// Turn, Drones, Draft, Pieces, At, ...) and change it only through the
// engine's methods, so its invariants (below) hold for every Position the
// package hands out. NewGame and ParsePosition make positions (tests
// write hand-made ones in the position format).
//
// A game starts with NewGame(seed): both sides edit a Deployment (Place,
// Move, Remove, Preset, RandomDeployment, ParseLayout, or typed edits read
// by ParseDeployEdits) and confirm; then both are revealed and a coin
// drawn from the seed picks the first player. After that, Apply (or
// ApplyString with the notation of ParseAction) takes one Main action or
// one PostTurn hazard use at a time and advances the automatic phases
// itself, so a position always waits for an action or is finished.
// Illegal actions return a *RuleError naming the rule and change nothing.
//
// Secrecy has one filter: View(viewer) gives the redacted copy a player
// (South, North) or the public (NoSide) may see, without the other side's
// deployment draft, Drone orders and the coin's seed (G20: these are all
// the secrets; once revealed every piece, hazards included, is public), and
// FilterLog keeps the turn log entries a viewer may see (each Entry says
// whether it is public or secret to one side). Whatever is shown to a
// viewer is drawn from these, and nothing downstream filters again.
//
// LegalNextSteps, VehicleMovesFrom, LegalVehicleMoves and LegalHazardUses
// give legal actions for computer players, which play on Playable: a
// player's view made playable without the other side's hidden Drone
// orders, so that they never see a secret; CompleteMove and CompleteSteps
// complete typed text into legal actions for autocomplete, and Preview
// shows a side what its action would do. Both work without the other
// side's secrets, so their answers never depend on them.
//
// Replay rebuilds the board at the end of any turn from a start position
// and the turn log that follows it. The types a game's stored state holds
// (Entry and the enums, squares and IDs in it, Side) have a stable JSON
// form with names, and still read the form stored before (json.go).
//
// A Record (record.go, docs/sandtable-record.md) is a finished game in a
// documented JSON form: the start position and every action with its
// turn, side, phase and Drone order. NewRecord makes it from a start and
// a turn log, ParseRecord reads and checks it whole, Walk replays it.
//
// Format and ParsePosition read and write the plain-text position format,
// which round-trips exactly: whatever Apply or Advance leaves, and its
// views, Format prints a text that ParsePosition reads back to the same
// text. An action that would take a counter or an ID past what the format
// holds (the turn number, hazard numbers) is refused instead (G12, G21).
//
// Invariants of a Position after every Apply: at most one piece on the
// ground per square (crew share their Vehicle's square); a Vehicle has 0–4
// crew, all of one side, and is neutral exactly when it has none; no piece
// on a Crater; Mines plus Anti-Air of a side placed in play never take it
// above 40; Craters belong to the side to move.
package sandtable
