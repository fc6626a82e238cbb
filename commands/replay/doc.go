// Package replay encodes a finished game's replay (issue 17 item 3): an
// animated GIF of a finished game, drawn from what the game stores. A game builds its frames (Spec.Replay, from
// the history viewer's frame builders); the framework encodes them within
// Discord's upload limit, posts the replay in the game's thread right
// after the end, and sends it on request (the 🎞 Replay button of a final
// board and of the /history archive). Nothing of a game is drawn before it
// is over: the button refuses a running game, and the follow-up is queued
// only by the action that ends it. The GIF is never stored: the outbox
// holds the follow-up's text and a flag (Effect.Replay), and the file is
// rendered when the effect is delivered, from the game as stored then.
//
// This package holds the replay's frames (Replay, which a game's
// Spec.Replay builds) and their encoding within a byte limit (File, Size,
// MaxBytes); the framework (package commands) routes the 🎞 Replay button,
// queues the follow-up and draws the file through File when it delivers it.
// Invariant: File never returns a file larger than its limit: it draws
// smaller, then fewer frames (the first and the last kept), else fails.
package replay
