package teamchess

import (
	"bytes"
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

// TestTeamChessOrientationAndFlip: the public board is drawn from White's
// side whoever is to act, each team's board from its own side; the public
// board's Flip button shows the clicker, privately, Black's side, and says
// so when the board clicked shows an earlier position (rulings D4, D17).
func TestTeamChessOrientationAndFlip(t *testing.T) {
	t.Parallel()
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
		f, err := chessui.ChessBoard(a.Render, a.Settings.BoardSize, &pos, last, chessui.BoardView{Flipped: flipped})
		require.NoError(t, err)
		return f.Data
	}
	_, err := a.Handle(in(alice, pub, "move", "", map[string]string{"move": "e4"}))
	require.NoError(t, err)
	require.Equal(t, chess.Black, load(t, store, g.ID).game.Turn())
	board := boardIn(t, a, p, pub)
	require.True(t, bytes.Equal(drawn(false), board.Files[0].Data), "the public board with Black to act is drawn from White's side")
	flipID := buttonOf(t, board, "Flip board")
	for _, s := range p.Shown() {
		if s.Channel == pub || len(s.Msg.Files) == 0 {
			continue
		}
		for _, row := range s.Msg.Rows {
			for _, c := range row {
				require.NotEqual(t, "Flip board", c.(ui.Button).Label, "a team thread's board has no Flip button")
			}
		}
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

	_, err = commandstest.Confirm(t, a, in(alice, pub, "resign", "", nil))
	require.NoError(t, err)
	r := boardIn(t, a, p, pub)
	require.Len(t, r.Rows, 1, "the final board offers a rematch, History, Replay and Analysis")
	require.Len(t, r.Rows[0], 4, "the final board offers a rematch, History, Replay and Analysis")
	buttonOf(t, r, "Rematch")
	require.Equal(t, "g:"+g.ID+":history", buttonOf(t, r, "History"))
	require.Equal(t, "g:"+g.ID+":replay", buttonOf(t, r, "Replay"))
	require.Equal(t, "g:"+g.ID+":analysis", buttonOf(t, r, "Analysis"))
	require.True(t, bytes.Equal(drawn(false), r.Files[0].Data), "the final board is drawn from White's side")
}

var erin = commands.User{ID: "100009", Name: "erin"}

// TestTeamChessNoFirstMoveIsAborted: when the move timer runs out before
// the first move, the game is aborted, not scored: no winner, no loser, no
// personal loss for the commander, no record; every thread is told, and
// no action is taken after (ruling D18). After a move, the timer tags out
// as before (ruling B1).
func TestTeamChessNoFirstMoveIsAborted(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	g, pub, _ := startGame(t, a, store, "", []commands.User{alice, carol}, []commands.User{bob, dan})
	_, beforeEdits := p.Snapshot()
	require.NoError(t, a.Sweep(t0.Add(time.Hour)))
	stored := commandstest.Game(t, store, g.ID)
	require.False(t, stored.Active)
	require.Equal(t, &storage.Outcome{Method: storage.Aborted}, stored.Outcome, "no winner, no loser")
	s := load(t, store, g.ID)
	require.True(t, s.Aborted)
	for _, c := range s.game.Commanders(chess.White) {
		require.False(t, c.Lost, "%s has no personal loss", c.Member.Name)
	}
	commandstest.Deliver(t, a, t0.Add(time.Hour))
	_, edits := p.Snapshot()
	require.Len(t, edits[len(beforeEdits):], 3, "the live boards of the public thread and both team threads")
	for _, m := range edits[len(beforeEdits):] {
		require.Contains(t, m.Msg.Content, "aborted")
	}
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		return tx.Records().Each(Kind, "g", func(id string, _ []byte) error {
			t.Errorf("a record for %s", id)
			return nil
		})
	}))
	_, err := a.Handle(in(alice, pub, "move", "", map[string]string{"move": "e4"}))
	require.Contains(t, commandstest.UserMsg(t, err), "aborted")

	// One move played: the timer tags out as before.
	a, _, store = newApp(t)
	g, pub, _ = startGame(t, a, store, "", []commands.User{alice, carol}, []commands.User{bob, dan})
	_, err = a.Handle(in(alice, pub, "move", "", map[string]string{"move": "e4"}))
	require.NoError(t, err)
	require.NoError(t, a.Sweep(t0.Add(time.Hour)))
	stored = commandstest.Game(t, store, g.ID)
	require.True(t, stored.Active, "bob is tagged out, dan commands Black")
	require.False(t, load(t, store, g.ID).Aborted)
}
