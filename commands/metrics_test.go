package commands_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/storage"
)

// putGames saves n games of kind, active or finished, each with a running
// clock while active and a state of stateBytes bytes.
func putGames(t testing.TB, s storage.Store, kind string, n int, active bool, stateBytes int) {
	t.Helper()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	state := []byte(`"` + strings.Repeat("x", stateBytes) + `"`)
	for i := 0; i < n; i += 500 {
		require.NoError(t, s.Update(context.Background(), func(tx storage.Tx) error {
			for j := i; j < i+500 && j < n; j++ {
				g := &storage.Game{ID: fmt.Sprintf("%s%06d", kind[:4], j), Kind: kind, Players: []string{"u1", "u2"},
					Active: true, Deadline: now.Add(time.Hour), State: state}
				if err := tx.Games().Put(g, now); err != nil {
					return err
				}
				if !active {
					g.Active, g.Deadline = false, time.Time{}
					if err := tx.Games().Put(g, now); err != nil {
						return err
					}
				}
			}
			return nil
		}))
	}
}

// TestActiveGames: the gauge's figures count active games by kind, never
// finished ones.
func TestActiveGames(t *testing.T) {
	t.Parallel()
	a, _, store := commandstest.NewApp(t)
	putGames(t, store, "survival", 3, true, 10)
	putGames(t, store, "teamchess", 2, true, 10)
	putGames(t, store, "sandtable", 4, false, 10)
	counts, err := a.ActiveGames()
	require.NoError(t, err)
	require.Equal(t, map[string]int{"survival": 3, "teamchess": 2}, counts)
}

// BenchmarkActiveGames: one scrape of sandtable_games_active over a bbolt
// store of 10,000 active games with 2 KB states (and 10,000 finished ones,
// which it never reads).
func BenchmarkActiveGames(b *testing.B) {
	store, err := storage.Open(filepath.Join(b.TempDir(), "bench.db"), time.Second)
	require.NoError(b, err)
	defer store.Close()
	putGames(b, store, "survival", 10000, true, 2048)
	putGames(b, store, "teamchess", 10000, false, 2048)
	a := commands.New(store, commandstest.NewPlatform(), commands.Settings{}, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		counts, err := a.ActiveGames()
		if err != nil || counts["survival"] != 10000 {
			b.Fatal(counts, err)
		}
	}
}
