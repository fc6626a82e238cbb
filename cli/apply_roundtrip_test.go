package cli

import (
	"strings"
	"testing"

	"sandtable/games/sandtable"
)

// TestApplyNeverPrintsAnUnparseablePosition: the three positions of the
// issue. `sandtable apply` printed turn 1000000000, the hazard ID
// SM-2147483648 and two crater lines on one square, all of which its own
// parser refuses. Now the first two actions are refused (exit 1, nothing
// on standard output) and the third prints one Crater.
func TestApplyNeverPrintsAnUnparseablePosition(t *testing.T) {
	t.Parallel()
	base := "piece SB1 a1\npiece SI30 b2\npiece NB1 t20\npiece NI1 t19\npiece NT9 k20\npiece NP9 l20\n"
	for _, c := range []struct {
		name, pos, action string
		code              int
		stderr            string
	}{
		{"turn counter", "phase postturn\nturn 999999999\nto-move south\nhazard-uses 1\n", "Mc3", 1, "999999999"},
		{"hazard ID", "phase postturn\nto-move south\nhazard-uses 1\nnext-hazard SM2147483647 SA1 NM1 NA1\n", "Mc3", 1, "numbers are used up"},
		{"Drone on a Crater", "phase postturn\nto-move south\nhazard-uses 1\npiece NI2 e7\ndrone NI2 e5\ncrater e5 north\n", "Mc3", 0, "e5 stays a Crater"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := writePos(t, "sandtable-position 1\n"+c.pos+base)
			code, out, errs := runApply(t, "-game", "sandtable", "-position", f, c.action)
			if code != c.code || !strings.Contains(errs, c.stderr) {
				t.Fatalf("exit %d, want %d; stderr %q lacks %q", code, c.code, errs, c.stderr)
			}
			if code != 0 {
				if out != "" {
					t.Errorf("stdout after a refused action: %q", out)
				}
				return
			}
			p, err := sandtable.ParsePosition(out)
			if err != nil {
				t.Fatalf("printed position does not parse: %v\n%s", err, out)
			}
			if p.Format() != out {
				t.Errorf("printed position prints differently after parsing")
			}
			if strings.Count(out, "crater e5 ") != 1 {
				t.Errorf("want one crater line on e5:\n%s", out)
			}
		})
	}
	// automatic phases that would pass the last turn: bad input, exit 2
	f := writePos(t, "sandtable-position 1\nphase main\nturn 999999999\nto-move south\n"+
		"piece ST1 a1 SI1\npiece SB1 a2\npiece SB2 b1\npiece SM1 b2\npiece ST2 a3\npiece ST3 c1\n"+
		"piece NB1 t20\npiece NI1 t19\npiece NT9 k20\npiece NP9 l20\n")
	code, out, errs := runApply(t, "-game", "sandtable", "-position", f, "resign")
	if code != 2 || out != "" || !strings.Contains(errs, "cannot be advanced") || !strings.Contains(errs, "999999999") {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 saying the position cannot be advanced", code, out, errs)
	}
}
