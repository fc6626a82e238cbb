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
