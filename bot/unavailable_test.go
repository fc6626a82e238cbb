package bot

import (
	"errors"
	"fmt"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/storage"
)

// TestStoreUnavailableAnswer: a store that cannot be reached (an etcd
// cluster without a majority) is told to the user as such, privately,
// not as an unexplained failure; other failures keep the apology.
func TestStoreUnavailableAnswer(t *testing.T) {
	t.Parallel()
	b := &Bot{}
	log := slog.New(slog.DiscardHandler)
	down := b.toResponse(result{err: fmt.Errorf("move: %w", fmt.Errorf("%w: etcd failing", storage.ErrUnavailable))}, log)
	require.True(t, down.Ephemeral)
	require.Contains(t, down.Message.Content, "cannot reach the game database")
	other := b.toResponse(result{err: errors.New("boom")}, log)
	require.True(t, other.Ephemeral)
	require.NotContains(t, other.Message.Content, "database")
	require.Contains(t, other.Message.Content, "something went wrong")
}
