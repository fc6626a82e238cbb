package survival

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
	"sandtable/commands/chessui"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/games/chess"
	"sandtable/storage"
)

// TestSurvivalHistoryEveryPly: the viewer opened from the board shows the
// position now; stepping ◀ from the end and ▶ from the start, every frame
// k is the board of a replay of the first k moves, drawn from the
// clicker's side, with the k-th move in bold in the move list; the
// controls are disabled at the ends, and a click changes nothing stored.
func TestSurvivalHistoryEveryPly(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	moves := []string{"a1a2", "h8g8", "a2a3", "g8f8", "a3b3", "f8e8", "b3b4"}
	putGame(t, store, kingsShuffle, moves...)
	before := commandstest.Game(t, store, "game1")
	b, err := a.Handle(cmd(alice, "board", "", nil))
	require.NoError(t, err)
	open := buttonOf(t, b.Message, "History")

	replayed := func(k int, flipped bool) []byte {
		g, err := chess.ReplayGame(chess.Survival, kingsShuffle, moves[:k])
		require.NoError(t, err)
		var last []chess.Square
		if from, to, ok := g.LastMoveSquares(); ok {
			last = []chess.Square{from, to}
		}
		f, err := chessui.ChessBoard(a.Render, a.Settings.BoardSize, g.Position(), last, chessui.BoardView{Flipped: flipped, CaptureMarks: true})
		require.NoError(t, err)
		return f.Data
	}
	sans := []string{"Ka2", "Kg8", "Ka3", "Kf8", "Kb3", "Ke8", "Kb4"}
	for _, c := range []struct {
		u       commands.User
		flipped bool
	}{{carol, false}, {alice, false}, {bob, true}} {
		r, err := a.Handle(click(c.u, open))
		require.NoError(t, err)
		require.True(t, r.Ephemeral, "History opens a private viewer")
		require.False(t, r.Update)
		k := len(moves)
		for {
			require.True(t, bytes.Equal(replayed(k, c.flipped), r.Files[0].Data), "%s: frame %d is the replay of %d moves", c.u.Name, k, k)
			require.Contains(t, fieldOf(r.Message, "Position"), fmt.Sprintf("(ply %d of %d)", k, len(moves)))
			if k > 0 {
				require.Contains(t, r.Cards[0].Description, "**"+sans[k-1]+"**", "the shown move in bold")
				require.Equal(t, 1, strings.Count(r.Cards[0].Description, "**")/2, "one move in bold")
			} else {
				require.NotContains(t, r.Cards[0].Description, "**")
			}
			requireControls(t, r, k == 0, k == len(moves))
			if k == 0 {
				break
			}
			r, err = a.Handle(click(c.u, r.Rows[0][1].(ui.Button).Route)) // ◀
			require.NoError(t, err)
			require.True(t, r.Update, "◀ updates the viewer in place")
			k--
		}
		for ; k < len(moves); k++ {
			next, err := a.Handle(click(c.u, r.Rows[0][3].(ui.Button).Route)) // ▶
			require.NoError(t, err)
			require.True(t, bytes.Equal(replayed(k+1, c.flipped), next.Files[0].Data), "▶ from %d", k)
			r = next
		}
		first, err := a.Handle(click(c.u, r.Rows[0][0].(ui.Button).Route)) // ⏮
		require.NoError(t, err)
		require.True(t, bytes.Equal(replayed(0, c.flipped), first.Files[0].Data))
		last, err := a.Handle(click(c.u, first.Rows[0][4].(ui.Button).Route)) // ⏭
		require.NoError(t, err)
		require.True(t, bytes.Equal(replayed(len(moves), c.flipped), last.Files[0].Data))
		require.Contains(t, fieldOf(last.Message, "To move"), "the game's position now")
	}
	after := commandstest.Game(t, store, "game1")
	require.Equal(t, before.State, after.State, "the viewer changes nothing")

	_, err = a.Handle(click(carol, "g:game1:history:p-1"))
	require.Contains(t, userMsg(t, err), "does not belong to this game's history viewer")
	r, err := a.Handle(cmd(carol, "history", "", nil))
	require.NoError(t, err)
	require.True(t, r.Ephemeral, "/history answers privately")
	require.Contains(t, fieldOf(r.Message, "Position"), "(ply 7 of 7)")
	require.True(t, a.AnswersPrivately(cmd(carol, "history", "", nil)), "/history is deferred privately")
}

// TestSurvivalHistoryOfAFinishedGame: the final message offers History;
// its last frame carries the result, without capture marks.
func TestSurvivalHistoryOfAFinishedGame(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	putGame(t, store, kingsShuffle, "a1a2")
	_, err := commandstest.Confirm(t, a, cmd(alice, "resign", "", nil))
	require.NoError(t, err)
	end := liveBoard(t, a, p) // the final board, posted in the thread
	r, err := a.Handle(click(carol, buttonOf(t, end, "History")))
	require.NoError(t, err)
	require.Contains(t, fieldOf(r.Message, "Result"), "wins by resignation")
	requireControls(t, r, false, true)
	require.True(t, bytes.Equal(end.Files[0].Data, r.Files[0].Data), "the last frame is the final board")
}

// TestSurvivalHistoryOfFixtureGames: the games stored before the game core
// (storage/testdata/fixture-v1, state version 0) open in the viewer at
// every ply.
func TestSurvivalHistoryOfFixtureGames(t *testing.T) {
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
		Threads map[string]string `json:"threads"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &meta))
	n := 0
	for name, thread := range meta.Threads {
		if !strings.HasPrefix(name, "survival-") {
			continue
		}
		n++
		req := cmd(carol, "history", "", nil)
		req.ChannelID = thread
		guild := commandstest.Game(t, store, gameInThread(t, store, thread)).GuildID // interactions come from the game's server
		req.GuildID = guild
		r, err := a.Handle(req)
		require.NoError(t, err, name)
		g, s := load(t, store, gameInThread(t, store, thread))
		require.Zero(t, g.StateVersion, name)
		require.Contains(t, fieldOf(r.Message, "Position"), fmt.Sprintf("(ply %d of %d)", len(s.Moves), len(s.Moves)), name)
		for k := 0; k < len(s.Moves); k++ {
			click := commandstest.Click(carol, fmt.Sprintf("g:%s:history:n%d", g.ID, k), "m1")
			click.GuildID = guild
			r, err := a.Handle(click)
			require.NoError(t, err, name)
			require.Contains(t, fieldOf(r.Message, "Position"), fmt.Sprintf("(ply %d of %d)", k, len(s.Moves)), name)
			require.NotEmpty(t, r.Files[0].Data)
		}
	}
	require.Equal(t, 3, n)
}

// gameInThread is the ID of the game whose thread is threadID.
func gameInThread(t *testing.T, store storage.Store, threadID string) string {
	t.Helper()
	var g *storage.Game
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		var err error
		g, err = tx.Games().ByChannel(threadID)
		return err
	}))
	return g.ID
}

// requireControls checks a viewer's row: ⏮ ◀ disabled at the first frame,
// ▶ ⏭ at the last, the counter disabled, every custom ID distinct.
func requireControls(t *testing.T, r *commands.Response, atFirst, atLast bool) {
	t.Helper()
	require.Len(t, r.Rows, 1)
	require.Len(t, r.Rows[0], 5)
	seen := map[string]bool{}
	for i, c := range r.Rows[0] {
		b := c.(ui.Button)
		require.False(t, seen[b.Route], "custom IDs differ")
		seen[b.Route] = true
		switch {
		case i < 2:
			require.Equal(t, atFirst, b.Disabled, "%s", b.Emoji)
		case i == 2:
			require.True(t, b.Disabled, "the counter")
		default:
			require.Equal(t, atLast, b.Disabled, "%s", b.Emoji)
		}
	}
}

// TestSurvivalHistoryViewerStaysUseful: a viewer opened before more moves
// were played steps on: ⏭ goes to the position at the time of the click,
// ▶ past the old end reaches the new moves.
func TestSurvivalHistoryViewerStaysUseful(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	putGame(t, store, kingsShuffle, "a1a2")
	r, err := a.Handle(cmd(carol, "history", "", nil))
	require.NoError(t, err)
	requireControls(t, r, false, true)
	latest, forward := r.Rows[0][4].(ui.Button).Route, r.Rows[0][3].(ui.Button).Route
	_, err = a.Handle(cmd(bob, "move", "", map[string]string{"move": "Kg8"}))
	require.NoError(t, err)
	r, err = a.Handle(click(carol, latest))
	require.NoError(t, err)
	require.Contains(t, fieldOf(r.Message, "Position"), "After 1... Kg8 (ply 2 of 2)")
	r, err = a.Handle(click(carol, forward)) // built at ply 1 of 1: n1
	require.NoError(t, err)
	require.Contains(t, fieldOf(r.Message, "Position"), "(ply 1 of 2)")
	requireControls(t, r, false, false)
}

// BenchmarkSurvivalHistoryFrame: one click of a viewer in the middle of a
// long game (replays and the board image; the game is a deterministic
// playout of up to 200 plies from the Tartan Grid start).
func BenchmarkSurvivalHistoryFrame(b *testing.B) {
	g := chess.NewGame(chess.Survival)
	var moves []string
	for i := 0; i < 200 && !g.Status().Over(); i++ {
		legal := g.Position().LegalMoveTexts()
		m := legal[(i*7)%len(legal)]
		require.NoError(b, g.Play(m.Move))
		moves = append(moves, m.UCI)
	}
	a, _, store := newApp(b)
	putGame(b, store, g.StartFEN(), moves...)
	req := click(carol, fmt.Sprintf("g:game1:history:n%d", len(moves)/2))
	for b.Loop() {
		if _, err := a.Handle(req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(moves)), "plies")
}
