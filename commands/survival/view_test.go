package survival

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/games/chess"
)

// TestSurvivalFinalBoardFromTheWinnersSide: the last board is drawn from
// the winner's side (White's after a draw), whoever is to move.
func TestSurvivalFinalBoardFromTheWinnersSide(t *testing.T) {
	for _, c := range []struct {
		name    string
		moves   []string // played first, by alice then bob
		end     *commands.Request
		flipped bool
	}{
		{"White wins, Black to move", []string{"Ka2"}, cmd(bob, "resign", "", nil), false},
		{"Black wins, White to move", nil, cmd(alice, "resign", "", nil), true},
		{"draw, Black to move", []string{"Ka2"}, nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, _, store := newApp(t)
			id := putGame(t, store, kingsShuffle)
			for i, m := range c.moves {
				u := alice
				if i%2 == 1 {
					u = bob
				}
				_, err := a.Handle(cmd(u, "move", "", map[string]string{"move": m}))
				require.NoError(t, err)
			}
			end := c.end
			if end == nil {
				_, err := a.Handle(cmd(bob, "draw", "offer", nil))
				require.NoError(t, err)
				end = cmd(alice, "draw", "accept", nil)
			}
			r, err := commandstest.Confirm(t, a, end)
			require.NoError(t, err)
			g, st := load(t, store, id)
			require.False(t, g.Active)
			game, err := chess.ReplayGame(chess.Survival, st.StartFEN, st.Moves)
			require.NoError(t, err)
			var last []chess.Square
			if from, to, ok := game.LastMoveSquares(); ok {
				last = []chess.Square{from, to}
			}
			want, err := commands.ChessBoard(a.Render, a.Settings.BoardSize, game.Position(), last, commands.BoardView{Flipped: c.flipped})
			require.NoError(t, err)
			got, w := r.Files[0].Data, want.Data
			require.True(t, bytes.Equal(w, got), "the final board is drawn with Black at the bottom = %v", c.flipped)
		})
	}
}

// TestStaleSurvivalFlip: Flip board shows the position of the board it is
// on, not the game's position now.
func TestStaleSurvivalFlip(t *testing.T) {
	a, _, store := newApp(t)
	putGame(t, store, kingsShuffle)
	b0, err := a.Handle(cmd(alice, "board", "", nil))
	require.NoError(t, err)
	b1, err := a.Handle(cmd(alice, "move", "", map[string]string{"move": "Ka2"}))
	require.NoError(t, err)
	f0, err := a.Handle(click(carol, buttonOf(t, b0.Message, "Flip board")))
	require.NoError(t, err)
	require.True(t, f0.Ephemeral)
	require.Equal(t, "The board before the first move from Black's side:", f0.Content)
	f1, err := a.Handle(click(carol, buttonOf(t, b1.Message, "Flip board")))
	require.NoError(t, err)
	require.Equal(t, "The board from White's side:", f1.Content)
	_, err = a.Handle(click(carol, "g:game1:flip:9"))
	require.Contains(t, userMsg(t, err), "does not belong to a board of this game")
}
