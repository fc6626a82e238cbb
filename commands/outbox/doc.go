// Package outbox is the effects of the framework (package commands) and
// how one is delivered. Effects are what an action does on Discord besides answering its own
// interaction: posts, edits, direct messages, threads and their members.
// They are values: an action asks for them (Turn.Post, ...), the framework
// saves them in the outbox (storage.Outbox) in the transaction that saves
// the state, and Deliver performs them afterwards, in order per game, with
// retries. So a state change happens exactly once and its effects at least
// once; a Discord failure or a crash after the commit delays an effect and
// never loses it. Deliveries are reconciled so that a retry never shows
// users a duplicate: a post is not repeated when one of the bot's recent
// messages in the channel already is it (Platform.Recent), a public thread
// is started from a message (a second start of it is Discord's 160004, which
// StartThreadFrom answers with the same thread), and a new thread's retry
// first looks for it by name (Platform.FindThreads).
//
// This package holds the effect values (Effect, Op), the platform they
// are performed on (Platform, Posted, PlatformError and its errors), the
// Discord code the delivery handles itself (CodeTooManyEdits; the retry
// policy is internal/retry's) and the delivery of one
// effect (Perform): a table with, per Op, a reconcile that finds what an
// earlier attempt already did and a perform that does it. The dispatcher
// that decides when and which effects are delivered (claims, order per
// stream, retries, results fed back to the games) is the framework's
// (commands/outbox.go), which queues effects in the transaction of the
// change that makes them.
//
// Invariants: an Effect is stored as JSON and read back by later
// processes and versions, so its fields only grow; a delivery that may
// repeat an earlier attempt (MaybeDone, Effect.Reconcile) reconciles
// before it performs; an Op without an entry in the table is refused, never
// guessed at.
package outbox
