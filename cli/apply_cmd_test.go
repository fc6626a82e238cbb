package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sandtable/games/sandtable"
)

const applyPos = `sandtable-position 1
phase main
to-move south
piece SB1 a1
piece SI1 d4
piece SI2 d3
piece ST1 c3 SI3
piece SP1 c7
piece NB1 t20
piece NI1 t19
piece NT9 k20
piece NP9 l20
`

func runApply(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := applyMain(args, &out, &errb)
	return code, out.String(), errb.String()
}

func writePos(t *testing.T, text string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "pos.txt")
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestApplyPrintsPositionAndLog(t *testing.T) {
	t.Parallel()
	f := writePos(t, applyPos)
	code, out, errs := runApply(t, "-game", "sandtable", "-position", f, "d4-d5 d3-d4", "Me5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	p, err := sandtable.ParsePosition(out)
	if err != nil {
		t.Fatalf("stdout is not a position: %v\n%s", err, out)
	}
	if p.Phase() != sandtable.PhaseMain || p.ToMove() != sandtable.North || p.Turn() != 2 {
		t.Errorf("after the turn: %s %s turn %d", p.Phase(), p.ToMove(), p.Turn())
	}
	if pc, ok := p.At(mustSq(t, "e5")); !ok || pc.ID.String() != "SM1" {
		t.Errorf("no Mine SM1 on e5:\n%s", out)
	}
	for _, want := range []string{
		"turn 1 South Main: South Infantry SI1 moved d4-d5.",
		"turn 1 South Main: South Infantry SI2 moved d3-d4.",
		"turn 1 South PostTurn: South placed Mine SM1 on e5.",
		"turn 2 North PreTurn: Turn 2: North to move.",
	} {
		if !strings.Contains(errs, want+"\n") {
			t.Errorf("log lacks %q:\n%s", want, errs)
		}
	}
	// Applying the output again continues the game from it.
	g := writePos(t, out)
	if code, _, errs := runApply(t, "-game", "sandtable", "-position", g, "t19-t18"); code != 0 {
		t.Fatalf("second apply: exit %d %s", code, errs)
	}
}

func mustSq(t *testing.T, s string) sandtable.Square {
	sq, err := sandtable.ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return sq
}

func TestApplyIllegalActionExits1AndChangesNothing(t *testing.T) {
	t.Parallel()
	f := writePos(t, applyPos)
	code, out, errs := runApply(t, "-game", "sandtable", "-position", f, "d4-d5", "Tc3-c9")
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, errs)
	}
	if out != "" {
		t.Errorf("stdout after an illegal action: %q", out)
	}
	if !strings.Contains(errs, `action 2 "Tc3-c9" is illegal`) || !strings.Contains(errs, "PostTurn") {
		t.Errorf("stderr: %s", errs)
	}
	code, _, errs = runApply(t, "-game", "sandtable", "-position", f, "Tc3-c9")
	if code != 1 || !strings.Contains(errs, "Tank ST1 on c3 cannot pass through the Airplane on c7 (ruling 5, Tank:") {
		t.Errorf("exit %d, stderr %s", code, errs)
	}
	data, _ := os.ReadFile(f)
	if string(data) != applyPos {
		t.Errorf("the position file changed")
	}
}

func TestApplyBadInputExits2(t *testing.T) {
	t.Parallel()
	good := writePos(t, applyPos)
	bad := writePos(t, "sandtable-position 1\nphase main\nto-move south\npiece SI1 d4\npiece SI2 d4\n")
	cases := map[string][]string{
		"no game":           {"-position", good, "d4-d5"},
		"other game":        {"-game", "chess", "-position", good, "d4-d5"},
		"no position":       {"-game", "sandtable", "d4-d5"},
		"no action":         {"-game", "sandtable", "-position", good},
		"missing file":      {"-game", "sandtable", "-position", filepath.Join(t.TempDir(), "none.txt"), "d4-d5"},
		"bad position":      {"-game", "sandtable", "-position", bad, "d4-d5"},
		"unreadable action": {"-game", "sandtable", "-position", good, "d4-d5", "hello"},
		"unknown flag":      {"-game", "sandtable", "-position", good, "-x", "d4-d5"},
	}
	for name, args := range cases {
		code, out, errs := runApply(t, args...)
		if code != 2 {
			t.Errorf("%s: exit %d, want 2 (%s)", name, code, errs)
		}
		if out != "" || errs == "" {
			t.Errorf("%s: stdout %q stderr %q", name, out, errs)
		}
	}
	if code, _, errs := runApply(t, "-game", "sandtable", "-position", bad, "d4-d5"); !strings.Contains(errs, "line 5") {
		t.Errorf("bad position error lacks the line: %d %s", code, errs)
	}
	if code, _, _ := runApply(t, "-h"); code != 0 {
		t.Errorf("-h exit %d", code)
	}
}

func TestApplyReadsStandardInput(t *testing.T) {
	t.Parallel()
	f := writePos(t, applyPos)
	in, err := os.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	old := os.Stdin
	os.Stdin = in
	defer func() { os.Stdin = old }()
	code, out, errs := runApply(t, "-game", "sandtable", "-position", "-", "d4-d5")
	if code != 0 || !strings.Contains(out, "piece SI1 d5\n") {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
}

func TestApplyThroughDispatchFromDeployment(t *testing.T) {
	t.Parallel()
	f := writePos(t, "sandtable-position 1\nphase deployment\nseed 11\n")
	var out, errb bytes.Buffer
	code := dispatch([]string{"apply", "-game", "sandtable", "-position", f,
		"S preset phalanx", "N preset fortress", "S confirm", "N confirm"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "[secret South] deployment: You chose the phalanx preset.") ||
		!strings.Contains(errb.String(), "deployment: Both deployments are revealed.") {
		t.Errorf("log: %s", errb.String())
	}
	p, err := sandtable.ParsePosition(out.String())
	if err != nil || p.Phase() != sandtable.PhaseMain || len(p.Pieces()) != 136 {
		t.Fatalf("after deployment: %v", err)
	}
}

// TestPositionInputIsBounded: an endless or huge position input is refused
// quickly instead of filling memory (/dev/zero once grew past 3 GB); the
// message names the file, or standard input (it said "- is larger than
// 1048576 bytes").
func TestPositionInputIsBounded(t *testing.T) {
	t.Parallel()
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Fatal(err)
	}
	defer zero.Close()
	old := os.Stdin
	os.Stdin = zero
	defer func() { os.Stdin = old }()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"apply", "-game", "sandtable", "-position", "/dev/zero", "S confirm"}, "/dev/zero is larger than 1 MiB"},
		{[]string{"render", "-game", "sandtable", "-position", "/dev/zero", "-out", filepath.Join(t.TempDir(), "x.png")}, "/dev/zero is larger than 1 MiB"},
		{[]string{"apply", "-game", "sandtable", "-position", "-", "S confirm"}, "standard input is larger than 1 MiB"},
		{[]string{"render", "-game", "sandtable", "-position", "-", "-out", filepath.Join(t.TempDir(), "x.png")}, "standard input is larger than 1 MiB"},
	} {
		var out, errOut bytes.Buffer
		code := dispatch(c.args, &out, &errOut)
		if code != 2 || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, errOut.String(), c.want)
		}
	}
}

// TestPositionFileWithByteOrderMark: a position file saved with a UTF-8
// byte-order mark (Windows editors add one) reads as without it, from a
// file or standard input; it was refused with "the first line must be
// "sandtable-position 1"".
func TestPositionFileWithByteOrderMark(t *testing.T) {
	t.Parallel()
	f := writePos(t, "\uFEFF"+applyPos)
	code, out, errs := runApply(t, "-game", "sandtable", "-position", f, "d4-d5")
	if code != 0 || !strings.Contains(out, "piece SI1 d5\n") {
		t.Errorf("apply: exit %d: %s", code, errs)
	}
	png := filepath.Join(t.TempDir(), "x.png")
	var rout, rerr bytes.Buffer
	if code := dispatch([]string{"render", "-game", "sandtable", "-position", f, "-out", png}, &rout, &rerr); code != 0 {
		t.Errorf("render: exit %d: %s", code, rerr.String())
	}
	in, err := os.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	old := os.Stdin
	os.Stdin = in
	defer func() { os.Stdin = old }()
	if code, _, errs := runApply(t, "-game", "sandtable", "-position", "-", "d4-d5"); code != 0 {
		t.Errorf("apply from standard input: exit %d: %s", code, errs)
	}
}

// TestApplyRefusesARedactedView: a view hides secrets, so no action can be
// judged on it; that is bad input (exit 2), not an illegal action (exit 1).
func TestApplyRefusesARedactedView(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "view.txt")
	view := "sandtable-position 1\nview none\nphase main\nto-move south\npiece SB1 a1\npiece SI1 b2\npiece NB1 t20\npiece NI1 t19\npiece NT9 k20\npiece NP9 l20\n"
	if err := os.WriteFile(path, []byte(view), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := dispatch([]string{"apply", "-game", "sandtable", "-position", path, "b2-b3"}, &out, &errOut)
	if code != 2 || !strings.Contains(errOut.String(), "is a redacted view") || out.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 naming the redacted view", code, out.String(), errOut.String())
	}
}
