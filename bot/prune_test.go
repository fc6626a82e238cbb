package bot

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/storage"
)

// TestPruneInteractionsInBatches: 250 old interaction marks are forgotten
// in batches of at most 100 (one transaction each), the newer ones kept.
func TestPruneInteractionsInBatches(t *testing.T) {
	t.Parallel()
	s := &countingStore{Store: storage.NewMemory()}
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	require.NoError(t, s.Update(context.Background(), func(tx storage.Tx) error {
		for i := range 255 {
			at := now.Add(-2 * time.Hour)
			if i >= 250 {
				at = now
			}
			if _, err := tx.Dedupe().Mark(fmt.Sprintf("i%03d", i), at); err != nil {
				return err
			}
		}
		return nil
	}))
	s.updates = 0
	n, err := pruneInteractions(s, now.Add(-time.Hour))
	require.NoError(t, err)
	require.Equal(t, 250, n)
	require.Equal(t, 3, s.updates, "100 + 100 + 50")
	require.NoError(t, s.Update(context.Background(), func(tx storage.Tx) error {
		seen, err := tx.Dedupe().Mark("i000", now)
		require.False(t, seen, "forgotten")
		require.NoError(t, err)
		seen, err = tx.Dedupe().Mark("i250", now)
		require.True(t, seen, "kept")
		return err
	}))
}

type countingStore struct {
	storage.Store
	updates int
}

func (c *countingStore) Update(ctx context.Context, fn func(storage.Tx) error) error {
	c.updates++
	return c.Store.Update(ctx, fn)
}
