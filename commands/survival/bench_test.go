package survival

import (
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/storage"
)

// benchApp is an App with Survival on a bbolt file holding finished+active
// Survival games of alice's: active ones running a clock, the rest
// finished.
func benchApp(b *testing.B, finished, active int) *commands.App {
	b.Helper()
	store, err := storage.Open(filepath.Join(b.TempDir(), "bench.db"), time.Second)
	require.NoError(b, err)
	b.Cleanup(func() { store.Close() })
	a := commands.New(store, commandstest.NewPlatform(), commands.Settings{BoardSize: 320, MoveTime: 24 * time.Hour, ChallengeTTL: time.Hour},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	a.Now = func() time.Time { return t0 }
	Register(a)
	raw, err := Game{}.Encode(&State{StartFEN: kingsShuffle, Moves: []string{}, White: alice, Black: bob, MoveTime: time.Hour, Started: t0})
	require.NoError(b, err)
	for start := 0; start < finished+active; start += 1000 {
		require.NoError(b, store.Update(b.Context(), func(tx storage.Tx) error {
			for i := start; i < start+1000 && i < finished+active; i++ {
				g := &storage.Game{ID: fmt.Sprintf("g%05d", i), Kind: Kind, GuildID: "g", ChannelID: "general",
					ThreadID: fmt.Sprintf("th%05d", i), Players: []string{alice.ID, bob.ID}, Active: i >= finished,
					Deadline: t0.Add(time.Hour), State: raw, StateVersion: Game{}.Version()}
				if err := tx.Games().Put(g, t0.Add(time.Duration(i)*time.Second)); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	return a
}

// BenchmarkGamesList measures /games for a player with 10,000 finished and
// 5 active games (issue 13's target: at most 2 ms).
func BenchmarkGamesList(b *testing.B) {
	a := benchApp(b, 10000, 5)
	req := &commands.Request{Type: commands.CommandRequest, User: alice, Command: "games", Now: t0}
	r, err := a.Handle(req)
	require.NoError(b, err)
	require.Contains(b, r.Cards[0].Description, "you play White", "the Survival lines are there")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := a.Handle(req)
		if err != nil || r == nil {
			b.Fatal(err)
		}
	}
}
