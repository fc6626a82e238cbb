package chess

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestReadPGNReadsOurExport: the PGN that Game.PGN writes reads back to
// its tags, its SAN moves and its result, in every variant.
func TestReadPGNReadsOurExport(t *testing.T) {
	t.Parallel()
	for _, v := range Variants {
		r := rand.New(rand.NewPCG(uint64(v), 3))
		g := NewGame(v)
		for range 80 {
			ms := g.Position().LegalMoves()
			if len(ms) == 0 {
				break
			}
			if err := g.Play(ms[r.IntN(len(ms))]); err != nil {
				break
			}
		}
		text := g.PGN([]Tag{{"White", `Ann "the \ rook"`}, {"Event", "Test"}}, "1/2-1/2")
		got, err := ReadPGN(text)
		if err != nil {
			t.Fatalf("%s: %v\n%s", v, err, text)
		}
		if !reflect.DeepEqual(got.Moves, g.SANs()) || got.Result != "1/2-1/2" {
			t.Errorf("%s: moves %v result %s, want %v", v, got.Moves, got.Result, g.SANs())
		}
		if w, _ := got.Tag("White"); w != `Ann "the \ rook"` {
			t.Errorf("%s: White tag %q", v, w)
		}
		if f, _ := got.Tag("FEN"); f != g.StartFEN() {
			t.Errorf("%s: FEN tag %q, want %q", v, f, g.StartFEN())
		}
	}
}

func TestReadPGNSkipsWhatIsNotAMove(t *testing.T) {
	t.Parallel()
	text := "% an escape line\n[Event \"x\"]\n\n1.e4 {a comment\nover lines} e5 $1 2. Nf3!? (2. f4 exf4 (2... d5)) 2... Nc6 ; to the end\n3.Bb5 a6 1-0\n\n[Event \"next\"]\n1. d4 *\n"
	g, err := ReadPGN(text)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"e4", "e5", "Nf3!?", "Nc6", "Bb5", "a6"}
	if !reflect.DeepEqual(g.Moves, want) || g.Result != "1-0" || len(g.Tags) != 1 {
		t.Errorf("moves %v result %q tags %v; want %v 1-0", g.Moves, g.Result, g.Tags, want)
	}
	// No result: the game ends where the next one's tags begin.
	g, err = ReadPGN("1. e4 e5\n[Event \"2\"]\n1. d4 d5 *")
	if err != nil || !reflect.DeepEqual(g.Moves, []string{"e4", "e5"}) || g.Result != "*" {
		t.Errorf("game without result: %v %v", g, err)
	}
	// A Team Chess pass and sacrifice.
	g, err = ReadPGN("1. e4 -- {White is besieged and passes} 2. e8=Assassin:xd4+ *")
	if err != nil || !reflect.DeepEqual(g.Moves, []string{"e4", "--", "e8=Assassin:xd4+"}) {
		t.Errorf("team chess movetext: %v %v", g, err)
	}
}

func TestReadPGNRefuses(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"":                          "no game",
		"[Event \"x\"\n1. e4":       "not closed",
		"[Event x]\n1. e4":          "quoted value",
		"[\"x\"]":                   "no name",
		"1. e4 {never closed":       "comment",
		"1. e4 (1. d4 d5":           "variation",
		"1. e4 ) e5":                "closes no variation",
		"[Event \"x\"]\n\n1. e4 12": "move number",
		"\x89PNG\r\n\x1a\n\x00\x00": "binary",
	} {
		if _, err := ReadPGN(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one mentioning %q", text, err, want)
		}
	}
}

// TestReadPGNSaysWhenMoreFollows: a text of several games reads the first,
// and says that more follows (the CLI tells its user what was not read).
func TestReadPGNSaysWhenMoreFollows(t *testing.T) {
	t.Parallel()
	for text, more := range map[string]bool{
		"1. e4 e5 1-0\n":                         false,
		"1. e4 e5 1-0\n\n[Event \"b\"]\n1. d4 *": true,
		"1. e4 e5\n[Event \"b\"]\n1. d4 *":       true,
		"1. e4 e5 *\n   \n":                      false,
		"1. e4 e5":                               false,
	} {
		g, err := ReadPGN(text)
		if err != nil || !reflect.DeepEqual(g.Moves, []string{"e4", "e5"}) || g.More != more {
			t.Errorf("%q: %+v, %v; want moves e4 e5, More %v", text, g, err, more)
		}
	}
}
