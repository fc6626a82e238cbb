package testkit

import (
	"os"
	"testing"
)

// LongEnv is the environment variable that selects the long tier.
const LongEnv = "SANDTABLE_LONG"

// Long reports whether the long tier runs: SANDTABLE_LONG is set to
// anything but "" or "0".
func Long() bool {
	v := os.Getenv(LongEnv)
	return v != "" && v != "0"
}

// SkipUnlessLong skips t outside the long tier, saying why the test is
// long.
func SkipUnlessLong(t testing.TB, why string) {
	t.Helper()
	if !Long() {
		t.Skipf("long tier (%s=1): %s", LongEnv, why)
	}
}

// Size returns fast in the fast tier and long in the long tier: the number
// of games, plies or nodes a test plays.
func Size[T any](fast, long T) T {
	if Long() {
		return long
	}
	return fast
}
