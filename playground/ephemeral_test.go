package playground

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// viewAfter is /api/view with the page's ephemeral horizon ("now" on a page's first view).
func (tp *testPlayground) viewAfter(as, channel, after string) view {
	tp.t.Helper()
	r := tp.get("/api/view?as=" + as + "&channel=" + channel + "&ephemeral_after=" + url.QueryEscape(after))
	require.Equal(tp.t, 200, r.status, "view: %s", r.body)
	var v view
	require.NoError(tp.t, json.Unmarshal(r.body, &v))
	return v
}

func ephemeralIDs(v view) []string {
	var ids []string
	for _, m := range v.Messages {
		if m.Ephemeral {
			ids = append(ids, m.ID)
		}
	}
	return ids
}

// TestEphemeralMessagesLastAsLongAsThePage: as in Discord, an ephemeral message is shown to
// its person by the page that was open when it came, and a reload (a new first view, "now")
// no longer shows it; API clients that name no horizon see every one.
func TestEphemeralMessagesLastAsLongAsThePage(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	alice, bob := tp.userID("alice"), tp.userID("bob")
	thread := tp.survivalThread()

	// bob's page is open (its first view names the horizon) when he moves out of turn.
	page := tp.viewAfter(bob, thread, "now")
	require.NotEmpty(t, page.EphemeralAfter, "the first view names its horizon")
	require.Empty(t, ephemeralIDs(page))
	tp.command(bob, thread, "move", opt("move", "a7a6"))
	v := tp.waitView(bob, thread, "bob's refusal", func(v view) bool { return len(ephemeralIDs(v)) == 1 })
	first := ephemeralIDs(v)[0]
	require.Contains(t, v.Messages[len(v.Messages)-1].text(), "not your turn")
	require.Equal(t, []string{first}, ephemeralIDs(tp.viewAfter(bob, thread, page.EphemeralAfter)), "the open page shows it")
	require.Empty(t, ephemeralIDs(tp.viewAfter(alice, thread, page.EphemeralAfter)), "only to bob")

	// A reload: the new page does not show it, nor count it in the thread's messages.
	reload := tp.viewAfter(bob, thread, "now")
	require.Empty(t, ephemeralIDs(reload), "a reloaded page no longer shows an earlier ephemeral message")
	require.Equal(t, len(v.Messages)-1, reload.Channel.MessageCount)
	for _, m := range reload.Messages {
		require.NotContains(t, m.text(), "not your turn")
	}
	require.Greater(t, reload.EphemeralAfter, "", "the reload has its own horizon")

	// The reloaded page shows the ephemeral messages that come after it.
	tp.command(bob, thread, "move", opt("move", "a7a5"))
	v = tp.waitView(bob, thread, "bob's second refusal", func(v view) bool { return len(ephemeralIDs(v)) == 2 })
	second := ephemeralIDs(v)[1]
	require.Equal(t, []string{second}, ephemeralIDs(tp.viewAfter(bob, thread, reload.EphemeralAfter)))
	require.Equal(t, []string{first, second}, ephemeralIDs(tp.viewAfter(bob, thread, page.EphemeralAfter)), "the first page still shows both")

	// A horizon that is not one is refused with a clear error.
	for _, bad := range []string{"soon", "-1", "0", "12x"} {
		r := tp.get("/api/view?as=" + bob + "&channel=" + thread + "&ephemeral_after=" + bad)
		require.Equal(t, 400, r.status, bad)
		require.True(t, strings.Contains(r.errorText(t), "ephemeral_after"), "%s: %s", bad, r.body)
	}
}
