package commands

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands/ui"
	"sandtable/storage"
)

// Buttons act on what their message showed, never on "the current thing":
// every test here clicks an old message's button after what it showed was
// replaced (SandTable's: commands/sandtable).

// click is u's click on the component customID of message "m1" in th1.
func click(u User, customID string, values ...string) *Request {
	interactionSeq++
	return &Request{Type: ComponentRequest, InteractionID: fmt.Sprint("i", interactionSeq), GuildID: "g", ChannelID: "th1",
		User: u, CustomID: customID, Values: values, MessageID: "m1", Now: t0}
}

// buttonOf returns the custom ID of m's button (or select) labelled label.
func buttonOf(t *testing.T, m Message, label string) string {
	t.Helper()
	for _, row := range m.Rows {
		for _, c := range row {
			if b, ok := c.(ui.Button); ok && b.Label == label {
				return b.Route
			}
		}
	}
	t.Fatalf("no %q button in %+v", label, m)
	return ""
}

// TestStaleLobbyMenus: the lobby's menus act on the commander they named
// when drawn, not on whoever holds that queue place now.
func TestStaleLobbyMenus(t *testing.T) {
	a, _ := testApp(t)
	dan := User{ID: "100004", Name: "dan"}
	r, err := a.Handle(cmd(alice, "teamchess", "new", nil))
	require.NoError(t, err)
	lobby := r.Message
	press := func(u User, label string) {
		t.Helper()
		r, err := a.Handle(click(u, buttonOf(t, lobby, label)))
		require.NoError(t, err)
		lobby = r.Message
	}
	press(bob, "Join White")
	press(alice, "Join White")
	press(carol, "Join White")
	press(dan, "Join Black")
	drawn := lobby
	values := selectOptions(t, drawn, "move-up")
	require.Len(t, values, 2)
	press(alice, "Leave") // White: bob, carol
	id := selectID(t, drawn, "move-up")
	_, err = a.Handle(click(alice, id, values[0])) // "move alice up to 1"
	require.Contains(t, userMsg(t, err), "no longer holds the commander you chose")
	lid, _ := ParseCustomID(id)
	var l tcLobby
	require.NoError(t, a.view(func(tx storage.Tx) error { _, err := tx.Lobbies().Get(lid.ID, &l); return err }))
	require.Equal(t, []User{bob, carol}, l.White, "nothing changed")
}

// selectOptions lists the values of m's select menu with action.
func selectOptions(t *testing.T, m Message, action string) []string {
	t.Helper()
	var out []string
	for _, row := range m.Rows {
		for _, c := range row {
			if sm, ok := c.(ui.Select); ok {
				if id, _ := ParseCustomID(sm.Route); id.Action == action {
					for _, o := range sm.Options {
						out = append(out, o.Value)
					}
				}
			}
		}
	}
	return out
}

func selectID(t *testing.T, m Message, action string) string {
	t.Helper()
	for _, row := range m.Rows {
		for _, c := range row {
			if sm, ok := c.(ui.Select); ok {
				if id, _ := ParseCustomID(sm.Route); id.Action == action {
					return sm.Route
				}
			}
		}
	}
	t.Fatalf("no %s menu", action)
	return ""
}
