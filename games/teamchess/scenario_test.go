package teamchess

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"sandtable/games/chess"
)

// TestScenarios runs testdata/scenarios.txt: each "scenario <name>" block
// sets up a game ("fen", "white", "black" lines), performs actions
// ("<member> move <text>", "<member> tagout", "<member> resign",
// "<member> siege win|continue", "timeout"; member "-" skips the actor
// check) and checks expectations ("expect <what> ..."). An "error <text>"
// line right after an action says the action must be refused with a
// message containing text, and that the game must be unchanged. "reload"
// replaces the game by its stored State restored; "reload v1" does so as
// the old code stored it (version 1, without the result), to check what
// old stored games become.
func TestScenarios(t *testing.T) {
	t.Parallel()
	for _, sc := range readScenarios(t, "testdata/scenarios.txt") {
		t.Run(sc.name, func(t *testing.T) { runScenario(t, sc) })
	}
}

type scenarioLine struct {
	n    int
	text string
}

type scenario struct {
	name  string
	line  int
	lines []scenarioLine
}

func readScenarios(t *testing.T, name string) []scenario {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []scenario
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "scenario "); ok {
			out = append(out, scenario{name: rest, line: n})
			continue
		}
		if len(out) == 0 {
			t.Fatalf("%s:%d: line before the first scenario", name, n)
		}
		out[len(out)-1].lines = append(out[len(out)-1].lines, scenarioLine{n, line})
	}
	return out
}

func members(ids []string) []Member {
	out := make([]Member, len(ids))
	for i, id := range ids {
		out[i] = Member{ID: id, Name: strings.ToUpper(id[:1]) + id[1:]}
	}
	return out
}

func runScenario(t *testing.T, sc scenario) {
	var setup Setup
	var g *Game
	var lastErr error
	var lastAction string
	var before string
	start := func() {
		if g != nil {
			return
		}
		var err error
		g, err = NewGame(setup)
		if err != nil {
			t.Fatalf("line %d: NewGame: %v", sc.line, err)
		}
	}
	for i, l := range sc.lines {
		f := strings.Fields(l.text)
		where := fmt.Sprintf("line %d (%q)", l.n, l.text)
		switch f[0] {
		case "fen":
			setup.FEN = strings.TrimSpace(strings.TrimPrefix(l.text, "fen"))
			continue
		case "white":
			setup.White = members(f[1:])
			continue
		case "black":
			setup.Black = members(f[1:])
			continue
		case "error":
			want := strings.TrimSpace(strings.TrimPrefix(l.text, "error"))
			if lastErr == nil {
				t.Fatalf("%s: %s succeeded, want error containing %q", where, lastAction, want)
			}
			if !strings.Contains(lastErr.Error(), want) {
				t.Fatalf("%s: %s: error %q does not contain %q", where, lastAction, lastErr, want)
			}
			if after := snapshot(g); after != before {
				t.Fatalf("%s: the refused action changed the game:\n%s\n---\n%s", where, before, after)
			}
			lastErr = nil
			continue
		case "reload":
			start()
			if lastErr != nil {
				t.Fatalf("line %d: %s failed: %v", sc.lines[i-1].n, lastAction, lastErr)
			}
			g = reload(t, g, where, f[1:])
			continue
		case "expect":
			start()
			if lastErr != nil {
				t.Fatalf("line %d: %s failed: %v", sc.lines[i-1].n, lastAction, lastErr)
			}
			expect(t, g, where, f[1], strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(l.text, "expect"), " "+f[1])))
			continue
		}
		start()
		if lastErr != nil {
			t.Fatalf("line %d: %s failed: %v", sc.lines[i-1].n, lastAction, lastErr)
		}
		before = snapshot(g)
		lastAction = l.text
		lastErr = act(t, g, where, f)
	}
	if lastErr != nil {
		t.Fatalf("%s failed: %v", lastAction, lastErr)
	}
	start()
	// Every scenario's final state must survive a JSON round trip.
	data, err := g.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	h, err := Load(data)
	if err != nil {
		t.Fatalf("restore: %v\n%s", err, data)
	}
	if a, b := snapshot(g), snapshot(h); a != b {
		t.Fatalf("restored game differs:\n%s\n---\n%s", a, b)
	}
}

// reload restores g from its State; with "v1", from the State the code of
// state version 1 wrote (no stored result).
func reload(t *testing.T, g *Game, where string, args []string) *Game {
	t.Helper()
	s := g.State()
	switch {
	case len(args) == 0:
	case len(args) == 1 && args[0] == "v1":
		s.Version, s.Result = 1, nil
	default:
		t.Fatalf("%s: reload [v1]", where)
	}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	h, err := Load(data)
	if err != nil {
		t.Fatalf("%s: %v\n%s", where, err, data)
	}
	return h
}

func act(t *testing.T, g *Game, where string, f []string) error {
	by := f[0]
	if by == "-" {
		by = ""
	}
	if by == "timeout" {
		_, err := g.Timeout()
		return err
	}
	if len(f) < 2 {
		t.Fatalf("%s: unknown line", where)
	}
	var err error
	switch f[1] {
	case "move":
		_, err = g.Play(by, strings.Join(f[2:], " "))
	case "tagout":
		_, err = g.TagOut(by)
	case "resign":
		if by == "" {
			side, _ := parseSide(f[2])
			_, err = g.ResignSide(side)
		} else {
			_, err = g.Resign(by)
		}
	case "siege":
		switch f[2] {
		case "win":
			_, err = g.SiegeWin(by)
		case "continue":
			_, err = g.SiegeContinue(by)
		default:
			t.Fatalf("%s: siege win|continue", where)
		}
	default:
		t.Fatalf("%s: unknown action %q", where, f[1])
	}
	return err
}

// snapshot describes everything observable about a game.
func snapshot(g *Game) string {
	var b strings.Builder
	p := g.Position()
	fmt.Fprintf(&b, "fen %s\nphase %s turn %s forced %q cont %v\nresult %s\nstag %d %d\n",
		p.FEN(), g.Phase(), g.Turn(), g.ForcedSAN(), g.SiegeContinuing(), g.Result(), g.Stagnation(chess.White), g.Stagnation(chess.Black))
	for _, c := range []chess.Color{chess.White, chess.Black} {
		fmt.Fprintf(&b, "%s active %d %v\n", c, g.ActiveIndex(c), g.Commanders(c))
	}
	for _, l := range g.RecordLines() {
		b.WriteString(l + "\n")
	}
	return b.String()
}

func expect(t *testing.T, g *Game, where, what, arg string) {
	t.Helper()
	fail := func(got any) { t.Fatalf("%s: got %v\nrecord:\n%s", where, got, strings.Join(g.RecordLines(), "\n")) }
	args := strings.Fields(arg)
	switch what {
	case "turn":
		if g.Turn().String() != arg {
			fail(g.Turn())
		}
	case "phase":
		if g.Phase().String() != arg {
			fail(g.Phase())
		}
	case "result":
		if g.Result().String() != arg {
			fail(g.Result())
		}
	case "category": // category <key>|none: the game's result, as it reports and stores it
		if g.Result().Category.Key() != arg {
			fail(g.Result().Category.Key())
		}
		if r := g.State().Result; (r == nil) != (arg == "none") || r != nil && r.Category != arg {
			fail(fmt.Sprintf("stored result %+v", r))
		}
	case "winner": // winner white|black|none
		got := "none"
		if r := g.Result(); r.HasWinner() {
			got = r.Winner.String()
		}
		if got != arg {
			fail(got)
		}
	case "sacrificed": // sacrificed <side> yes|no
		side, _ := parseSide(args[0])
		if got := g.Sacrificed(side); got != (args[1] == "yes") {
			fail(got)
		}
	case "active": // active <side> <id>|none
		side, _ := parseSide(args[0])
		m, ok := g.Active(side)
		got := "none"
		if ok {
			got = m.ID
		}
		if got != args[1] {
			fail(got)
		}
	case "stagnation": // stagnation <white> <black>
		got := fmt.Sprintf("%d %d", g.Stagnation(chess.White), g.Stagnation(chess.Black))
		if got != arg {
			fail(got)
		}
	case "forced":
		if g.ForcedSAN() != arg {
			fail(g.ForcedSAN())
		}
	case "record": // record <id> <wins> <losses>
		w, l := g.PersonalRecord(args[0])
		if got := fmt.Sprintf("%d %d", w, l); got != args[1]+" "+args[2] {
			fail(got)
		}
	case "advise": // advise <id> yes|no
		ok, why := g.CanAdvise(args[0])
		if (args[1] == "yes") != ok {
			fail(fmt.Sprint(ok, " ", why))
		}
	case "thread": // thread <side> <ids...>
		side, _ := parseSide(args[0])
		var ids []string
		for _, m := range g.ThreadMembers(side) {
			ids = append(ids, m.ID)
		}
		if strings.Join(ids, " ") != strings.Join(args[1:], " ") {
			fail(ids)
		}
	case "board": // board <FEN piece placement>
		p := g.Position()
		if got := strings.Fields(p.FEN())[0]; got != arg {
			fail(got)
		}
	case "legal": // legal <count>
		n, _ := strconv.Atoi(arg)
		if got := len(g.LegalMoves()); got != n {
			fail(fmt.Sprint(got, " ", g.MoveTexts()))
		}
	case "moves": // moves <SAN...> (every legal move, sorted)
		var got []string
		for _, mt := range g.MoveTexts() {
			got = append(got, mt.SAN)
		}
		if strings.Join(got, " ") != arg {
			fail(got)
		}
	case "check":
		if fmt.Sprint(g.InCheck()) != arg {
			fail(g.InCheck())
		}
	case "event": // event <text contained in some record line>
		for _, l := range g.RecordLines() {
			if strings.Contains(l, arg) {
				return
			}
		}
		fail("no event containing " + strconv.Quote(arg))
	case "last": // last <text contained in the last record line>
		ls := g.RecordLines()
		if len(ls) == 0 || !strings.Contains(ls[len(ls)-1], arg) {
			fail(ls)
		}
	default:
		t.Fatalf("%s: unknown expectation %q", where, what)
	}
}
