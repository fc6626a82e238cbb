package commands

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/games/chess"
)

// TestGamesLineNamesTheColour: /games writes the colour as a title.
func TestGamesLineNamesTheColour(t *testing.T) {
	a, _ := testApp(t)
	putSurvival(t, a, kingsShuffle)
	for u, want := range map[User]string{alice: "you play White", bob: "you play Black"} {
		r, err := a.Handle(cmd(u, "games", "", nil))
		require.NoError(t, err)
		require.Contains(t, r.Cards[0].Description, want)
	}
}

// TestMoveTimeNamesTheRange: every refused move_time names the allowed
// range, also one too large to be read as a duration at all.
func TestMoveTimeNamesTheRange(t *testing.T) {
	a, _ := testApp(t)
	for _, in := range []string{"99999d", "soon", "10s", "31d", "-5m"} {
		_, err := a.MoveTimeOption(cmd(alice, "survival", "challenge", map[string]string{"move_time": in}), "move_time")
		msg := userMsg(t, err)
		require.Contains(t, msg, "between 1m and 30d", in)
		require.Contains(t, msg, "`"+in+"`", in)
	}
	d, err := a.MoveTimeOption(cmd(alice, "survival", "challenge", map[string]string{"move_time": "30d"}), "move_time")
	require.NoError(t, err)
	require.Equal(t, "720h0m0s", d.String())
}

// TestSurvivalFinalBoardFromTheWinnersSide: the last board is drawn from
// the winner's side (White's after a draw), whoever is to move.
func TestSurvivalFinalBoardFromTheWinnersSide(t *testing.T) {
	for _, c := range []struct {
		name    string
		moves   []string // played first, by alice then bob
		end     *Request
		flipped bool
	}{
		{"White wins, Black to move", []string{"Ka2"}, cmd(bob, "resign", "", nil), false},
		{"Black wins, White to move", nil, cmd(alice, "resign", "", nil), true},
		{"draw, Black to move", []string{"Ka2"}, nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, _ := testApp(t)
			id := putSurvival(t, a, kingsShuffle)
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
			r, err := a.Handle(end)
			require.NoError(t, err)
			g, st := loadState(t, a, id)
			require.False(t, g.Active)
			game, err := chess.ReplayGame(chess.Survival, st.StartFEN, st.Moves)
			require.NoError(t, err)
			want, err := a.chessBoardFile(game, boardView{Flipped: c.flipped})
			require.NoError(t, err)
			got, w := r.Files[0].Data, want.Data
			require.True(t, bytes.Equal(w, got), "the final board is drawn with Black at the bottom = %v", c.flipped)
		})
	}
}

// TestNotAMoveHintPerVariant: the hint after text that is not a move shows
// the variant's own notation: no castling in Survival, sacrifices and no
// promotion in Team Chess.
func TestNotAMoveHintPerVariant(t *testing.T) {
	a, _ := testApp(t)
	putSurvival(t, a, kingsShuffle)
	_, err := a.Handle(cmd(alice, "move", "", map[string]string{"move": "hello"}))
	msg := userMsg(t, err)
	require.Contains(t, msg, "e8=K")
	require.NotContains(t, msg, "O-O")
	// Team Chess: commands/teamchess.TestNotAMoveHint.
}
