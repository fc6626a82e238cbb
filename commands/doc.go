// Package commands is the framework that runs every game in Discord: it
// routes interactions, runs each action of a game on one path, owns
// challenges, lobbies, draw offers, timers, downtime and /games, and
// delivers what actions do on Discord from a transactional outbox. Rules
// are decided by the engines in games/; each game's flow is its own package
// (commands/survival, commands/teamchess, commands/sandtable) implementing
// the typed contract Game[S] (kind.go), registered by the wiring (the bot
// package) with Register, the only way in: this package never imports a
// game nor a rules engine (games/*; the root TestFrameworkImportsNoGame
// checks it), nor discordgo (TestImportGraph).
//
// Its packages, one concern each: commands (this one) the core below;
// commands/ui the neutral UI model; commands/outbox the effects, the
// platform they are performed on, the retry policy and the delivery of
// one effect; commands/rating the Glicko-2 ratings of finished games;
// commands/historyview the history viewer's controls; commands/replay
// the replay's frames and their GIF encoding; commands/chessui
// the 8x8 board, move refusal and piece order the chess-family games
// share (it imports games/chess, the framework does not);
// commands/commandstest the test harness (a fake Platform, an App on
// memory, Toy: a stateless game for routing tests).
//
// One action, for every game (kind.go, kindOf.run): lock the game → load
// its record → decode its state (Game.Decode, by the stored codec version)
// → the route's Action on a Turn (which records the new state, effects and
// extra writes, and returns the answer) → the end (Game.Outcome) or the
// clock rule (Game.Clock before and after: a new key restarts the deadline)
// → encode → one transaction: interaction mark, extra writes, game,
// outbox effects → the answer. Effects (package commands/outbox) are
// values delivered afterwards by Deliver (outbox.go here: claims, order
// per game, retries with the outbox's backoff, results fed back), and
// reconciled so a retry never shows a duplicate: each Op has its entry in
// the outbox's table, a reconcile (what an earlier attempt already did)
// and a perform (outbox.Perform).
//
// Messages, buttons, selects, slash command definitions and autocomplete
// choices are the neutral UI model of package commands/ui (Message is
// ui.Message; a Button's or Select's Route is its custom ID, built by
// CustomID); the bot package encodes them for Discord. A Discord REST
// failure reaches the framework as a *PlatformError.
//
// # Plugging in a game
//
// A game implements Game[S] and calls Register (commands/toy_test.go is a
// complete small game): Spec gives its commands and routes (Thread,
// Autocomplete, Components, Modals, Invitations), Start its challenge,
// Delivered the results of its effects. Register checks the route table
// (routes.go, checkRoutes) and panics at start on a collision or an
// unknown route: a top-level command not among the game's Definitions,
// shared or another game's; a thread command defined nowhere; an
// autocomplete without its command; a defined command without a route; a
// custom-ID action that is invalid or the framework's own. The router (router.go) finds the
// game a thread or a custom ID belongs to and runs the route under the
// game's lock with a fresh record, unless the interaction comes from
// another server than the game's, or from direct messages by a non-player
// (refuseOrigin: refused, nothing changes); Sweep runs Timeout when a deadline has
// passed, and posts a turn reminder when a share of the clock's period has
// (remind.go); /games asks Summary and names whom each game waits on.
// Ratings (package commands/rating; rating.go, leaderboard.go here): the
// action that ends a rated game (not Unrated, not aborted, in a server)
// updates its players' Glicko-2 ratings (rating.Rate) in the same
// transaction, from Spec.RatingSides (default: one side per player), and
// adds the changes to the game's final message; /leaderboard and /stats
// read them.
// Pieces games share: Subcommands, Draw (an agreed draw), OpenChallenge,
// Lobby/PutLobby/CloseLobby, OpenThread and Create (a game not started
// from a challenge), SendPrivately, and the history viewer's controls
// (package commands/historyview: Button, Frame, Controls, Answer; the
// viewer is a private message its controls update in place, stateless:
// each control carries its frame; games route HistoryAction to it),
// replays (replay.go here, package commands/replay: Spec.Replay gives a
// finished game's frames; the framework encodes the GIF within Discord's
// upload limit, posts it ReplayDelay after the end through an effect that
// draws it when delivered, Effect.Replay, and answers ReplayButton
// privately; nothing is drawn while a game runs) and the game archive
// (gamearchive.go: /history with an option or outside a game thread lists
// a user's finished games of the server, paged).
//
// Custom IDs are "<scope>:<id>:<action>[:<arg>]" (CustomID, ParseCustomID):
// scope "g" carries a game ID, scope "c" a challenge or lobby ID, scope
// "a" the user whose game archive a page button shows; anything
// else is refused before a handler runs. A button whose effect depends on
// what its message shows carries that thing's identity in arg (a draw
// offer's or a Drone order's number, a draft's or a panel's stamp, the
// board's ply or turn, a move picker's ply and choices so far; GameArgButton,
// Stamp, Pick in picker.go): it acts on that and nothing
// newer, and an old message's button is refused or brings its message up
// to date, changing nothing. A click that repeats the user's own latest
// click on that thing (a double click) is answered privately "Already
// done" and leaves its message as the first click left it
// (commands/sandtable's repeat.go, drawRepeat).
//
// # One live board per thread, one ping
//
// A game shows each new board with Turn.Board, never with Post: the
// channel's live board is edited in place, quiet (its mentions ping
// nobody), and posted anew only when Discord refuses the edit (30046) or
// the message is gone, the old one then deleted (live.go). Whoever must
// act is pinged by a message of its own when the clock rule starts a turn
// (pings.go): in the thread, by direct message or not at all, as each
// player chose with /notify (notify.go); each turn's first ping deletes
// the pings before it, and the end deletes the last. Live boards and pings
// are recorded in the transaction that marks their delivery done, so
// retries, lost answers and crashes never leave two live boards or a
// ping of an earlier turn.
//
// # Invariants
//
//   - Every change of a game is one storage transaction (kindOf.run, Create,
//     acceptChallenge), which also marks the
//     interaction applied (markApplied, storage.Dedupe.Mark) and saves the
//     change's effects in the outbox: a transition is saved whole or not at
//     all, the same interaction is never applied twice, and what it does on
//     Discord is delivered at least once, reconciled so that a retry does
//     not show it twice.
//   - The clock rule is applied here once (nextDeadline), with its turn
//     reminder (nextRemind), never by a game.
//   - A handler returns a *UserError for anything the user did wrong; its
//     text is shown to them privately, word for word, and nothing changed.
//     Any other error is logged and the user gets a generic apology.
//   - Handlers build public messages only from public information. Private
//     answers are ephemeral (Response.Ephemeral) or sent by direct message.
//   - Whatever a message repeats of a player's input (a refused move, a
//     layout line, a comment, a display name, an engine's refusal that
//     quotes the input) goes through QuoteInput, EscapeText or EngineText
//     (quote.go): no mention pings, no markdown renders, no control
//     character survives, and echoes are clipped to 100 characters.
//
// # Many processes on one store
//
// Several bot processes may share one store (docs/architecture.md, "Many
// processes"); nothing but the store is shared, and no process leads:
//
//   - The keyed locks are per process. Across processes a game's changes
//     are serialized by Games.Put's version compare: a commit that finds
//     the game changed gets storage.ErrConflict, and kindOf.run reads the
//     game again and runs the action again (at most maxRuns times). A
//     timeout run again on a game no longer due does nothing. Challenges
//     are taken in the transaction that answers or expires them
//     (takeChallenge), so one answer wins; a lobby is written only if it
//     is still what its handler read (Lobby, lobbyCheck), else the router
//     handles the click again.
//   - Every storage.Store.Update function here may run more than once (an
//     optimistic backend runs it again on a fresh snapshot): it reads what
//     it needs inside the transaction, writes Games.Put a copy (putGame),
//     and changes nothing outside the transaction but variables it sets
//     afresh on every run. Actions themselves change nothing outside their
//     Turn before the commit, except SendPrivately, whose second run edits
//     the direct message the first one sent. Keep it so (TestUpdatesSafeToRunAgain
//     runs every transaction twice).
//   - Effects are claimed (storage.Outbox.Claim) by the process that
//     queues them, in the same transaction; a dispatcher delivers only what
//     it holds or what nobody holds (HeadsFor), claiming it first; an
//     effect ever claimed by another process is reconciled before it is
//     performed (App.fresh). A stopping process hands its claims over
//     (HandOver).
//   - The answer copies confirmed shown (AnswerSent) are known only to the
//     process that answered: the copies are its own until past their due
//     time, which is all the set needs.
//
// # Private flows
//
// SendPrivately delivers a secret to the user behind an interaction: by
// direct message, or ephemerally with the reason when their direct messages
// are closed (ErrDMClosed). A kind whose answers to some requests are
// private declares them with Spec.Private, so that the bot defers those
// ephemerally; forms submitted from a message are deferred as updates of
// it. Platform.Download fetches files attached to commands.
//
// Survival Chess (commands/survival) is the reference two-player game on
// the contract. SandTable Chess (commands/sandtable) adds secrets:
// deployment panels and Drone orders by direct message, a public thread
// drawn from the engine's public view only.
package commands
