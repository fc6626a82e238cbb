// Package testkit holds what the project's tests share: the test tiers
// (Long, SkipUnlessLong, Size) and helpers several packages' tests use.
// Only test files import it.
//
// # Tiers
//
// The default `go test ./...` is the fast tier: property, random-game,
// self-play and perft tests at a size that still finds what they are for,
// end-to-end tests of one bot process. The long tier adds full-size random
// games and self-play, deep perft, multi-process and etcd kill tests and
// strength smoke matches; it runs when the environment variable
// SANDTABLE_LONG is set to anything but "" or "0" (`.ci/run` runs it after
// the fast tier). `go test -short` runs the fast tier too.
package testkit
