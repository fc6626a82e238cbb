package storage

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// dueIndex reads the outbox's due index as stream -> "due key|head ID", and
// what it must hold: each stream's head with its envelope's due time.
func dueIndex(t *testing.T, s Store) (got, want map[string]string) {
	t.Helper()
	got, want = map[string]string{}, map[string]string{}
	view(t, s, func(tx Tx) {
		k := tx.(*txImpl).kv
		require.NoError(t, k.scan(bOutboxDue, "", "", func(key string, v []byte) error {
			ts, stream, _ := strings.Cut(key, "/")
			require.NotContains(t, got, stream, "one entry per stream")
			got[stream] = ts + "|" + string(v)
			return nil
		}))
		r := outbox{tx.(*txImpl)}
		require.NoError(t, k.scan(bOutbox, "", "", func(key string, _ []byte) error {
			stream, _, _ := strings.Cut(key, "/")
			if _, ok := want[stream]; ok {
				return nil
			}
			id, env, err := r.first(stream)
			require.NoError(t, err)
			want[stream] = timeKey(env.Due) + "|" + id
			return nil
		}))
	})
	return got, want
}

func requireDueIndexSound(t *testing.T, s Store) {
	t.Helper()
	got, want := dueIndex(t, s)
	require.Equal(t, want, got, "the due index holds each stream's head at its due time")
}

// TestOutboxDueIndex: the due index follows every change of a stream's
// head (an effect added to an empty stream, a head retried, a head done and
// the next one taking its place, an effect behind the head done), so Heads,
// HeadsFor and NextDue, which read only the index, see what a scan of the
// whole outbox would.
func TestOutboxDueIndex(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		var a1, a2, a3, b1, c1 string
		update(t, s, func(tx Tx) error {
			o := tx.Outbox()
			a1, _ = o.Add("ga", 1)
			a2, _ = o.Add("ga", 2)
			a3, _ = o.Add("ga", 3)
			b1, _ = o.Add("gb", 1)
			c1, _ = o.Add("gc", 1)
			return nil
		})
		requireDueIndexSound(t, s)
		heads := func(now time.Time) []string {
			var out []string
			view(t, s, func(tx Tx) {
				ps, err := tx.Outbox().Heads(now, 10)
				require.NoError(t, err)
				for _, p := range ps {
					out = append(out, p.ID)
				}
			})
			return out
		}
		nextDue := func() time.Time {
			var next time.Time
			view(t, s, func(tx Tx) {
				var err error
				next, err = tx.Outbox().NextDue()
				require.NoError(t, err)
			})
			return next
		}
		require.Equal(t, []string{a1, b1, c1}, heads(t0))

		update(t, s, func(tx Tx) error {
			require.NoError(t, tx.Outbox().Retry(a1, 1, t0.Add(2*time.Minute)))
			require.NoError(t, tx.Outbox().Retry(b1, 1, t0.Add(time.Minute)))
			return tx.Outbox().Retry(a3, 1, t0.Add(time.Hour)) // not a head: no entry moves
		})
		requireDueIndexSound(t, s)
		require.Equal(t, []string{c1}, heads(t0))
		require.Equal(t, []string{c1, b1, a1}, heads(t0.Add(2*time.Minute)), "the earliest due first")

		update(t, s, func(tx Tx) error { return tx.Outbox().Done(c1) })
		requireDueIndexSound(t, s)
		require.True(t, nextDue().Equal(t0.Add(time.Minute)))

		update(t, s, func(tx Tx) error { return tx.Outbox().Done(a2) }) // behind the head
		update(t, s, func(tx Tx) error { return tx.Outbox().Done(a1) })
		requireDueIndexSound(t, s)
		require.Equal(t, []string{b1}, heads(t0.Add(2*time.Minute)), "a3, now ga's head, waits for its own retry")
		require.Equal(t, []string{b1, a3}, heads(t0.Add(time.Hour)))

		update(t, s, func(tx Tx) error {
			require.NoError(t, tx.Outbox().Done(b1))
			require.NoError(t, tx.Outbox().Done(a3))
			return tx.Outbox().Done(a3) // absent: nothing changes
		})
		requireDueIndexSound(t, s)
		require.True(t, nextDue().IsZero(), "an empty outbox")
		require.Empty(t, heads(t0.Add(time.Hour)))
	})
}

// TestOutboxDueIndexRandom runs random adds, retries, claims and removals
// and checks after each transaction that the index holds exactly each
// stream's head at its due time.
func TestOutboxDueIndexRandom(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		rng := rand.New(rand.NewPCG(7, 7))
		var ids []string
		for step := range 60 {
			update(t, s, func(tx Tx) error {
				o := tx.Outbox()
				for range 1 + rng.IntN(4) {
					switch op := rng.IntN(4); {
					case op == 0 || len(ids) == 0:
						id, err := o.Add(fmt.Sprintf("g%d", rng.IntN(5)), step)
						if err != nil {
							return err
						}
						ids = append(ids, id)
					case op == 1:
						if err := o.Retry(ids[rng.IntN(len(ids))], 1, t0.Add(time.Duration(rng.IntN(100))*time.Second)); err != nil && !isNotFound(err) {
							return err
						}
					case op == 2:
						if err := o.Claim(ids[rng.IntN(len(ids))], "p", 0); err != nil && !isNotFound(err) {
							return err
						}
					default:
						i := rng.IntN(len(ids))
						if err := o.Done(ids[i]); err != nil {
							return err
						}
						ids = append(ids[:i], ids[i+1:]...)
					}
				}
				return nil
			})
			requireDueIndexSound(t, s)
		}
	})
}

// TestMigrationFromSchema6 opens a schema-6 database with pending effects
// (no due index): the migration indexes every stream's head, so the due
// ones are offered and the rest wait for their time.
func TestMigrationFromSchema6(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "v6.db")
	s, err := Open(path, time.Second)
	require.NoError(t, err)
	var a1, b1 string
	update(t, s, func(tx Tx) error {
		a1, _ = tx.Outbox().Add("ga", 1)
		_, _ = tx.Outbox().Add("ga", 2)
		b1, _ = tx.Outbox().Add("gb", 1)
		return tx.Outbox().Retry(b1, 2, t0.Add(time.Hour))
	})
	require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte(bOutboxDue)); err != nil {
			return err
		}
		return tx.Bucket([]byte(bMeta)).Put([]byte("schema"), []byte("6"))
	}))
	require.NoError(t, s.Close())
	s, err = Open(path, time.Second)
	require.NoError(t, err)
	defer s.Close()
	v, err := s.SchemaVersion()
	require.NoError(t, err)
	require.Equal(t, SchemaVersion, v)
	requireDueIndexSound(t, s)
	view(t, s, func(tx Tx) {
		ps, err := tx.Outbox().HeadsFor("p", t0, 10)
		require.NoError(t, err)
		require.Len(t, ps, 1)
		require.Equal(t, a1, ps[0].ID)
		ps, err = tx.Outbox().HeadsFor("p", t0.Add(time.Hour), 10)
		require.NoError(t, err)
		require.Len(t, ps, 2)
		require.Equal(t, b1, ps[1].ID)
	})
}

// TestEtcdMigrationFromSchema6 migrates an etcd store of schema 6 whose
// outbox has more streams than one etcd transaction could index (etcd caps
// one at 128 operations): the index is built in batches, and what an
// interrupted build left (a stale entry) is cleared first.
func TestEtcdMigrationFromSchema6(t *testing.T) {
	t.Parallel()
	s := openEtcd(t)
	const streams = 130
	for start := 0; start < streams; start += 25 {
		update(t, s, func(tx Tx) error {
			for i := start; i < min(streams, start+25); i++ {
				if _, err := tx.Outbox().Add(fmt.Sprintf("g%03d", i), i); err != nil {
					return err
				}
			}
			return nil
		})
	}
	cli, err := clientv3.New(clientv3.Config{Endpoints: sharedEtcd().Endpoints()})
	require.NoError(t, err)
	defer cli.Close()
	_, err = cli.Delete(ctx, s.opts.Prefix+bOutboxDue+"/", clientv3.WithPrefix())
	require.NoError(t, err)
	_, err = cli.Put(ctx, s.opts.Prefix+bOutboxDue+"/"+timeKey(t0)+"/gone", "gone/00000000000000000001")
	require.NoError(t, err)
	_, err = cli.Put(ctx, s.opts.Prefix+bMeta+"/schema", "6")
	require.NoError(t, err)

	s2, err := OpenEtcd(ctx, s.opts)
	require.NoError(t, err)
	defer s2.Close()
	resp, err := cli.Get(ctx, s.opts.Prefix+bMeta+"/schema")
	require.NoError(t, err)
	require.Equal(t, fmt.Sprint(SchemaVersion), string(resp.Kvs[0].Value))
	got, want := dueIndex(t, s2)
	require.Len(t, want, streams)
	require.Equal(t, want, got)
	view(t, s2, func(tx Tx) {
		ps, err := tx.Outbox().Heads(t0, 1000)
		require.NoError(t, err)
		require.Len(t, ps, streams)
	})
}

func isNotFound(err error) bool {
	return err != nil && strings.Contains(err.Error(), ErrNotFound.Error())
}
