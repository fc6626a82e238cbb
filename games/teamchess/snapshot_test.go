package teamchess

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/games/chess"
	"sandtable/internal/testkit"
)

// seen is everything a game shows through the methods a flow uses
// (commands/teamchess), besides the record's history.
type seen struct {
	Position, Start          chess.Position
	Setup                    Setup
	Phase                    Phase
	Turn                     chess.Color
	Result                   Result
	InCheck, Continuing      bool
	Forced                   Move
	HasForced                bool
	ForcedSAN                string
	Stagnation               [2]int
	Commanders               [2][]Commander
	ActiveIndex              [2]int
	Active                   [2]Member
	Members, Thread          [2][]Member
	Sacrificed               [2]bool
	Records                  map[string][3]any // wins, losses, may advise (with the reason)
	Legal                    []Move
	Texts, Completions, Es   []MoveText
	Count                    int
	Last                     Move
	HasLast                  bool
	Summary                  Summary
	Over                     bool
	Actions                  int
	LastAction               Action
	State                    State
	Snapshot                 string
	Parsed                   []string
	LastMoveEntry, OverEntry Event
}

func see(t *testing.T, g *Game) seen {
	t.Helper()
	s := seen{Position: g.Position(), Start: g.StartPosition(), Setup: g.Setup(), Phase: g.Phase(), Turn: g.Turn(),
		Result: g.Result(), InCheck: g.InCheck(), Continuing: g.SiegeContinuing(), ForcedSAN: g.ForcedSAN(),
		Records: map[string][3]any{}, Legal: g.LegalMoves(), Texts: g.MoveTexts(), Completions: g.Complete("", 25),
		Es: g.Complete("e", 25), Count: g.CountLegalMoves(), Actions: g.ActionCount(), State: g.State()}
	s.Forced, s.HasForced = g.Forced()
	s.Last, s.HasLast = g.LastMove()
	s.Summary, s.Over = g.Summary()
	s.LastAction, _ = g.LastAction()
	for _, side := range []chess.Color{chess.White, chess.Black} {
		s.Stagnation[side] = g.Stagnation(side)
		s.Commanders[side] = g.Commanders(side)
		s.ActiveIndex[side] = g.ActiveIndex(side)
		s.Active[side], _ = g.Active(side)
		s.Members[side] = g.Members(side)
		s.Thread[side] = g.ThreadMembers(side)
		s.Sacrificed[side] = g.Sacrificed(side)
		for _, m := range g.Members(side) {
			w, l := g.PersonalRecord(m.ID)
			ok, why := g.CanAdvise(m.ID)
			in, _ := g.SideOf(m.ID)
			s.Records[m.ID] = [3]any{w, l, fmt.Sprint(ok, why, in)}
		}
	}
	for _, text := range []string{"e4", "Nf3", "O-O", "e8=Assassin:xd4", "a8=Saboteur:Rh1", "d1", "zz"} {
		m, err := g.ParseMove(text)
		s.Parsed = append(s.Parsed, fmt.Sprint(m.UCI(), err))
	}
	if len(s.Texts) > 0 {
		m, err := g.ParseMove(s.Texts[len(s.Texts)/2].SAN)
		s.Parsed = append(s.Parsed, fmt.Sprint(m.UCI(), err))
	}
	raw, err := json.Marshal(g.Snapshot())
	require.NoError(t, err)
	s.Snapshot = string(raw)
	events := g.Events()
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Kind == MoveEvent {
			s.LastMoveEntry = events[i]
			break
		}
	}
	if n := len(events); n > 0 && events[n-1].Kind == GameOverEvent {
		s.OverEntry = events[n-1]
	}
	return s
}

// resumeJSON resumes g through JSON, as the flow stores it: the State and
// the Snapshot each encoded and decoded.
func resumeJSON(t testing.TB, g *Game) *Game {
	t.Helper()
	state, err := json.Marshal(g)
	require.NoError(t, err)
	snap, err := json.Marshal(g.Snapshot())
	require.NoError(t, err)
	r, err := resumeFrom(state, snap)
	require.NoError(t, err)
	return r
}

func resumeFrom(state, snap []byte) (*Game, error) {
	var h State
	var s Snapshot
	if err := json.Unmarshal(state, &h); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(snap, &s); err != nil {
		return nil, err
	}
	return Resume(h, s)
}

// randomStep makes one random action, chosen from what g shows (so that
// two games that behave alike make the same choice): mostly moves, some
// tag-outs, timeouts, siege decisions, refused actions and resignations.
func randomStep(g *Game, rng *rand.Rand) ([]Event, error) {
	side := g.Turn()
	active, _ := g.Active(side)
	other, _ := g.Active(side.Other())
	r := rng.IntN(200)
	switch {
	case g.Phase() == Finished || r < 2:
		return g.Play(other.ID, "e4") // refused: not their turn, or over
	case r < 4:
		return g.Timeout()
	case r < 8 && !g.SiegeContinuing():
		return g.TagOut(active.ID)
	case r < 10:
		return g.SiegeWin(active.ID) // refused unless besieged
	case r == 10:
		return g.Resign(other.ID)
	case g.Phase() == SiegeDecision && r%5 == 1:
		return g.TagOut(other.ID) // the besieged side (ruling A2)
	case g.Phase() == SiegeDecision && r%2 == 0:
		return g.SiegeWin(active.ID)
	case g.Phase() == SiegeDecision:
		return g.SiegeContinue(active.ID)
	}
	ts := g.Complete("", 80)
	if len(ts) == 0 {
		return nil, errors.New("no legal move while playing")
	}
	m := ts[rng.IntN(len(ts))]
	if r%3 == 0 {
		return g.Play(active.ID, m.UCI)
	}
	return g.Play(active.ID, m.SAN)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

var snapshotFENs = []string{
	chess.StandardFEN,
	"4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1",
	"r3k2r/1P4P1/8/3n4/4N3/8/1p4p1/R3K2R w KQkq - 0 1",
	"7k/5K2/8/6Q1/8/8/8/8 w - - 0 1",
	"1n2k1n1/P6P/8/3q4/3Q4/8/p6p/1N2K1N1 w - - 0 1",
	"r3k2r/pppq1ppp/8/3Pp3/8/8/PPP2PPP/R3K2R w KQkq e6 0 1",
	"4k3/8/8/8/8/8/8/4K2R b K - 0 1",
	"k7/8/1QK5/8/8/8/8/8 b - - 0 1", // besieged at the start
	"4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
}

// TestResumeBehavesAsReplay: in many random games, at every action the
// game resumed from its State and Snapshot (through JSON, and resumed
// again from the resumed game) shows exactly what the game played from
// the start shows, for every method the flow uses, answers every next
// action alike (the same entries with the same numbers, the same
// refusals), keeps the record from the latest move on, and its Replay is
// the whole game.
func TestResumeBehavesAsReplay(t *testing.T) {
	t.Parallel()
	games := 40
	if !testkit.Long() {
		games = 8
	}
	rng := rand.New(rand.NewPCG(13, 6))
	ends, kinds := map[Category]int{}, map[string]int{}
	defer func() { t.Logf("results: %v; entries: %v", ends, kinds) }()
	for i := range games {
		setup := Setup{FEN: snapshotFENs[i%len(snapshotFENs)], White: ids("ann bob ann"), Black: ids("cid dan eve")}
		if i%3 == 1 {
			setup.White, setup.Black = ids("ann"), ids("cid")
		}
		ref, err := NewGame(setup)
		require.NoError(t, err)
		g := ref.Clone()
		for step := 0; step < 250; step++ {
			r := resumeJSON(t, g)
			require.Equal(t, see(t, ref), see(t, r), "game %d step %d: the resumed game shows what the played one does", i, step)
			all, kept := ref.Events(), r.Events()
			require.Equal(t, all[len(all)-len(kept):], kept, "the resumed record is the played one's end")
			if step%25 == 0 || ref.Phase() == Finished {
				full, err := r.Replay()
				require.NoError(t, err)
				require.Equal(t, ref.RecordLines(), full.RecordLines())
				require.Equal(t, ref.PGN(nil), full.PGN(nil))
			}
			if ref.Phase() == Finished {
				break
			}
			if step%2 == 1 {
				r = r.Clone() // as the flow acts on a clone
			}
			seed := rng.Uint64()
			want, wantErr := randomStep(ref, rand.New(rand.NewPCG(seed, 1)))
			got, gotErr := randomStep(r, rand.New(rand.NewPCG(seed, 1)))
			require.NotEqual(t, "no legal move while playing", errText(wantErr))
			require.Equal(t, errText(wantErr), errText(gotErr), "game %d step %d", i, step)
			require.Equal(t, want, got, "game %d step %d: the same entries", i, step)
			g = r
		}
		ends[ref.Result().Category]++
		for _, e := range ref.Events() {
			switch {
			case e.Role != NoRole:
				kinds[e.Role.String()]++
			case e.Forced:
				kinds["forced"]++
			case e.Kind == PassEvent, e.Kind == SiegeContinueEvent:
				kinds[eventKeys[e.Kind]]++
			case e.Kind == TagOutEvent:
				kinds[reasonKeys[e.Reason]]++
			}
		}
	}
}

// TestResumeKeepsEnPassantAndCastling: the exact en passant square (even
// when the capture is illegal) and castling rights survive a resume, and
// the last move's kind (an en passant capture, a castling) too.
func TestResumeKeepsEnPassantAndCastling(t *testing.T) {
	t.Parallel()
	// The d5 pawn is pinned by the rook on a5: e6 cannot be taken en passant.
	g, err := NewGame(Setup{FEN: "4k3/4p3/8/r2P3K/8/8/8/8 b - - 0 1", White: ids("ann"), Black: ids("cid")})
	require.NoError(t, err)
	_, err = g.Play("", "e5")
	require.NoError(t, err)
	p := g.Position()
	require.Equal(t, chess.SquareAt(4, 5), p.EnPassantSquare(), "the pinned pawn could capture: the square is kept")
	require.NotContains(t, p.FEN(), "e6", "but the FEN does not name it")
	r := resumeJSON(t, g)
	require.Equal(t, g.Position(), r.Position())

	g, err = NewGame(Setup{FEN: "r3k2r/pppq1ppp/8/3Pp3/8/8/PPP2PPP/R3K2R w KQkq e6 0 1", White: ids("ann"), Black: ids("cid")})
	require.NoError(t, err)
	for _, m := range []string{"dxe6", "O-O-O"} {
		_, err = g.Play("", m)
		require.NoError(t, err)
		r := resumeJSON(t, g)
		require.Equal(t, see(t, g), see(t, r))
		last, _ := r.LastMove()
		want, _ := g.LastMove()
		require.Equal(t, want.Board.Kind(), last.Board.Kind())
	}
}

// TestResumeKeepsSiegeContinue: a game resumed after the attacker declined
// the Siege Win still owes the Siege Win its move (a failed one tags the
// attacker out). The random games of TestResumeBehavesAsReplay resume in
// that state only after about 30 games, beyond the fast tier's.
func TestResumeKeepsSiegeContinue(t *testing.T) {
	t.Parallel()
	g, err := NewGame(Setup{FEN: "k7/8/1QK5/8/8/8/8/8 b - - 0 1", White: ids("ann bob"), Black: ids("cid dan")})
	require.NoError(t, err)
	require.Equal(t, SiegeDecision, g.Phase())
	_, err = g.SiegeContinue("ann")
	require.NoError(t, err)
	require.True(t, g.SiegeContinuing())
	r := resumeJSON(t, g)
	require.True(t, r.SiegeContinuing(), "the resumed game still owes the siege its move")
	require.Equal(t, see(t, g), see(t, r))
	// Qb5 frees the black king: the siege failed, ann is tagged out.
	want, wantErr := g.Play("ann", "Qb5")
	got, gotErr := r.Play("ann", "Qb5")
	require.NoError(t, wantErr)
	require.Equal(t, errText(wantErr), errText(gotErr))
	require.Equal(t, want, got)
	require.Equal(t, see(t, g), see(t, r))
	require.Equal(t, 1, g.ActiveIndex(chess.White), "ann's siege failed")
}

// saboteurGame is a game with a pending forced move after a sacrifice, a
// tag-out and a second command.
func saboteurGame(t testing.TB) *Game {
	t.Helper()
	g, err := NewGame(Setup{FEN: "4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1", White: ids("ann ann"), Black: ids("cid dan")})
	require.NoError(t, err)
	_, err = g.Play("ann", "a8=Saboteur:Rh1+")
	require.NoError(t, err)
	_, err = g.TagOut("cid")
	require.NoError(t, err)
	return g
}

// TestResumeRefusesCorruptSnapshots: a snapshot that is corrupt, or does
// not fit the stored state, is refused with an error naming the field; the
// untouched one resumes.
func TestResumeRefusesCorruptSnapshots(t *testing.T) {
	t.Parallel()
	g := saboteurGame(t)
	state, err := json.Marshal(g)
	require.NoError(t, err)
	good := g.Snapshot()
	require.NotEmpty(t, good.Forced)
	for _, c := range []struct {
		name, field string
		change      func(s *Snapshot)
	}{
		{"bad FEN", "fen", func(s *Snapshot) { s.FEN = "8/8/8 w - - 0 1" }},
		{"two kings short", "fen", func(s *Snapshot) { s.FEN = "8/8/8/8/8/8/8/4K3 w - - 0 1" }},
		{"unknown phase", "phase", func(s *Snapshot) { s.Phase = "dancing" }},
		{"round side", "round_first", func(s *Snapshot) { s.RoundFirst = "red" }},
		{"more actions", "actions", func(s *Snapshot) { s.Actions++ }},
		{"result while playing", "result", func(s *Snapshot) { s.Result = &StoredResult{Category: "resignation", Winner: "white"} }},
		{"finished without result", "result", func(s *Snapshot) { s.Phase = "finished" }},
		{"other member", "black.commands[0]", func(s *Snapshot) { s.Black.Commands[0].ID = "eve" }},
		{"missing command", "white.commands", func(s *Snapshot) { s.White.Commands = s.White.Commands[:1] }},
		{"active out of range", "black.active", func(s *Snapshot) { s.Black.Active = 2 }},
		{"negative active", "white.active", func(s *Snapshot) { s.White.Active = -1 }},
		{"lost before active", "black.commands[0]", func(s *Snapshot) { s.Black.Commands[0].Lost = false }},
		{"record after active", "white.commands[1]", func(s *Snapshot) { s.White.Commands[1].Wins = 1 }},
		{"active lost", "black.commands[1]", func(s *Snapshot) { s.Black.Commands[1].Lost = true }},
		{"negative wins", "white.commands[0]", func(s *Snapshot) { s.White.Commands[0].Wins = -1 }},
		{"stagnation", "white.stagnation", func(s *Snapshot) { s.White.Stagnation = 5 }},
		{"illegal forced move", "forced", func(s *Snapshot) { s.Forced = "e8e6" }},
		{"forced move text", "forced", func(s *Snapshot) { s.Forced = "Rh1" }},
		{"forced in a siege", "forced", func(s *Snapshot) { s.Phase = "siege_decision" }},
		{"continuing with a forced move", "siege_continuing", func(s *Snapshot) { s.SiegeContinuing = true }},
		{"last move text", "last_move", func(s *Snapshot) { s.LastMove.UCI = "a7a8x" }},
		{"last move kinds", "last_move", func(s *Snapshot) { s.LastMove.Kinds = s.LastMove.Kinds[:1] }},
		{"last move not on the board", "last_move", func(s *Snapshot) { s.LastMove.UCI = "e1e2"; s.LastMove.Kinds = []chess.MoveKind{chess.Normal} }},
		{"no last move", "last_move", func(s *Snapshot) { s.LastMove = nil }},
		{"fewer entries", "events", func(s *Snapshot) { s.Events = 1 }},
		{"entry numbers", "recent[1]", func(s *Snapshot) { s.Recent[1].Seq = 7 }},
		{"recent not from the last move", "recent[0]", func(s *Snapshot) { s.Recent = s.Recent[1:] }},
		{"unknown entry kind", "recent[1]", func(s *Snapshot) { s.Recent[1].Kind = "party" }},
		{"unknown role", "recent[0]", func(s *Snapshot) { s.Recent[0].Role = "Wizard" }},
		{"unknown reason", "recent[1]", func(s *Snapshot) { s.Recent[1].Reason = "boredom" }},
		{"entry side", "recent[0]", func(s *Snapshot) { s.Recent[0].Side = "" }},
		{"other last move", "last_move", func(s *Snapshot) { s.Recent[0].UCI = "a7a8p" }},
		{"result entry while playing", "recent[1]", func(s *Snapshot) { s.Recent[1].Result = &StoredResult{Category: "resignation", Winner: "black"} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s Snapshot
			raw, err := json.Marshal(good)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &s)) // a deep copy
			c.change(&s)
			bad, err := json.Marshal(s)
			require.NoError(t, err)
			_, err = resumeFrom(state, bad)
			var se *chess.SnapshotError
			require.ErrorAs(t, err, &se)
			require.Equal(t, c.field, se.Field, "%v", err)
		})
	}
	snap, err := json.Marshal(good)
	require.NoError(t, err)
	r, err := resumeFrom(state, snap)
	require.NoError(t, err)
	require.Equal(t, see(t, g), see(t, r))

	// A finished game's snapshot without its record (nor a last move).
	over := g.Clone()
	_, err = over.Resign("dan")
	require.NoError(t, err)
	end := over.Snapshot()
	end.Recent, end.Events, end.LastMove = nil, 0, nil
	_, err = Resume(over.State(), end)
	var se *chess.SnapshotError
	require.ErrorAs(t, err, &se)
	require.Equal(t, "recent", se.Field)

	// A snapshot of another game's state: its queues differ.
	other, err := NewGame(Setup{White: ids("ann bob"), Black: ids("cid dan")})
	require.NoError(t, err)
	otherState, err := json.Marshal(other)
	require.NoError(t, err)
	_, err = resumeFrom(otherState, snap)
	require.Error(t, err)
	var h State
	require.NoError(t, json.Unmarshal(state, &h))
	h.Version = 9
	_, err = Resume(h, good)
	require.ErrorContains(t, err, "version 9")
}

// TestResumeNeverReadsTheActions: a resumed game goes on whatever its
// stored actions say (only their number is checked), keeps them as they
// are for State, and Replay refuses actions that do not lead to the
// snapshot.
func TestResumeNeverReadsTheActions(t *testing.T) {
	t.Parallel()
	g := saboteurGame(t)
	h, s := g.State(), g.Snapshot()
	h.Actions[0].Move = "h2h4" // not even legal
	r, err := Resume(h, s)
	require.NoError(t, err)
	ev, err := r.Play("dan", "Rh1")
	require.NoError(t, err)
	require.Equal(t, "Rh1+", ev[0].SAN)
	require.Equal(t, 3, ev[0].Seq, "the record's numbering goes on")
	require.Equal(t, "h2h4", r.State().Actions[0].Move)
	_, err = r.Replay()
	require.ErrorContains(t, err, "action 1")

	h = g.State()
	h.Actions[1] = Action{Kind: ActResign, Side: "black", By: "cid"}
	r, err = Resume(h, s)
	require.NoError(t, err)
	_, err = r.Replay()
	require.Error(t, err, "the actions replay to another game")
}

// longGame is a game of at least n actions that is still going on.
func longGame(b testing.TB, n int) *Game {
	b.Helper()
	queue := "a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 a12 a13 a14 a15 a16"
	for seed := uint64(1); ; seed++ {
		g, err := NewGame(Setup{White: ids(queue), Black: ids(strings.ReplaceAll(queue, "a", "b"))})
		require.NoError(b, err)
		rng := rand.New(rand.NewPCG(seed, 2))
		for g.ActionCount() < n && g.Phase() != Finished {
			side := g.Turn()
			active, _ := g.Active(side)
			ts := g.MoveTexts()
			if g.Phase() != Playing || len(ts) == 0 {
				break
			}
			if _, err := g.Play(active.ID, ts[rng.IntN(len(ts))].UCI); err != nil {
				b.Fatal(err)
			}
		}
		if g.Phase() != Finished && g.ActionCount() >= n {
			return g
		}
	}
}

// BenchmarkLoad200 and BenchmarkResume200 compare the two ways of reading
// a stored game of 200 actions: Load replays every action; Resume decodes
// the State and the Snapshot and goes on from the snapshot.
func BenchmarkLoad200(b *testing.B) {
	state, err := json.Marshal(longGame(b, 200))
	require.NoError(b, err)
	for b.Loop() {
		if _, err := Load(state); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResume200(b *testing.B) {
	g := longGame(b, 200)
	state, err := json.Marshal(g)
	require.NoError(b, err)
	snap, err := json.Marshal(g.Snapshot())
	require.NoError(b, err)
	for b.Loop() {
		if _, err := resumeFrom(state, snap); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzResume: any snapshot either resumes or is refused with an error;
// nothing panics, and a resumed game snapshots to what it was resumed
// from.
func FuzzResume(f *testing.F) {
	g := saboteurGame(f)
	state, err := json.Marshal(g)
	require.NoError(f, err)
	for _, h := range []*Game{g, func() *Game {
		h := g.Clone()
		_, err := h.Resign("dan")
		require.NoError(f, err)
		return h
	}()} {
		snap, err := json.Marshal(h.Snapshot())
		require.NoError(f, err)
		f.Add(snap)
	}
	f.Add([]byte(`{"fen":"4k3/8/8/8/8/8/8/4K3 w - - 0 1","phase":"finished","white":{"commands":[{"id":"ann"},{"id":"ann"}]},"black":{"commands":[{"id":"cid"},{"id":"dan"}]},"round_first":"white","actions":2,"result":{"category":"resignation","winner":"white"}}`))
	f.Fuzz(func(t *testing.T, snap []byte) {
		r, err := resumeFrom(state, snap)
		if err != nil {
			return
		}
		var s Snapshot
		require.NoError(t, json.Unmarshal(snap, &s))
		again, err := json.Marshal(r.Snapshot())
		require.NoError(t, err)
		var s2 Snapshot
		require.NoError(t, json.Unmarshal(again, &s2))
		_, err = resumeFrom(state, again)
		require.NoError(t, err, "a resumed game's snapshot resumes")
	})
}
