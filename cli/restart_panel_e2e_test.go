package cli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
	"sandtable/internal/testkit"
)

// TestKillRightAfterAReopenedPanelDM kills the bot (SIGKILL) as soon as
// Discord has answered the direct message carrying a deployment panel
// given anew (Deploy (private), ruling D20): the restarted bot sends no
// second panel, and the player has one live panel, the older one pointing
// to it.
func TestKillRightAfterAReopenedPanelDM(t *testing.T) {
	t.Parallel()
	testkit.SkipUnlessLong(t, "kills and restarts a bot process")
	r := newKillRig(t)
	alice, bob := r.srv.User("alice"), r.srv.User("bob")
	ch := r.answer(alice, r.gen.ID, "sandtable challenge", discordsim.Opt("opponent", bob))
	_, err := r.srv.Click(bob, ch, button(t, ch, "Accept"))
	require.NoError(t, err)
	require.NoError(t, r.srv.WaitFor(wait, func() bool { return len(r.dmWith(alice, "Your secret deployment")) > 0 }), "child log:\n%s", r.bot.logs)
	th := r.srv.Threads(r.gen.ID)[0]
	r.waitWith(th.ID, "SandTable Chess: Deployment")
	status := r.with(th.ID, "SandTable Chess: Deployment")[0]

	dm := r.srv.DM(alice).ID
	sent := func() int {
		n := 0
		for _, c := range r.srv.CallsTo("POST /channels/*/messages") {
			if strings.Split(c.Path, "/")[2] == dm && c.Status == 200 {
				n++
			}
		}
		return n
	}
	before := sent()
	_, err = r.srv.Click(alice, status, button(t, status, "Deploy (private)"))
	require.NoError(t, err)
	require.NoError(t, r.srv.WaitFor(wait, func() bool { return sent() > before }))
	r.restart()

	live := func() int {
		n := 0
		for _, m := range r.dmWith(alice, "Your secret deployment") {
			if len(m.Components) > 0 {
				n++
			}
		}
		return n
	}
	require.NoError(t, r.srv.WaitFor(wait, func() bool { return len(r.dmWith(alice, "This deployment panel moved")) == 1 }),
		"the older panel points to the new one; child log:\n%s", r.bot.logs)
	// Let the restarted bot finish its start-up delivery, then count.
	r.answer(alice, th.ID, "board")
	require.Equal(t, 1, live(), "one live panel")
	require.Len(t, r.dmWith(alice, "panel 2"), 1, "the panel given anew was sent once")
	require.Equal(t, before+1, sent(), "one direct message for it")
}
