package chess

import (
	"slices"
	"strings"
	"testing"
)

func play(t *testing.T, g *Game, moves ...string) {
	t.Helper()
	for _, s := range moves {
		if _, _, err := g.PlayText(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func TestGameRepetitionClaimsAndFivefold(t *testing.T) {
	t.Parallel()
	g := NewGame(Chess)
	shuffle := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	play(t, g, shuffle...)
	if n := g.RepetitionCount(); n != 2 {
		t.Fatalf("RepetitionCount = %d, want 2", n)
	}
	if len(g.Claims()) != 0 {
		t.Errorf("Claims after two occurrences = %v", g.Claims())
	}
	play(t, g, "Nf3", "Nf6", "Ng1")
	m, _ := g.Position().ParseMove("Ng8")
	if c := g.ClaimsWithMove(m); !slices.Equal(c, []Claim{ThreefoldRepetition}) {
		t.Errorf("ClaimsWithMove(Ng8) = %v, want threefold", c)
	}
	play(t, g, "Ng8")
	if c := g.Claims(); !slices.Equal(c, []Claim{ThreefoldRepetition}) {
		t.Errorf("Claims = %v, want threefold repetition", c)
	}
	if g.Status().Over() {
		t.Fatal("threefold repetition must not end the game by itself")
	}
	play(t, g, shuffle...)
	if g.Status().Over() {
		t.Fatal("fourfold repetition must not end the game")
	}
	play(t, g, shuffle...)
	if got := g.Status(); got != (Status{Draw, FivefoldRepetition}) {
		t.Fatalf("Status = %v, want fivefold repetition", got)
	}
	if _, _, err := g.PlayText("e4"); err == nil || !strings.Contains(err.Error(), "the game is over") {
		t.Errorf("move after fivefold: %v", err)
	}
	if len(g.Claims()) != 0 {
		t.Error("no claims once the game is over")
	}
}

func TestRepetitionComparesEnPassantAndCastlingRights(t *testing.T) {
	t.Parallel()
	// After 1.e4 the d4 pawn can capture en passant: that position differs
	// from the same placement later, when the right is gone (FIDE 9.2.3.1).
	g, _ := NewGameFromFEN(Chess, "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1")
	play(t, g, "e4", "Ke7", "Ke2", "Ke8", "Ke1")
	if n := g.RepetitionCount(); n != 1 {
		t.Errorf("with a usable en passant right earlier: count %d, want 1", n)
	}
	play(t, g, "Ke7", "Ke2", "Ke8", "Ke1")
	if n := g.RepetitionCount(); n != 2 {
		t.Errorf("count %d, want 2", n)
	}
	// An en passant square nobody can use does not make positions differ.
	g, _ = NewGameFromFEN(Chess, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
	play(t, g, "e4", "Ke7", "Ke2", "Ke8", "Ke1")
	if n := g.RepetitionCount(); n != 2 {
		t.Errorf("unusable en passant: count %d, want 2", n)
	}
	// Castling rights lost: different position (FIDE 9.2.3.2).
	g, _ = NewGameFromFEN(Chess, "r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1")
	play(t, g, "Ra2", "Ra7", "Ra1", "Ra8")
	if n := g.RepetitionCount(); n != 1 {
		t.Errorf("castling rights lost: count %d, want 1", n)
	}
	play(t, g, "Ra2", "Ra7", "Ra1", "Ra8")
	if n := g.RepetitionCount(); n != 2 {
		t.Errorf("count %d, want 2", n)
	}
}

func TestFiftyAndSeventyFiveMoveRules(t *testing.T) {
	t.Parallel()
	g, _ := NewGameFromFEN(Chess, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
	m, _ := g.Position().ParseMove("Ra2")
	if c := g.ClaimsWithMove(m); !slices.Equal(c, []Claim{FiftyMoveRule}) {
		t.Errorf("ClaimsWithMove = %v, want 50-move rule", c)
	}
	if len(g.Claims()) != 0 {
		t.Errorf("Claims at 99 plies = %v", g.Claims())
	}
	play(t, g, "Ra2")
	if c := g.Claims(); !slices.Equal(c, []Claim{FiftyMoveRule}) {
		t.Errorf("Claims = %v, want 50-move rule", c)
	}
	g, _ = NewGameFromFEN(Chess, "4k3/8/8/8/8/8/8/R3K3 w - - 149 80")
	play(t, g, "Ra2")
	if got := g.Status(); got != (Status{Draw, SeventyFiveMoveRule}) {
		t.Errorf("Status = %v, want 75-move rule", got)
	}
	// A pawn move or capture resets the count.
	g, _ = NewGameFromFEN(Chess, "4k3/8/8/8/8/8/4P3/R3K3 w - - 149 80")
	play(t, g, "e4")
	if g.Status().Over() || g.Position().HalfmoveClock() != 0 {
		t.Errorf("pawn move: status %v clock %d", g.Status(), g.Position().HalfmoveClock())
	}
	// Survival has the same rules.
	g, _ = NewGameFromFEN(Survival, "4k3/8/8/8/8/8/8/R3K3 w - - 149 80")
	play(t, g, "Ra2")
	if got := g.Status(); got != (Status{Draw, SeventyFiveMoveRule}) {
		t.Errorf("Survival status = %v", got)
	}
	// Team Chess: no repetition or move-count draws (issue 6 ruling 6).
	g, _ = NewGameFromFEN(TeamChess, "4k3/8/8/8/8/8/8/R3K3 w - - 149 80")
	play(t, g, "Ra2")
	if g.Status().Over() || len(g.Claims()) != 0 {
		t.Errorf("Team Chess: status %v claims %v", g.Status(), g.Claims())
	}
}

func TestSurvivalGameToElimination(t *testing.T) {
	t.Parallel()
	g := NewGame(Survival)
	if g.StartFEN() != TartanFEN {
		t.Fatalf("start FEN %s", g.StartFEN())
	}
	// White's first move must be a promotion (rule text, "Gameplay").
	for _, m := range g.Position().LegalMoves() {
		if !m.IsPromotion() {
			t.Errorf("first move %s is not a promotion", m)
		}
	}
	g, _ = NewGameFromFEN(Survival, "8/8/8/8/1p6/8/P7/8 w - - 0 1")
	play(t, g, "a4", "bxa3")
	if got := g.Status(); got != (Status{BlackWins, Elimination}) {
		t.Errorf("Status = %v, want Black wins by elimination", got)
	}
	if from, to, ok := g.LastMoveSquares(); !ok || from != SquareAt(1, 3) || to != SquareAt(0, 2) {
		t.Errorf("LastMoveSquares = %v %v %v", from, to, ok)
	}
	if !slices.Equal(g.SANs(), []string{"a4", "bxa3"}) || !slices.Equal(g.UCIs(), []string{"a2a4", "b4a3"}) {
		t.Errorf("SANs %v UCIs %v", g.SANs(), g.UCIs())
	}
}

func TestReplayGameAndClone(t *testing.T) {
	t.Parallel()
	g := NewGame(Chess)
	play(t, g, "e4", "e5", "Nf3", "Nc6", "Bb5", "a6")
	r, err := ReplayGame(Chess, g.StartFEN(), g.UCIs())
	if err != nil {
		t.Fatal(err)
	}
	if r.Position().FEN() != g.Position().FEN() || r.Ply() != 6 {
		t.Errorf("replay differs: %s", r.Position().FEN())
	}
	_, err = ReplayGame(Chess, StandardFEN, []string{"e4", "e5", "Ke3"})
	if err == nil || !strings.Contains(err.Error(), "move 3 (\"Ke3\")") {
		t.Errorf("replay error = %v", err)
	}
	if _, err := ReplayGame(Chess, "bad", nil); err == nil {
		t.Error("bad FEN accepted")
	}
	c := g.Clone()
	play(t, c, "Ba4")
	if g.Ply() != 6 || c.Ply() != 7 {
		t.Error("Clone is not independent")
	}
	if _, ok := NewGame(Chess).LastMove(); ok {
		t.Error("LastMove on a new game")
	}
	before := g.Position().FEN()
	if _, _, err := g.PlayText("Ke3"); err == nil || g.Position().FEN() != before || g.Ply() != 6 {
		t.Error("illegal PlayText changed the game")
	}
}

func TestPGN(t *testing.T) {
	t.Parallel()
	g := NewGame(Chess)
	play(t, g, "f3", "e5", "g4", "Qh4#")
	pgn := g.PGN([]Tag{{"White", "Ann \"A\""}, {"Black", "Bob"}, {"Event", "Test"}, {"Result", "1-0"}, {"Bad Name", "x"}, {"Annotator", "bot"}}, "")
	want := `[Event "Test"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "Ann \"A\""]
[Black "Bob"]
[Result "0-1"]
[Annotator "bot"]
[Variant "Standard"]
[SetUp "1"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]

1. f3 e5 2. g4 Qh4# 0-1
`
	if pgn != want {
		t.Errorf("PGN:\n%s\nwant:\n%s", pgn, want)
	}
	// Caller's result (resignation, agreement, time) wins; Black to move starts "1...".
	s, _ := NewGameFromFEN(Survival, "8/8/8/8/8/8/8/k1K5 b - - 0 1")
	play(t, s, "Ka2")
	pgn = s.PGN(nil, "1/2-1/2")
	for _, part := range []string{`[Variant "Survival Chess: Tartan Grid"]`, `[FEN "8/8/8/8/8/8/8/k1K5 b - - 0 1"]`, "\n1... Ka2 1/2-1/2\n", `[Result "1/2-1/2"]`} {
		if !strings.Contains(pgn, part) {
			t.Errorf("PGN lacks %q:\n%s", part, pgn)
		}
	}
	// Long games wrap at 80 columns.
	long := NewGame(Chess)
	for i := 0; i < 8; i++ {
		play(t, long, "Nf3", "Nf6", "Ng1", "Ng8")
		if long.Status().Over() {
			break
		}
	}
	for _, line := range strings.Split(long.PGN(nil, "*"), "\n") {
		if len(line) > 80 {
			t.Errorf("line longer than 80: %q", line)
		}
	}
}
