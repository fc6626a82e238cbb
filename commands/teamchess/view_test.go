package teamchess

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/games/chess"
)

// TestTeamChessOrientationAndFlip: the public board is drawn from White's
// side whoever is to act, each team's board from its own side; the public
// board's Flip button shows the clicker, privately, Black's side, and says
// so when the board clicked shows an earlier position (rulings D4, D17).
func TestTeamChessOrientationAndFlip(t *testing.T) {
	a, p, store := newApp(t)
	g, pub, team := startGame(t, a, store, "", []commands.User{alice, carol}, []commands.User{bob, dan})
	drawn := func(flipped bool) []byte {
		t.Helper()
		s := load(t, store, g.ID)
		pos := s.game.Position()
		var last []chess.Square
		if m, ok := s.game.LastMove(); ok {
			last = []chess.Square{m.Board.From(), m.Board.To()}
		}
		f, err := commands.ChessBoard(a.Render, a.Settings.BoardSize, &pos, last, commands.BoardView{Flipped: flipped})
		require.NoError(t, err)
		return f.Data
	}
	resp, err := a.Handle(in(alice, pub, "move", "", map[string]string{"move": "e4"}))
	require.NoError(t, err)
	require.Equal(t, chess.Black, load(t, store, g.ID).game.Turn())
	require.True(t, bytes.Equal(drawn(false), resp.Files[0].Data), "the public board with Black to act is drawn from White's side")
	flipID := buttonOf(t, resp.Message, "Flip board")
	require.Equal(t, 2, commandstest.Deliver(t, a, t0))
	posts, _ := p.Snapshot()
	for _, s := range posts[len(posts)-2:] {
		require.Empty(t, s.Msg.Rows, "a team thread's board has no Flip button")
		black := s.Channel == team[chess.Black]
		require.True(t, bytes.Equal(drawn(black), s.Msg.Files[0].Data), "a team's board is drawn from its own side (Black's: %v)", black)
	}

	f, err := a.Handle(click(erin, flipID))
	require.NoError(t, err)
	require.True(t, f.Ephemeral, "Flip answers privately")
	require.Contains(t, f.Content, "from Black's side")
	require.NotContains(t, f.Content, "earlier")
	require.True(t, bytes.Equal(drawn(true), f.Files[0].Data), "Flip shows Black's side")

	_, err = a.Handle(in(bob, pub, "move", "", map[string]string{"move": "e5"}))
	require.NoError(t, err)
	f, err = a.Handle(click(erin, flipID))
	require.NoError(t, err)
	require.Contains(t, f.Content, "earlier position", "the board clicked is of an earlier position")
	require.True(t, bytes.Equal(drawn(true), f.Files[0].Data), "Flip shows the board now")
	require.Len(t, load(t, store, g.ID).game.State().Actions, 2, "Flip changes nothing")

	r, err := a.Handle(in(alice, pub, "resign", "", nil))
	require.NoError(t, err)
	require.Empty(t, r.Rows, "the final board has no controls")
	require.True(t, bytes.Equal(drawn(false), r.Files[0].Data), "the final board is drawn from White's side")
}

var erin = commands.User{ID: "100009", Name: "erin"}
