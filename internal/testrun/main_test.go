package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

func TestSplitByRacePrefixes(t *testing.T) {
	race, plain := split([]string{"sandtable/bot", "sandtable/commands", "sandtable/commands/outbox", "sandtable/commandsx", "sandtable/games/chess", "sandtable/cli"})
	if got := strings.Join(race, " "); got != "sandtable/bot sandtable/commands sandtable/commands/outbox" {
		t.Errorf("race pass: %s", got)
	}
	if got := strings.Join(plain, " "); got != "sandtable/commandsx sandtable/games/chess sandtable/cli" {
		t.Errorf("plain pass: %s", got)
	}
}

// events is go test -json output: a failing and a passing test in a
// package over its budget, a passing package within it.
const events = `{"Action":"start","Package":"sandtable/bot"}
{"Action":"run","Package":"sandtable/bot","Test":"TestA"}
{"Action":"output","Package":"sandtable/bot","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"output","Package":"sandtable/bot","Test":"TestA","Output":"    a_test.go:9: the board is missing\n"}
{"Action":"fail","Package":"sandtable/bot","Test":"TestA","Elapsed":1}
{"Action":"output","Package":"sandtable/bot","Test":"TestB","Output":"hidden output of a passing test\n"}
{"Action":"pass","Package":"sandtable/bot","Test":"TestB","Elapsed":1}
{"Action":"output","Package":"sandtable/bot","Output":"FAIL\n"}
{"Action":"output","Package":"sandtable/bot","Output":"FAIL\tsandtable/bot\t400.0s\n"}
{"Action":"fail","Package":"sandtable/bot","Elapsed":400}
{"Action":"output","Package":"sandtable/render","Output":"ok  \tsandtable/render\t2.0s\n"}
{"Action":"pass","Package":"sandtable/render","Elapsed":2}
`

func TestConsumeAndReport(t *testing.T) {
	out := captureStdout(t, func() {
		r := &runner{tier: "fast", scale: 1}
		r.consume(strings.NewReader(events), true)
		if r.passed != 1 || r.failed != 1 {
			t.Errorf("passed %d, failed %d; want 1 and 1", r.passed, r.failed)
		}
		if r.report(0) {
			t.Error("report: sandtable/bot took 400 s against a 300 s budget, and it passed")
		}
		r.scale = 0
		if !r.report(0) {
			t.Error("report with budgets off failed")
		}
		r.scale, r.load, r.cores = 1, 12, 2
		if !r.report(0) {
			t.Error("report at load 12 on 2 cores (budgets x3) failed 400 s against 900")
		}
	})
	for _, want := range []string{"the board is missing", "FAIL\tsandtable/bot", "ok  \tsandtable/render", "OVER BUDGET", "tests: 1 passed, 1 failed, 0 skipped"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, hidden := range []string{"hidden output of a passing test", "=== RUN"} {
		if strings.Contains(out, hidden) {
			t.Errorf("output shows %q:\n%s", hidden, out)
		}
	}
}

func captureStdout(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() { b, _ := io.ReadAll(r); done <- string(b) }()
	defer func() { os.Stdout = old }()
	f()
	w.Close()
	os.Stdout = old
	return <-done
}

func TestLoadScale(t *testing.T) {
	for _, c := range []struct {
		load  float64
		cores int
		want  float64
	}{{0, 2, 1}, {3.9, 2, 1}, {5, 2, 1.25}, {10, 2, 2.5}, {10, 8, 1}, {4, 0, 2}} {
		if got := loadScale(c.load, c.cores); got != c.want {
			t.Errorf("loadScale(%v, %d) = %v, want %v", c.load, c.cores, got, c.want)
		}
	}
}
