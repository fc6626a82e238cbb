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
// 2026-12-02 (testdata/fixture-v1, schema 1; see its README), migrates it
// and finds everything it held: nine games by kind and state with their
// thread index, the open challenge, the lobby and the heartbeat.
// bot.TestFixtureDatabase plays on from it.
func TestFixtureOpens(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "fixture-v1", "bot.db"))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "bot.db")
	require.NoError(t, os.WriteFile(path, raw, 0o600))
	s, err := Open(path, time.Second)
	require.NoError(t, err)
	defer s.Close()

	var got []string
	view(t, s, func(tx Tx) {
		var gameIDs []string
		require.NoError(t, tx.(*txImpl).kv.scan(bGames, "", "", func(k string, _ []byte) error {
			gameIDs = append(gameIDs, k)
			return nil
		}))
		for _, id := range gameIDs {
			g, err := tx.Games().Get(id)
			require.NoError(t, err)
			byThread, err := tx.Games().ByChannel(g.ThreadID)
			require.NoError(t, err)
			require.Equal(t, g.ID, byThread.ID)
			state := "finished"
			if g.Active {
				state = "running"
			} else {
				require.False(t, g.Ended.IsZero())
			}
			got = append(got, g.Kind+" "+state)
		}
		n := 0
		require.NoError(t, tx.Lobbies().Each(func(string, []byte) error { n++; return nil }))
		require.Positive(t, n, "the open lobby")
		n = 0
		require.NoError(t, tx.Challenges().Each(func(string, []byte) error { n++; return nil }))
		require.Positive(t, n, "the open challenge")
		hb, err := tx.Meta().Heartbeat()
		require.NoError(t, err)
		require.False(t, hb.IsZero())
		n = 0
		require.NoError(t, tx.Ratings().Each("survival", "any", func(string, *PlayerRating) error { n++; return nil }))
		require.Zero(t, n, "an old database holds no ratings")
	})
	update(t, s, func(tx Tx) error {
		return tx.Ratings().Put("survival", "g1", "alice", &PlayerRating{Rating: 1500})
	})
	sort.Strings(got)
	require.Equal(t, []string{
		"sandtable finished", "sandtable running", "sandtable running",
		"survival finished", "survival finished", "survival running",
		"teamchess finished", "teamchess finished", "teamchess running",
	}, got)
}

// TestOpenCopyLeavesTheFileUntouched: OpenCopy reads a database of an older
// schema through a migrated private copy: the file keeps its bytes, the copy
// is gone after Close, and a file that a bot holds is refused with ErrLocked.
func TestOpenCopyLeavesTheFileUntouched(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "fixture-v1", "bot.db"))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "bot.db")
	require.NoError(t, os.WriteFile(path, raw, 0o600))
	s, err := OpenCopy(path, time.Second)
	require.NoError(t, err)
	v, err := s.SchemaVersion()
	require.NoError(t, err)
	require.Equal(t, SchemaVersion, v, "the copy is migrated")
	view(t, s, func(tx Tx) {
		_, err := tx.Games().ByChannel("no such thread")
		require.ErrorIs(t, err, ErrNotFound)
	})
	copyPath := s.Path()
	require.NotEqual(t, path, copyPath)
	require.NoError(t, s.Close())
	require.NoFileExists(t, copyPath)
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, raw, after, "the file is unchanged")

	held, err := Open(path, time.Second)
	require.NoError(t, err)
	defer held.Close()
	_, err = OpenCopy(path, 100*time.Millisecond)
	require.ErrorIs(t, err, ErrLocked)
	_, err = OpenCopy(filepath.Join(t.TempDir(), "missing.db"), time.Second)
	require.Error(t, err)
}
