package storage

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkUpdateGameMove is the transaction of one move: the
// interaction's mark, the game read and written (with its timer index),
// and two effects queued (its board post and its answer's copy). On
// etcd, one process on a one-member server on this machine: the cost of
// an etcd transaction per move (a snapshot read of the game, the mark's
// and the counters' keys, then one Txn with its comparisons).
func BenchmarkUpdateGameMove(b *testing.B) {
	run := func(b *testing.B, s Store) {
		require.NoError(b, s.Update(ctx, func(tx Tx) error {
			return tx.Games().Put(&Game{ID: "g", Kind: "survival", Players: []string{"a", "b"}, Active: true}, t0)
		}))
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			if err := moveOnce(s, "g", fmt.Sprintf("i%d", i), t0.Add(time.Duration(i)*time.Second)); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("bbolt", func(b *testing.B) {
		s, err := Open(filepath.Join(b.TempDir(), "bench.db"), time.Second)
		require.NoError(b, err)
		defer s.Close()
		run(b, s)
	})
	b.Run("etcd", func(b *testing.B) {
		s := openEtcd(b)
		run(b, s)
		ops, size := s.Largest()
		b.ReportMetric(float64(ops), "writes/txn")
		b.ReportMetric(float64(size), "bytes/txn")
	})
}

// BenchmarkOutboxPass is one dispatcher pass with nothing due: the heads
// this process may deliver now (HeadsFor) and the next due time, over an
// outbox of n streams whose effects all wait for a retry an hour away. With
// the due index (schema 7) its cost does not grow with n.
func BenchmarkOutboxPass(b *testing.B) {
	for _, n := range []int{10, 10000} {
		b.Run(fmt.Sprintf("bbolt/pending=%d", n), func(b *testing.B) {
			s, err := Open(filepath.Join(b.TempDir(), "bench.db"), time.Second)
			require.NoError(b, err)
			defer s.Close()
			for start := 0; start < n; start += 1000 {
				require.NoError(b, s.Update(ctx, func(tx Tx) error {
					for i := start; i < min(n, start+1000); i++ {
						id, err := tx.Outbox().Add(fmt.Sprintf("g%d", i), map[string]int{"i": i})
						if err != nil {
							return err
						}
						if err := tx.Outbox().Retry(id, 1, t0.Add(time.Hour)); err != nil {
							return err
						}
					}
					return nil
				}))
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if err := s.View(ctx, func(tx Tx) error {
					ps, err := tx.Outbox().HeadsFor("p", t0, 64)
					if err != nil || len(ps) != 0 {
						return fmt.Errorf("%d due: %v", len(ps), err)
					}
					next, err := tx.Outbox().NextDue()
					if err == nil && !next.Equal(t0.Add(time.Hour)) {
						err = fmt.Errorf("next due %s", next)
					}
					return err
				}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
