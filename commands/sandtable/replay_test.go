package sandtable

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	engine "sandtable/games/sandtable"
	"sandtable/render"
)

// TestSandReplay: nothing is drawn before the end (the Replay button is
// refused and no replay is posted); once over, the replay follows in the
// thread: the board after the reveal showing both deployments, then the
// end of every turn, a Drone order shown in the turn it was given; the
// button sends it privately.
func TestSandReplay(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	_, logs := playedGame(t, store)
	_, s := load(t, store)

	_, err := a.Handle(click(carol, "g:sand1:replay"))
	require.Contains(t, userMsg(t, err), "once the game is over", "no replay while the game runs: it would show the Drone orders")
	_, err = a.Handle(click(alice, "g:sand1:replay"))
	require.Contains(t, userMsg(t, err), "once the game is over", "not to a player either")
	commandstest.Deliver(t, a, t0.Add(time.Minute))
	gifs, _ := p.GIFs()
	require.Empty(t, gifs)

	_, err = commandsResign(t, a, s.player(s.pos.ToMove()))
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0)
	gifs, _ = p.GIFs()
	require.Empty(t, gifs, "the replay follows the end a moment later")
	commandstest.Deliver(t, a, t0.Add(commands.ReplayDelay))
	gifs, posts := p.GIFs()
	require.Len(t, gifs, 1)
	require.Equal(t, "th1", posts[0].Channel)
	if dir := os.Getenv("SANDTABLE_DUMP"); dir != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "sandtable-replay.gif"), gifs[0].Data, 0o600))
	}
	frames := commandstest.GIFFrames(t, gifs[0].Data)
	require.Len(t, frames, s.pos.Turn()+1, "the reveal and the end of every turn (the last: the final position)")

	r, err := a.Handle(click(carol, "g:sand1:replay"))
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	require.Len(t, commandstest.GIFFrames(t, r.Files[0].Data), s.pos.Turn()+1)

	// The frames: both deployments at the reveal, each Drone order in the
	// frame of the turn it was given.
	g, s := load(t, store)
	rp := replayOf(t, a, g.ID)
	require.Len(t, rp.SandTable, s.pos.Turn()+1)
	owners := map[render.Side]int{}
	for _, pc := range rp.SandTable[0].Pieces {
		owners[pc.Owner]++
	}
	require.Positive(t, owners[render.South], "South's deployment shown")
	require.Positive(t, owners[render.North], "North's deployment shown")
	// A Drone that never resolved (here: pending at the end) keeps its
	// target secret (ruling D6): it is drawn in no frame.
	orders, hidden := 0, 0
	for turn := 1; turn <= s.pos.Turn(); turn++ {
		for _, e := range logs[turn] {
			if e.Kind != engine.EntryDroneOrder {
				continue
			}
			resolved := false
			for later := turn + 1; later <= s.pos.Turn(); later++ {
				for _, r := range logs[later] {
					resolved = resolved || r.Kind == engine.EntryDroneResolved && r.Side == e.Side && r.Piece == e.Piece && r.To == e.To
				}
			}
			found := false
			for _, d := range rp.SandTable[turn].Drones {
				found = found || int(d.Target) == int(e.To)
			}
			if resolved {
				orders++
				require.True(t, found, "the Drone order of turn %d (%s), which resolved, is drawn in its frame", turn, e.Text)
				continue
			}
			hidden++
			for i := turn; i < len(rp.SandTable); i++ { // the frames in which it was pending
				for _, d := range rp.SandTable[i].Drones {
					require.NotEqual(t, int(e.To), int(d.Target), "frame %d draws the target of the Drone of turn %d that never resolved (%s)", i, turn, e.Text)
				}
			}
		}
	}
	require.Positive(t, orders, "the game had Drone orders that resolved")
	require.Positive(t, hidden, "the game ended with a Drone pending")
}

// replayOf builds the replay of the finished game id through the
// framework's route (the frames, not the GIF).
func replayOf(t *testing.T, a *commands.App, id string) *commands.Replay {
	t.Helper()
	var rp *commands.Replay
	_, err := commands.Run(a, &commands.Request{Now: t0}, id, func(tt *turn) (*response, error) {
		var err error
		rp, err = replay(tt)
		return nil, err
	})
	require.NoError(t, err)
	require.NotNil(t, rp)
	return rp
}

// TestSandReplayNoneAfterDeployment: a game that ended during Deployment
// reveals nothing (ruling D19): no replay is posted, the button says so.
func TestSandReplayNoneAfterDeployment(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	putGame(t, store, engine.NewGame(9).Format())
	require.NoError(t, a.Sweep(t0.Add(2*time.Hour))) // neither confirmed: cancelled
	g, _ := load(t, store)
	require.False(t, g.Active)
	commandstest.Deliver(t, a, t0.Add(3*time.Hour))
	gifs, _ := p.GIFs()
	require.Empty(t, gifs, "no replay of a game that ended in Deployment")
	_, err := a.Handle(click(carol, "g:sand1:replay"))
	require.Contains(t, userMsg(t, err), "nothing to replay")
}

// BenchmarkSandReplay: the 🎞 Replay button of a finished game (playedGame:
// 40 actions, about 15 turns, Drones now and then): the archived turns
// read, every turn's board rebuilt from the reveal, drawn at 800 px and
// encoded.
func BenchmarkSandReplay(b *testing.B) {
	a, _, store := newApp(b)
	playedGame(b, store)
	_, s := load(b, store)
	_, err := commandstest.Confirm(b, a, cmd(s.player(s.pos.ToMove()), "resign", "", nil))
	require.NoError(b, err)
	req := click(carol, "g:sand1:replay")
	var size int
	for b.Loop() {
		r, err := a.Handle(req)
		if err != nil {
			b.Fatal(err)
		}
		size = len(r.Files[0].Data)
	}
	b.ReportMetric(float64(size), "bytes")
	b.ReportMetric(float64(s.pos.Turn()+1), "frames")
}

// TestSandRecordAttached: the final board of a finished game carries its
// machine-readable record (ruling G23), which replays to the final
// position: the start after the reveal, every action, the result.
func TestSandRecordAttached(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	playedGame(t, store)
	_, s := load(t, store)
	loser := s.pos.ToMove()
	_, err := commandsResign(t, a, s.player(loser))
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0)
	_, final := load(t, store)
	var records [][]byte
	for _, m := range p.Shown() { // the final board is the live board edited
		for _, f := range m.Msg.Files {
			if strings.HasSuffix(f.Name, "-record.json") {
				records = append(records, f.Data)
			}
		}
	}
	require.Len(t, records, 1, "one record, on the final board")
	rec, err := engine.ParseRecord(records[0])
	require.NoError(t, err, "the record replays")
	require.NotNil(t, rec.Result)
	require.Equal(t, loser.Opp(), rec.Result.Winner)
	require.Equal(t, "resignation", rec.Result.Reason)
	var last *engine.Position
	require.NoError(t, rec.Walk(func(p *engine.Position, _ []engine.Entry) error { last = p.Clone(); return nil }))
	require.Equal(t, final.pos.View(engine.NoSide).Format(), last.View(engine.NoSide).Format(), "the record leads to the final position")
	start, err := rec.StartPosition()
	require.NoError(t, err)
	require.Positive(t, start.Counts(engine.South).Bases)
	require.Positive(t, start.Counts(engine.North).Bases, "both deployments")
}
