package storage

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

func openTemp(t *testing.T) *Bolt {
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
		return tx.Bucket([]byte(bMeta)).Put([]byte("schema"), []byte("99"))
	}))
	require.NoError(t, s.Close())
	_, err = Open(path, time.Second)
	require.ErrorContains(t, err, "schema version 99 is newer")
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

// writeSchema1 builds a database as the main of 2026-12-02 wrote it: the
// schema-1 buckets, games with the user index, and documents by namespace.
func writeSchema1(t *testing.T, path string) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	defer db.Close()
	game := func(id string, active bool, players ...string) []byte {
		raw, _ := json.Marshal(map[string]any{"id": id, "kind": "survival", "thread_id": "th-" + id, "players": players,
			"active": active, "version": 3, "created": t0, "updated": t0.Add(time.Hour), "deadline": time.Time{}, "state": map[string]any{"moves": []string{"e2e4"}}})
		return raw
	}
	doc := func(v any) []byte { raw, _ := json.Marshal(v); return raw }
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		put := func(b, k string, v []byte) {
			bk, err := tx.CreateBucketIfNotExists([]byte(b))
			require.NoError(t, err)
			require.NoError(t, bk.Put([]byte(k), v))
		}
		put("meta", "schema", []byte("1"))
		put("games", "run1", game("run1", true, "alice", "bob"))
		put("games", "fin1", game("fin1", false, "alice", "carol"))
		put("channel_games", "th-run1", []byte("run1"))
		put("channel_games", "th-fin1", []byte("fin1"))
		put("user_games", "alice/run1", nil)
		put("user_games", "alice/fin1", nil)
		for _, b := range []string{"timers", "interactions"} {
			_, err := tx.CreateBucketIfNotExists([]byte(b))
			require.NoError(t, err)
		}
		put("docs", "challenges\x00c1", doc(map[string]any{"id": "c1", "kind": "survival", "expires": t0.Add(time.Hour)}))
		put("docs", "lobbies\x00l1", doc(map[string]any{"id": "l1", "kind": "teamchess"}))
		put("docs", "teamchess-records\x00guild1/alice", doc(map[string]any{"id": "alice", "team_wins": 2}))
		put("docs", "sandtable_log\x00run1/000002", doc(map[string]any{"turn": 2}))
		put("docs", "sandtable_log\x00run1/000001", doc(map[string]any{"turn": 1}))
		put("docs", "channel-games\x00team-thread", doc("run1"))
		put("docs", "bot\x00alive", doc(t0.Add(2*time.Hour)))
		put("docs", "playground\x00discord", []byte(`{"bot":{}}`))
		put("docs", "playground-files\x00att1", doc([]byte{0x89, 'P', 'N', 'G'}))
		return nil
	}))
}

// TestMigrationFromSchema1 opens a schema-1 database: every document lands
// in its repository with its bytes, finished games are indexed by their
// end, and the old buckets are gone.
func TestMigrationFromSchema1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	writeSchema1(t, path)
	s, err := Open(path, time.Second)
	require.NoError(t, err)
	defer s.Close()
	v, err := s.SchemaVersion()
	require.NoError(t, err)
	require.Equal(t, SchemaVersion, v)
	view(t, s, func(tx Tx) {
		act, err := tx.Games().Active("alice")
		require.NoError(t, err)
		require.Equal(t, []string{"run1"}, ids(act))
		fin, err := tx.Games().Finished("alice", time.Time{}, 10)
		require.NoError(t, err)
		require.Equal(t, []string{"fin1"}, ids(fin))
		require.True(t, fin[0].Ended.Equal(t0.Add(time.Hour)), "a finished game ended at its last update")
		require.Equal(t, int64(3), fin[0].Version)
		for ch, want := range map[string]string{"th-run1": "run1", "th-fin1": "fin1", "team-thread": "run1"} {
			g, err := tx.Games().ByChannel(ch)
			require.NoError(t, err, ch)
			require.Equal(t, want, g.ID)
		}
		var ch map[string]any
		exp, err := tx.Challenges().Get("c1", &ch)
		require.NoError(t, err)
		require.Equal(t, "survival", ch["kind"])
		require.True(t, exp.Equal(t0.Add(time.Hour)))
		gone, _ := tx.Challenges().Expired(t0.Add(time.Hour))
		require.Equal(t, []string{"c1"}, gone)
		var l map[string]any
		_, err = tx.Lobbies().Get("l1", &l)
		require.NoError(t, err)
		var rec map[string]any
		require.NoError(t, tx.Records().Get("teamchess", "guild1", "alice", &rec))
		require.EqualValues(t, 2, rec["team_wins"])
		var turns []int
		require.NoError(t, tx.Logs().Each("run1", func(seq int, raw []byte) error {
			turns = append(turns, seq)
			return nil
		}))
		require.Equal(t, []int{1, 2}, turns)
		hb, err := tx.Meta().Heartbeat()
		require.NoError(t, err)
		require.True(t, hb.Equal(t0.Add(2*time.Hour)))
		state, err := tx.Playground().Get(PlaygroundState)
		require.NoError(t, err)
		require.JSONEq(t, `{"bot":{}}`, string(state))
		file, err := tx.Playground().Get(PlaygroundFile + "att1")
		require.NoError(t, err)
		require.Equal(t, []byte{0x89, 'P', 'N', 'G'}, file)
	})
	require.NoError(t, s.db.View(func(tx *bolt.Tx) error {
		require.Nil(t, tx.Bucket([]byte("docs")), "every document moved")
		require.Nil(t, tx.Bucket([]byte("user_games")))
		return nil
	}))
}

// TestMigrationKeepsUnknownDocuments: a namespace schema 2 does not know
// stays where it was instead of being lost.
func TestMigrationKeepsUnknownDocuments(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	writeSchema1(t, path)
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("docs")).Put([]byte("mystery\x00k"), []byte(`1`))
	}))
	require.NoError(t, db.Close())
	s, err := Open(path, time.Second)
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.db.View(func(tx *bolt.Tx) error {
		require.Equal(t, []byte(`1`), tx.Bucket([]byte("docs")).Get([]byte("mystery\x00k")))
		return nil
	}))
}

// TestMigrationFromSchema2: a schema-2 database (before the outbox) opens
// at the current schema with an empty outbox and its games intact.
func TestMigrationFromSchema2(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v2.db")
	s, err := Open(path, time.Second)
	require.NoError(t, err)
	require.NoError(t, s.Update(ctx, func(tx Tx) error {
		return tx.Games().Put(&Game{ID: "g1", Kind: "survival", ThreadID: "th", Players: []string{"a"}, Active: true}, t0)
	}))
	// Make it what schema 2 wrote: no outbox bucket, schema "2".
	require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte(bOutbox)); err != nil {
			return err
		}
		return tx.Bucket([]byte(bMeta)).Put([]byte("schema"), []byte("2"))
	}))
	require.NoError(t, s.Close())
	s, err = Open(path, time.Second)
	require.NoError(t, err)
	defer s.Close()
	v, err := s.SchemaVersion()
	require.NoError(t, err)
	require.Equal(t, SchemaVersion, v)
	view(t, s, func(tx Tx) {
		g, err := tx.Games().ByChannel("th")
		require.NoError(t, err)
		require.Equal(t, "g1", g.ID)
		n, err := tx.Outbox().Len()
		require.NoError(t, err)
		require.Zero(t, n)
	})
	require.NoError(t, s.Update(ctx, func(tx Tx) error { _, err := tx.Outbox().Add("g1", 1); return err }))
}

// TestMigrationFromSchema3: an effect schema 3 stored inside its envelope
// (before effects moved to outbox_bodies) is still delivered, retried and
// removed.
func TestMigrationFromSchema3(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v3.db")
	s, err := Open(path, time.Second)
	require.NoError(t, err)
	require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte(bOutboxBodies)); err != nil {
			return err
		}
		if err := tx.Bucket([]byte(bOutbox)).Put([]byte("g1/00000000000000000007"), []byte(`{"due":"0001-01-01T00:00:00Z","effect":{"op":"post"}}`)); err != nil {
			return err
		}
		return tx.Bucket([]byte(bMeta)).Put([]byte("schema"), []byte("3"))
	}))
	require.NoError(t, s.Close())
	s, err = Open(path, time.Second)
	require.NoError(t, err)
	defer s.Close()
	update(t, s, func(tx Tx) error {
		ps, err := tx.Outbox().Heads(t0, 10)
		require.NoError(t, err)
		require.Len(t, ps, 1)
		require.JSONEq(t, `{"op":"post"}`, string(ps[0].Effect))
		require.NoError(t, tx.Outbox().Retry(ps[0].ID, 1, t0))
		p, err := tx.Outbox().Get(ps[0].ID)
		require.NoError(t, err)
		require.JSONEq(t, `{"op":"post"}`, string(p.Effect), "a retry keeps the effect")
		require.NoError(t, tx.Outbox().Done(ps[0].ID))
		n, err := tx.Outbox().Len()
		require.NoError(t, err)
		require.Zero(t, n)
		return nil
	})
}

// TestMigrationFromSchema4: schema 4 numbered effects with one global
// counter; after the migration each stream counts on its own from above
// that counter, so no ID is given twice and a stream's IDs keep growing.
func TestMigrationFromSchema4(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v4.db")
	s, err := Open(path, time.Second)
	require.NoError(t, err)
	require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte(bOutboxSeq)); err != nil {
			return err
		}
		id := []byte("g1/00000000000000000041")
		if err := tx.Bucket([]byte(bOutbox)).Put(id, []byte(`{"due":"0001-01-01T00:00:00Z"}`)); err != nil {
			return err
		}
		if err := tx.Bucket([]byte(bOutboxBodies)).Put(id, []byte(`{"op":"post"}`)); err != nil {
			return err
		}
		meta := tx.Bucket([]byte(bMeta))
		if err := meta.Put([]byte("outbox_seq"), []byte("41")); err != nil {
			return err
		}
		return meta.Put([]byte("schema"), []byte("4"))
	}))
	require.NoError(t, s.Close())
	s, err = Open(path, time.Second)
	require.NoError(t, err)
	defer s.Close()
	v, err := s.SchemaVersion()
	require.NoError(t, err)
	require.Equal(t, SchemaVersion, v)
	var g1, g2, g1b string
	update(t, s, func(tx Tx) error {
		var err error
		g1, err = tx.Outbox().Add("g1", 1)
		require.NoError(t, err)
		g2, err = tx.Outbox().Add("g2", 2)
		require.NoError(t, err)
		g1b, err = tx.Outbox().Add("g1", 3)
		return err
	})
	require.Equal(t, "g1/00000000000000000042", g1)
	require.Equal(t, "g2/00000000000000000042", g2, "a new stream starts above the old global counter")
	require.Equal(t, "g1/00000000000000000043", g1b)
	view(t, s, func(tx Tx) {
		ps, err := tx.Outbox().Heads(t0, 10)
		require.NoError(t, err)
		require.Len(t, ps, 2)
		require.ElementsMatch(t, []string{"g1/00000000000000000041", g2}, []string{ps[0].ID, ps[1].ID}, "the schema-4 effect still heads its stream")
	})
	require.NoError(t, s.db.View(func(tx *bolt.Tx) error {
		require.Equal(t, "41", string(tx.Bucket([]byte(bMeta)).Get([]byte("outbox_seq"))), "the global counter is no longer written")
		return nil
	}))
}
