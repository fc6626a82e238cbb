package storage

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestFixtureOpens opens a copy of the database written by the main of
// 2026-12-02 (testdata/fixture-v1, see its README) and finds everything it
// held: nine games by kind and state, their thread index, the open
// challenge and the lobby. bot.TestFixtureDatabase plays on from it.
func TestFixtureOpens(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "fixture-v1", "bot.db"))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "bot.db")
	require.NoError(t, os.WriteFile(path, raw, 0o600))
	s, err := Open(path, time.Second)
	require.NoError(t, err)
	defer s.Close()

	var got []string
	require.NoError(t, s.View(func(tx *Tx) error {
		return tx.tx.Bucket(bucketGames).ForEach(func(k, _ []byte) error {
			g, err := tx.Game(string(k))
			if err != nil {
				return err
			}
			byThread, err := tx.GameByChannel(g.ThreadID)
			if err != nil {
				return err
			}
			require.Equal(t, g.ID, byThread.ID)
			state := "finished"
			if g.Active {
				state = "running"
			}
			got = append(got, g.Kind+" "+state)
			return nil
		})
	}))
	sort.Strings(got)
	require.Equal(t, []string{
		"sandtable finished", "sandtable running", "sandtable running",
		"survival finished", "survival finished", "survival running",
		"teamchess finished", "teamchess finished", "teamchess running",
	}, got)
	for _, ns := range []string{"challenges", "lobbies"} {
		n := 0
		require.NoError(t, s.View(func(tx *Tx) error {
			return tx.Docs(ns, "", func(string, []byte) error { n++; return nil })
		}))
		require.Positive(t, n, ns)
	}
}
