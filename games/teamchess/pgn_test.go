package teamchess

import (
	"strings"
	"testing"

	"sandtable/games/chess"
)

func playAll(t *testing.T, g *Game, moves ...string) {
	t.Helper()
	for _, s := range moves {
		a, _ := g.Active(g.Turn())
		if _, err := g.Play(a.ID, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func TestPGN(t *testing.T) {
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
	got := g.PGN([]chess.Tag{{Name: "Event", Value: "Test \"cup\""}, {Name: "Site", Value: "Discord"},
		{Name: "Bad Tag", Value: "x"}, {Name: "Annotator", Value: "bot"}, {Name: "Result", Value: "0-1"},
		{Name: "TagOuts", Value: "forged"}})
	want := `[Event "Test \"cup\""]
[Site "Discord"]
[Date "????.??.??"]
[Round "?"]
[White "Ann, Bob"]
[Black "Cid, Dan"]
[Result "1-0"]
[Annotator "bot"]
[Variant "Team Chess"]
[SetUp "1"]
[FEN "7k/P4K2/8/6Q1/8/8/8/8 w - - 0 1"]
[WhiteCommanders "Ann* (+2 -0); Bob (+0 -0)"]
[BlackCommanders "Cid (+0 -1); Dan* (+0 -1)"]
[Sacrifices "1. a8=PoliticalAgent"]
[TagOuts "1... Black Cid (Political Agent) -> Dan"]
[Stagnation "W 3/4, B 3/4"]
[Termination "White wins by honourable checkmate"]
[WinCategory "honourable_checkmate"]

1. a8=PoliticalAgent
{Black: Cid tagged out (Political Agent), personal loss; personal win to Ann; Dan takes command}
1... Kh7 2. Kf8 Kh8 3. Qg6 -- {Black is besieged and passes}
{White (Ann) declines the Siege Win and makes one more move} 4. Qh6#
{White wins by honourable checkmate; personal win to Ann; personal loss to Dan}
1-0
`
	if got != want {
		t.Errorf("PGN:\n%s\nwant:\n%s", got, want)
	}
}

func TestPGNMutualLossAndOngoing(t *testing.T) {
	t.Parallel()
	g, _ := NewGame(Setup{White: ids("ann ann"), Black: ids("cid dan")})
	if pgn := g.PGN(nil); !strings.Contains(pgn, `[Result "*"]`) || !strings.Contains(pgn, `[Sacrifices "-"]`) ||
		!strings.Contains(pgn, `[TagOuts "-"]`) || strings.Contains(pgn, "Termination") ||
		!strings.Contains(pgn, `[WhiteCommanders "Ann* (+0 -0); Ann 2nd (+0 -0)"]`) || !strings.Contains(pgn, `[White "Ann"]`) {
		t.Errorf("ongoing PGN:\n%s", pgn)
	}
	playAll(t, g, "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8")
	pgn := g.PGN([]chess.Tag{{Name: "White", Value: "Team Ann"}})
	for _, want := range []string{`[Result "*"]`, `[White "Team Ann"]`, `[Termination "both teams lose (mutual loss)"]`,
		`[WinCategory "mutual_loss"]`, `[WhiteCommanders "Ann* (+0 -1); Ann 2nd (+0 -0)"]`,
		"4. Ng1 Ng8\n{both teams lose (mutual loss); personal loss to Ann; personal loss to Cid} *\n"} {
		if !strings.Contains(pgn, want) {
			t.Errorf("mutual loss PGN lacks %q:\n%s", want, pgn)
		}
	}
}

// TestRecord: the record lists moves, sacrifices, forced moves, passes,
// tag-outs with the personal win and loss, and the fatigue counters.
func TestRecord(t *testing.T) {
	t.Parallel()
	g, _ := NewGame(Setup{FEN: "4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1", White: ids("ann bob"), Black: ids("cid dan")})
	playAll(t, g, "a8=Saboteur:Rh2")
	if _, err := g.TagOut("cid"); err != nil {
		t.Fatal(err)
	}
	playAll(t, g, "Rh2", "Kd1")
	want := []string{
		"1. White (Ann): a8=Saboteur:Rh2 [stagnation W 0/4, B 0/4]",
		"Black: Cid tagged out (voluntary), personal loss; personal win to Ann; Dan takes command [stagnation W 0/4, B 0/4]",
		"1... Black (Dan): Rh2 (forced by Saboteur) [stagnation W 0/4, B 1/4]",
		"2. White (Ann): Kd1 [stagnation W 1/4, B 1/4]",
	}
	if got := g.RecordLines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("record:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	ev := g.Events()
	if ev[0].Kind != MoveEvent || ev[0].Role != Saboteur || ev[0].UCI != "a7a8s:h8h2" || ev[1].Reason != Voluntary ||
		ev[1].Incoming.ID != "dan" || ev[1].Credited.ID != "ann" || !ev[2].Forced || ev[3].Stagnation != [2]int{1, 1} {
		t.Errorf("events: %+v", ev)
	}
}
