// Package retry is the one retry policy of the project's remote calls: the
// Discord REST effects of the outbox, the adapter's own retries and the etcd
// store's. It sits below storage and the framework and imports neither.
//
// A retry is a persisted due time plus an attempt count, so the policy is a
// pure function: Policy.Delay(attempt, err) says whether the failed call is
// retried and after how long, from the number of failures so far and what
// the error says of itself (Failure: the HTTP status, Discord's JSON error
// code, the server's Retry-After). Invariants:
//
//   - a 429 is never permanent: it is retried no earlier than its
//     Retry-After;
//   - a 5xx or a call with no answer (timeout, dropped connection) is
//     retried after an exponential wait with jitter, capped, and never
//     before the server's Retry-After when it sent one;
//   - a 4xx is permanent (the same request meets the same refusal), unless
//     Discord's error code says to try later; Discord's codes for a thing
//     gone or forbidden (10003 unknown channel, 10008 unknown message, 50001
//     missing access, 50013 missing permissions, 50007 cannot DM the user...)
//     are permanent whatever the status;
//   - randomness is injected (Policy.Rand), so tests are deterministic.
//
// Errors describe themselves by implementing Describer (errors.As finds it
// anywhere in the chain); an error that does not is a call with no answer,
// retried. Permanent marks an error that no retry can help.
//
// Claims held for a TTL are renewed while their owner lives (RenewDue,
// Keep), so a live owner's work is never taken over and a dead owner's claim
// simply runs out. The outbox's claims no longer need it: they are bound to
// the process's etcd lease, which etcd's concurrency.Session renews the same
// way (storage/lease.go).
//
// Idempotent creates: WithNonce gives a message create the nonce of its
// effect (Nonce derives one of Discord's at most 25 characters from an
// effect's ID), so Discord itself refuses a second create of one effect;
// WithoutTransportRetries tells the transport (discordgo) to return a 429
// or a 5xx at once, so this policy sees them.
//
// cenkalti/backoff/v5 is not used: its ExponentialBackOff is a stateful
// iterator (one wait after another in one process) drawing from the global
// math/rand, while a retry here resumes from a stored attempt count, maybe in
// another process, and tests need injected randomness; what it would supply
// is the ten lines of Backoff.
package retry
