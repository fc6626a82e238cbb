package chess

import (
	"runtime"
	"testing"
)

// bytesPerRun returns the bytes f allocates per call, averaged over n.
// The process's counters also count what other goroutines allocate
// meanwhile (a goroutine left behind by an earlier test, the runtime), which
// only ever adds: the least of five measurements is f's own cost.
func bytesPerRun(n int, f func()) uint64 {
	f()
	least := ^uint64(0)
	for try := 0; try < 5; try++ {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := 0; i < n; i++ {
			f()
		}
		runtime.ReadMemStats(&after)
		least = min(least, (after.TotalAlloc-before.TotalAlloc)/uint64(n))
	}
	return least
}

// allocsPerRun is testing.AllocsPerRun, least of five measurements for the
// same reason.
func allocsPerRun(n int, f func()) float64 {
	least := testing.AllocsPerRun(n, f)
	for try := 1; try < 5 && least > 0; try++ {
		least = min(least, testing.AllocsPerRun(n, f))
	}
	return least
}

// TestReadingAMoveAllocatesLittle guards the cost of reading a move, paid
// on every /move, autocomplete keystroke and replayed move: reading a
// legal SAN or UCI text allocates only its small results (the legal move
// list, the cleaned text, the SAN), not per-call lookup tables (a
// strings.Replacer built on every call cost about 21 kB and 90% of the
// time of a replayed move).
func TestReadingAMoveAllocatesLittle(t *testing.T) { // not parallel: it counts the process's allocations
	if raceEnabled {
		t.Skip("allocation counts differ under the race detector")
	}
	p := StartPosition(Chess)
	for _, s := range []string{"Nf3", "e2e4", "Ng1-f3", "e4"} {
		b := bytesPerRun(50, func() { _, _ = p.ParseMove(s) })
		t.Logf("ParseMove(%q): %d B", s, b)
		if b > 2048 {
			t.Errorf("ParseMove(%q) allocates %d bytes", s, b)
		}
	}
	g := NewGame(Chess)
	b := bytesPerRun(50, func() {
		c := *g
		c.moves, c.sans, c.keys = nil, nil, []uint64{0}
		_, _, _ = c.PlayText("Nf3")
	})
	t.Logf("PlayText(Nf3): %d B", b)
	if b > 3072 {
		t.Errorf("PlayText(Nf3) allocates %d bytes", b)
	}
	if b := bytesPerRun(50, func() { _ = IsUCIText("e2-e4") }); b > 64 {
		t.Errorf("IsUCIText allocates %d bytes", b)
	}
}
