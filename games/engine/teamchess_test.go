package engine

import (
	"fmt"
	"strings"
	"testing"

	"sandtable/games/chess"
	"sandtable/internal/testkit"

	"sandtable/games/teamchess"
)

func tcGame(t *testing.T, fen string) *teamchess.Game {
	t.Helper()
	return tcTeams(t, fen, 1)
}

// tcTeams returns a game with n commanders a side.
func tcTeams(t *testing.T, fen string, n int) *teamchess.Game {
	t.Helper()
	var w, b []teamchess.Member
	for i := 0; i < n; i++ {
		w = append(w, teamchess.Member{ID: fmt.Sprint("w", i)})
		b = append(b, teamchess.Member{ID: fmt.Sprint("b", i)})
	}
	g, err := teamchess.NewGame(teamchess.Setup{FEN: fen, White: w, Black: b})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func tcPlayer(t *testing.T, spec string, seed uint64) *TeamChessPlayer {
	t.Helper()
	p, err := NewTeamChessPlayer(spec, seed)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTeamChessMateInOne(t *testing.T) {
	t.Parallel()
	for _, fen := range []string{"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1"} {
		g := tcGame(t, fen)
		r := tcPlayer(t, "intermediate", 1).Choose(g, 0)
		if _, err := g.Apply(r.Action); err != nil {
			t.Fatalf("%s: %v", fen, err)
		}
		if res := g.Result(); res.Category != teamchess.HonourableCheckmate {
			t.Errorf("%s: played %s, result %v; want an honourable checkmate", fen, r.Action.Move, res)
		}
	}
}

// With one commander a side, a Political Agent's revolution ends the game
// (a fatigue victory); with two, it only tags the opponent out, and the
// Assassin removing the Queen wins the most.
func TestTeamChessSacrificeRoleAndTarget(t *testing.T) {
	t.Parallel()
	g := tcGame(t, "4k3/1P6/2n5/7q/8/8/8/Q3K3 w - - 0 1")
	if r := tcPlayer(t, "easy", 3).Choose(g, 0); r.Action.Move != "b7b8p" {
		t.Errorf("one commander a side: played %q; want the winning revolution b7b8p", r.Action.Move)
	}
	g = tcTeams(t, "4k3/1P6/2n5/7q/8/8/8/Q3K3 w - - 0 1", 2)
	for _, lvl := range []string{"easy", "strongest"} {
		c := g.Clone()
		r := tcPlayer(t, lvl, 3).Choose(c, 0)
		if !strings.HasPrefix(r.Action.Move, "b7b8a:") && !strings.HasPrefix(r.Action.Move, "b7b8s:") {
			t.Errorf("%s played %q; want an Assassin or a Saboteur", lvl, r.Action.Move)
		}
		c.Apply(r.Action)
		// The queen is gone at once (Assassin) or after the forced reply
		// and White's answer (a Saboteur forcing it en prise).
		for i := 0; i < 2 && queens(c, chess.Black) != 0; i++ {
			c.Apply(tcPlayer(t, lvl, 3).Choose(c, 0).Action)
		}
		if queens(c, chess.Black) != 0 {
			t.Errorf("%s played %q and Black kept its Queen", lvl, r.Action.Move)
		}
		if queens(c, chess.White) == 0 {
			t.Errorf("%s played %q and lost its Queen", lvl, r.Action.Move)
		}
	}
}

func TestTeamChessSiegeChoice(t *testing.T) {
	t.Parallel()
	// A mate follows a continued siege: continue (an honourable checkmate
	// beats the Siege Win).
	g := tcGame(t, "7k/5K2/8/6Q1/8/8/8/8 w - - 0 1")
	if _, err := g.Play("", "Qg6"); err != nil {
		t.Fatal(err)
	}
	if g.Phase() != teamchess.SiegeDecision {
		t.Fatalf("phase %v", g.Phase())
	}
	r := tcPlayer(t, "strongest", 1).Choose(g, 0)
	if r.Action.Kind != teamchess.ActSiegeContinue {
		t.Fatalf("chose %v; want to continue into the mate", r.Action)
	}
	g.Apply(r.Action)
	r = tcPlayer(t, "strongest", 1).Choose(g, 0)
	g.Apply(r.Action)
	if g.Result().Category != teamchess.HonourableCheckmate {
		t.Errorf("after continuing: %v", g.Result())
	}
	// No mate after continuing: take the Siege Win.
	g = tcGame(t, "7k/5K2/8/6P1/8/8/8/8 w - - 0 1")
	if _, err := g.Play("", "g6"); err != nil {
		t.Fatal(err)
	}
	if g.Phase() != teamchess.SiegeDecision {
		t.Fatalf("phase %v", g.Phase())
	}
	for _, lvl := range []string{"easy", "strongest"} {
		r = tcPlayer(t, lvl, 1).Choose(g, 0)
		if r.Action.Kind != teamchess.ActSiegeWin {
			t.Errorf("%s chose %v; want the Siege Win", lvl, r.Action)
		}
	}
}

// tcPlay plays a whole game between a and b (a White) with Apply, which
// refuses any illegal action, up to maxActions; it returns the actions.
func tcPlay(t *testing.T, a, b *TeamChessPlayer, maxActions int) ([]string, *teamchess.Game) {
	t.Helper()
	g := tcGame(t, "")
	var log []string
	for i := 0; i < maxActions && g.Phase() != teamchess.Finished; i++ {
		p := a
		if g.Turn() != 0 {
			p = b
		}
		r := p.Choose(g, 0)
		if r.Action.Kind == "" {
			t.Fatalf("no action in an unfinished game at %v", g.Position())
		}
		if _, err := g.Apply(r.Action); err != nil {
			t.Fatalf("%s chose an illegal action %v : %v", p.Name(), r.Action, err)
		}
		log = append(log, string(r.Action.Kind)+" "+r.Action.Move)
	}
	return log, g
}

func TestTeamChessLegalWholeGames(t *testing.T) {
	t.Parallel()
	games, maxActions := 4, 300
	if !testkit.Long() {
		games, maxActions = 2, 120
	}
	for i := 0; i < games; i++ {
		eng, rnd := tcPlayer(t, "easy", uint64(i)), tcPlayer(t, "random", uint64(100+i))
		a, b := eng, rnd
		if i%2 == 1 {
			a, b = rnd, eng
		}
		log, g := tcPlay(t, a, b, maxActions)
		t.Logf("game %d: %d actions, %v", i, len(log), g.Result())
	}
}

func TestTeamChessDeterministic(t *testing.T) {
	t.Parallel()
	play := func() string {
		log, _ := tcPlay(t, tcPlayer(t, "intermediate", 7), tcPlayer(t, "easy", 8), 30)
		return strings.Join(log, ",")
	}
	if x, y := play(), play(); x != y {
		t.Errorf("two games with the same seeds differ:\n%s\n%s", x, y)
	}
}

// queens returns side's queens in g.
func queens(g *teamchess.Game, side chess.Color) chess.Bitboard {
	p := g.Position()
	return p.Pieces(side, chess.Queen)
}
