package chess

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sandtable/internal/testkit"
)

// randomGame plays up to maxPly random legal moves from fen. With
// probability repeat (per ply) it prefers a move back to a position that
// has already occurred, so games reach threefold and fivefold repetitions.
func randomGame(t testing.TB, rng *rand.Rand, v Variant, fen string, maxPly int, repeat float64) *Game {
	t.Helper()
	g, err := NewGameFromFEN(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	for g.Ply() < maxPly {
		if _, over := g.Outcome(); over {
			break
		}
		moves := g.Position().LegalMoves()
		m := moves[rng.IntN(len(moves))]
		if rng.Float64() < repeat {
			for _, c := range moves {
				q := g.pos
				q.play(c)
				if slices.Contains(g.keys, q.RepetitionKey()) {
					m = c
					break
				}
			}
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// resumeThroughJSON snapshots g, round-trips the snapshot through JSON and
// resumes it.
func resumeThroughJSON(t *testing.T, g *Game) *Game {
	t.Helper()
	b, err := json.Marshal(g.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	var s Snapshot
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	r, err := Resume(g.Variant(), s)
	if err != nil {
		t.Fatalf("Resume(%s): %v", b, err)
	}
	return r
}

func snapshotsEqual(a, b Snapshot) bool { return reflect.DeepEqual(a, b) }

// sameGame reports the first difference between a replayed game g and a
// resumed game r in the methods a resumed game must share.
func sameGame(g, r *Game) string {
	if *g.Position() != *r.Position() {
		return fmt.Sprintf("Position %s / %s", g.Position().FEN(), r.Position().FEN())
	}
	if g.Status() != r.Status() {
		return fmt.Sprintf("Status %v / %v", g.Status(), r.Status())
	}
	go1, ok1 := g.Outcome()
	ro, ok2 := r.Outcome()
	if go1 != ro || ok1 != ok2 {
		return fmt.Sprintf("Outcome %v %v / %v %v", go1, ok1, ro, ok2)
	}
	if g.RepetitionCount() != r.RepetitionCount() {
		return fmt.Sprintf("RepetitionCount %d / %d", g.RepetitionCount(), r.RepetitionCount())
	}
	if !slices.Equal(g.Claims(), r.Claims()) {
		return fmt.Sprintf("Claims %v / %v", g.Claims(), r.Claims())
	}
	if g.Ply() != r.Ply() {
		return fmt.Sprintf("Ply %d / %d", g.Ply(), r.Ply())
	}
	gm, gok := g.LastMove()
	rm, rok := r.LastMove()
	if gm != rm || gok != rok {
		return fmt.Sprintf("LastMove %v %v / %v %v", gm, gok, rm, rok)
	}
	if gs, rs := g.Snapshot(), r.Snapshot(); !snapshotsEqual(gs, rs) {
		return fmt.Sprintf("Snapshot %+v / %+v", gs, rs)
	}
	return ""
}

// checkResumeAt compares, at one ply of a game, the replayed game g with
// the game resumed from its snapshot: the state, the claims with every
// legal move, an illegal move's refusal, the endings, and then every later
// move of the game played on both (as text on the resumed game).
func checkResumeAt(t *testing.T, g *Game, rest []Move, rng *rand.Rand) {
	t.Helper()
	r := resumeThroughJSON(t, g)
	where := fmt.Sprintf("%s ply %d (%s)", g.Variant(), g.Ply(), g.Position().FEN())
	if d := sameGame(g, r); d != "" {
		t.Fatalf("%s: resumed differs: %s", where, d)
	}
	for _, m := range g.Position().LegalMoves() {
		if a, b := g.ClaimsWithMove(m), r.ClaimsWithMove(m); !slices.Equal(a, b) {
			t.Fatalf("%s: ClaimsWithMove(%s) %v / %v", where, m, a, b)
		}
	}
	_, _, e1 := g.Clone().PlayText("Qz9")
	_, _, e2 := r.PlayText("Qz9")
	if fmt.Sprint(e1) != fmt.Sprint(e2) {
		t.Fatalf("%s: refusal %v / %v", where, e1, e2)
	}
	// The endings from outside the board, on copies.
	for _, c := range endingCalls {
		gc, rc := g.Clone(), r.Clone()
		e1, e2 := c.call(gc), c.call(rc)
		if fmt.Sprint(e1) != fmt.Sprint(e2) {
			t.Fatalf("%s: %s: %v / %v", where, c.name, e1, e2)
		}
		if d := sameGame(gc, rc); d != "" {
			t.Fatalf("%s: after %s: %s", where, c.name, d)
		}
	}
	// Go on with the same moves; the replayed copy follows.
	gc := g.Clone()
	for i, m := range rest {
		text := gc.Position().SAN(m)
		if rng.IntN(2) == 0 {
			text = m.UCI()
		}
		m1, san1, e1 := gc.PlayText(text)
		m2, san2, e2 := r.PlayText(text)
		if m1 != m2 || san1 != san2 || fmt.Sprint(e1) != fmt.Sprint(e2) {
			t.Fatalf("%s: +%d %s: %v %s %v / %v %s %v", where, i+1, text, m1, san1, e1, m2, san2, e2)
		}
		if d := sameGame(gc, r); d != "" {
			t.Fatalf("%s: +%d %s: %s", where, i+1, text, d)
		}
	}
	if !slices.Equal(r.Moves(), rest) {
		t.Fatalf("%s: resumed history %v, want the %d moves since", where, r.Moves(), len(rest))
	}
}

// TestResumeBehavesLikeReplay: at every ply of many random games (Survival
// from the Tartan Grid and from sparse positions, standard chess, Team
// Chess), Resume(Snapshot()) behaves like the replayed game, now and for
// the rest of the game; some games are steered into repetitions.
func TestResumeBehavesLikeReplay(t *testing.T) {
	t.Parallel()
	starts := []struct {
		v   Variant
		fen string
	}{
		{Survival, TartanFEN},
		{Survival, "k7/8/8/8/8/8/8/7K w - - 0 1"},
		{Survival, "r3k3/1p6/8/8/8/8/6P1/R3K2N w - - 30 40"},
		{Chess, StandardFEN},
		{Chess, "4k3/8/8/8/3p4/8/4P3/R3K2R w KQ - 0 1"},
		{Chess, "4k3/8/8/8/8/8/8/R3K3 w - - 95 80"},
		{TeamChess, StandardFEN},
	}
	games := 4
	if !testkit.Long() {
		games = 2
	}
	rng := rand.New(rand.NewPCG(13, 7))
	ends := map[string]int{}
	positions, claimable := 0, 0
	for _, st := range starts {
		for i := 0; i < games; i++ {
			repeat := []float64{0.9, 0, 0.5}[i%3]
			full := randomGame(t, rng, st.v, st.fen, 120, repeat)
			o, _ := full.Outcome()
			ends[o.Method.Key()]++
			g, err := NewGameFromFEN(st.v, st.fen)
			if err != nil {
				t.Fatal(err)
			}
			moves := full.Moves()
			for ply := 0; ply <= len(moves); ply++ {
				checkResumeAt(t, g, moves[ply:], rng)
				positions++
				if len(g.Claims()) > 0 {
					claimable++
				}
				if ply < len(moves) {
					if err := g.Play(moves[ply]); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	t.Logf("%d positions resumed, %d with a draw claim; endings of the random games: %v", positions, claimable, ends)
	if claimable == 0 {
		t.Error("no position with a draw claim was resumed")
	}
	for _, m := range []string{"fivefold_repetition", "elimination"} {
		if ends[m] == 0 {
			t.Errorf("no random game ended by %s: the generator misses a case", m)
		}
	}
}

// TestResumeRepetitionsAndEndings: hand-built cases of the keys window and
// of recorded endings.
func TestResumeRepetitionsAndEndings(t *testing.T) {
	t.Parallel()
	g := NewGame(Chess)
	play(t, g, "e4", "e5", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")
	s := g.Snapshot()
	// Since 1...e5: the positions after plies 2 to 9.
	if len(s.Keys) != 8 || s.Ply != 9 || s.LastMove != "f3g1" {
		t.Fatalf("snapshot %+v", s)
	}
	r, err := Resume(Chess, s)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := r.Position().ParseMove("Ng8")
	if c, err := r.ClaimDrawWithMove(m); err != nil || c != ThreefoldRepetition {
		t.Fatalf("resumed claim with Ng8: %v %v", c, err)
	}
	if r.Ply() != 10 || len(r.Moves()) != 1 || r.StartFEN() != g.Position().FEN() {
		t.Errorf("resumed history: ply %d moves %v start %s", r.Ply(), r.Moves(), r.StartFEN())
	}
	if !strings.Contains(r.PGN(nil, ""), "\n5... Ng8 1/2-1/2\n") {
		t.Errorf("resumed PGN:\n%s", r.PGN(nil, ""))
	}
	s = r.Snapshot()
	if s.Outcome == nil || *s.Outcome != (Outcome{Result: Draw, Method: MethodThreefoldRepetition, Claimed: true}) {
		t.Fatalf("snapshot outcome %v", s.Outcome)
	}
	r2, err := Resume(Chess, s)
	if err != nil {
		t.Fatal(err)
	}
	if d := sameGame(r, r2); d != "" {
		t.Fatal(d)
	}
	if err := r2.Play(NewMove(SquareAt(4, 0), SquareAt(4, 1), Normal, NoRole)); !errors.As(err, new(*GameOverError)) {
		t.Errorf("move after a resumed claimed draw: %v", err)
	}

	// En passant: the kind is kept, and a pinned pawn's unusable en passant
	// square still restores the position exactly.
	g, _ = NewGameFromFEN(Chess, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
	play(t, g, "exd6")
	if s := g.Snapshot(); s.LastMove != "e5d6" || s.LastMoveKind != EnPassant {
		t.Errorf("en passant snapshot %+v", s)
	}
	g, _ = NewGameFromFEN(Chess, "8/8/8/8/1k3p1R/8/4P3/4K3 w - - 0 1")
	play(t, g, "e4")
	if g.Position().EnPassantSquare() == NoSquare || g.Position().LegalEnPassant() != NoSquare {
		t.Fatalf("setup: a pinned pawn must face an unusable en passant square")
	}
	if r := resumeThroughJSON(t, g); *r.Position() != *g.Position() {
		t.Errorf("pinned en passant: %+v / %+v", r.Position(), g.Position())
	}

	// Recorded endings survive; a board ending is recomputed.
	for _, end := range []func(*Game) error{
		func(g *Game) error { return g.Resign(Black) },
		func(g *Game) error { return g.AgreeDraw() },
		func(g *Game) error { return g.Timeout(White) },
	} {
		g := NewGame(Survival)
		play(t, g, "a8=Q")
		if err := end(g); err != nil {
			t.Fatal(err)
		}
		if d := sameGame(g, resumeThroughJSON(t, g)); d != "" {
			t.Error(d)
		}
	}
}

func TestResumeRefusesCorruptSnapshots(t *testing.T) {
	t.Parallel()
	g := NewGame(Chess)
	play(t, g, "e4", "e5", "Nf3", "Nc6")
	good := g.Snapshot()
	key := good.Keys[len(good.Keys)-1]
	ep, _ := NewGameFromFEN(Chess, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
	play(t, ep, "exd6")
	epSnap := ep.Snapshot()
	mate, _ := NewGameFromFEN(Chess, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
	mateSnap := mate.Snapshot()
	beyond, _ := ParseFEN(Chess, "4k3/8/8/8/8/8/8/R3K3 w - - 20 30")
	beyondPlies := Snapshot{FEN: beyond.FEN(), Keys: []string{fmt.Sprintf("%016x", beyond.RepetitionKey()+1), fmt.Sprintf("%016x", beyond.RepetitionKey())}}
	surv := NewGame(Survival)
	play(t, surv, "a8=Q")
	survSnap := surv.Snapshot()

	for _, c := range []struct {
		name  string
		v     Variant
		edit  func(s *Snapshot)
		base  Snapshot
		field string
	}{
		{"bad FEN", Chess, func(s *Snapshot) { s.FEN = "rnbqkbnr/pppppppp/8/8 w" }, good, "fen"},
		{"other variant", Survival, func(s *Snapshot) {}, good, "keys"},
		{"not a position of the variant", Chess, func(s *Snapshot) {}, survSnap, "fen"},
		{"negative ply", Chess, func(s *Snapshot) { s.Ply = -1 }, good, "ply"},
		{"no keys", Chess, func(s *Snapshot) { s.Keys = nil }, good, "keys"},
		{"key not hex", Chess, func(s *Snapshot) { s.Keys = []string{"zz" + key[2:]} }, good, "keys"},
		{"short key", Chess, func(s *Snapshot) { s.Keys = []string{key[1:]} }, good, "keys"},
		{"wrong last key", Chess, func(s *Snapshot) { s.Keys = []string{strings.Repeat("0", 15) + "1"} }, good, "keys"},
		{"keys beyond the halfmove clock", Chess, func(s *Snapshot) { s.Keys = []string{key, key, key, key} }, good, "keys"},
		{"keys beyond the plies", Chess, func(s *Snapshot) {}, beyondPlies, "keys"},
		{"last move before the first ply", Chess, func(s *Snapshot) { s.Ply, s.Keys = 0, []string{key} }, good, "last_move"},
		{"no last move", Chess, func(s *Snapshot) { s.LastMove = "" }, good, "last_move"},
		{"last move not UCI", Chess, func(s *Snapshot) { s.LastMove = "Nc6" }, good, "last_move"},
		{"last move not shown", Chess, func(s *Snapshot) { s.LastMove = "g8f6" }, good, "last_move"},
		{"last move origin occupied", Chess, func(s *Snapshot) { s.LastMove = "a7c6" }, good, "last_move"},
		{"last move kind unknown", Chess, func(s *Snapshot) { s.LastMoveKind = 9 }, good, "last_move"},
		{"en passant as a pawn double step", Chess, func(s *Snapshot) { s.LastMoveKind = DoublePush }, epSnap, "last_move"},
		{"castling in Survival", Survival, func(s *Snapshot) { s.LastMove, s.LastMoveKind = "a7a8", CastleShort }, survSnap, "last_move"},
		{"promotion to the wrong piece", Survival, func(s *Snapshot) { s.LastMove = "a7a8k" }, survSnap, "last_move"},
		{"resignation ending in a draw", Chess, func(s *Snapshot) { s.Outcome = &Outcome{Result: Draw, Method: MethodResignation} }, good, "outcome"},
		{"outcome without a method", Chess, func(s *Snapshot) { s.Outcome = &Outcome{Result: WhiteWins} }, good, "outcome"},
		{"ongoing outcome", Chess, func(s *Snapshot) { s.Outcome = &Outcome{Method: MethodAgreement} }, good, "outcome"},
		{"checkmate not on the board", Chess, func(s *Snapshot) { s.Outcome = &Outcome{Result: WhiteWins, Method: MethodCheckmate} }, good, "outcome"},
		{"threefold without repetition", Chess, func(s *Snapshot) {
			s.Outcome = &Outcome{Result: Draw, Method: MethodThreefoldRepetition, Claimed: true}
		}, good, "outcome"},
		{"fifty moves too early", Chess, func(s *Snapshot) {
			s.Outcome = &Outcome{Result: Draw, Method: MethodFiftyMoveRule, Claimed: true}
		}, good, "outcome"},
		{"unclaimed threefold", Chess, func(s *Snapshot) { s.Outcome = &Outcome{Result: Draw, Method: MethodThreefoldRepetition} }, good, "outcome"},
		{"time draw with material", Chess, func(s *Snapshot) { s.Outcome = &Outcome{Result: Draw, Method: MethodTime} }, good, "outcome"},
		{"resignation after checkmate", Chess, func(s *Snapshot) { s.Outcome = &Outcome{Result: WhiteWins, Method: MethodResignation} }, mateSnap, "outcome"},
		{"agreement in Team Chess", TeamChess, func(s *Snapshot) { s.Outcome = &Outcome{Result: Draw, Method: MethodAgreement} }, good, "outcome"},
		{"time in Team Chess", TeamChess, func(s *Snapshot) { s.Outcome = &Outcome{Result: BlackWins, Method: MethodTime} }, good, "outcome"},
	} {
		s := c.base
		s.Keys = slices.Clone(s.Keys)
		c.edit(&s)
		g, err := Resume(c.v, s)
		var se *SnapshotError
		if !errors.As(err, &se) || se.Field != c.field || g != nil {
			t.Errorf("%s: Resume = %v, %v; want a *SnapshotError on %s", c.name, g, err, c.field)
		}
	}
	// The good ones resume.
	for _, s := range []Snapshot{good, epSnap, mateSnap, survSnap} {
		v := Chess
		if s.FEN == survSnap.FEN {
			v = Survival
		}
		if _, err := Resume(v, s); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
	}
	if _, err := Resume(TeamChess, good); err != nil {
		t.Errorf("Team Chess: %v", err)
	}
	// Unknown names are refused by the JSON decoder already.
	var s Snapshot
	for _, bad := range []string{`{"last_move_kind":"teleport"}`, `{"outcome":{"result":"1-0","method":"walkover"}}`, `{"outcome":{"result":"2-0","method":"time"}}`} {
		if err := json.Unmarshal([]byte(bad), &s); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
}

// TestRepetitionKeysAreStable: snapshots store repetition keys, so the
// Zobrist table (fixed seed, zobrist.go) is part of the storage format. A
// change of it must come with a migration of stored snapshots (Resume
// would refuse them: their last key would not match).
func TestRepetitionKeysAreStable(t *testing.T) {
	t.Parallel()
	for v, want := range map[Variant]uint64{Chess: 0x9dc6ba94c36cd9e9, Survival: 0x464164ebab844577} {
		p := StartPosition(v)
		if got := p.RepetitionKey(); got != want {
			t.Errorf("%s start key %016x, want %016x: stored snapshots no longer resume", v, got, want)
		}
	}
}

func TestMoveFromUCI(t *testing.T) {
	t.Parallel()
	e7 := SquareAt(4, 6)
	e8 := SquareAt(4, 7)
	for _, m := range []Move{
		NewMove(SquareAt(4, 1), SquareAt(4, 3), DoublePush, NoRole),
		NewMove(e7, e8, Promotion, King),
		NewMove(SquareAt(4, 0), SquareAt(6, 0), CastleShort, NoRole),
		NewSacrifice(e7, e8),
		NewSacrifice(e7, e8).WithPlaced(Queen).WithRemoved(SquareAt(3, 3)).WithTag(5),
		NewSacrifice(e7, SquareAt(3, 7)).WithRemoved(SquareAt(0, 0)),
	} {
		got, err := moveFromUCI(m.UCI(), m.Kind())
		if err != nil || got != m {
			t.Errorf("%s (%s): %v %v", m.UCI(), m.Kind(), got, err)
		}
	}
	for _, bad := range []struct {
		s string
		k MoveKind
	}{{"e7e8", Promotion}, {"e7e8q", Normal}, {"e7e8p", Promotion}, {"e2e2", Normal}, {"e2e4x", Normal}, {"e7e8~9", Sacrifice}, {"E2E4", Normal}} {
		if _, err := moveFromUCI(bad.s, bad.k); err == nil {
			t.Errorf("%s (%s) accepted", bad.s, bad.k)
		}
	}
}

// benchGame is a 200-ply standard game without an ending (random moves
// from a fixed seed), for the resume benchmarks.
func benchGame(b *testing.B) *Game {
	rng := rand.New(rand.NewPCG(1, 2))
	for {
		g := randomGame(b, rng, Chess, StandardFEN, 200, 0)
		if _, over := g.Outcome(); !over && g.Ply() == 200 {
			return g
		}
	}
}

// BenchmarkResume200 resumes a 200-ply game from its snapshot.
func BenchmarkResume200(b *testing.B) {
	s := benchGame(b).Snapshot()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Resume(Chess, s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResume200JSON decodes the snapshot's JSON and resumes it, as a
// store does.
func BenchmarkResume200JSON(b *testing.B) {
	data, _ := json.Marshal(benchGame(b).Snapshot())
	b.ReportAllocs()
	for b.Loop() {
		var s Snapshot
		if err := json.Unmarshal(data, &s); err != nil {
			b.Fatal(err)
		}
		if _, err := Resume(Chess, s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplay200 replays the same game's 200 UCI moves, as the
// Survival flow did on every /move and autocomplete keystroke.
func BenchmarkReplay200(b *testing.B) {
	g := benchGame(b)
	ucis := g.UCIs()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReplayGame(Chess, StandardFEN, ucis); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMoveWithSnapshot200 is a /move on a 200-ply game without
// replay: decode the stored snapshot, resume, play a move, snapshot and
// encode it again.
func BenchmarkMoveWithSnapshot200(b *testing.B) {
	g := benchGame(b)
	data, _ := json.Marshal(g.Snapshot())
	move := g.Position().LegalMoves()[0].UCI()
	b.ReportAllocs()
	for b.Loop() {
		var s Snapshot
		if err := json.Unmarshal(data, &s); err != nil {
			b.Fatal(err)
		}
		r, err := Resume(Chess, s)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := r.PlayText(move); err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(r.Snapshot()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMoveWithReplay200 is the same /move as the Survival flow did it
// before snapshots: replay the 200 stored moves, then play the move.
func BenchmarkMoveWithReplay200(b *testing.B) {
	g := benchGame(b)
	ucis := g.UCIs()
	move := g.Position().LegalMoves()[0].UCI()
	b.ReportAllocs()
	for b.Loop() {
		r, err := ReplayGame(Chess, StandardFEN, ucis)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := r.PlayText(move); err != nil {
			b.Fatal(err)
		}
	}
}
