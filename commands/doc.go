// Package commands defines the bot's slash commands and runs the game flow
// behind them: challenges, game threads, moves, results, timers. Rules are
// decided by the engines in games/; images come from render/; state is kept
// in storage/. Discord I/O stays at the edge: handlers are functions from a
// decoded Request (and a stored game) to a Response value, and anything else
// they do on Discord goes through the small Platform interface, which the
// bot package implements with discordgo and tests replace with a fake.
//
// This package never imports discordgo (the root TestImportGraph checks
// it). Messages, buttons, selects, slash command definitions and
// autocomplete choices are the neutral UI model of package commands/ui
// (Message is ui.Message; a Button's or Select's Route is its custom ID,
// built by CustomID); the bot package encodes them for Discord and cuts
// their text to Discord's limits. A Discord REST failure reaches handlers
// as a *PlatformError (HTTP status, Discord's code and message).
//
// # Plugging in a game
//
// Each game is a Kind (see router.go), registered in kinds.go:
//
//   - Definitions and TopLevel: the kind's own commands (/survival ...).
//   - Thread: the shared commands used inside a game thread (/move, /resign,
//     /draw, /board) and kind-specific ones; the router finds the game that
//     owns the thread (storage channel index) and calls the kind's handler
//     under that game's lock, with a fresh snapshot of the stored game.
//   - Autocomplete, Components, Modals: the same, by command name or by the
//     action of a custom ID.
//   - Challenge: buttons on a challenge or lobby message (scope "c").
//   - Timeout: called by Sweep when a game's deadline has passed.
//   - Summary: one line for /games.
//
// Pieces the kinds share: subcommands (a top-level command's handlers by
// subcommand), challengeHandlers (the buttons of a two-player challenge),
// Draw (an agreed draw), saveGame (a transition) and publicAnswer (the
// board as the answer).
//
// Custom IDs are "<scope>:<id>:<action>[:<arg>]" (CustomID, ParseCustomID):
// scope "g" carries a game ID, scope "c" a challenge or lobby ID; anything
// else is refused before a handler runs. A button whose effect depends on
// what its message shows carries that thing's identity in arg (a draw
// offer's or a Drone order's number, a draft's or a panel's stamp, the
// board's ply or turn; GameArgButton, Stamp): it acts on that and nothing
// newer, and an old message's button is refused or brings its message up
// to date, changing nothing. A click that repeats the user's own latest
// click on that thing (a double click) is answered privately "Already
// done" and leaves its message as the first click left it
// (commands/sandtable's repeat.go, drawRepeat).
//
// # Invariants
//
//   - Every change of a game is one storage transaction (saveGame:
//     App.update with storage.Games.Put), which also marks the interaction
//     applied (markApplied, storage.Dedupe.Mark): a transition is saved
//     whole or not at all, and the same interaction is never applied twice.
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
// # Private flows
//
// SendPrivately delivers a secret to the user behind an interaction: by
// direct message, or ephemerally with the reason when their direct messages
// are closed (ErrDMClosed). A kind whose answers to some requests are
// private declares them with Kind.Private, so that the bot defers those
// ephemerally; forms submitted from a message are deferred as updates of
// it. Platform.Download fetches files attached to commands.
//
// Survival Chess (survival.go) is the reference two-player kind: its state
// is the start FEN plus the UCI moves, replayed on every load. SandTable
// Chess (commands/sandtable) adds secrets: deployment panels and Drone
// orders by direct message, a public thread drawn from the engine's public
// view only.
package commands
