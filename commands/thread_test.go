package commands_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands/commandstest"
	"sandtable/storage"
)

// TestOpenThreadReusesOnlyOrphans: opening a game's thread again (a Start
// retried after a failure or a crash) finds the thread an interrupted
// attempt made, never a thread another game owns, and makes a new one
// only when there is none; a thread from a message is the message's.
func TestOpenThreadReusesOnlyOrphans(t *testing.T) {
	t.Parallel()
	a, p, store := commandstest.NewApp(t)
	owned, err := a.OpenThread(t.Context(), "g", "general", "", "Team Chess · White team (alice)", true)
	require.NoError(t, err)
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
		return tx.Games().Put(&storage.Game{ID: "old", Kind: "x", ThreadID: "pub", Players: []string{"a"}, Active: true}, commandstest.T0)
	}))
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error { return tx.Games().LinkChannel(owned, "old") }))

	first, err := a.OpenThread(t.Context(), "g", "general", "", "Team Chess · White team (alice)", true)
	require.NoError(t, err)
	require.NotEqual(t, owned, first, "another game's thread is not reused")
	again, err := a.OpenThread(t.Context(), "g", "general", "", "Team Chess · White team (alice)", true)
	require.NoError(t, err)
	require.Equal(t, first, again, "the interrupted attempt's thread is found again")
	other, err := a.OpenThread(t.Context(), "g", "general", "", "Team Chess · Black team (bob)", true)
	require.NoError(t, err)
	require.NotEqual(t, first, other)
	require.Len(t, p.Threads, 3)

	pub, err := a.OpenThread(t.Context(), "g", "general", "lobbymsg", "Team Chess · alice vs bob", false)
	require.NoError(t, err)
	require.Equal(t, "lobbymsg", pub)
}
