package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// SchemaVersion is the layout version this code writes.
//
//   - 1: games with indexes by thread, user and deadline; everything else as
//     JSON documents in namespaces of one "docs" bucket, named by the
//     handlers (the main of 2026-12-02 and before).
//   - 2: one bucket per repository (kv.go), owned by this package; finished
//     games indexed by end time; downtime credited by a clock offset.
//   - 3: the outbox; 4: outbox effects apart from their envelopes.
//   - 5: outbox sequence numbers per stream (outbox_seq), so that
//     transactions queueing effects of different games share no key (the
//     etcd backend's optimistic transactions would conflict on one global
//     counter).
//   - 6: players' ratings (ratings), per game kind, guild and user. A
//     database of schema 5 opens with no ratings and plays on.
//   - 7: the outbox's due index (outbox_due), one entry per stream with
//     pending effects, so a dispatcher pass reads only what is due. The
//     migration builds it over the existing outbox: on bbolt in the
//     migration's transaction, on etcd in batches (buildEtcdDueIndex).
//   - 8: players' notification choices (notify), per user and guild. A
//     database of schema 7 opens with no choices (everyone's turn pings go
//     to the game's thread) and plays on.
//   - 9: finished games' analyses (analyses), one per game: a cache, so a
//     database of schema 8 opens with none and plays on.
//   - 10: the ratings' ranking index (rating_rank, ratings.go), so a
//     leaderboard and a player's rank read keys, not every rating. The
//     migration builds it over the existing ratings: on bbolt in the
//     migration's transaction, on etcd in batches (buildEtcdRatingIndex).
//   - 11: the servers' own settings (guild_settings), their admins' audit
//     log (admin_log) and the per-minute limits' attempts (attempts),
//     empty: a database of schema 10 opens with every server at the
//     defaults and plays on.
const SchemaVersion = 11

// migration upgrades a database from version from to from+1 inside one
// transaction: apply on bbolt; onKV, when set, on any kv backend (etcd
// stores start at schema 5, so only later steps need one).
type migration struct {
	from  int
	apply func(tx *bolt.Tx) error
	onKV  func(t *txImpl) error
}

// migrations lists the upgrades in order; Open runs those a database needs.
// Version 0 is a new, empty file.
var migrations = []migration{
	{from: 0, apply: func(tx *bolt.Tx) error {
		for _, b := range []string{"games", "channel_games", "user_games", "timers", "interactions", "docs"} {
			if _, err := tx.CreateBucketIfNotExists([]byte(b)); err != nil {
				return err
			}
		}
		return nil
	}},
	{from: 1, apply: migrate1to2},
	// Schema 3 adds the outbox bucket; nothing else changes.
	{from: 2, apply: createBuckets},
	// Schema 4 keeps outbox effects apart from their envelopes (effects
	// written by schema 3 stay in theirs and are still read).
	{from: 3, apply: createBuckets},
	// Schema 5 adds the per-stream outbox counters; the global counter
	// stays as schema 4 left it and is read as their floor.
	{from: 4, apply: createBuckets, onKV: func(*txImpl) error { return nil }},
	// Schema 6 adds the ratings bucket, empty: nothing to convert.
	{from: 5, apply: createBuckets, onKV: func(*txImpl) error { return nil }},
	// Schema 7 adds the outbox's due index, built over the outbox (on etcd
	// before the migration's transaction, in batches: buildEtcdDueIndex).
	{from: 6, apply: func(btx *bolt.Tx) error {
		if err := createBuckets(btx); err != nil {
			return err
		}
		_, _, err := outbox{newTx(boltKV{btx})}.buildDueIndex("", -1)
		return err
	}, onKV: func(*txImpl) error { return nil }},
	// Schema 8 adds the notification choices bucket, empty.
	{from: 7, apply: createBuckets, onKV: func(*txImpl) error { return nil }},
	// Schema 9 adds the analyses bucket, empty: a cache, nothing to convert.
	{from: 8, apply: createBuckets, onKV: func(*txImpl) error { return nil }},
	// Schema 10 adds the ratings' ranking index, built over the ratings
	// (on etcd before the migration's transaction, in batches:
	// buildEtcdRatingIndex).
	{from: 9, apply: func(btx *bolt.Tx) error {
		if err := createBuckets(btx); err != nil {
			return err
		}
		if err := btx.DeleteBucket([]byte(bRatingRank)); err != nil {
			return err
		}
		if _, err := btx.CreateBucket([]byte(bRatingRank)); err != nil {
			return err
		}
		_, _, err := ratings{boltKV{btx}}.buildIndex("", -1)
		return err
	}, onKV: func(*txImpl) error { return nil }},
	// Schema 11 adds the servers' settings, audit logs and attempts,
	// empty: nothing to convert.
	{from: 10, apply: createBuckets, onKV: func(*txImpl) error { return nil }},
}

// createBuckets creates every bucket of the current schema that is missing.
func createBuckets(btx *bolt.Tx) error {
	for _, b := range buckets {
		if _, err := btx.CreateBucketIfNotExists([]byte(b)); err != nil {
			return err
		}
	}
	return nil
}

func (s *Bolt) migrate() error {
	return s.db.Update(func(tx *bolt.Tx) error {
		meta, err := tx.CreateBucketIfNotExists([]byte(bMeta))
		if err != nil {
			return err
		}
		v := 0
		if raw := meta.Get([]byte("schema")); raw != nil {
			if v, err = strconv.Atoi(string(raw)); err != nil {
				return fmt.Errorf("bad schema version %q", raw)
			}
		}
		if v > SchemaVersion {
			return fmt.Errorf("database schema version %d is newer than this program's %d", v, SchemaVersion)
		}
		for _, m := range migrations {
			if m.from < v {
				continue
			}
			if m.from != v {
				return fmt.Errorf("no migration from schema version %d", v)
			}
			if err := m.apply(tx); err != nil {
				return fmt.Errorf("migrating schema %d to %d: %w", v, v+1, err)
			}
			v++
		}
		// Buckets added to the current schema without a version of its
		// own (outbox_claims) are created by any open.
		if err := createBuckets(tx); err != nil {
			return err
		}
		return tx.Bucket([]byte(bMeta)).Put([]byte("schema"), []byte(strconv.Itoa(v)))
	})
}

// migrate creates the schema under the store's prefix, or migrates it, in
// one transaction: two processes starting at once both read "no schema",
// one commits, the other's commit conflicts and its re-run finds the schema.
//
// From a schema before 7, the due index is first built in batches
// (buildEtcdDueIndex), and from one before 10 the ratings' ranking index
// (buildEtcdRatingIndex), under a lock so that two processes migrating at
// once do not undo each other's work.
func (s *Etcd) migrate(ctx context.Context) error {
	v, err := s.schema(ctx)
	if err != nil {
		return err
	}
	if v > 0 && v < 10 {
		unlock, err := s.lock(ctx, "migrate")
		if err != nil {
			return fmt.Errorf("locking the store to migrate it: %w", err)
		}
		defer unlock()
		if v, err = s.schema(ctx); err != nil {
			return err
		}
		if v > 0 && v < 7 {
			if err := s.buildEtcdDueIndex(ctx); err != nil {
				return fmt.Errorf("migrating schema %d to 7: building the outbox's due index: %w", v, err)
			}
		}
		if v > 0 && v < 10 {
			if err := s.buildEtcdRatingIndex(ctx); err != nil {
				return fmt.Errorf("migrating schema %d to 10: building the ratings' ranking index: %w", v, err)
			}
		}
	}
	return s.Update(ctx, func(tx Tx) error {
		t := tx.(*txImpl)
		k := t.kv.(*etcdKV)
		v := 0
		if raw := k.get(bMeta, "schema"); raw != nil {
			var err error
			if v, err = strconv.Atoi(string(raw)); err != nil {
				return fmt.Errorf("bad schema version %q", raw)
			}
		}
		if k.err != nil {
			return k.err
		}
		switch {
		case v > SchemaVersion:
			return fmt.Errorf("store schema version %d is newer than this program's %d", v, SchemaVersion)
		case v == SchemaVersion:
			return nil
		case v == 0 && s.opts.MustExist:
			return fmt.Errorf("no SandTable store under the prefix (no schema version)")
		case v == 0:
			// A new store, unless the prefix holds someone else's keys.
			resp, err := s.cli.Get(k.ctx, s.opts.Prefix, clientv3.WithPrefix(), clientv3.WithCountOnly(), clientv3.WithRev(k.rev))
			if err != nil {
				k.fail(err)
				return err
			}
			if resp.Count > 0 {
				return fmt.Errorf("the prefix holds %d keys but no schema version: not a SandTable store (choose another prefix)", resp.Count)
			}
			return k.put(bMeta, "schema", []byte(strconv.Itoa(SchemaVersion)))
		}
		for _, m := range migrations {
			if m.from < v {
				continue
			}
			if m.onKV == nil {
				return fmt.Errorf("no migration from schema version %d on etcd", v)
			}
			if err := m.onKV(t); err != nil {
				return fmt.Errorf("migrating schema %d to %d: %w", v, v+1, err)
			}
			v++
		}
		return k.put(bMeta, "schema", []byte(strconv.Itoa(v)))
	})
}

// schema reads the stored schema version (0: none).
func (s *Etcd) schema(ctx context.Context) (int, error) {
	var v int
	err := s.View(ctx, func(tx Tx) error {
		raw := tx.(*txImpl).kv.get(bMeta, "schema")
		if raw == nil {
			return nil
		}
		var err error
		if v, err = strconv.Atoi(string(raw)); err != nil {
			return fmt.Errorf("bad schema version %q", raw)
		}
		return nil
	})
	return v, err
}

// lock takes the store's mutex name (concurrency.Mutex on a session of its
// own), waiting for another process holding it; unlock releases it.
func (s *Etcd) lock(ctx context.Context, name string) (unlock func(), err error) {
	sess, err := concurrency.NewSession(s.cli, concurrency.WithTTL(10), concurrency.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	m := concurrency.NewMutex(sess, s.opts.Prefix+"lock/"+name)
	if err := m.Lock(ctx); err != nil {
		sess.Close()
		return nil, err
	}
	return func() {
		_ = m.Unlock(context.WithoutCancel(ctx))
		sess.Close()
	}, nil
}

// dueIndexBatch is how many streams one transaction of buildEtcdDueIndex
// indexes: each costs a read of its head and a put, well inside etcd's 128
// operations per transaction.
const dueIndexBatch = 50

// buildEtcdDueIndex builds the outbox's due index (schema 7) over an
// etcd store of an earlier schema, in transactions of dueIndexBatch
// streams: etcd caps a transaction at 128 operations, and an outbox may
// hold any number of streams. It first deletes what an interrupted build
// left, so it can be run again from the start; the caller holds the
// migration lock, and no process of the earlier schema may run meanwhile
// (stop every replica, migrate, start).
func (s *Etcd) buildEtcdDueIndex(ctx context.Context) error {
	if _, err := s.cli.Delete(ctx, s.opts.Prefix+bOutboxDue+"/", clientv3.WithPrefix()); err != nil {
		return err
	}
	n, batches, err := rebuildDueIndex(ctx, s)
	if err == nil {
		slog.Info("storage: built the outbox's due index", "streams", n, "transactions", batches)
	}
	return err
}

// buildEtcdRatingIndex builds the ratings' ranking index (schema 10) over
// an etcd store of an earlier schema, in transactions of ratingIndexBatch
// ratings (rebuildRatingIndex), after deleting what an interrupted build
// left; the caller holds the migration lock, and no process of the
// earlier schema may run meanwhile (stop every replica, migrate, start).
func (s *Etcd) buildEtcdRatingIndex(ctx context.Context) error {
	if _, err := s.cli.Delete(ctx, s.opts.Prefix+bRatingRank+"/", clientv3.WithPrefix()); err != nil {
		return err
	}
	n, batches, err := rebuildRatingIndex(ctx, s)
	if err == nil {
		slog.Info("storage: built the ratings' ranking index", "ratings", n, "transactions", batches)
	}
	return err
}

// rebuildDueIndex writes the due index's entry of every outbox stream, in
// transactions of dueIndexBatch streams; it returns how many streams and
// transactions it took.
func rebuildDueIndex(ctx context.Context, s Store) (streams, batches int, err error) {
	after := ""
	for {
		var last string
		var n int
		if err := s.Update(ctx, func(tx Tx) error {
			var err error
			last, n, err = outbox{tx.(*txImpl)}.buildDueIndex(after, dueIndexBatch)
			return err
		}); err != nil {
			return streams, batches, err
		}
		streams += n
		batches++
		if last == "" {
			return streams, batches, nil
		}
		after = last
	}
}

// migrate1to2 moves schema 1's documents into their repositories and
// indexes finished games by their end (their last update). Nothing is
// recomputed: records, logs and game states keep their bytes.
func migrate1to2(btx *bolt.Tx) error {
	for _, b := range buckets {
		if _, err := btx.CreateBucketIfNotExists([]byte(b)); err != nil {
			return err
		}
	}
	k := boltKV{btx}
	t := newTx(k)
	if docs := btx.Bucket([]byte("docs")); docs != nil {
		var moved [][]byte
		err := docs.ForEach(func(key, v []byte) error {
			i := bytes.IndexByte(key, 0)
			if i < 0 {
				return nil
			}
			ns, id := string(key[:i]), string(key[i+1:])
			ok, err := migrateDoc(t, ns, id, v)
			if err != nil {
				return fmt.Errorf("%s %s: %w", ns, id, err)
			}
			if ok {
				moved = append(moved, append([]byte(nil), key...))
			} else {
				slog.Warn("storage: migration kept an unknown document", "namespace", ns, "key", id)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, key := range moved {
			if err := docs.Delete(key); err != nil {
				return err
			}
		}
		if first, _ := docs.Cursor().First(); first == nil {
			if err := btx.DeleteBucket([]byte("docs")); err != nil {
				return err
			}
		}
	}
	if btx.Bucket([]byte("user_games")) != nil {
		if err := btx.DeleteBucket([]byte("user_games")); err != nil {
			return err
		}
	}
	var ids []string
	if err := k.scan(bGames, "", "", func(id string, _ []byte) error {
		ids = append(ids, id)
		return nil
	}); err != nil {
		return err
	}
	for _, id := range ids {
		var g Game
		if err := getJSON(k, bGames, id, "game", &g); err != nil {
			return err
		}
		if g.Active {
			for _, u := range g.Players {
				if err := k.put(bUserActive, u+"/"+g.ID, nil); err != nil {
					return err
				}
			}
			continue
		}
		if g.Ended.IsZero() {
			g.Ended = g.Updated
			if err := putJSON(k, bGames, g.ID, &g); err != nil {
				return err
			}
		}
		for _, u := range g.Players {
			if err := k.put(bUserFinished, u+"/"+invertedKey(g.Ended)+"/"+g.ID, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// migrateDoc moves one schema-1 document into its repository; ok false
// leaves a document of a namespace this schema does not know.
func migrateDoc(t *txImpl, ns, id string, raw []byte) (ok bool, err error) {
	switch ns {
	case "challenges":
		var ch struct {
			Expires time.Time `json:"expires"`
		}
		if err := json.Unmarshal(raw, &ch); err != nil {
			return false, err
		}
		return true, t.Challenges().Put(id, ch.Expires, json.RawMessage(raw))
	case "lobbies":
		return true, t.Lobbies().Put(id, time.Time{}, json.RawMessage(raw))
	case "teamchess-records":
		guild, user, found := strings.Cut(id, "/")
		if !found {
			return false, fmt.Errorf("bad record key")
		}
		return true, t.Records().Put("teamchess", guild, user, json.RawMessage(raw))
	case "sandtable_log":
		game, seq, found := strings.Cut(id, "/")
		n, err := strconv.Atoi(seq)
		if !found || err != nil {
			return false, fmt.Errorf("bad log key")
		}
		return true, t.Logs().Put(game, n, json.RawMessage(raw))
	case "channel-games":
		var game string
		if err := json.Unmarshal(raw, &game); err != nil {
			return false, err
		}
		return true, t.Games().LinkChannel(id, game)
	case "bot":
		if id != "alive" {
			return false, nil
		}
		var at time.Time
		if err := json.Unmarshal(raw, &at); err != nil {
			return false, err
		}
		return true, t.Meta().SetHeartbeat(at)
	case "playground":
		if id != "discord" {
			return false, nil
		}
		return true, t.Playground().Put(PlaygroundState, raw)
	case "playground-files":
		var data []byte
		if err := json.Unmarshal(raw, &data); err != nil {
			return false, err
		}
		return true, t.Playground().Put(PlaygroundFile+id, data)
	}
	return false, nil
}

// Keys of the playground's repository (Tx.Playground).
const (
	PlaygroundState = "discord" // the Discord stand-in's state, JSON
	PlaygroundFile  = "file/"   // + attachment ID: the attachment's bytes
)
