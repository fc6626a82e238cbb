package sandtable

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	engine "sandtable/games/sandtable"
	"sandtable/internal/testkit"
	"sandtable/storage"
)

// playedGame stores "sand1" played from a new game through the reveal
// and up to 40 actions, a Drone now and then, and returns the position at
// the end of each turn (engine format) and each turn's whole log.
func playedGame(t testing.TB, store storage.Store) (ends map[int]string, logs map[int][]engine.Entry) {
	t.Helper()
	g := putGame(t, store, engine.NewGame(9).Format())
	_, s := load(t, store)
	for _, text := range []string{"S preset phalanx", "N preset skirmish", "S confirm", "N confirm"} {
		act, err := engine.ParseAction(text)
		require.NoError(t, err)
		_, err = s.apply(act)
		require.NoError(t, err)
	}
	putState(t, store, g, s)
	ends, logs = map[int]string{}, map[int][]engine.Entry{}
	for i := 0; i < 40 && s.pos.Phase() != engine.PhaseFinished; i++ {
		var act engine.Action
		for _, l := range s.pos.LegalActions() {
			act = l
			if l.Kind == engine.ActDrone || i%7 == 0 {
				break // a Drone now and then
			}
		}
		turn := s.pos.Turn()
		entries, err := s.apply(act)
		require.NoError(t, err, act.String())
		for _, e := range entries {
			logs[e.Turn] = append(logs[e.Turn], e)
		}
		putState(t, store, g, s)
		if s.pos.Turn() != turn {
			ends[turn] = s.pos.Format()
		}
	}
	require.Greater(t, len(ends), 5)
	return ends, logs
}

// viewer opens u's history viewer of "sand1" and steps it to frame i,
// checking the controls at each end.
func viewer(t *testing.T, a *commands.App, u commands.User, i int) *commands.Response {
	t.Helper()
	r, err := a.Handle(click(u, "g:sand1:history"))
	require.NoError(t, err)
	require.True(t, r.Ephemeral, "the viewer is private")
	require.False(t, r.Update)
	if i < 0 {
		return r
	}
	r, err = a.Handle(click(u, fmt.Sprintf("g:sand1:history:n%d", i)))
	require.NoError(t, err)
	require.True(t, r.Update, "a control updates its viewer in place")
	return r
}

// TestSandHistoryFrames: frame 0 is the reveal, frame k the board at the
// end of turn k, the last frame the position now; each drawn as the
// viewer may see it (a spectator: the public view of the position the
// game had then), with that turn's log. In the fast tier, the first two turns
// and the last are checked.
func TestSandHistoryFrames(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	ends, logs := playedGame(t, store)
	_, s := load(t, store)

	last := viewer(t, a, carol, -1)
	frames := s.pos.Turn() + 1
	require.Equal(t, fmt.Sprintf("Turn %d", s.pos.Turn()), last.Rows[0][2].(ui.Button).Label, "History opens at the latest frame")
	requireEnds(t, last, false, true)
	want, err := drawView(a.Render, s.pos, logs[s.pos.Turn()], engine.NoSide, "board.png")
	require.NoError(t, err)
	require.True(t, bytes.Equal(want.Data, last.Files[0].Data), "the last frame is the position now")

	first, err := a.Handle(click(carol, "g:sand1:history:f"))
	require.NoError(t, err)
	requireEnds(t, first, true, false)
	require.Contains(t, fieldValue(first.Message, "Position"), "Both deployments revealed; turn 1 begins")
	start, _, err := history(viewOf(t, store), "sand1", s)
	require.NoError(t, err)
	want, err = drawView(a.Render, start, nil, engine.NoSide, "board.png")
	require.NoError(t, err)
	require.True(t, bytes.Equal(want.Data, first.Files[0].Data), "frame 0 is the board of the reveal")

	for turn := 1; turn < frames-1; turn++ {
		if !testkit.Long() && turn > 2 && turn < frames-2 {
			continue // every turn in the long tier
		}
		r, err := a.Handle(click(carol, fmt.Sprintf("g:sand1:history:n%d", turn)))
		require.NoError(t, err)
		require.True(t, r.Update, "a control updates its viewer in place")
		requireEnds(t, r, false, false)
		pos, err := engine.ParsePosition(ends[turn])
		require.NoError(t, err)
		want, err := drawView(a.Render, pos, logs[turn], engine.NoSide, "board.png")
		require.NoError(t, err)
		require.True(t, bytes.Equal(want.Data, r.Files[0].Data), "frame %d is the board at the end of turn %d", turn, turn)
		require.Contains(t, fieldValue(r.Message, "Position"), fmt.Sprintf("The end of turn %d (the board as turn %d begins", turn, turn+1))
		require.Contains(t, fieldValue(r.Message, "Turns"), fmt.Sprintf("**%d · ", turn), "the turn list marks the shown turn")
		require.Contains(t, r.Cards[0].Description, fmt.Sprintf("**Turn %d: ", turn), "frame %d tells its turn's log", turn)
		for _, e := range engine.FilterLog(logs[turn], engine.NoSide) {
			if e.Kind == engine.EntryAction {
				require.Contains(t, fieldValue(r.Message, "Turns"), e.Notation, "frame %d lists its turn's actions", turn)
			}
		}
	}
	_, err = a.Handle(click(carol, "g:sand1:history:x1"))
	require.Contains(t, userMsg(t, err), "does not belong to this game's history viewer")
	r, err := a.Handle(click(carol, "g:sand1:history:n999"))
	require.NoError(t, err)
	requireEnds(t, r, false, true) // a frame past the end is the last
}

// TestSandHistorySecrets: while the game runs, a Drone order in an earlier
// turn is seen by its owner alone: the spectator and the opponent get the
// public board and log, without its spotter or target; once the game is
// over, everyone sees it.
func TestSandHistorySecrets(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	_, logs := playedGame(t, store)
	_, s := load(t, store)
	turn, order := 0, engine.Entry{}
	for tn := 1; tn < s.pos.Turn() && turn == 0; tn++ {
		for _, e := range logs[tn] {
			if e.Kind == engine.EntryDroneOrder {
				turn, order = tn, e
				break
			}
		}
	}
	require.NotZero(t, turn, "a Drone was ordered in an earlier turn")
	owner, opp := s.player(order.Side), s.player(order.Side.Opp())
	start, log, err := history(viewOf(t, store), "sand1", s)
	require.NoError(t, err)
	pos, err := engine.Replay(start, log, turn)
	require.NoError(t, err)
	secret := order.Text
	target := "target " + order.To.String()
	var orderNotation string // the Drone action, as its owner wrote it
	for _, e := range logs[turn] {
		if e.Kind == engine.EntryAction && e.Secret == order.Side {
			orderNotation = e.Notation
		}
	}
	require.NotEmpty(t, orderNotation)

	text := func(r *commands.Response) string {
		var b strings.Builder
		b.WriteString(r.Content)
		for _, c := range r.Cards {
			b.WriteString(c.Description + c.Footer)
			for _, f := range c.Fields {
				b.WriteString(f.Name + f.Value)
			}
		}
		return b.String()
	}
	for _, c := range []struct {
		who    commands.User
		viewer engine.Side
	}{{carol, engine.NoSide}, {opp, order.Side.Opp()}} {
		r := viewer(t, a, c.who, turn)
		require.NotContains(t, text(r), secret, "%s does not see the order", c.who.Name)
		require.NotContains(t, text(r), target)
		require.NotContains(t, text(r), orderNotation, "%s does not see the Drone action in the turn list", c.who.Name)
		want, err := drawView(a.Render, pos, logs[turn], c.viewer, "board.png")
		require.NoError(t, err)
		require.True(t, bytes.Equal(want.Data, r.Files[0].Data), "%s gets the board of their own view", c.who.Name)
	}
	mine := viewer(t, a, owner, turn)
	require.Contains(t, text(mine), "🔒 "+secret, "the owner sees their own order, marked secret")
	require.Contains(t, fieldValue(mine.Message, "Turns"), orderNotation)
	want, err := drawView(a.Render, pos, logs[turn], order.Side, "board.png")
	require.NoError(t, err)
	require.True(t, bytes.Equal(want.Data, mine.Files[0].Data), "the owner's own view")

	// The game ends: everything is shown to everyone, this Drone (which
	// resolved) included.
	_, err = commandsResign(t, a, s.player(s.pos.ToMove()))
	require.NoError(t, err)
	over := viewer(t, a, carol, turn)
	require.Contains(t, text(over), target, "once over, a spectator sees the Drone order")
	require.Contains(t, text(over), fmt.Sprintf("🔒 %s's Drone: spotter", order.Side))
	require.Contains(t, over.Cards[0].Footer, "everything is shown")
	public, err := drawView(a.Render, pos, logs[turn], engine.NoSide, "board.png")
	require.NoError(t, err)
	hasPending := false
	for _, d := range pos.Drones() {
		hasPending = hasPending || !d.Cancelled
	}
	require.True(t, hasPending, "the order is pending at the end of its turn")
	require.False(t, bytes.Equal(public.Data, over.Files[0].Data), "once over, the board draws the Drones pending at that turn's end")
	r := viewer(t, a, carol, -1)
	require.Contains(t, fieldValue(r.Message, "Result"), "resign")
}

// commandsResign resigns for u through the confirmation.
func commandsResign(t *testing.T, a *commands.App, u commands.User) (*commands.Response, error) {
	t.Helper()
	return commandstest.Confirm(t, a, cmd(u, "resign", "", nil))
}

// TestSandHistoryInDeployment: nothing of a deployment is shown, while
// it runs or after a game that ended in it.
func TestSandHistoryInDeployment(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	putGame(t, store, engine.NewGame(9).Format())
	r := viewer(t, a, alice, -1)
	require.Contains(t, r.Content, "its history begins when both deployments are revealed")
	require.Empty(t, r.Files)
	r, err := a.Handle(cmd(carol, "history", "", nil))
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	require.Contains(t, r.Content, "its history begins")
}

// requireEnds checks the viewer's controls: ⏮ ◀ disabled at the first
// frame, ▶ ⏭ at the last, the counter always, and every custom ID
// distinct (Discord refuses a message with two equal ones).
func requireEnds(t *testing.T, r *commands.Response, atFirst, atLast bool) {
	t.Helper()
	require.Len(t, r.Rows, 1)
	row := r.Rows[0]
	require.Len(t, row, 5)
	seen := map[string]bool{}
	for i, c := range row {
		b := c.(ui.Button)
		require.False(t, seen[b.Route], "custom IDs differ")
		seen[b.Route] = true
		switch i {
		case 0, 1:
			require.Equal(t, atFirst, b.Disabled, "%s at the first frame", b.Emoji)
		case 2:
			require.True(t, b.Disabled, "the counter is no button")
		default:
			require.Equal(t, atLast, b.Disabled, "%s at the last frame", b.Emoji)
		}
	}
}

// fieldValue is the value of the field named name of m's first card.
func fieldValue(m commands.Message, name string) string {
	for _, f := range m.Cards[0].Fields {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}

// TestSandHistoryOfFixtureGames: the games stored before the game core
// (storage/testdata/fixture-v1) have no start position (ruling D13): the
// viewer steps through their log by turn, draws the board of the last
// frame only and says why; the running game's pending Drone order stays
// its owner's; the game in Deployment shows nothing.
func TestSandHistoryOfFixtureGames(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "storage", "testdata", "fixture-v1")
	db, err := os.ReadFile(filepath.Join(dir, "bot.db"))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "bot.db")
	require.NoError(t, os.WriteFile(path, db, 0o600))
	store, err := storage.Open(path, time.Second)
	require.NoError(t, err)
	defer store.Close()
	a := commands.New(store, commandstest.NewPlatform(), commands.Settings{BoardSize: 256, MoveTime: time.Hour},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	Register(a)
	var meta struct {
		Games map[string]string `json:"games"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &meta))
	open := func(u commands.User, id, arg string) *commands.Response {
		t.Helper()
		req := commandstest.Click(u, "g:"+id+":history"+arg, "m1")
		req.GuildID = commandstest.Game(t, store, id).GuildID // interactions come from the game's server
		r, err := a.Handle(req)
		require.NoError(t, err)
		return r
	}

	r := open(carol, meta.Games["sandtable-deployment"], "")
	require.Contains(t, r.Content, "its history begins when both deployments are revealed")
	require.Empty(t, r.Files)

	for _, name := range []string{"sandtable-running", "sandtable-resigned"} {
		id := meta.Games[name]
		g := commandstest.Game(t, store, id)
		require.Zero(t, g.StateVersion, name)
		s, err := Game{}.Decode(g.StateVersion, g.State)
		require.NoError(t, err)
		require.Empty(t, s.Start, "%s was stored before starts were kept", name)
		last := open(carol, id, "")
		require.NotEmpty(t, last.Files, "%s: the last frame has its board", name)
		require.Contains(t, last.Cards[0].Description, fmt.Sprintf("**Turn %d: ", s.pos.Turn()), name)
		if s.pos.Turn() == 1 {
			requireEnds(t, last, true, true) // turn 1 is all there is
			continue
		}
		requireEnds(t, last, false, true)
		first := open(carol, id, ":f")
		require.Empty(t, first.Files, "%s: no board of an earlier turn", name)
		require.Contains(t, fieldValue(first.Message, "No board"), "ruling D13")
		require.Contains(t, first.Cards[0].Description, "**Turn 1: ", name)
		require.Contains(t, first.Cards[0].Description, "South played b7-a6.", name)
	}
	over := open(carol, meta.Games["sandtable-resigned"], "")
	require.Contains(t, fieldValue(over.Message, "Result"), "North resigned")

	// The running game: North's pending Drone order is North's alone.
	id := meta.Games["sandtable-running"]
	_, s := loadID(t, store, id)
	var owner engine.Side
	for _, d := range s.pos.Drones() {
		owner = d.Side
	}
	require.NotEqual(t, engine.NoSide, owner, "the fixture's running game has a pending Drone")
	mine := open(s.player(owner), id, "")
	spect := open(carol, id, "")
	theirs := open(s.player(owner.Opp()), id, "")
	require.False(t, bytes.Equal(mine.Files[0].Data, spect.Files[0].Data))
	want, err := drawView(a.Render, s.pos, append(append([]engine.Entry{}, s.Prev...), s.Cur...), engine.NoSide, "board.png")
	require.NoError(t, err)
	require.True(t, bytes.Equal(want.Data, spect.Files[0].Data), "a spectator gets the public view")
	want, err = drawView(a.Render, s.pos, append(append([]engine.Entry{}, s.Prev...), s.Cur...), owner.Opp(), "board.png")
	require.NoError(t, err)
	require.True(t, bytes.Equal(want.Data, theirs.Files[0].Data), "the opponent gets their own view")
	for k := 0; k < 6; k++ {
		for _, u := range []commands.User{carol, s.player(owner.Opp())} {
			r := open(u, id, fmt.Sprintf(":n%d", k))
			require.NotContains(t, r.Cards[0].Description, "Your Drone", "frame %d for %s", k, u.Name)
			require.NotContains(t, r.Cards[0].Description, "🔒")
		}
	}
}

// loadID reads the stored game id and decodes its state.
func loadID(t testing.TB, store storage.Store, id string) (*storage.Game, *State) {
	t.Helper()
	g := commandstest.Game(t, store, id)
	s, err := Game{}.Decode(g.StateVersion, g.State)
	require.NoError(t, err)
	return g, s
}

// BenchmarkSandHistoryFrame: one click of a spectator's viewer on a turn
// in the middle of a game (the archive read, the replay from the reveal,
// the board image).
func BenchmarkSandHistoryFrame(b *testing.B) {
	a, _, store := newApp(b)
	playedGame(b, store)
	_, s := load(b, store)
	turns := s.pos.Turn()
	req := click(carol, fmt.Sprintf("g:sand1:history:n%d", turns/2))
	for b.Loop() {
		if _, err := a.Handle(req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(turns), "turns")
}
