package storage

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "test.db"), time.Second)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func TestOpenCreatesSchema(t *testing.T) {
	s := openTemp(t)
	v, err := s.SchemaVersion()
	require.NoError(t, err)
	require.Equal(t, SchemaVersion, v)
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "future.db")
	s, err := Open(path, time.Second)
	require.NoError(t, err)
	require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keySchema, []byte("99"))
	}))
	require.NoError(t, s.Close())
	_, err = Open(path, time.Second)
	require.ErrorContains(t, err, "schema version 99 is newer")
}

func TestMigrationRunsFromVersionZero(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucket(bucketMeta)
		return err
	}))
	require.NoError(t, db.Close())
	s, err := Open(path, time.Second)
	require.NoError(t, err)
	defer s.Close()
	v, err := s.SchemaVersion()
	require.NoError(t, err)
	require.Equal(t, 1, v)
	require.NoError(t, s.Update(func(tx *Tx) error {
		return tx.PutGame(&Game{ID: "g1", Kind: "survival", Active: true}, t0)
	}))
}

// TestSecondProcessGetsLockError runs a child process that opens the same file
// while this one holds it: it must fail with ErrLocked, not hang.
func TestSecondProcessGetsLockError(t *testing.T) {
	if path := os.Getenv("STORAGE_LOCK_CHILD"); path != "" {
		_, err := Open(path, 200*time.Millisecond)
		if errors.Is(err, ErrLocked) {
			os.Exit(3)
		}
		os.Exit(4)
	}
	s := openTemp(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestSecondProcessGetsLockError$")
	cmd.Env = append(os.Environ(), "STORAGE_LOCK_CHILD="+s.Path())
	err := cmd.Run()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	require.Equal(t, 3, ee.ExitCode(), "the child should see ErrLocked")
}

func TestPutGameMaintainsIndexes(t *testing.T) {
	s := openTemp(t)
	deadline := t0.Add(time.Hour)
	g := &Game{ID: "g1", Kind: "survival", ThreadID: "th1", Players: []string{"alice", "bob"}, Active: true, Deadline: deadline}
	require.NoError(t, s.Update(func(tx *Tx) error { return tx.PutGame(g, t0) }))
	require.Equal(t, int64(1), g.Version)

	require.NoError(t, s.View(func(tx *Tx) error {
		got, err := tx.GameByChannel("th1")
		require.NoError(t, err)
		require.Equal(t, "g1", got.ID)
		games, err := tx.GamesByUser("bob")
		require.NoError(t, err)
		require.Len(t, games, 1)
		require.Empty(t, tx.DueGames(deadline.Add(-time.Second)))
		require.Equal(t, []string{"g1"}, tx.DueGames(deadline))
		require.True(t, tx.NextDeadline().Equal(deadline))
		return nil
	}))

	// Moving the deadline and finishing the game update the timer index.
	g.Deadline = deadline.Add(time.Hour)
	require.NoError(t, s.Update(func(tx *Tx) error { return tx.PutGame(g, t0) }))
	require.NoError(t, s.View(func(tx *Tx) error {
		require.Empty(t, tx.DueGames(deadline))
		require.Equal(t, []string{"g1"}, tx.DueGames(deadline.Add(time.Hour)))
		return nil
	}))
	g.Active = false
	require.NoError(t, s.Update(func(tx *Tx) error { return tx.PutGame(g, t0) }))
	require.NoError(t, s.View(func(tx *Tx) error {
		require.Empty(t, tx.DueGames(deadline.Add(48*time.Hour)))
		require.True(t, tx.NextDeadline().IsZero())
		return nil
	}))
}

func TestPutGameRejectsStaleVersion(t *testing.T) {
	s := openTemp(t)
	g := &Game{ID: "g1", Kind: "survival", Active: true}
	require.NoError(t, s.Update(func(tx *Tx) error { return tx.PutGame(g, t0) }))
	stale := *g
	stale.Version = 0
	err := s.Update(func(tx *Tx) error { return tx.PutGame(&stale, t0) })
	require.ErrorContains(t, err, "changed meanwhile")
}

// TestFailedTransitionSavesNothing: an error after PutGame in the same
// transaction rolls back the state and every index.
func TestFailedTransitionSavesNothing(t *testing.T) {
	s := openTemp(t)
	g := &Game{ID: "g1", Kind: "survival", ThreadID: "th1", Players: []string{"alice"}, Active: true, State: []byte(`{"moves":[]}`)}
	require.NoError(t, s.Update(func(tx *Tx) error { return tx.PutGame(g, t0) }))

	boom := errors.New("boom")
	err := s.Update(func(tx *Tx) error {
		cur, err := tx.Game("g1")
		require.NoError(t, err)
		cur.State = []byte(`{"moves":["e2e4"]}`)
		cur.ThreadID = "th2"
		cur.Players = []string{"carol"}
		cur.Deadline = t0
		if _, err := tx.MarkInteraction("i1", t0); err != nil {
			return err
		}
		if err := tx.PutGame(cur, t0); err != nil {
			return err
		}
		return boom
	})
	require.ErrorIs(t, err, boom)
	require.NoError(t, s.View(func(tx *Tx) error {
		got, err := tx.GameByChannel("th1")
		require.NoError(t, err)
		require.JSONEq(t, `{"moves":[]}`, string(got.State))
		_, err = tx.GameByChannel("th2")
		require.ErrorIs(t, err, ErrNotFound)
		games, _ := tx.GamesByUser("carol")
		require.Empty(t, games)
		require.Empty(t, tx.DueGames(t0))
		return nil
	}))
	require.NoError(t, s.Update(func(tx *Tx) error {
		seen, err := tx.MarkInteraction("i1", t0)
		require.False(t, seen, "the rolled-back interaction mark must not survive")
		return err
	}))
}

func TestMarkInteractionDedupes(t *testing.T) {
	s := openTemp(t)
	for i, want := range []bool{false, true} {
		require.NoError(t, s.Update(func(tx *Tx) error {
			seen, err := tx.MarkInteraction("i1", t0)
			require.Equal(t, want, seen, "call %d", i)
			return err
		}))
	}
	require.NoError(t, s.Update(func(tx *Tx) error { return tx.PruneInteractions(t0.Add(time.Minute)) }))
	require.NoError(t, s.Update(func(tx *Tx) error {
		seen, err := tx.MarkInteraction("i1", t0)
		require.False(t, seen)
		return err
	}))
}

func TestDocs(t *testing.T) {
	s := openTemp(t)
	type rec struct{ N int }
	require.NoError(t, s.Update(func(tx *Tx) error {
		require.NoError(t, tx.PutDoc("records", "guild1/alice", rec{1}))
		require.NoError(t, tx.PutDoc("records", "guild1/bob", rec{2}))
		require.NoError(t, tx.PutDoc("records", "guild2/alice", rec{3}))
		return tx.PutDoc("challenges", "guild1/x", rec{4})
	}))
	require.NoError(t, s.View(func(tx *Tx) error {
		var keys []string
		require.NoError(t, tx.Docs("records", "guild1/", func(k string, raw []byte) error {
			keys = append(keys, k)
			return nil
		}))
		require.Equal(t, []string{"guild1/alice", "guild1/bob"}, keys)
		var r rec
		require.NoError(t, tx.GetDoc("records", "guild2/alice", &r))
		require.Equal(t, 3, r.N)
		require.ErrorIs(t, tx.GetDoc("records", "nobody", &r), ErrNotFound)
		return nil
	}))
	require.NoError(t, s.Update(func(tx *Tx) error { return tx.DeleteDoc("records", "guild1/bob") }))
	require.NoError(t, s.View(func(tx *Tx) error {
		var r rec
		require.ErrorIs(t, tx.GetDoc("records", "guild1/bob", &r), ErrNotFound)
		return nil
	}))
}

func TestViewRefusesWrites(t *testing.T) {
	s := openTemp(t)
	err := s.View(func(tx *Tx) error { return tx.PutGame(&Game{ID: "g", Kind: "survival"}, t0) })
	require.Error(t, err)
}

func TestShiftDeadlines(t *testing.T) {
	s := openTemp(t)
	d1, d2 := t0.Add(time.Hour), t0.Add(3*time.Hour)
	require.NoError(t, s.Update(func(tx *Tx) error {
		require.NoError(t, tx.PutGame(&Game{ID: "g1", Kind: "survival", Active: true, Deadline: d1}, t0))
		require.NoError(t, tx.PutGame(&Game{ID: "g2", Kind: "survival", Active: true, Deadline: d2}, t0))
		return tx.PutGame(&Game{ID: "g3", Kind: "survival", Active: false}, t0)
	}))
	require.NoError(t, s.Update(func(tx *Tx) error {
		n, err := tx.ShiftDeadlines(2*time.Hour, t0)
		require.Equal(t, 2, n)
		return err
	}))
	require.NoError(t, s.View(func(tx *Tx) error {
		require.Empty(t, tx.DueGames(d2.Add(-time.Second)), "g1 now runs out at t0+3h, g2 at t0+5h; neither is due before t0+3h")
		require.Equal(t, []string{"g1"}, tx.DueGames(d1.Add(2*time.Hour)))
		g, err := tx.Game("g2")
		require.NoError(t, err)
		require.True(t, g.Deadline.Equal(d2.Add(2*time.Hour)))
		g, err = tx.Game("g3")
		require.NoError(t, err)
		require.True(t, g.Deadline.IsZero(), "finished games have no timer to move")
		return nil
	}))
}
