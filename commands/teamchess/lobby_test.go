package teamchess

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
)

// TestRepeatedLobbyChoices: a choice or a Join that repeats what is
// already so is answered privately "Already done" and leaves the lobby
// message as it is (ruling D1).
func TestRepeatedLobbyChoices(t *testing.T) {
	t.Parallel()
	a, _, _ := newApp(t)
	erin := commands.User{ID: "100005", Name: "erin"}
	r, err := a.Handle(commandstest.Cmd(alice, "teamchess", "new", nil))
	require.NoError(t, err)
	lobby := r.Message
	press := func(u commands.User, label string) *commands.Response {
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

// TestStaleLobbyMenus: the lobby's menus act on the commander they named
// when drawn, not on whoever holds that queue place now.
func TestStaleLobbyMenus(t *testing.T) {
	t.Parallel()
	a, _, _ := newApp(t)
	r, err := a.Handle(commandstest.Cmd(alice, "teamchess", "new", nil))
	require.NoError(t, err)
	shown := r.Message
	press := func(u commands.User, label string) {
		t.Helper()
		r, err := a.Handle(click(u, buttonOf(t, shown, label)))
		require.NoError(t, err)
		shown = r.Message
	}
	press(bob, "Join White")
	press(alice, "Join White")
	press(carol, "Join White")
	press(dan, "Join Black")
	drawn := shown
	values := selectOptions(t, drawn, "move-up")
	require.Len(t, values, 2)
	press(alice, "Leave") // White: bob, carol
	id := selectID(t, drawn, "move-up")
	_, err = a.Handle(click(alice, id, values[0])) // "move alice up to 1"
	require.Contains(t, commandstest.UserMsg(t, err), "no longer holds the commander you chose")
	lid, _ := commands.ParseCustomID(id)
	var l lobby
	_, err = a.Lobby(lid.ID, &l)
	require.NoError(t, err)
	require.Equal(t, []commands.User{bob, carol}, l.White, "nothing changed")
}
