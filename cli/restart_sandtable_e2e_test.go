package cli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
)

// TestKillAfterTheLastConfirm kills the bot (SIGKILL) right after the last
// Confirm of a SandTable deployment, before its reveal was posted (Discord
// refused the post with a 500): the reveal was saved with the Confirm, so
// the restarted bot posts it (board, coin toss, ping of the first mover)
// once.
func TestKillAfterTheLastConfirm(t *testing.T) {
	t.Parallel()
	// The bot runs in a child process, killed with SIGKILL (newKillRig).
	r := newKillRig(t)
	srv, gen := r.srv, r.gen

	alice, bob := srv.User("alice"), srv.User("bob")
	in, err := srv.Slash(alice, gen.ID, "sandtable challenge", discordsim.Opt("opponent", bob))
	require.NoError(t, err)
	ch, err := in.WaitMessage(wait, nil)
	require.NoError(t, err)
	in, err = srv.Click(bob, ch, button(t, ch, "Accept"))
	require.NoError(t, err)
	_, err = in.WaitMessage(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "accepted") })
	require.NoError(t, err)
	threads := srv.Threads(gen.ID)
	require.Len(t, threads, 1)
	thread := threads[0]

	// panel waits for u's deployment panel in their DMs.
	panel := func(u *discordsim.User) *discordsim.Message {
		var p *discordsim.Message
		require.NoError(t, srv.WaitFor(wait, func() bool {
			for _, m := range srv.VisibleMessages(u, srv.DM(u).ID) {
				if strings.Contains(m.Text(), "Your secret deployment") {
					p = m
				}
			}
			return p != nil
		}), "child log:\n%s", r.bot.logs)
		return p
	}
	deploy := func(u *discordsim.User) *discordsim.Message {
		p := panel(u)
		sel, err := srv.Select(u, p, selectID(t, p), "phalanx")
		require.NoError(t, err)
		_, err = sel.WaitResponse(wait)
		require.NoError(t, err)
		require.NoError(t, srv.WaitFor(wait, func() bool { return strings.Contains(srv.Message(p.ID).Text(), "Preset **phalanx** loaded") }))
		return srv.Message(p.ID)
	}
	p := deploy(alice)
	in, err = srv.Click(alice, p, button(t, p, "Confirm"))
	require.NoError(t, err)
	_, err = srv.WaitMessage(wait, func(m *discordsim.Message) bool {
		return m.ChannelID == thread.ID && strings.Contains(m.Text(), "has confirmed their deployment")
	})
	require.NoError(t, err)
	p = deploy(bob)
	posts := len(srv.CallsTo("POST /channels/*/messages"))
	srv.ServerErrorNext("POST /channels/*/messages", 1)
	in, err = srv.Click(bob, p, button(t, p, "Confirm"))
	require.NoError(t, err)
	_, err = in.WaitResponse(wait)
	require.NoError(t, err)
	require.NoError(t, srv.WaitFor(wait, func() bool { return len(srv.CallsTo("POST /channels/*/messages")) > posts }))
	r.restart()

	reveals := func() []*discordsim.Message {
		var out []*discordsim.Message
		for _, m := range srv.Messages(thread.ID) {
			if strings.Contains(m.Text(), "The coin is flipped") {
				out = append(out, m)
			}
		}
		return out
	}
	require.Empty(t, reveals(), "the reveal's post failed before the kill")
	require.NoError(t, srv.WaitFor(wait, func() bool { return len(reveals()) > 0 }), "child log:\n%s", r.bot.logs)
	reveal := reveals()[0]
	require.NotNil(t, reveal.Attachment("board.png"))
	require.Contains(t, reveal.Text(), "moves first")
	// The game goes on: the first mover's /board answers with the board.
	in, err = srv.Slash(alice, thread.ID, "board")
	require.NoError(t, err)
	m, err := in.WaitMessage(wait, nil)
	require.NoError(t, err)
	require.Contains(t, m.Text(), "turn 1")
	require.Len(t, reveals(), 1, "the reveal was posted once")
}

// button is the custom ID of m's button labelled label.
func button(t testing.TB, m *discordsim.Message, label string) string {
	t.Helper()
	for _, b := range m.Buttons() {
		if b.Label == label {
			return b.CustomID
		}
	}
	t.Fatalf("no %q button in %q", label, m.Text())
	return ""
}

// selectID is the custom ID of m's preset menu.
func selectID(t testing.TB, m *discordsim.Message) string {
	t.Helper()
	for _, s := range m.SelectMenus() {
		if strings.Contains(s.CustomID, ":dep-preset") {
			return s.CustomID
		}
	}
	t.Fatalf("no preset menu in %q", m.Text())
	return ""
}
