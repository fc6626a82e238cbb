package teamchess

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

// TestTeamChessHistoryReplaysSacrificesAndPasses: a game with a Political
// Agent (a tag-out follows it), a besieged side's pass and a siege
// continuation: every frame of the viewer is the board as it stood after
// that move in play, drawn from the clicker's team's side, and tells what
// followed the move; the last tells the result.
func TestTeamChessHistoryReplaysSacrificesAndPasses(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	g, pub, team := startGame(t, a, store, "7k/P4K2/8/6Q1/8/8/8/8 w - - 0 1", []commands.User{alice, carol}, []commands.User{bob, dan})
	board := func(flipped bool) []byte {
		st := load(t, store, g.ID)
		pos := st.game.Position()
		var last []chess.Square
		if m, ok := st.game.LastMove(); ok {
			last = []chess.Square{m.Board.From(), m.Board.To()}
			if sq, ok := m.Target(); ok {
				last = append(last, sq)
			}
		}
		f, err := chessui.ChessBoard(a.Render, a.Settings.BoardSize, &pos, last, chessui.BoardView{Flipped: flipped})
		require.NoError(t, err)
		return f.Data
	}
	white, black := [][]byte{board(false)}, [][]byte{board(true)}
	var openFrom commands.Message
	for _, s := range []struct {
		u         commands.User
		cmd, move string
	}{
		{alice, "move", "a8=PoliticalAgent"}, {dan, "move", "Kh7"}, {alice, "move", "Kf8"}, {dan, "move", "Kh8"},
		{alice, "move", "Qg6"}, {alice, "siege", ""}, {alice, "move", "Qh6#"},
	} {
		req := in(s.u, pub, s.cmd, "", map[string]string{"move": s.move})
		if s.cmd == "siege" {
			req = in(s.u, pub, "siege", "continue", nil)
		}
		_, err := a.Handle(req)
		require.NoError(t, err)
		openFrom = boardIn(t, a, p, pub) // the public live board, final at the end
		if s.cmd == "move" {
			white, black = append(white, board(false)), append(black, board(true))
		}
	}
	for _, c := range []struct {
		u      commands.User
		boards [][]byte
	}{{erin, white}, {carol, white}, {dan, black}} {
		r, err := a.Handle(click(c.u, buttonOf(t, openFrom, "History")))
		require.NoError(t, err)
		require.True(t, r.Ephemeral)
		requireControls(t, r, false, true)
		require.Contains(t, text(t, r.Message), "🏁 **White wins by honourable checkmate.**", "the last frame tells the result")
		for k, want := range c.boards {
			r, err := a.Handle(click(c.u, fmt.Sprintf("g:%s:history:n%d", g.ID, k)))
			require.NoError(t, err)
			require.True(t, r.Update)
			require.True(t, bytes.Equal(want, r.Files[0].Data), "%s: frame %d is the board after move %d", c.u.Name, k, k)
			require.Contains(t, text(t, r.Message), fmt.Sprintf("(move %d of 6)", k))
			requireControls(t, r, k == 0, k == 6)
		}
	}
	frame := func(k int) string {
		r, err := a.Handle(click(erin, fmt.Sprintf("g:%s:history:p%d", g.ID, k)))
		require.NoError(t, err)
		return text(t, r.Message)
	}
	require.Contains(t, frame(1), "**a8=PoliticalAgent**", "the move in bold in the list")
	require.Contains(t, frame(1), "bob tagged out (Political Agent)")
	require.Contains(t, frame(5), "Black (dan) is besieged and passes")
	require.Contains(t, frame(5), "declines the Siege Win")
	require.Contains(t, frame(0), "Start position")
	r, err := a.Handle(in(erin, pub, "history", "", nil))
	require.NoError(t, err)
	require.True(t, r.Ephemeral, "/history answers privately")
	r, err = a.Handle(in(dan, team[chess.Black], "history", "", nil))
	require.NoError(t, err)
	require.True(t, r.Ephemeral, "/history in a team thread")
	require.True(t, bytes.Equal(black[6], r.Files[0].Data), "from the team's side")
}

// TestTeamChessHistoryOfFixtureGames: the games stored before the game
// core (storage/testdata/fixture-v1, state version 0) open in the viewer
// at every move, the finished ones ending with the result they were
// scored with.
func TestTeamChessHistoryOfFixtureGames(t *testing.T) {
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
		Games   map[string]string `json:"games"`
		Results map[string]string `json:"results"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &meta))
	n := 0
	for name, id := range meta.Games {
		if !strings.HasPrefix(name, "teamchess-") {
			continue
		}
		n++
		g := commandstest.Game(t, store, id)
		require.Less(t, g.StateVersion, 2, name)
		st := load(t, store, id)
		req := click(carol, "g:"+id+":history")
		req.GuildID = g.GuildID // interactions come from the game's server
		r, err := a.Handle(req)
		require.NoError(t, err, name)
		moves := 0
		for _, act := range st.game.State().Actions {
			if act.Kind == "move" {
				moves++
			}
		}
		require.Contains(t, text(t, r.Message), fmt.Sprintf("(move %d of %d)", moves, moves), name)
		if st.over() {
			require.Contains(t, text(t, r.Message), meta.Results[name], "%s ends as it was scored", name)
		}
		for k := 0; k < moves; k++ {
			req := click(carol, fmt.Sprintf("g:%s:history:n%d", id, k))
			req.GuildID = g.GuildID
			r, err := a.Handle(req)
			require.NoError(t, err, name)
			require.NotEmpty(t, r.Files[0].Data)
		}
	}
	require.Equal(t, 3, n, "the fixture's Team Chess games")
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
