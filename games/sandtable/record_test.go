package sandtable

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"sandtable/internal/testkit"
)

// playedGame plays a random game from a random deployment: the position
// right after the reveal, the whole turn log (Deployment included) and
// the position after each action after the reveal.
func playedGame(t testing.TB, g int, maxActions int) (start *Position, log []Entry, after []string, end *Position) {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(g), 99))
	p := NewGame(uint64(g) + 1000)
	for _, a := range []string{"S random " + itoa(g), "N random " + itoa(g+100), "S confirm", "N confirm"} {
		e, err := p.ApplyString(a)
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, e...)
	}
	start = p.Clone()
	for i := 0; i < maxActions && p.Phase() != PhaseFinished; i++ {
		e, err := p.Apply(randomAction(t, p, r))
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, e...)
		after = append(after, p.Format())
	}
	return start, log, after, p
}

// TestRecordRoundTrip: a record made from a game's start and log reads
// back to the same record and the same JSON; walking it rebuilds the
// position after every action; every Drone order is beside its action
// with the turn it was given; the result is the game's.
func TestRecordRoundTrip(t *testing.T) {
	t.Parallel()
	games := 10
	if !testkit.Long() {
		games = 3
	}
	for g := range games {
		start, log, after, end := playedGame(t, g, 400)
		rec, err := NewRecord(start, log)
		if err != nil {
			t.Fatalf("game %d: %v", g, err)
		}
		data, err := rec.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseRecord(data)
		if err != nil {
			t.Fatalf("game %d: reading its record back: %v\n%s", g, err, data)
		}
		if !reflect.DeepEqual(back, rec) {
			t.Fatalf("game %d: the record read back differs", g)
		}
		again, _ := back.Marshal()
		if !bytes.Equal(again, data) || bytes.Contains(data, []byte(`\u0026`)) {
			t.Fatalf("game %d: the record's JSON does not round-trip", g)
		}
		if len(rec.Actions) != len(after) {
			t.Fatalf("game %d: %d actions recorded, %d played", g, len(rec.Actions), len(after))
		}
		i := -1
		if err := back.Walk(func(p *Position, entries []Entry) error {
			if i >= 0 && noSeed(p.Format()) != noSeed(after[i]) {
				t.Fatalf("game %d: the position after action %d differs:\n%s\n---\n%s", g, i+1, p.Format(), after[i])
			}
			i++
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		// Every Drone order of the log is in the record, with its turn.
		var orders []string
		for _, e := range log {
			if e.Kind == EntryDroneOrder {
				orders = append(orders, itoa(e.Turn)+" "+e.Side.String()+" "+e.Piece.String()+" "+e.From.String()+" "+e.To.String())
			}
		}
		var recorded []string
		for _, a := range rec.Actions {
			if a.Drone != nil {
				recorded = append(recorded, itoa(a.Turn)+" "+a.Side.String()+" "+a.Drone.Spotter.String()+" "+a.Drone.From.String()+" "+a.Drone.Target.String())
				if a.Phase != PhasePostTurn || !strings.HasPrefix(a.Action, "D") {
					t.Errorf("game %d: a Drone order beside %s in %s", g, a.Action, a.Phase)
				}
			}
		}
		if !reflect.DeepEqual(orders, recorded) {
			t.Errorf("game %d: Drone orders\n%v\nrecorded as\n%v", g, orders, recorded)
		}
		if end.Phase() == PhaseFinished { // random play seldom ends a game: TestRecordOfAResignation checks an end
			want := RecordResult{end.Result().Winner, reasonNames[end.Result().Reason]}
			if rec.Result == nil || *rec.Result != want {
				t.Errorf("game %d: result %+v, want %+v", g, rec.Result, want)
			}
		} else if rec.Result != nil {
			t.Errorf("game %d goes on, but its record has the result %+v", g, rec.Result)
		}
		// The start is the reveal's position without the coin's seed.
		if strings.Contains(rec.Start, "seed "+itoa(g+1000)) || !strings.Contains(rec.Start, "turn 1\n") {
			t.Errorf("game %d: start position keeps the seed or is not turn 1:\n%s", g, rec.Start)
		}
	}
}

// TestRecordOfAResignation: an action anyone may take at any time, and the
// result it gives.
func TestRecordOfAResignation(t *testing.T) {
	t.Parallel()
	start, log, _, p := playedGame(t, 1, 5)
	e, err := p.ApplyString("N resign")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := NewRecord(start, append(log, e...))
	if err != nil {
		t.Fatal(err)
	}
	last := rec.Actions[len(rec.Actions)-1]
	if last.Side != North || last.Action != "N resign" || rec.Result == nil || *rec.Result != (RecordResult{South, "resignation"}) {
		t.Errorf("last action %+v, result %+v", last, rec.Result)
	}
	data, _ := rec.Marshal()
	if _, err := ParseRecord(data); err != nil {
		t.Error(err)
	}
	rec.Result.Winner = North
	data, _ = rec.Marshal()
	if _, err := ParseRecord(data); err == nil || !strings.Contains(err.Error(), "result") {
		t.Errorf("a record with the wrong winner: %v", err)
	}
	// A finished game's record without its result is refused (issue 26).
	rec.Result = nil
	data, _ = rec.Marshal()
	if _, err := ParseRecord(data); err == nil || !strings.Contains(err.Error(), "result missing") {
		t.Errorf("a finished game's record without a result: %v", err)
	}
	// An end the engine did not decide (a timeout, an abort) is kept as
	// recorded.
	rec.Actions = rec.Actions[:len(rec.Actions)-1]
	for _, res := range []RecordResult{{South, "timeout"}, {NoSide, "abort"}} {
		rec.Result = &res
		data, _ = rec.Marshal()
		if back, err := ParseRecord(data); err != nil || *back.Result != *rec.Result {
			t.Errorf("a record ended by %s: %v", res.Reason, err)
		}
	}
	// A game that goes on may have no result.
	rec.Result = nil
	data, _ = rec.Marshal()
	if _, err := ParseRecord(data); err != nil {
		t.Errorf("a record of a game that goes on: %v", err)
	}
}

// TestParseRecordRefuses: each kind of bad record is refused with an
// error naming what is wrong.
func TestParseRecordRefuses(t *testing.T) {
	t.Parallel()
	start, log, _, _ := playedGame(t, 2, 40)
	rec, err := NewRecord(start, log)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Actions) < 10 {
		t.Fatalf("only %d actions", len(rec.Actions))
	}
	drone := -1
	for i, a := range rec.Actions {
		if a.Drone != nil {
			drone = i
			break
		}
	}
	edit := func(f func(r *Record)) []byte {
		c := *rec
		c.Actions = append([]RecordAction(nil), rec.Actions...)
		f(&c)
		b, _ := json.Marshal(&c)
		return b
	}
	good, _ := rec.Marshal()
	cases := []struct {
		name, data, want string
	}{
		{"not JSON", "sandtable-position 1\n", "not a game record"},
		{"two objects", string(good) + "{}", "more follows"},
		{"format", string(edit(func(r *Record) { r.Format = "pgn" })), "format"},
		{"version", string(edit(func(r *Record) { r.Version = 2 })), "version 2"},
		{"bad start", string(edit(func(r *Record) { r.Start = "nonsense" })), "start position"},
		{"deployment start", string(edit(func(r *Record) { r.Start = NewGame(1).Format() })), "Deployment"},
		{"view start", string(edit(func(r *Record) { r.Start = start.View(South).Format() })), "redacted"},
		{"illegal action", string(edit(func(r *Record) { r.Actions[3].Action = "a1-a2" })), "action 4"},
		{"unreadable action", string(edit(func(r *Record) { r.Actions[2].Action = "fly" })), "action 3"},
		{"wrong turn", string(edit(func(r *Record) { r.Actions[5].Turn += 1 })), "action 6"},
		{"wrong phase", string(edit(func(r *Record) { r.Actions[0].Phase = PhasePostTurn })), "action 1"},
		{"wrong side", string(edit(func(r *Record) { r.Actions[0].Side = r.Actions[0].Side.Opp() })), "recorded for"},
		{"missing actions", string(edit(func(r *Record) { r.Actions = append(r.Actions[:1], r.Actions[2:]...) })), "is recorded in turn"},
		// Issue 26: the result and the seed are checked as strictly.
		{"result the actions do not reach", string(edit(func(r *Record) { r.Result = &RecordResult{South, "no-bases"} })), "result.reason \"no-bases\": the actions do not end the game"},
		{"resignation not played", string(edit(func(r *Record) { r.Result = &RecordResult{North, "resignation"} })), "the actions do not end the game"},
		{"unknown reason", string(edit(func(r *Record) { r.Result = &RecordResult{South, "forfeit"} })), "result.reason \"forfeit\" is not a reason"},
		{"no reason", string(edit(func(r *Record) { r.Result = &RecordResult{South, ""} })), "is not a reason"},
		{"reason none", string(edit(func(r *Record) { r.Result = &RecordResult{NoSide, "none"} })), "is not a reason"},
		{"timeout without a winner", string(edit(func(r *Record) { r.Result = &RecordResult{NoSide, "timeout"} })), "a timeout has a winner"},
		{"abort with a winner", string(edit(func(r *Record) { r.Result = &RecordResult{South, "abort"} })), "an abort has no winner"},
		{"seed", string(edit(func(r *Record) { r.Start = strings.Replace(r.Start, "\nseed 0\n", "\nseed 42\n", 1) })), "seed 42"},
	}
	if drone >= 0 {
		cases = append(cases,
			struct{ name, data, want string }{"wrong Drone target", string(edit(func(r *Record) {
				d := *r.Actions[drone].Drone
				d.Target++
				r.Actions[drone].Drone = &d
			})), "Drone order"},
			struct{ name, data, want string }{"Drone order left out", string(edit(func(r *Record) { r.Actions[drone].Drone = nil })), "Drone order"},
		)
	} else {
		t.Error("the game has no Drone: the Drone checks are not exercised")
	}
	for _, c := range cases {
		r, err := ParseRecord([]byte(c.data))
		if err == nil || r != nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: record %v, error %v; want an error mentioning %q", c.name, r != nil, err, c.want)
		}
	}
}

func TestNewRecordRefuses(t *testing.T) {
	t.Parallel()
	if _, err := NewRecord(NewGame(1), nil); err == nil {
		t.Error("a record from Deployment")
	}
	start, log, _, _ := playedGame(t, 3, 6)
	if _, err := NewRecord(start.View(NoSide), log); err == nil {
		t.Error("a record from a view")
	}
	other, _, _, _ := playedGame(t, 4, 0)
	if _, err := NewRecord(other, log); err == nil {
		t.Error("a record of a log that does not follow from its start")
	}
}

// noSeed is a position text without its seed line (a record zeroes it).
func noSeed(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "seed ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestRecordOfAVictory: a game the rules end has that end as its result,
// and nothing may follow it.
func TestRecordOfAVictory(t *testing.T) {
	t.Parallel()
	start := parseAdvanced(t, strings.Replace(completePos, "piece NI1 t19\n", "", 1))
	p := start.Clone()
	log, err := p.ApplyString("f4-g5") // North's last Infantry
	if err != nil {
		t.Fatal(err)
	}
	if p.Phase() != PhaseFinished {
		t.Fatalf("the game goes on:\n%s", p)
	}
	rec, err := NewRecord(start, log)
	if err != nil {
		t.Fatal(err)
	}
	want := RecordResult{South, reasonNames[p.Result().Reason]}
	if rec.Result == nil || *rec.Result != want || want.Reason == "none" {
		t.Fatalf("result %+v, want %+v", rec.Result, want)
	}
	rec.Actions = append(rec.Actions, RecordAction{Turn: rec.Actions[0].Turn, Side: North, Phase: PhaseMain, Action: "N resign"})
	data, _ := rec.Marshal()
	if _, err := ParseRecord(data); err == nil || !strings.Contains(err.Error(), "already over") {
		t.Errorf("an action after the end: %v", err)
	}
}
