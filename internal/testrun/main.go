// Command testrun runs the project's tests in their tiers, prints each
// package's test time and fails a package that exceeds its time budget, so
// that the fast tier stays fast as features land.
//
//	go run ./internal/testrun              # the fast tier: vet, race where concurrency lives, the rest once
//	go run ./internal/testrun -tier long   # the long tier (SANDTABLE_LONG=1), every package once
//	go run ./internal/testrun -tier bench  # every benchmark once (-benchtime 1x), so none can rot
//
// Packages whose import path starts with one of racePrefixes run under the
// race detector in the fast tier, with -parallel 4 (their end-to-end tests
// each own a Discord simulator and mostly wait on the loopback network);
// every other package runs without it, at the same time. -json FILE keeps
// go test's events for a closer look. A
// package's budget (budgets) is its test time in seconds, as go test
// reports it, with room for a machine busy with other work; a machine
// busier than that stretches every budget by its measured load (loadScale),
// so a budget fails a package that got slower, not a crowded machine;
// -budget-scale multiplies every budget, and 0 turns the check off. Output is go test's: the output of
// failing tests, an ok or FAIL line per package, then a table of times and
// a closing line "tests: N passed, N failed, N skipped".
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// racePrefixes: where concurrency lives (the Discord adapter, the framework,
// storage, the simulator, the playground): these packages run under -race.
var racePrefixes = []string{
	"sandtable/bot",
	"sandtable/commands",
	"sandtable/storage",
	"sandtable/internal/discordsim",
	"sandtable/playground",
}

// defaultBudget is the budget, in seconds of go test's package time, of a
// package budgets does not name, by tier.
var defaultBudget = map[string]float64{"fast": 60, "long": 180, "bench": 0}

// budgets are package time budgets in seconds, by tier: about one and a
// half times the time measured on two cores busy with other work (December
// 2026), so an idle CI machine fits with room, and a package that slows
// down by half again fails. Raise one only with a reason in the commit.
var budgets = map[string]map[string]float64{
	"fast": {
		"sandtable/bot":                300, // 217 s under -race on a loaded machine: ~140 end-to-end tests
		"sandtable/playground":         170, // 108 s: browser tests with headless Chromium
		"sandtable/commands/sandtable": 80,  // 49 s under -race
		"sandtable/cli":                60,  // 38 s: bot processes killed and restarted
	},
	"long": {
		"sandtable/cli": 600, // 462 s before its tests ran in parallel: etcd clusters, real one-minute clocks
	},
}

func main() {
	tier := flag.String("tier", "fast", "fast, long or bench")
	scale := flag.Float64("budget-scale", 1, "multiply every package budget by this; 0 turns budgets off")
	timeout := flag.String("timeout", "25m", "go test's per-package -timeout")
	noVet := flag.Bool("novet", false, "skip go vet (fast tier)")
	parallel := flag.Int("parallel", 4, "go test's -parallel in the race pass: its end-to-end tests mostly wait on the loopback network")
	jsonOut := flag.String("json", "", "also write go test's -json events to this file")
	count := flag.Int("count", 0, "go test's -count (1 runs every test again instead of reusing go's cached results)")
	flag.Parse()
	start := time.Now()
	var r runner
	r.scale = *scale
	r.tier = *tier
	if *count > 0 {
		r.extra = []string{"-count", fmt.Sprint(*count)}
	}
	if *jsonOut != "" {
		f, err := os.Create(*jsonOut)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testrun:", err)
			os.Exit(2)
		}
		defer f.Close()
		r.raw = f
	}
	load := watchLoad()
	ok := true
	switch *tier {
	case "fast":
		if !*noVet {
			ok = r.cmd("go", "vet", "./...")
		}
		if ok {
			race, plain := split(listPackages())
			// The two passes run side by side: end-to-end tests often wait
			// on the loopback network rather than the CPU.
			var wg sync.WaitGroup
			var okRace, okPlain bool
			wg.Go(func() {
				okRace = r.goTest(nil, append([]string{"-race", "-parallel", fmt.Sprint(*parallel), "-timeout", *timeout}, race...)...)
			})
			wg.Go(func() { okPlain = r.goTest(nil, append([]string{"-timeout", *timeout}, plain...)...) })
			wg.Wait()
			ok = okRace && okPlain
		}
	case "long":
		ok = r.goTest([]string{"SANDTABLE_LONG=1"}, "-timeout", *timeout, "./...")
	case "bench":
		ok = r.goTest(nil, "-run", "^$", "-bench", ".", "-benchtime", "1x", "-timeout", *timeout, "./...")
	default:
		fmt.Fprintf(os.Stderr, "testrun: unknown tier %q (fast, long or bench)\n", *tier)
		os.Exit(2)
	}
	r.load, r.cores = load(), runtime.NumCPU()
	if !r.report(time.Since(start)) {
		ok = false
	}
	if !ok {
		os.Exit(1)
	}
}

// loadScale stretches budgets on a crowded machine: the run's own tests
// keep about two runnable threads per core, so only a mean load (the
// 1-minute load average) above twice the cores stretches them, by
// load/(2*cores). Two busy loops beside the tests on two cores (load ~5)
// stretch them by 1.25; load 10 by 2.5.
func loadScale(load float64, cores int) float64 {
	if cores < 1 {
		cores = 1
	}
	return max(1, load/float64(2*cores))
}

// watchLoad samples the 1-minute load average (Linux's /proc/loadavg)
// every 5 s until the returned function is called, which gives the mean
// (0 where the file cannot be read).
func watchLoad() func() float64 {
	var (
		mu   sync.Mutex
		sum  float64
		n    int
		done = make(chan struct{})
		once sync.Once
		tick = time.NewTicker(5 * time.Second)
	)
	sample := func() {
		raw, err := os.ReadFile("/proc/loadavg")
		if err != nil {
			return
		}
		var l float64
		if _, err := fmt.Sscan(string(raw), &l); err == nil {
			mu.Lock()
			sum += l
			n++
			mu.Unlock()
		}
	}
	go func() {
		for {
			select {
			case <-tick.C:
				sample()
			case <-done:
				return
			}
		}
	}()
	return func() float64 {
		once.Do(func() { tick.Stop(); close(done); sample() })
		mu.Lock()
		defer mu.Unlock()
		if n == 0 {
			return 0
		}
		return sum / float64(n)
	}
}

// listPackages is `go list ./...`.
func listPackages() []string {
	out, err := exec.Command("go", "list", "./...").Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "testrun: go list: %v\n", err)
		os.Exit(1)
	}
	return strings.Fields(string(out))
}

// split sorts packages into the race pass and the plain pass.
func split(pkgs []string) (race, plain []string) {
	for _, p := range pkgs {
		if underAny(p, racePrefixes) {
			race = append(race, p)
		} else {
			plain = append(plain, p)
		}
	}
	return race, plain
}

func underAny(pkg string, prefixes []string) bool {
	return slices.ContainsFunc(prefixes, func(pre string) bool { return pkg == pre || strings.HasPrefix(pkg, pre+"/") })
}

// event is one line of go test -json.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

type pkgTime struct {
	pkg     string
	seconds float64
	failed  bool
	race    bool
}

type runner struct {
	tier  string
	scale float64
	load  float64 // mean load average during the run (loadScale)
	cores int

	raw   io.Writer // go test's events, when -json is given
	extra []string  // more go test flags (-count)

	mu                      sync.Mutex
	times                   []pkgTime
	passed, failed, skipped int
}

// cmd runs a command with its output on ours.
func (r *runner) cmd(name string, args ...string) bool {
	c := exec.Command(name, args...)
	c.Stdout, c.Stderr = os.Stdout, os.Stderr
	return c.Run() == nil
}

// goTest runs go test -json with args and prints what go test would print
// without -v: failing tests' output and the package lines.
func (r *runner) goTest(env []string, args ...string) bool {
	c := exec.Command("go", slices.Concat([]string{"test", "-json"}, r.extra, args)...)
	c.Env = append(os.Environ(), env...)
	c.Stderr = os.Stderr
	out, err := c.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testrun:", err)
		return false
	}
	if err := c.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testrun:", err)
		return false
	}
	race := slices.Contains(args, "-race")
	r.consume(out, race)
	return c.Wait() == nil
}

func (r *runner) consume(in io.Reader, race bool) {
	testOut := map[string]*bytes.Buffer{} // package + test → output so far
	pkgOut := map[string]*bytes.Buffer{}  // package → output outside tests
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if r.raw != nil {
			r.mu.Lock()
			r.raw.Write(append(line, '\n'))
			r.mu.Unlock()
		}
		var e event
		if json.Unmarshal(line, &e) != nil {
			r.print(string(line) + "\n") // a build failure's text
			continue
		}
		key := e.Package + " " + e.Test
		switch {
		case e.Action == "build-output":
			r.print(e.Output) // a compile error
		case e.Action == "output" && e.Test != "":
			if strings.HasPrefix(e.Output, "=== ") {
				continue // go test -v's RUN, PAUSE and CONT lines
			}
			if testOut[key] == nil {
				testOut[key] = &bytes.Buffer{}
			}
			testOut[key].WriteString(e.Output)
		case e.Action == "output":
			if pkgOut[e.Package] == nil {
				pkgOut[e.Package] = &bytes.Buffer{}
			}
			pkgOut[e.Package].WriteString(e.Output)
		case e.Test != "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			r.mu.Lock()
			switch e.Action {
			case "pass":
				r.passed++
			case "fail":
				r.failed++
			case "skip":
				r.skipped++
			}
			r.mu.Unlock()
			if e.Action == "fail" && testOut[key] != nil {
				r.print(testOut[key].String())
			}
			delete(testOut, key)
		case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			// A package's own output: its ok/FAIL line, and on failure
			// whatever it printed outside tests (a panic, a build error).
			var b strings.Builder
			for l := range strings.Lines(pkgOut[e.Package].String()) {
				if e.Action == "fail" || strings.HasPrefix(l, "ok ") || strings.HasPrefix(l, "FAIL") || strings.HasPrefix(l, "?") {
					if l == "PASS\n" || l == "FAIL\n" {
						continue
					}
					b.WriteString(l)
				}
			}
			if b.Len() == 0 && e.Action == "fail" {
				fmt.Fprintf(&b, "FAIL\t%s\n", e.Package)
			}
			r.print(b.String())
			delete(pkgOut, e.Package)
			if e.Action != "skip" {
				r.mu.Lock()
				r.times = append(r.times, pkgTime{e.Package, e.Elapsed, e.Action == "fail", race})
				r.mu.Unlock()
			}
		}
	}
}

func (r *runner) print(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	os.Stdout.WriteString(s)
}

// report prints the package times and budgets, and the closing line; it is
// false when a package went over its budget.
func (r *runner) report(wall time.Duration) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.times) == 0 {
		fmt.Printf("tests: %d passed, %d failed, %d skipped\n", r.passed, r.failed, r.skipped)
		return true
	}
	sort.Slice(r.times, func(i, j int) bool { return r.times[i].seconds > r.times[j].seconds })
	ok := true
	fmt.Printf("\npackage test times (tier %s, wall %.0f s, mean load %.1f on %d cores: budgets x%.2f):\n",
		r.tier, wall.Seconds(), r.load, r.cores, r.scale*loadScale(r.load, r.cores))
	for _, p := range r.times {
		budget := defaultBudget[r.tier]
		if b, named := budgets[r.tier][p.pkg]; named {
			budget = b
		}
		budget *= r.scale * loadScale(r.load, r.cores)
		mark := ""
		if p.race {
			mark = " (race)"
		}
		verdict := ""
		if r.scale > 0 && budget > 0 && p.seconds > budget {
			verdict = fmt.Sprintf("  OVER BUDGET (%.0f s)", budget)
			ok = false
		}
		fmt.Printf("%8.1f s  %s%s%s\n", p.seconds, p.pkg, mark, verdict)
	}
	if !ok {
		fmt.Println("testrun: a package went over its time budget (internal/testrun/main.go, budgets): make its tests faster, move slow ones to the long tier, or raise the budget with a reason")
	}
	fmt.Printf("tests: %d passed, %d failed, %d skipped\n", r.passed, r.failed, r.skipped)
	return ok
}
