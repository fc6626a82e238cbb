package sandtable

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A scenario file (testdata/scenarios/*.txt) holds scenarios, each:
//
//	=== NAME                 starts a scenario (text after === is its name)
//	rule: TEXT               what it shows (ruling number, rule text sentence)
//	--- position             the starting position (text format)
//	--- actions              one action per line, applied in order
//	--- after                the expected position (defaults may be left out;
//	                         next-hazard is compared only when given)
//	--- log                  the expected turn log, one Entry.String() per line
//	--- error                a text the error must contain (the last action
//	                         must fail); the position must then be unchanged.
//	                         Without actions, the position itself must be
//	                         refused by ParsePosition with that text.
//
// Lines before the first === and lines starting with "#" outside position
// blocks are comments.
type scenario struct {
	file, name, rule       string
	line                   int
	position, after, error string
	actions, log           []string
	hasAfter, hasLog       bool
	hasError               bool
}

func loadScenarios(t testing.TB) []scenario {
	t.Helper()
	files, err := filepath.Glob("testdata/scenarios/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenario files: %v", err)
	}
	var out []scenario
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cur *scenario
		section := ""
		var buf []string
		flush := func() {
			if cur == nil {
				return
			}
			text := strings.Join(buf, "\n")
			switch section {
			case "position":
				cur.position = text
			case "after":
				cur.after, cur.hasAfter = text, true
			case "error":
				cur.error, cur.hasError = strings.TrimSpace(text), true
			case "actions", "log":
				var lines []string
				for _, l := range buf {
					if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
						lines = append(lines, l)
					}
				}
				if section == "actions" {
					cur.actions = lines
				} else {
					cur.log, cur.hasLog = lines, true
				}
			}
			buf = nil
		}
		for i, line := range strings.Split(string(data), "\n") {
			switch {
			case strings.HasPrefix(line, "=== "):
				flush()
				if cur != nil {
					out = append(out, *cur)
				}
				cur = &scenario{file: filepath.Base(f), name: strings.TrimSpace(line[4:]), line: i + 1}
				section = ""
			case cur == nil:
			case strings.HasPrefix(line, "--- "):
				flush()
				section = strings.TrimSpace(line[4:])
				switch section {
				case "position", "actions", "after", "log", "error":
				default:
					t.Fatalf("%s:%d: unknown section %q", f, i+1, section)
				}
			case section == "" && strings.HasPrefix(line, "rule:"):
				cur.rule = strings.TrimSpace(line[5:])
			default:
				buf = append(buf, line)
			}
		}
		flush()
		if cur != nil {
			out = append(out, *cur)
		}
	}
	return out
}

func TestScenarios(t *testing.T) {
	t.Parallel()
	scs := loadScenarios(t)
	names := map[string]bool{}
	for _, sc := range scs {
		t.Run(sc.file+"/"+sc.name, func(t *testing.T) {
			if names[sc.file+sc.name] {
				t.Fatalf("duplicate scenario name")
			}
			names[sc.file+sc.name] = true
			if sc.rule == "" {
				t.Errorf("%s:%d: scenario has no rule: line", sc.file, sc.line)
			}
			if !sc.hasAfter && !sc.hasError && !sc.hasLog {
				t.Fatalf("%s:%d: scenario checks nothing", sc.file, sc.line)
			}
			p, err := ParsePosition(sc.position)
			if sc.hasError && len(sc.actions) == 0 {
				// no actions: the position itself must be refused
				if err == nil {
					t.Fatalf("%s:%d: want the position refused with %q, it parsed", sc.file, sc.line, sc.error)
				}
				if !strings.Contains(err.Error(), sc.error) {
					t.Errorf("%s:%d: position error\n  %v\nwant it to contain\n  %s", sc.file, sc.line, err, sc.error)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s:%d: position: %v", sc.file, sc.line, err)
			}
			var log []string
			for _, e := range p.Advance() {
				log = append(log, e.String())
			}
			var lastErr error
			for i, a := range sc.actions {
				before := p.Format()
				entries, err := p.ApplyString(a)
				if err != nil {
					if !sc.hasError || i != len(sc.actions)-1 {
						t.Fatalf("%s:%d: action %q: %v", sc.file, sc.line, a, err)
					}
					if p.Format() != before {
						t.Fatalf("refused action changed the position")
					}
					lastErr = err
					break
				}
				for _, e := range entries {
					log = append(log, e.String())
				}
			}
			if sc.hasError {
				if lastErr == nil {
					t.Fatalf("%s:%d: want error containing %q, the actions succeeded", sc.file, sc.line, sc.error)
				}
				if !strings.Contains(lastErr.Error(), sc.error) {
					t.Errorf("%s:%d: error\n  %v\nwant it to contain\n  %s", sc.file, sc.line, lastErr, sc.error)
				}
			}
			if sc.hasAfter {
				want, err := ParsePosition(sc.after)
				if err != nil {
					t.Fatalf("%s:%d: after: %v", sc.file, sc.line, err)
				}
				if !strings.Contains(sc.after, "next-hazard") {
					want.nextHazard = p.nextHazard // not under test unless given
				}
				if got, w := stripComments(p.Format()), stripComments(want.Format()); got != w {
					t.Errorf("%s:%d: position after\n%s\nwant\n%s", sc.file, sc.line, got, w)
				}
			}
			if sc.hasLog {
				if strings.Join(log, "\n") != strings.Join(sc.log, "\n") {
					t.Errorf("%s:%d: log\n%s\nwant\n%s", sc.file, sc.line, strings.Join(log, "\n"), strings.Join(sc.log, "\n"))
				}
			}
		})
	}
}

func stripComments(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
