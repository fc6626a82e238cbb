package cli

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
	"sandtable/internal/testkit"
)

// liveBoards returns the public messages of channelID that still carry
// buttons: a game's live board, which must be one.
func (r *killRig) liveBoards(channelID string) []*discordsim.Message {
	var out []*discordsim.Message
	for _, m := range r.srv.Messages(channelID) {
		if !m.Ephemeral() && len(m.Buttons()) > 0 {
			out = append(out, m)
		}
	}
	return out
}

// TestKillAtEachStepOfAMovesDelivery kills the bot (SIGKILL) at each REST
// call of a move's delivery (the new board's post, the compaction of the
// board before it, the mover's answer), in three ways: while Discord holds
// the call unapplied (the bot died before its request arrived), while it
// holds the answer of a call it applied (the bot never learns it was done),
// and right after the call was answered (racing the bot's commit of the
// result). After each restart the move stands once, the new board is shown
// once and is the one live board, the board before it is compacted once,
// and the game goes on (the next move's delivery compacts the new board).
func TestKillAtEachStepOfAMovesDelivery(t *testing.T) {
	t.Parallel()
	testkit.SkipUnlessLong(t, "kills and restarts the bot nine times")
	modes := []struct {
		name  string
		fault *discordsim.Fault
	}{
		{"held before Discord applied it", &discordsim.Fault{Status: 500, Hold: time.Hour}},
		{"applied, its answer held", &discordsim.Fault{Apply: true, Hold: time.Hour}},
		{"answered", nil},
	}
	for _, mode := range modes {
		for k := 1; k <= 3; k++ {
			t.Run(fmt.Sprintf("call %d %s", k, mode.name), func(t *testing.T) {
				r := newKillRig(t)
				alice, bob := r.srv.User("alice"), r.srv.User("bob")
				th := r.survivalGame(alice, bob)
				r.answer(alice, th.ID, "move", discordsim.Opt("move", "g7g8q"))
				require.NoError(t, r.srv.WaitFor(wait, func() bool {
					live := r.liveBoards(th.ID)
					return len(live) == 1 && strings.Contains(live[0].Text(), "played **g8=Q**")
				}), "the first move's delivery ends: its board is the one live board")

				seq := r.srv.CallCount() + k
				if mode.fault != nil {
					r.srv.FailCall(seq, *mode.fault)
				}
				move, err := r.srv.Slash(bob, th.ID, "move", discordsim.Opt("move", "e2e1k"))
				require.NoError(t, err)
				c, err := r.srv.WaitCall(wait, func(c *discordsim.Call) bool { return c.Seq == seq })
				require.NoError(t, err, "child log:\n%s", r.bot.logs)
				t.Logf("killed at %s", c)
				r.restart()

				// The move was saved before its first call: it stands, and
				// resending it is refused.
				again := r.answer(bob, th.ID, "move", discordsim.Opt("move", "e2e1k"))
				require.NotContains(t, again.Text(), "You played", "the move was applied before the kill")
				require.NoError(t, r.srv.WaitFor(wait, func() bool {
					live := r.liveBoards(th.ID)
					return len(live) == 1 && strings.Contains(live[0].Text(), "played **e1=K**")
				}), "the new board becomes the live one; child log:\n%s", r.bot.logs)
				require.Len(t, r.with(th.ID, "played **e1=K**"), 1, "the new board is shown once")
				require.Len(t, r.with(th.ID, "1. g8=Q —"), 1, "the board before it is compacted once")
				if move.Response() == nil {
					t.Logf("the mover's answer was lost with the bot (Discord shows the interaction failed)")
				}

				m := r.answer(alice, th.ID, "move", discordsim.Opt("move", "g8g6"))
				require.Contains(t, m.Text(), "You played", "the game goes on")
				require.NoError(t, r.srv.WaitFor(wait, func() bool {
					live := r.liveBoards(th.ID)
					return len(live) == 1 && strings.Contains(live[0].Text(), "played **") && len(r.with(th.ID, "e1=K —")) == 1
				}), "the next board is the live one, the board of e1=K compacted once")
				require.Len(t, r.with(th.ID, "played **e1=K**"), 0, "no second copy of the e1=K board left live or full")
			})
		}
	}
}
