package teamchess

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"

	"sandtable/games/chess"
)

func TestParseMoveFile(t *testing.T) {
	t.Parallel()
	f, err := os.Open("testdata/moves.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "|")
		if len(parts) != 3 {
			t.Fatalf("line %d: want 3 fields", n)
		}
		fen, in, want := strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1]), strings.TrimSpace(parts[2])
		if fen == "start" {
			fen = chess.StandardFEN
		}
		p, err := chess.ParseFEN(chess.TeamChess, fen)
		if err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		before := p.FEN()
		m, err := ParseMove(&p, in)
		kind, rest, _ := strings.Cut(want, " ")
		switch kind {
		case "ok":
			if err != nil {
				t.Errorf("line %d: ParseMove(%q): %v", n, in, err)
				continue
			}
			uci, san, _ := strings.Cut(rest, " ")
			if m.UCI() != uci || SAN(&p, m) != san {
				t.Errorf("line %d: ParseMove(%q) = %s %s, want %s %s", n, in, m.UCI(), SAN(&p, m), uci, san)
			}
		case "err":
			if err == nil {
				t.Errorf("line %d: ParseMove(%q) = %s, want error containing %q", n, in, m, rest)
				continue
			}
			if _, ok := err.(*chess.MoveError); !ok {
				t.Errorf("line %d: error type %T", n, err)
			}
			if !strings.Contains(err.Error(), rest) {
				t.Errorf("line %d: ParseMove(%q) error\n  %q\nwant it to contain\n  %q", n, in, err, rest)
			}
		default:
			t.Fatalf("line %d: expectation %q", n, want)
		}
		if p.FEN() != before {
			t.Errorf("line %d: ParseMove changed the position", n)
		}
	}
}

func TestRoleParsing(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want Role
		ok   bool
	}{
		{"Royal Guard", RoyalGuard, true}, {"royal_guard", RoyalGuard, true}, {"q", RoyalGuard, true},
		{"Guard", RoyalGuard, true}, {"g", RoyalGuard, true}, {"ro", RoyalGuard, true},
		{"Assassin", Assassin, true}, {"A", Assassin, true}, {"as", Assassin, true},
		{"saboteur", Saboteur, true}, {"SAB", Saboteur, true}, {"s", Saboteur, true},
		{"Political Agent", PoliticalAgent, true}, {"political-agent", PoliticalAgent, true},
		{"agent", PoliticalAgent, true}, {"pa", PoliticalAgent, true}, {"po", PoliticalAgent, true},
		{"", NoRole, false}, {"r", NoRole, false}, {"n", NoRole, false}, {"bishop", NoRole, false},
		{"x", NoRole, false},
	} {
		got, ok := ParseRole(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseRole(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	for _, r := range Roles {
		if got, ok := ParseRole(r.String()); !ok || got != r {
			t.Errorf("ParseRole(%q) = %v", r.String(), got)
		}
		if got, ok := ParseRole(r.Notation()); !ok || got != r {
			t.Errorf("ParseRole(%q) = %v", r.Notation(), got)
		}
		if got, ok := ParseRole(string(r.Letter())); !ok || got != r {
			t.Errorf("ParseRole(%q) = %v", string(r.Letter()), got)
		}
	}
}

func TestComplete(t *testing.T) {
	t.Parallel()
	p, _ := chess.ParseFEN(chess.TeamChess, "4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1")
	sans := func(ts []MoveText) []string {
		var out []string
		for _, mt := range ts {
			out = append(out, mt.SAN)
		}
		return out
	}
	// The sacrifices of a8, in SAN order: Assassin, Political Agent, then
	// the 14 Saboteurs, cut at the limit.
	got := sans(Complete(&p, "a8", 4))
	want := []string{"a8=Assassin:xh8", "a8=PoliticalAgent", "a8=Saboteur:Kd7", "a8=Saboteur:Kd8"}
	if !slices.Equal(got, want) {
		t.Errorf("Complete(a8, 4) = %v, want %v", got, want)
	}
	// Case, spaces and marks are ignored; the forced reply is completed.
	got = sans(Complete(&p, "A8=saboteur:r", 0))
	want = []string{"a8=Saboteur:Rf8", "a8=Saboteur:Rg8", "a8=Saboteur:Rh1+", "a8=Saboteur:Rh2",
		"a8=Saboteur:Rh3", "a8=Saboteur:Rh4", "a8=Saboteur:Rh5", "a8=Saboteur:Rh6", "a8=Saboteur:Rh7"}
	if !slices.Equal(got, want) {
		t.Errorf("Complete(A8=saboteur:r) = %v, want %v", got, want)
	}
	// UCI-style prefixes match the UCI form.
	ts := Complete(&p, "a7a8s:h8", 0)
	if len(ts) != 9 || ts[0].UCI != "a7a8s:h8f8" || ts[0].SAN != "a8=Saboteur:Rf8" {
		t.Errorf("Complete(a7a8s:h8) = %v", ts)
	}
	// Everything, without a limit, is exactly the legal moves.
	all := Complete(&p, "", 0)
	if len(all) != len(LegalMoves(&p)) {
		t.Errorf("Complete(\"\") lists %d moves, want %d", len(all), len(LegalMoves(&p)))
	}
	if n := len(Complete(&p, "", 25)); n != 25 {
		t.Errorf("limit 25 gave %d", n)
	}
	if n := len(Complete(&p, "zz", 25)); n != 0 {
		t.Errorf("nonsense prefix gave %d", n)
	}
}

// TestCompleteTwoCharacterSquare: a from square alone ("e2", "g7", "b1")
// lists that square's moves in the UCI-style form, as Survival's
// autocomplete does; a SAN match of the same text comes first.
func TestCompleteTwoCharacterSquare(t *testing.T) {
	t.Parallel()
	white, _ := chess.ParseFEN(chess.TeamChess, chess.StandardFEN)
	black, _ := chess.ParseFEN(chess.TeamChess, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	for _, c := range []struct {
		p     *chess.Position
		typed string
		want  []string
	}{
		{&white, "e2", []string{"e2e3", "e2e4"}},
		{&white, "E2", []string{"e2e3", "e2e4"}},
		{&white, "b1", []string{"b1a3", "b1c3"}},
		{&black, "g7", []string{"g7g5", "g7g6"}},
		{&black, "g8", []string{"g8f6", "g8h6"}},
	} {
		var got []string
		for _, mt := range Complete(c.p, c.typed, 25) {
			got = append(got, mt.UCI)
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("Complete(%q) = %v, want %v", c.typed, got, c.want)
		}
	}
	// A SAN match of the same two characters stays: "e3" and "e4" are
	// pawn moves, listed before any UCI-style match.
	var got []string
	for _, mt := range Complete(&white, "e4", 25) {
		got = append(got, mt.SAN)
	}
	if !slices.Equal(got, []string{"e4"}) {
		t.Errorf("Complete(e4) = %v, want [e4]", got)
	}
}

// TestCompleteStaysCheap: with four pawns of each side on the verge of the
// last rank, Saboteurs forcing Saboteurs make the full list long; a limited
// completion must not build it.
func TestCompleteStaysCheap(t *testing.T) {
	p, _ := chess.ParseFEN(chess.TeamChess, "1n2k1n1/PP4PP/8/3q4/3Q4/8/pp4pp/1N2K1N1 w - - 0 1")
	if n := CountLegalMoves(&p); n < 10000 {
		t.Fatalf("expected a large move count, got %d", n)
	}
	allocs := testing.AllocsPerRun(3, func() { Complete(&p, "a8=sab", 25) })
	if allocs > 200000 {
		t.Errorf("Complete allocated %.0f times", allocs)
	}
	ts := Complete(&p, "a8=sab", 25)
	if len(ts) != 25 {
		t.Fatalf("got %d completions", len(ts))
	}
	for _, mt := range ts {
		if m, err := ParseMove(&p, mt.SAN); err != nil || !m.Equal(mt.Move) {
			t.Errorf("%s does not parse back: %v", mt.SAN, err)
		}
	}
}

func TestSANOfIllegalMoveIsUCI(t *testing.T) {
	t.Parallel()
	p := chess.StartPosition(chess.TeamChess)
	m := Move{Board: chess.NewMove(chess.E1, chess.E8, chess.Normal, chess.NoRole)}
	if got := SAN(&p, m); got != "e1e8" {
		t.Errorf("SAN of an illegal move = %q", got)
	}
}

// FuzzParseMove: no input panics, a refusal is a *chess.MoveError, and an
// accepted move is legal, prints, and parses back from its SAN and UCI.
func FuzzParseMove(f *testing.F) {
	fens := []string{
		chess.StandardFEN,
		"4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1",
		"4k3/P7/8/7q/8/2K5/7p/Q7 w - - 0 1",
		"nr2k3/1P6/8/8/8/8/1K6/7Q w - - 0 1",
		"q3k3/8/8/8/8/8/p7/4K3 b - - 0 1",
		"4k3/P7/8/8/8/pp6/PP6/QK6 w - - 0 1", // six legal moves, three of them roles
		"4k3/P7/8/8/8/p7/PP6/QK6 w - - 0 1",  // eight, a single Assassin target
	}
	for _, s := range []string{"e4", "a8=Assassin:xh8", "a8=Saboteur:h1=Saboteur:Kd2", "a7a8s:e8d7",
		"bxa8=A:b8", "a8=Q", "a8 political agent", "a1=Sab:Kd2", "O-O", "a8=:", "a8=Saboteur::", "x"} {
		for i := range fens {
			f.Add(uint8(i), s)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		p, _ := chess.ParseFEN(chess.TeamChess, fens[int(which)%len(fens)])
		m, err := ParseMove(&p, s)
		if err != nil {
			me, ok := err.(*chess.MoveError)
			if !ok {
				t.Fatalf("%q: error type %T", s, err)
			}
			// Listed moves written in full are legal moves.
			for _, text := range me.Legal.Moves {
				if strings.Contains(text, "<") {
					continue // a role's placeholder: e8=Assassin:<target>
				}
				if _, err := ParseMove(&p, text); err != nil {
					t.Fatalf("%q: listed move %q does not parse: %v", s, text, err)
				}
			}
			return
		}
		if !isLegal(&p, m) {
			t.Fatalf("%q accepted as illegal %s", s, m)
		}
		for _, text := range []string{SAN(&p, m), m.UCI()} {
			back, err := ParseMove(&p, text)
			if err != nil || !back.Equal(m) {
				t.Fatalf("%q -> %s -> %q -> %v, %v", s, m, text, back, err)
			}
		}
	})
}
