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

// TestOutboxStreamHeads: StreamHeads reads each stream's head as
// StreamHead does, with its body and its claim (a claim on a later effect
// of the stream is not the head's), nil for an empty stream, and sees the
// transaction's own writes.
func TestOutboxStreamHeads(t *testing.T) {
	eachStore(t, func(t *testing.T, s Store) {
		var a1, a2, b1 string
		update(t, s, func(tx Tx) error {
			var err error
			if a1, err = tx.Outbox().Add("gameA", map[string]string{"n": "a1"}); err != nil {
				return err
			}
			if a2, err = tx.Outbox().Add("gameA", map[string]string{"n": "a2"}); err != nil {
				return err
			}
			if b1, err = tx.Outbox().Add("gameB", map[string]string{"n": "b1"}); err != nil {
				return err
			}
			if err := tx.Outbox().Claim(a2, "p2", 0); err != nil {
				return err
			}
			return tx.Outbox().Claim(b1, "p1", 0)
		})
		check := func(tx Tx, want ...string) {
			ps, err := tx.Outbox().StreamHeads("gameA", "gameB", "gameC")
			require.NoError(t, err)
			require.Len(t, ps, 3)
			require.Nil(t, ps[2], "an empty stream")
			for i, p := range ps[:2] {
				one, err := tx.Outbox().StreamHead(p.Stream)
				require.NoError(t, err)
				require.Equal(t, one, p, "as StreamHead reads it")
				require.JSONEq(t, want[i], string(p.Effect))
			}
		}
		view(t, s, func(tx Tx) {
			check(tx, `{"n":"a1"}`, `{"n":"b1"}`)
			ps, err := tx.Outbox().StreamHeads("gameA", "gameB")
			require.NoError(t, err)
			require.Equal(t, a1, ps[0].ID)
			require.Empty(t, ps[0].Owner, "a2's claim is not a1's")
			require.Equal(t, "p1", ps[1].Owner)
		})
		update(t, s, func(tx Tx) error {
			if err := tx.Outbox().Done(a1); err != nil {
				return err
			}
			check(tx, `{"n":"a2"}`, `{"n":"b1"}`)
			ps, err := tx.Outbox().StreamHeads("gameA")
			require.NoError(t, err)
			require.Equal(t, a2, ps[0].ID)
			require.Equal(t, "p2", ps[0].Owner)
			return nil
		})
	})
}
