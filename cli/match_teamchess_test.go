package cli

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/games/teamchess"
)

type nopCloser struct{ *bytes.Buffer }

func (nopCloser) Close() error { return nil }

// TestTCUCISiegeDecision: at a siege decision a uci: player continues the
// siege only when its answer says so in an info string, and otherwise
// takes the Siege Win; a continued siege is sent as 0000 in the moves.
func TestTCUCISiegeDecision(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		info string
		want teamchess.ActionKind
	}{
		{"info string black is besieged and passes; white should continue the siege", teamchess.ActSiegeContinue},
		{"info string black is besieged and passes; white should take the Siege Win", teamchess.ActSiegeWin},
		{"info depth 1 score cp 900", teamchess.ActSiegeWin},
	} {
		g, err := teamchess.NewGame(teamchess.Setup{FEN: "7k/5K2/6Q1/8/8/8/8/8 b - - 0 1",
			White: []teamchess.Member{{ID: "w"}}, Black: []teamchess.Member{{ID: "b"}}})
		require.NoError(t, err)
		require.Equal(t, teamchess.SiegeDecision, g.Phase())
		sent := &bytes.Buffer{}
		u := tcUCIPlayer{&uciPlayer{in: nopCloser{sent}, lines: make(chan string, 4)}}
		u.lines <- c.info
		u.lines <- "bestmove 0000"
		a, err := u.act(g, time.Second)
		require.NoError(t, err)
		require.Equal(t, c.want, a.Kind, c.info)
		require.Contains(t, sent.String(), "go movetime 1000\n")
	}
	g, err := teamchess.NewGame(teamchess.Setup{FEN: "7k/5K2/6Q1/8/8/8/8/8 b - - 0 1",
		White: []teamchess.Member{{ID: "w"}}, Black: []teamchess.Member{{ID: "b"}}})
	require.NoError(t, err)
	_, err = g.Apply(teamchess.Action{Kind: teamchess.ActSiegeContinue, Side: "white"})
	require.NoError(t, err)
	_, err = g.Apply(teamchess.Action{Kind: teamchess.ActMove, Side: "white", Move: "g6g7"})
	require.NoError(t, err)
	require.Equal(t, []string{"0000", "g6g7"}, tcUCIMoves(g))
}
