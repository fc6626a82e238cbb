package commands

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Repeated clicks (SandTable's: commands/sandtable): a double click, or a
// click on a message before Discord showed the first click's answer,
// carries the stamp of what the message showed before the first click
// changed it. It must not overwrite the
// message's success with a "Nothing changed" text: it is answered
// privately and changes nothing.

// requireAlready asserts a private answer that leaves the message alone.
func requireAlready(t *testing.T, r *Response, err error, want string) {
	t.Helper()
	require.NoError(t, err)
	require.False(t, r.Update, "the message keeps what the first click showed: %q", r.Content)
	require.True(t, r.Ephemeral)
	require.Equal(t, want, r.Content)
}

func TestRepeatedLobbyChoices(t *testing.T) {
	a, _ := testApp(t)
	dan, erin := User{ID: "100004", Name: "dan"}, User{ID: "100005", Name: "erin"}
	r, err := a.Handle(cmd(alice, "teamchess", "new", nil))
	require.NoError(t, err)
	lobby := r.Message
	press := func(u User, label string) *Response {
		t.Helper()
		r, err := a.Handle(click(u, buttonOf(t, lobby, label)))
		require.NoError(t, err)
		if r.Update {
			lobby = r.Message
		}
		return r
	}
	press(bob, "Join White")
	press(alice, "Join White")
	r = press(alice, "Join White")
	require.True(t, r.Ephemeral)
	require.Equal(t, "Already done: you are in White's queue. Use Leave to leave the lobby.", r.Content)
	press(carol, "Join Black")
	press(dan, "Join Black")
	press(erin, "Join Black")

	drawn := lobby
	up := selectID(t, drawn, "move-up")
	value := "w:1:" + alice.ID
	require.Contains(t, selectOptions(t, drawn, "move-up"), value)
	for i := range 2 {
		r, err = a.Handle(click(alice, up, value))
		require.NoError(t, err)
		if i == 0 {
			require.True(t, r.Update)
			continue
		}
		requireAlready(t, r, err, "Already done: <@100001> is at place 1 in White's queue.")
	}

	double := selectID(t, drawn, "double")
	grant := "w:" + bob.ID
	require.Contains(t, selectOptions(t, drawn, "double"), grant)
	r, err = a.Handle(click(alice, double, grant))
	require.NoError(t, err)
	require.True(t, r.Update)
	withdraw := "w:none:" + bob.ID
	require.Contains(t, selectOptions(t, r.Message, "double"), withdraw)
	r2, err := a.Handle(click(alice, double, grant))
	requireAlready(t, r2, err, "Already done: <@100002> has a second command for White.")
	again := selectID(t, r.Message, "double")
	_, err = a.Handle(click(alice, again, withdraw))
	require.NoError(t, err)
	r, err = a.Handle(click(alice, again, withdraw))
	requireAlready(t, r, err, "Already done: <@100002> has no second command for White.")
}
