package chess

import (
	"slices"
	"testing"
)

// TestRefusalNamesWhatIsLegal: a refused typed move's error carries the
// listing (docs/rules/chess.md, "Saying what is legal"), exactly: all legal
// moves when at most 8, the forced captures in Survival (count and first
// 8), nothing otherwise; in the notation typed; captures first.
func TestRefusalNamesWhatIsLegal(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		v     Variant
		fen   string
		input string
		want  Listing
		err   string // the whole Error() text
	}{
		{"only legal move is en passant", TeamChess, "k7/8/1Q6/8/3Pp3/4P3/8/K7 b - d3 0 1", "Kb7",
			Listing{Moves: []string{"exd3"}, Total: 1},
			"the king cannot move to b7: it would be in check there; the only legal move is exd3"},
		{"same in FIDE chess, typed as UCI", Chess, "k7/8/1Q6/8/3Pp3/4P3/8/K7 b - d3 0 1", "e4e3",
			Listing{Moves: []string{"e4d3"}, Total: 1},
			"the pawn on e4 cannot move to e3; the only legal move is e4d3"},
		{"captures first", Chess, "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", "Kd1",
			Listing{Moves: []string{"Kxd2", "Kf1"}, Total: 2},
			"the king cannot move to d1: it would be in check there; the legal moves are Kxd2 or Kf1"},
		{"more than 8 moves: nothing named", Chess, StandardFEN, "e5",
			Listing{Total: 20}, "no piece can move to e5"},
		{"survival: a non-capture names the forced capture", Survival, "4k3/8/8/3p4/4P3/8/8/K7 w - - 0 1", "Ka3",
			Listing{Moves: []string{"exd5"}, Total: 1, MustCapture: true},
			"no king can move to a3; capture is mandatory: the only legal capture is exd5"},
		{"survival: 9 forced captures, first 8 named", Survival, "8/8/8/2ppp3/2pQp3/1pppp3/8/N6K w - - 0 1", "Kg2",
			Listing{Moves: []string{"Nxb3", "Qxc3", "Qxc4", "Qxc5", "Qxd3", "Qxd5", "Qxe3", "Qxe4"}, Total: 9, MustCapture: true},
			"that move does not capture; capture is mandatory: there are 9 legal captures, the first 8 are Nxb3, Qxc3, Qxc4, Qxc5, Qxd3, Qxd5, Qxe3, Qxe4"},
		{"survival: no capture and many moves", Survival, "4k3/8/8/8/8/8/8/N2K3R w - - 0 1", "Kd3",
			Listing{Total: 17}, "no king can move to d3"},
		{"survival: a finished game has no legal move (issue 26)", Survival, "8/8/8/8/8/8/8/K7 w - - 0 1", "Ka2",
			Listing{}, "the game is over: Black has no pieces left"},
		{"survival: few moves, none a capture", Survival, "4k3/8/8/8/8/8/8/K7 w - - 0 1", "Kc3",
			Listing{Moves: []string{"Ka2", "Kb1", "Kb2"}, Total: 3},
			"no king can move to c3; the legal moves are Ka2, Kb1 or Kb2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParseFEN(c.v, c.fen)
			if err != nil {
				t.Fatal(err)
			}
			before := p.FEN()
			_, err = p.ParseMove(c.input)
			me, ok := err.(*MoveError)
			if !ok {
				t.Fatalf("ParseMove(%q) error = %v (%T), want *MoveError", c.input, err, err)
			}
			if !slices.Equal(me.Legal.Moves, c.want.Moves) || me.Legal.Total != c.want.Total || me.Legal.MustCapture != c.want.MustCapture {
				t.Errorf("Legal = %#v, want %#v", me.Legal, c.want)
			}
			if me.Error() != c.err {
				t.Errorf("Error() = %q\nwant      %q", me.Error(), c.err)
			}
			if p.FEN() != before {
				t.Error("a refused move changed the position")
			}
		})
	}
}

func TestIsUCIText(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"e2e4": true, "E2E4": true, "e2-e4": true, "a7a8k": true, "e7e8a:d4": true, " e7 e8 ": true, "b2d3": true,
		"e4": false, "Nf3": false, "exd5": false, "Ng1f3": false, "B2d3": false, "e7xd8": false, "O-O": false, "": false,
	} {
		if got := IsUCIText(s); got != want {
			t.Errorf("IsUCIText(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestNewListingOrderAndLimit(t *testing.T) {
	t.Parallel()
	var es []ListEntry
	for _, s := range []string{"h3", "Kd1", "exd5", "a3", "Bxc4", "b3", "c3", "d3", "f3"} {
		es = append(es, ListEntry{Text: s, Capture: s == "exd5" || s == "Bxc4"})
	}
	if l := NewListing(es, false); l.Total != 9 || l.Moves != nil {
		t.Errorf("9 moves, no forced capture: %+v, want nothing named", l)
	}
	l := NewListing(es[:8], false)
	want := []string{"Bxc4", "exd5", "a3", "b3", "c3", "d3", "h3", "Kd1"}
	if !slices.Equal(l.Moves, want) || l.Total != 8 {
		t.Errorf("NewListing = %+v, want %v", l, want)
	}
	if l := NewListing(es, true); len(l.Moves) != MaxListed || l.Total != 9 || l.Moves[0] != "Bxc4" {
		t.Errorf("forced: %+v", l)
	}
	if s := (Listing{}).String(); s != "" {
		t.Errorf("empty listing says %q", s)
	}
}
