package teamchess

import (
	"encoding/json"
	"strings"
	"testing"

	"sandtable/games/chess"
)

// Version 1 states as the code before state version 2 wrote them (no
// stored result). forcedMateV1 is a finished game: Black's Saboteur forces
// White's mate, dishonourable by the rule of its time (honourable by
// today's). laterMateV1 is the example one move before the mate.
const (
	forcedMateV1 = `{"version":1,"start_fen":"7k/8/6K1/8/8/8/2p5/qQ6 b - - 0 1","white":[{"id":"ann","name":"Ann"}],` +
		`"black":[{"id":"cid","name":"Cid"}],"actions":[{"kind":"move","side":"black","by":"cid","move":"c2c1s:b1b8"},` +
		`{"kind":"move","side":"white","by":"ann","move":"b1b8"}]}`
	laterMateV1 = `{"version":1,"start_fen":"7k/P7/6K1/8/8/8/8/1Q6 w - - 0 1","white":[{"id":"ann","name":"Ann"}],` +
		`"black":[{"id":"cid","name":"Cid"},{"id":"dan","name":"Dan"}],"actions":[{"kind":"move","side":"white","by":"ann","move":"a7a8p"},` +
		`{"kind":"move","side":"black","by":"dan","move":"h8g8"},{"kind":"move","side":"white","by":"ann","move":"b1c1"},` +
		`{"kind":"move","side":"black","by":"dan","move":"g8h8"}]}`
)

// TestOldStatesKeepTheirCategory: a game finished and stored by the old
// code keeps the category the old honour rule gave it, in its result, its
// record, its PGN and its summary; stored again, it keeps it for good. A
// game that was still going on is scored by today's rule when it ends.
func TestOldStatesKeepTheirCategory(t *testing.T) {
	t.Parallel()
	g, err := Load([]byte(forcedMateV1))
	if err != nil {
		t.Fatal(err)
	}
	if c := g.Result().Category; c != DishonourableCheckmate {
		t.Fatalf("old finished game: category %v, want the old rule's dishonourable checkmate", c)
	}
	if sum, _ := g.Summary(); sum.Result.Category != DishonourableCheckmate {
		t.Errorf("summary category %v", sum.Result.Category)
	}
	lines := g.RecordLines()
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "White wins by dishonourable checkmate") {
		t.Errorf("record ends with %q", last)
	}
	if pgn := g.PGN(nil); !strings.Contains(pgn, `[WinCategory "dishonourable_checkmate"]`) ||
		!strings.Contains(pgn, "{White wins by dishonourable checkmate;") {
		t.Errorf("PGN:\n%s", pgn)
	}
	data, _ := json.Marshal(g)
	if !strings.Contains(string(data), `"version":2`) || !strings.Contains(string(data), `"result":{"category":"dishonourable_checkmate","winner":"white"}`) {
		t.Errorf("stored again: %s", data)
	}
	h, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	if snapshot(h) != snapshot(g) {
		t.Errorf("stored again, it differs:\n%s\n---\n%s", snapshot(h), snapshot(g))
	}

	// The same game played today is honourable: White never sacrificed.
	now, _ := NewGame(Setup{FEN: "7k/8/6K1/8/8/8/2p5/qQ6 b - - 0 1", White: ids("ann"), Black: ids("cid")})
	playAll(t, now, "c1=Saboteur:Qb8#", "Qb8")
	if c := now.Result().Category; c != HonourableCheckmate {
		t.Errorf("played today: %v", c)
	}

	// An old game still going on ends under today's rule.
	g, err = Load([]byte(laterMateV1))
	if err != nil {
		t.Fatal(err)
	}
	playAll(t, g, "Qc8#")
	if c := g.Result().Category; c != DishonourableCheckmate {
		t.Errorf("old ongoing game mated today: %v", c)
	}
	if r := g.State().Result; r == nil || r.Category != "dishonourable_checkmate" || r.Winner != "white" {
		t.Errorf("stored result %+v", r)
	}
	// Under the old rule the same mate was honourable.
	old := strings.Replace(laterMateV1, `"g8h8"}]}`, `"g8h8"},{"kind":"move","side":"white","by":"ann","move":"c1c8"}]}`, 1)
	if g, err = Load([]byte(old)); err != nil || g.Result().Category != HonourableCheckmate {
		t.Errorf("old finished later mate: %v, %v", g.Result(), err)
	}
}

// TestStoredResultIsChecked: a stored result must describe the game the
// actions replay to, except for a checkmate's honour, where the stored
// category wins; a finished version 2 game must have one.
func TestStoredResultIsChecked(t *testing.T) {
	t.Parallel()
	g, _ := NewGame(Setup{White: ids("ann"), Black: ids("cid")})
	playAll(t, g, "f3", "e5", "g4", "Qh4#")
	data, _ := json.Marshal(g)
	const stored = `"result":{"category":"honourable_checkmate","winner":"black"}`
	if !strings.Contains(string(data), stored) {
		t.Fatalf("state %s lacks %s", data, stored)
	}
	for _, c := range []struct{ result, err string }{
		{`"result":{"category":"dishonourable_checkmate","winner":"black"}`, ""},
		{`"result":{"category":"honourable_checkmate","winner":"white"}`, "does not match the replayed game"},
		{`"result":{"category":"siege_win","winner":"black"}`, "does not match the replayed game"},
		{`"result":{"category":"mutual_loss"}`, "does not match the replayed game"},
		{`"result":{"category":"mutual_loss","winner":"black"}`, "a mutual loss has no winner"},
		{`"result":{"category":"glory","winner":"black"}`, `unknown category "glory"`},
		{`"result":{"category":"none","winner":"black"}`, `unknown category "none"`},
		{`"result":{"category":"resignation","winner":"purple"}`, `unknown side "purple"`},
	} {
		h, err := Load([]byte(strings.Replace(string(data), stored, c.result, 1)))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.result, err)
		case c.err == "" && h.Result().Category != DishonourableCheckmate:
			t.Errorf("%s: category %v, want the stored one", c.result, h.Result().Category)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.result, err, c.err)
		}
	}
	if _, err := Load([]byte(strings.Replace(string(data), ","+stored, "", 1))); err == nil || !strings.Contains(err.Error(), "no stored result") {
		t.Errorf("finished version 2 state without a result: %v", err)
	}
	// A result stored for a game that is not over.
	ongoing, _ := NewGame(Setup{White: ids("ann"), Black: ids("cid")})
	playAll(t, ongoing, "e4")
	s := ongoing.State()
	s.Result = &StoredResult{Category: "resignation", Winner: "white"}
	if _, err := Restore(s); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Errorf("result for an ongoing game: %v", err)
	}
	if s := ongoing.State(); s.Result != nil {
		t.Errorf("ongoing game stores a result: %+v", s.Result)
	}
	// A mutual loss stores no winner.
	ml, _ := NewGame(Setup{White: ids("ann"), Black: ids("cid")})
	playAll(t, ml, "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8")
	if r := ml.State().Result; r == nil || *r != (StoredResult{Category: "mutual_loss"}) {
		t.Errorf("mutual loss stored as %+v", r)
	}
}

// TestSacrificed: the team's sacrifice flag is set by its own pawn reaching
// the last rank (any role, forced or not) and by nothing else.
func TestSacrificed(t *testing.T) {
	t.Parallel()
	g, _ := NewGame(Setup{FEN: "4k3/P7/8/7q/8/2K5/7p/Q7 w - - 0 1", White: ids("ann"), Black: ids("cid")})
	if g.Sacrificed(chess.White) || g.Sacrificed(chess.Black) {
		t.Fatal("no sacrifice yet")
	}
	playAll(t, g, "a8=Saboteur:h1=Saboteur:Kd2")
	if !g.Sacrificed(chess.White) || g.Sacrificed(chess.Black) {
		t.Errorf("after White's Saboteur: %v %v", g.Sacrificed(chess.White), g.Sacrificed(chess.Black))
	}
	playAll(t, g, "h1=Saboteur:Kd2")
	if !g.Sacrificed(chess.Black) {
		t.Error("Black's forced Saboteur is Black's sacrifice")
	}
}

// TestSiegeUpgradeStoredEarlierKeepsItsCategory: a siege continuation's
// mate after a sacrifice is honourable (rule 2.1, ruling 4 since issue
// 26); a game stored when it was scored dishonourable keeps that category.
func TestSiegeUpgradeStoredEarlierKeepsItsCategory(t *testing.T) {
	t.Parallel()
	g, err := NewGame(Setup{FEN: "7k/P4K2/8/6Q1/8/8/8/8 w - - 0 1", White: ids("ann bob"), Black: ids("cid dan")})
	if err != nil {
		t.Fatal(err)
	}
	playAll(t, g, "a8=PoliticalAgent", "Kh7", "Kf8", "Kh8", "Qg6")
	if _, err := g.SiegeContinue("ann"); err != nil {
		t.Fatal(err)
	}
	playAll(t, g, "Qh6#")
	if got := g.Result(); got != (Result{Category: HonourableCheckmate, Winner: chess.White}) {
		t.Fatalf("result %v, want an honourable checkmate", got)
	}
	data, _ := json.Marshal(g)
	old := strings.Replace(string(data), `"category":"honourable_checkmate"`, `"category":"dishonourable_checkmate"`, 1)
	h, err := Load([]byte(old))
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Result().Category; got != DishonourableCheckmate {
		t.Fatalf("stored earlier as dishonourable, now %v", got)
	}
}
