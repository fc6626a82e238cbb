package teamchess

import (
	"os"
	"slices"
	"strings"
	"testing"

	"sandtable/games/chess"
)

// TestRefusalNamesTheLegalMoves: the example as a game: after d4,
// Black's only legal move is the en passant capture exd3, and a refused
// Kb7 or e3 says so (in SAN, or in UCI when typed in UCI); the board is
// unchanged.
func TestRefusalNamesTheLegalMoves(t *testing.T) {
	t.Parallel()
	g, err := NewGame(Setup{FEN: "k7/8/1Q6/8/4p3/4P3/3P4/K7 w - - 0 1",
		White: []Member{{ID: "1", Name: "Ann"}}, Black: []Member{{ID: "2", Name: "Cid"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Play("1", "d4"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in, err string
		moves   []string
	}{
		{"Kb7", "the king cannot move to b7: it would be in check there; the only legal move is exd3", []string{"exd3"}},
		{"e3", "no piece can move to e3; the only legal move is exd3", []string{"exd3"}},
		{"kb7", "the king cannot move to b7: it would be in check there; the only legal move is exd3", []string{"exd3"}},
		{"a8b7", "the king cannot move to b7: it would be in check there; the only legal move is e4d3", []string{"e4d3"}},
	} {
		pos := g.Position()
		before := pos.FEN()
		_, err := g.Play("2", c.in)
		me, ok := err.(*chess.MoveError)
		if !ok {
			t.Fatalf("Play(%q) = %v (%T), want *chess.MoveError", c.in, err, err)
		}
		if me.Error() != c.err || !slices.Equal(me.Legal.Moves, c.moves) || me.Legal.Total != 1 {
			t.Errorf("Play(%q): %q %#v\nwant %q", c.in, me.Error(), me.Legal, c.err)
		}
		if pos := g.Position(); pos.FEN() != before {
			t.Errorf("Play(%q) changed the position", c.in)
		}
	}
	if _, err := g.Play("2", "exd3"); err != nil {
		t.Fatal(err)
	}
}

// TestListingRoleEntries: a sacrifice is one entry per legal role; a role
// with one choice is written in full (Assassin's only target, Saboteur's
// only reply), with several it gets a placeholder.
func TestListingRoleEntries(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		fen      string
		san, uci []string
		total    int
	}{
		{"4k3/P7/8/8/8/pp6/PP6/QK6 w - - 0 1",
			[]string{"axb3", "bxa3", "a8=Assassin:<target>", "a8=PoliticalAgent", "a8=Saboteur:<move>", "Kc1"},
			[]string{"a2b3", "b2a3", "a7a8a:<target>", "a7a8p", "a7a8s:<move>", "b1c1"}, 6},
		{"4k3/P7/8/8/8/p7/PP6/QK6 w - - 0 1",
			[]string{"bxa3", "a8=Assassin:xa3", "a8=PoliticalAgent", "a8=Saboteur:<move>", "b3", "b4", "Kc1", "Kc2"},
			[]string{"b2a3", "a7a8a:a3", "a7a8p", "a7a8s:<move>", "b1c1", "b1c2", "b2b3", "b2b4"}, 8},
		{"4k3/P7/8/8/8/8/8/K7 w - - 0 1",
			[]string{"a8=RoyalGuard+", "Ka2", "Kb1", "Kb2"},
			[]string{"a1a2", "a1b1", "a1b2", "a7a8g"}, 4},
		{"4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1", nil, nil, 15 + 5 + 3}, // queen, king, three roles
	} {
		p, err := chess.ParseFEN(chess.TeamChess, c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if l := Listing(&p, false); !slices.Equal(l.Moves, c.san) || l.Total != c.total || l.MustCapture {
			t.Errorf("%s: SAN listing %#v, want %v (%d)", c.fen, l, c.san, c.total)
		}
		if l := Listing(&p, true); !slices.Equal(l.Moves, c.uci) || l.Total != c.total {
			t.Errorf("%s: UCI listing %#v, want %v", c.fen, l, c.uci)
		}
	}
	// A Saboteur with one legal reply is written with it.
	p, _ := chess.ParseFEN(chess.TeamChess, "7k/1P3K1p/7P/p7/8/8/8/3Q4 w - - 0 1")
	var cb [8]chess.Move
	bare := p.SacrificeCandidates(cb[:0])[0]
	opt := RoleOptions(&p, bare)[Saboteur-1]
	if got := roleText(&p, bare, opt, false); got != "b8=Saboteur:a4" {
		t.Errorf("Saboteur entry %q, want b8=Saboteur:a4", got)
	}
	if got := roleText(&p, bare, opt, true); got != "b7b8s:a5a4" {
		t.Errorf("Saboteur UCI entry %q, want b7b8s:a5a4", got)
	}
}

// TestForcedMoveRefusalNamesOnlyIt: when a Saboteur forced the move, the
// refusal names the forced move in its reason and adds no listing.
func TestForcedMoveRefusalNamesOnlyIt(t *testing.T) {
	t.Parallel()
	g, err := NewGame(Setup{FEN: "4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1",
		White: []Member{{ID: "1", Name: "Ann"}}, Black: []Member{{ID: "2", Name: "Cid"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Play("1", "a8=Saboteur:Kd7"); err != nil {
		t.Fatal(err)
	}
	_, err = g.Play("2", "Kf7")
	me, ok := err.(*chess.MoveError)
	if !ok || me.Error() != "a Saboteur forced your move: you must play Kd7" || me.Legal.Moves != nil {
		t.Errorf("refusal %v %#v", err, me)
	}
}

// TestLegalRolesAgreesWithRoleOptions: the cheap role count used to decide
// whether to list equals the legal roles RoleOptions finds, for every
// sacrifice candidate of the positions in testdata/moves.txt.
func TestLegalRolesAgreesWithRoleOptions(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/moves.txt")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	checked := 0
	for _, line := range strings.Split(string(data), "\n") {
		fen, _, ok := strings.Cut(line, "|")
		fen = strings.TrimSpace(fen)
		if !ok || strings.HasPrefix(line, "#") || seen[fen] || fen == "start" {
			continue
		}
		seen[fen] = true
		p, err := chess.ParseFEN(chess.TeamChess, fen)
		if err != nil {
			t.Fatal(err)
		}
		var cb [32]chess.Move
		for _, c := range p.SacrificeCandidates(cb[:0]) {
			want := 0
			for _, o := range RoleOptions(&p, c) {
				if o.Legal {
					want++
				}
			}
			if got := legalRoles(&p, c); got != want {
				t.Errorf("%s %s: legalRoles %d, RoleOptions %d", fen, c, got, want)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Errorf("only %d candidates checked", checked)
	}
}
