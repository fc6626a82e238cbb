package teamchess

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/games/chess"
	"sandtable/storage"
)

// TestTeamThreadNameFollowsTagOuts: a team thread is named after its
// active commander from the start, and renamed when a tag-out hands the
// command on; a move that changes no commander renames nothing.
func TestTeamThreadNameFollowsTagOuts(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	_, pub, team := startGame(t, a, store, "", []commands.User{alice, carol}, []commands.User{bob})
	commandstest.Deliver(t, a, t0)
	require.Contains(t, p.ThreadName(team[chess.White]), "alice commands")
	_, err := a.Handle(in(alice, pub, "move", "", map[string]string{"move": "e4"}))
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0)
	require.Empty(t, p.Renames, "a move renames nothing")
	_, err = a.Handle(in(bob, pub, "move", "", map[string]string{"move": "e5"}))
	require.NoError(t, err)
	_, err = commandstest.Confirm(t, a, in(alice, pub, "tagout", "", nil))
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0)
	require.Contains(t, p.ThreadName(team[chess.White]), "carol commands", "renames: %v", p.Renames)
	require.Len(t, p.Renames, 1, "one rename, of White's thread")
}

// TestRenamesWaitApartAndCoalesce: a rename Discord refuses for its rate
// (429) waits on its own stream, holding none of the game's other
// effects; a second tag-out meanwhile replaces it, so only the latest name
// is given once Discord allows it.
func TestRenamesWaitApartAndCoalesce(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	g, pub, team := startGame(t, a, store, "", []commands.User{alice, carol, dan}, []commands.User{bob})
	commandstest.Deliver(t, a, t0)
	var limited atomic.Bool
	limited.Store(true)
	p.Fail = func(op, channel string) error {
		if op == "rename" && limited.Load() {
			return &commands.PlatformError{HTTPStatus: 429, Status: "429 Too Many Requests", RetryAfter: 10 * time.Minute, Err: errors.New("rate limited")}
		}
		return nil
	}
	_, err := commandstest.Confirm(t, a, in(alice, pub, "tagout", "", nil))
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0)
	_, err = commandstest.Confirm(t, a, in(carol, pub, "tagout", "", nil))
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0)
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		head, err := tx.Outbox().StreamHead(g.ID)
		require.Nil(t, head, "the game's own effects were all delivered")
		return err
	}))
	require.Empty(t, p.Renames)
	limited.Store(false)
	commandstest.Deliver(t, a, t0.Add(time.Hour))
	require.Equal(t, []string{team[chess.White] + ": " + p.ThreadName(team[chess.White])}, p.Renames, "one rename, the latest")
	require.Contains(t, p.ThreadName(team[chess.White]), "dan commands")
}
