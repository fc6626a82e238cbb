package storage

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestOutbox: effects of a stream come out one at a time in the order they
// were added; a retried effect holds its stream back until it is due; IDs
// are never reused; a rolled-back transaction adds nothing.
func TestOutbox(t *testing.T) {
	eachStore(t, func(t *testing.T, s Store) {
		var a1, a2, b1 string
		update(t, s, func(tx Tx) error {
			var err error
			a1, err = tx.Outbox().Add("gameA", map[string]string{"n": "a1"})
			require.NoError(t, err)
			a2, err = tx.Outbox().Add("gameA", map[string]string{"n": "a2"})
			require.NoError(t, err)
			b1, err = tx.Outbox().Add("gameB", map[string]string{"n": "b1"})
			require.NoError(t, err)
			_, err = tx.Outbox().Add("bad/stream", 1)
			require.Error(t, err)
			_, err = tx.Outbox().Add("", 1)
			require.Error(t, err)
			return nil
		})
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
		require.ElementsMatch(t, []string{a1, b1}, heads(t0), "one head per stream")
		view(t, s, func(tx Tx) {
			p, err := tx.Outbox().Get(a1)
			require.NoError(t, err)
			require.Equal(t, "gameA", p.Stream)
			require.JSONEq(t, `{"n":"a1"}`, string(p.Effect))
			n, err := tx.Outbox().Len()
			require.NoError(t, err)
			require.Equal(t, 3, n)
			ps, err := tx.Outbox().Heads(t0, 1)
			require.NoError(t, err)
			require.Len(t, ps, 1, "limit")
		})
		// a1 fails: gameA waits until it is due again, gameB does not.
		update(t, s, func(tx Tx) error { return tx.Outbox().Retry(a1, 1, t0.Add(time.Minute)) })
		require.Equal(t, []string{b1}, heads(t0))
		require.Equal(t, []string{b1, a1}, heads(t0.Add(time.Minute)), "earliest due first")
		view(t, s, func(tx Tx) {
			p, err := tx.Outbox().Get(a1)
			require.NoError(t, err)
			require.Equal(t, 1, p.Attempts)
			require.True(t, p.Due.Equal(t0.Add(time.Minute)))
			next, err := tx.Outbox().NextDue()
			require.NoError(t, err)
			require.True(t, next.IsZero(), "b1 is due at once")
		})
		update(t, s, func(tx Tx) error {
			require.NoError(t, tx.Outbox().Done(a1))
			require.NoError(t, tx.Outbox().Done(b1))
			require.ErrorIs(t, tx.Outbox().Retry(b1, 1, t0), ErrNotFound)
			return nil
		})
		require.Equal(t, []string{a2}, heads(t0), "a2 follows a1")
		// Rollback: nothing added, and IDs never come back.
		require.Error(t, s.Update(ctx, func(tx Tx) error {
			_, err := tx.Outbox().Add("gameC", 1)
			require.NoError(t, err)
			return ErrConflict
		}))
		var c1 string
		update(t, s, func(tx Tx) error {
			require.NoError(t, tx.Outbox().Done(a2))
			var err error
			c1, err = tx.Outbox().Add("gameA", 2)
			return err
		})
		require.NotContains(t, []string{a1, a2, b1}, c1)
		require.Greater(t, c1, a2, "later IDs sort after earlier ones in a stream")
	})
}

// TestOutboxDueCreditsDowntime: a retry's due time moves with the clock
// offset like deadlines.
func TestOutboxDueCreditsDowntime(t *testing.T) {
	eachStore(t, func(t *testing.T, s Store) {
		var id string
		update(t, s, func(tx Tx) error {
			var err error
			if id, err = tx.Outbox().Add("g", 1); err != nil {
				return err
			}
			return tx.Outbox().Retry(id, 2, t0.Add(time.Minute))
		})
		update(t, s, func(tx Tx) error { return tx.Meta().SetClockOffset(time.Hour) })
		view(t, s, func(tx Tx) {
			next, err := tx.Outbox().NextDue()
			require.NoError(t, err)
			require.True(t, next.Equal(t0.Add(time.Hour+time.Minute)), next)
		})
	})
}
