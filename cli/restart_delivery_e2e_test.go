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

// pings are the public messages of channelID without buttons that mention
// someone: the turn's ping (the live board carries buttons).
func (r *killRig) pings(channelID string) []*discordsim.Message {
	var out []*discordsim.Message
	for _, m := range r.srv.Messages(channelID) {
		if !m.Ephemeral() && len(m.Buttons()) == 0 && m.Attachment("board.png") == nil && strings.Contains(m.Content, "<@") {
			out = append(out, m)
		}
	}
	return out
}

// pingedOnly reports whether the one ping left in channelID is u's.
func (r *killRig) pingedOnly(channelID string, u *discordsim.User) bool {
	p := r.pings(channelID)
	return len(p) == 1 && strings.Contains(p[0].Content, u.Mention())
}

// notified counts the notifications u was given in channelID.
func (r *killRig) notified(channelID string, u *discordsim.User) int {
	n := 0
	for _, no := range r.srv.Notifications(u.ID) {
		if no.ChannelID == channelID {
			n++
		}
	}
	return n
}

// TestKillAtEachStepOfAMovesDelivery kills the bot (SIGKILL) at each REST
// call of a move's delivery (the live board's edit in place, the delete of
// the turn's ping before it, the post of the new turn's ping), in three
// ways: while Discord holds the call unapplied (the bot died before its
// request arrived), while it holds the answer of a call it applied (the
// bot never learns it was done), and right after the call was answered
// (racing the bot's commit of the result). After each restart the move
// stands once, the one live board shows it, the next player is notified
// once and the one ping left in the thread is theirs, and the game goes on
// (the next move's delivery replaces that ping).
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
					return len(live) == 1 && strings.Contains(live[0].Text(), "played **e1=K**") && r.pingedOnly(th.ID, alice)
				}), "the live board shows the move and alice's ping is the one ping; child log:\n%s", r.bot.logs)
				require.Len(t, r.boards(th.ID), 1, "one board, edited in place")
				require.Equal(t, 2, r.notified(th.ID, alice), "alice is notified once for this turn (and once for the first)")
				if move.Response() == nil {
					t.Logf("the mover's answer was lost with the bot (Discord shows the interaction failed)")
				}

				m := r.answer(alice, th.ID, "move", discordsim.Opt("move", "g8g6"))
				require.Contains(t, m.Text(), "You played", "the game goes on")
				require.NoError(t, r.srv.WaitFor(wait, func() bool {
					live := r.liveBoards(th.ID)
					return len(live) == 1 && !strings.Contains(live[0].Text(), "played **e1=K**") && r.pingedOnly(th.ID, bob)
				}), "the live board shows the next move and bob's ping replaced alice's")
				require.Len(t, r.boards(th.ID), 1, "still one board")
				require.Equal(t, 2, r.notified(th.ID, bob), "bob is notified once a turn")
			})
		}
	}
}
