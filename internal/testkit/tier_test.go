package testkit

import "testing"

func TestTiers(t *testing.T) {
	for _, c := range []struct {
		env  string
		long bool
	}{{"", false}, {"0", false}, {"1", true}, {"yes", true}} {
		t.Setenv(LongEnv, c.env)
		if Long() != c.long {
			t.Errorf("%s=%q: Long() = %v, want %v", LongEnv, c.env, Long(), c.long)
		}
		if got, want := Size(1, 2), map[bool]int{false: 1, true: 2}[c.long]; got != want {
			t.Errorf("%s=%q: Size(1, 2) = %d, want %d", LongEnv, c.env, got, want)
		}
	}
}
