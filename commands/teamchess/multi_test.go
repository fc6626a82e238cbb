package teamchess

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/storage"
)

// otherProcess is a second App on store: another bot process.
func otherProcess(store storage.Store, p commands.Platform) *commands.App {
	b := commands.New(store, p, commands.Settings{BoardSize: 320, MoveTime: 24 * time.Hour, ChallengeTTL: time.Hour, LobbyTTL: 24 * time.Hour},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	b.Now = func() time.Time { return t0 }
	b.AnswerCopies, b.DeliverInline = false, false
	Register(b)
	return b
}

// TestLobbyChangedInAnotherProcess: a lobby click whose lobby another
// process changed between the click's read and its write is refused by
// the write (no join is lost), and the router handles the click again on
// the lobby as it is then; a lobby started elsewhere is no longer open.
func TestLobbyChangedInAnotherProcess(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	b := otherProcess(store, p)
	r, err := a.Handle(commandstest.Cmd(alice, "teamchess", "new", nil))
	require.NoError(t, err)
	msg := r.Message

	// Process A reads the lobby for carol's click; meanwhile process B
	// applies bob's.
	req := click(carol, buttonOf(t, msg, "Join Black"))
	l, err := loadLobby(a, req)
	require.NoError(t, err)
	_, err = b.Handle(click(bob, buttonOf(t, msg, "Join White")))
	require.NoError(t, err)
	l.Black = append(l.Black, carol)
	_, err = saveLobby(a, req, l, "")
	require.ErrorIs(t, err, storage.ErrConflict, "A's write would lose bob's join")

	// Through the router, the click is handled again on the stored lobby.
	_, err = a.Handle(click(carol, buttonOf(t, msg, "Join Black")))
	require.NoError(t, err)
	var stored lobby
	_, err = a.Lobby(lobbyID(t, msg), &stored)
	require.NoError(t, err)
	require.Equal(t, []string{bob.ID}, ids(stored.White))
	require.Equal(t, []string{carol.ID}, ids(stored.Black))

	// A reads it for a Start; B cancels it meanwhile: A's Start finds it gone.
	start := click(alice, buttonOf(t, msg, "Start"))
	_, err = loadLobby(a, start)
	require.NoError(t, err)
	_, err = b.Handle(click(alice, buttonOf(t, msg, "Cancel")))
	require.NoError(t, err)
	require.ErrorContains(t, a.CloseLobby(lobbyID(t, msg)), "no longer open")
	_, err = a.Handle(start)
	require.ErrorContains(t, err, "no longer open")
}

func lobbyID(t *testing.T, m commands.Message) string {
	t.Helper()
	id, err := commands.ParseCustomID(buttonOf(t, m, "Join White"))
	require.NoError(t, err)
	return id.ID
}

func ids(us []user) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.ID)
	}
	return out
}
