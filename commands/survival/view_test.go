package survival

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/chessui"
	"sandtable/commands/commandstest"
	"sandtable/games/chess"
)

// TestSurvivalBoardsFromWhitesSide: every public board, the running ones
// with Black to move and the final one whoever won, is drawn from White's
// side (ruling 21).
func TestSurvivalBoardsFromWhitesSide(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		moves   []string // played first, by alice then bob
		end     *commands.Request
		flipped bool
	}{
		{"White wins, Black to move", []string{"Ka2"}, cmd(bob, "resign", "", nil), false},
		{"Black wins, White to move", nil, cmd(alice, "resign", "", nil), false},
		{"draw, Black to move", []string{"Ka2"}, nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, p, store := newApp(t)
			id := putGame(t, store, kingsShuffle)
			for i, m := range c.moves {
				u := alice
				if i%2 == 1 {
					u = bob
				}
				_, err := a.Handle(cmd(u, "move", "", map[string]string{"move": m}))
				require.NoError(t, err)
				r := liveBoard(t, a, p)
				_, st := load(t, store, id)
				game, err := chess.ReplayGame(chess.Survival, st.StartFEN, st.Moves)
				require.NoError(t, err)
				from, to, _ := game.LastMoveSquares()
				want, err := chessui.ChessBoard(a.Render, a.Settings.BoardSize, game.Position(), []chess.Square{from, to}, chessui.BoardView{CaptureMarks: true})
				require.NoError(t, err)
				require.Equal(t, chess.Black, game.Position().Turn())
				require.True(t, bytes.Equal(want.Data, r.Files[0].Data), "the board with Black to move is drawn from White's side")
			}
			end := c.end
			if end == nil {
				_, err := a.Handle(cmd(bob, "draw", "offer", nil))
				require.NoError(t, err)
				end = cmd(alice, "draw", "accept", nil)
			}
			_, err := commandstest.Confirm(t, a, end)
			require.NoError(t, err)
			r := liveBoard(t, a, p)
			g, st := load(t, store, id)
			require.False(t, g.Active)
			game, err := chess.ReplayGame(chess.Survival, st.StartFEN, st.Moves)
			require.NoError(t, err)
			var last []chess.Square
			if from, to, ok := game.LastMoveSquares(); ok {
				last = []chess.Square{from, to}
			}
			want, err := chessui.ChessBoard(a.Render, a.Settings.BoardSize, game.Position(), last, chessui.BoardView{Flipped: c.flipped})
			require.NoError(t, err)
			got, w := r.Files[0].Data, want.Data
			require.True(t, bytes.Equal(w, got), "the final board is drawn with Black at the bottom = %v", c.flipped)
		})
	}
}

// TestStaleSurvivalFlip: Flip board shows the position of the board it is
// on, not the game's position now, always from Black's side.
func TestStaleSurvivalFlip(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	putGame(t, store, kingsShuffle)
	b0, err := a.Handle(cmd(alice, "board", "", nil))
	require.NoError(t, err)
	require.True(t, b0.Ephemeral, "/board answers privately")
	_, err = a.Handle(cmd(alice, "move", "", map[string]string{"move": "Ka2"}))
	require.NoError(t, err)
	b1 := &commands.Response{Message: liveBoard(t, a, p)}
	f0, err := a.Handle(click(carol, buttonOf(t, b0.Message, "Flip board")))
	require.NoError(t, err)
	require.True(t, f0.Ephemeral)
	require.Equal(t, "The board before the first move from Black's side:", f0.Content)
	f1, err := a.Handle(click(carol, buttonOf(t, b1.Message, "Flip board")))
	require.NoError(t, err)
	require.Equal(t, "The board from Black's side:", f1.Content, "Flip shows Black's side whoever is to move")
	_, st := load(t, store, "game1")
	game, err := chess.ReplayGame(chess.Survival, st.StartFEN, st.Moves)
	require.NoError(t, err)
	from, to, _ := game.LastMoveSquares()
	want, err := chessui.ChessBoard(a.Render, a.Settings.BoardSize, game.Position(), []chess.Square{from, to}, chessui.BoardView{Flipped: true, CaptureMarks: true})
	require.NoError(t, err)
	require.True(t, bytes.Equal(want.Data, f1.Files[0].Data), "the flipped board has Black at the bottom")
	_, err = a.Handle(click(carol, "g:game1:flip:9"))
	require.Contains(t, userMsg(t, err), "does not belong to a board of this game")
}

// TestLastMovesNumbered: the live board's last moves read as a move list,
// numbered, starting with Black's move when the window starts there.
func TestLastMovesNumbered(t *testing.T) {
	t.Parallel()
	g := chess.NewGame(chess.Survival)
	require.Equal(t, "", lastMoves(g, 8))
	for _, m := range []string{"g7g8q", "e2e1k", "g8g6", "f7g6", "c7c8q"} {
		_, _, err := g.PlayText(m)
		require.NoError(t, err)
	}
	require.Equal(t, "1. g8=Q e1=K 2. Qxg6 fxg6 3. c8=Q", lastMoves(g, 8))
	require.Equal(t, "2... fxg6 3. c8=Q", lastMoves(g, 2))
	require.Equal(t, "2. Qxg6 fxg6 3. c8=Q", lastMoves(g, 3))
}
