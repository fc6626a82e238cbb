package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/internal/testkit"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

var ctx = context.Background()

// eachStore runs a contract test against every implementation, the three
// in parallel (each store is its own: a file, a map, an etcd prefix).
func eachStore(t *testing.T, test func(t *testing.T, s Store)) {
	t.Run("bolt", func(t *testing.T) {
		t.Parallel()
		s, err := Open(filepath.Join(t.TempDir(), "test.db"), time.Second)
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		test(t, s)
	})
	t.Run("memory", func(t *testing.T) { t.Parallel(); test(t, NewMemory()) })
	t.Run("etcd", func(t *testing.T) { t.Parallel(); test(t, openEtcd(t)) })
}

// openEtcd opens a store under a prefix of its own on the package's
// shared one-member etcd server (sharedEtcd).
func openEtcd(t testing.TB, opts ...func(*EtcdOptions)) *Etcd {
	t.Helper()
	o := EtcdOptions{Endpoints: sharedEtcd().Endpoints(), Prefix: fmt.Sprintf("test%d/", prefixes.Add(1))}
	for _, f := range opts {
		f(&o)
	}
	s, err := OpenEtcd(ctx, o)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func update(t *testing.T, s Store, fn func(tx Tx) error) {
	t.Helper()
	require.NoError(t, s.Update(ctx, fn))
}

func view(t *testing.T, s Store, fn func(tx Tx)) {
	t.Helper()
	require.NoError(t, s.View(ctx, func(tx Tx) error { fn(tx); return nil }))
}

func ids(gs []*Game) []string {
	out := []string{}
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return out
}

func TestGamesIndexes(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		deadline := t0.Add(time.Hour)
		g := &Game{ID: "g1", Kind: "survival", ThreadID: "th1", Players: []string{"alice", "bob"}, Active: true, Deadline: deadline}
		update(t, s, func(tx Tx) error { return tx.Games().Put(g, t0) })
		require.Equal(t, int64(1), g.Version)
		require.True(t, g.Created.Equal(t0))
		view(t, s, func(tx Tx) {
			got, err := tx.Games().ByChannel("th1")
			require.NoError(t, err)
			require.Equal(t, "g1", got.ID)
			require.True(t, got.Deadline.Equal(deadline))
			act, err := tx.Games().Active("bob")
			require.NoError(t, err)
			require.Equal(t, []string{"g1"}, ids(act))
			due, _ := tx.Games().Due(deadline.Add(-time.Nanosecond))
			require.Empty(t, due)
			due, _ = tx.Games().Due(deadline)
			require.Equal(t, []string{"g1"}, due)
			next, _ := tx.Games().NextDeadline()
			require.True(t, next.Equal(deadline))
			_, err = tx.Games().ByChannel("nope")
			require.ErrorIs(t, err, ErrNotFound)
		})

		// A further channel reaches the game; a new thread replaces the old one.
		g.Deadline = deadline.Add(time.Hour)
		g.ThreadID = "th2"
		update(t, s, func(tx Tx) error {
			require.NoError(t, tx.Games().LinkChannel("team1", "g1"))
			return tx.Games().Put(g, t0.Add(time.Minute))
		})
		view(t, s, func(tx Tx) {
			for _, ch := range []string{"team1", "th2"} {
				got, err := tx.Games().ByChannel(ch)
				require.NoError(t, err, ch)
				require.Equal(t, "g1", got.ID)
			}
			_, err := tx.Games().ByChannel("th1")
			require.ErrorIs(t, err, ErrNotFound)
			due, _ := tx.Games().Due(deadline)
			require.Empty(t, due, "the old deadline left the timer index")
			due, _ = tx.Games().Due(deadline.Add(time.Hour))
			require.Equal(t, []string{"g1"}, due)
		})

		// Finishing moves the game from active to finished and stops its clock.
		g.Active = false
		update(t, s, func(tx Tx) error { return tx.Games().Put(g, t0.Add(2*time.Minute)) })
		require.True(t, g.Ended.Equal(t0.Add(2*time.Minute)))
		view(t, s, func(tx Tx) {
			act, _ := tx.Games().Active("alice")
			require.Empty(t, act)
			fin, err := tx.Games().Finished("alice", time.Time{}, 10)
			require.NoError(t, err)
			require.Equal(t, []string{"g1"}, ids(fin))
			due, _ := tx.Games().Due(deadline.Add(48 * time.Hour))
			require.Empty(t, due)
			next, _ := tx.Games().NextDeadline()
			require.True(t, next.IsZero())
			got, _ := tx.Games().Get("g1")
			require.True(t, got.Deadline.IsZero())
		})
	})
}

// TestGamesReminderTimer: a game's reminder (Game.Remind) is a timer of
// its own beside the deadline: Due lists the game when either is due, once
// when both are; clearing it (sent) or ending the game takes it out of the
// index; the clock offset moves it as it moves deadlines.
func TestGamesReminderTimer(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		remind, deadline := t0.Add(45*time.Minute), t0.Add(time.Hour)
		g := &Game{ID: "g1", Kind: "survival", Players: []string{"alice"}, Active: true, Deadline: deadline, Remind: remind}
		update(t, s, func(tx Tx) error { return tx.Games().Put(g, t0) })
		view(t, s, func(tx Tx) {
			got, err := tx.Games().Get("g1")
			require.NoError(t, err)
			require.True(t, got.Remind.Equal(remind), "read back: %s", got.Remind)
			due, _ := tx.Games().Due(remind.Add(-time.Nanosecond))
			require.Empty(t, due)
			due, _ = tx.Games().Due(remind)
			require.Equal(t, []string{"g1"}, due, "the reminder is due before the deadline")
			due, _ = tx.Games().Due(deadline)
			require.Equal(t, []string{"g1"}, due, "listed once when both are due")
			next, _ := tx.Games().NextDeadline()
			require.True(t, next.Equal(remind))
		})
		update(t, s, func(tx Tx) error { return tx.Meta().SetClockOffset(10 * time.Minute) })
		view(t, s, func(tx Tx) {
			got, _ := tx.Games().Get("g1")
			require.True(t, got.Remind.Equal(remind.Add(10*time.Minute)), "downtime credited: %s", got.Remind)
			due, _ := tx.Games().Due(remind.Add(10*time.Minute - time.Nanosecond))
			require.Empty(t, due)
			g = got
		})
		// Sent: the reminder leaves the index, the deadline stays.
		g.Remind = time.Time{}
		update(t, s, func(tx Tx) error { return tx.Games().Put(g, t0) })
		view(t, s, func(tx Tx) {
			due, _ := tx.Games().Due(deadline)
			require.Empty(t, due)
			due, _ = tx.Games().Due(deadline.Add(10 * time.Minute))
			require.Equal(t, []string{"g1"}, due)
			got, _ := tx.Games().Get("g1")
			require.True(t, got.Remind.IsZero())
		})
		// A new reminder, then the end: both timers leave the index.
		g.Remind = deadline.Add(5 * time.Minute)
		update(t, s, func(tx Tx) error { return tx.Games().Put(g, t0) })
		g.Active = false
		update(t, s, func(tx Tx) error { return tx.Games().Put(g, t0) })
		require.True(t, g.Remind.IsZero())
		view(t, s, func(tx Tx) {
			due, _ := tx.Games().Due(deadline.Add(48 * time.Hour))
			require.Empty(t, due)
			got, _ := tx.Games().Get("g1")
			require.True(t, got.Remind.IsZero())
		})
	})
}

// TestGamesComputerMoveTimer: a pending computer move (Game.ComputerMove)
// is a timer beside the deadline: due before the deadline, read back with
// the seats, moved by the clock offset, out of the index once cleared or
// once the game ends.
func TestGamesComputerMoveTimer(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		due0, deadline := t0.Add(time.Second), t0.Add(time.Hour)
		g := &Game{ID: "g1", Kind: "survival", Players: []string{"alice", "bot"}, Active: true, Deadline: deadline,
			ComputerMove: due0, Computers: []ComputerSeat{{User: "bot", Level: "casual"}}}
		update(t, s, func(tx Tx) error { return tx.Games().Put(g, t0) })
		view(t, s, func(tx Tx) {
			got, err := tx.Games().Get("g1")
			require.NoError(t, err)
			require.True(t, got.ComputerMove.Equal(due0), "read back: %s", got.ComputerMove)
			seat, ok := got.Computer("bot")
			require.True(t, ok)
			require.Equal(t, "casual", seat.Level)
			_, ok = got.Computer("alice")
			require.False(t, ok)
			due, _ := tx.Games().Due(t0)
			require.Empty(t, due)
			due, _ = tx.Games().Due(due0)
			require.Equal(t, []string{"g1"}, due)
			next, _ := tx.Games().NextDeadline()
			require.True(t, next.Equal(due0))
		})
		update(t, s, func(tx Tx) error { return tx.Meta().SetClockOffset(10 * time.Minute) })
		view(t, s, func(tx Tx) {
			got, _ := tx.Games().Get("g1")
			require.True(t, got.ComputerMove.Equal(due0.Add(10*time.Minute)), "downtime credited: %s", got.ComputerMove)
			g = got
		})
		g.ComputerMove = time.Time{}
		update(t, s, func(tx Tx) error { return tx.Games().Put(g, t0) })
		view(t, s, func(tx Tx) {
			due, _ := tx.Games().Due(deadline)
			require.Empty(t, due, "cleared: only the deadline is left")
		})
		g.ComputerMove = deadline.Add(-time.Minute)
		update(t, s, func(tx Tx) error { return tx.Games().Put(g, t0) })
		g.Active = false
		update(t, s, func(tx Tx) error { return tx.Games().Put(g, t0) })
		require.True(t, g.ComputerMove.IsZero())
		view(t, s, func(tx Tx) {
			due, _ := tx.Games().Due(deadline.Add(48 * time.Hour))
			require.Empty(t, due)
		})
	})
}

func TestGamesFinishedPages(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		update(t, s, func(tx Tx) error {
			for i := 0; i < 7; i++ {
				g := &Game{ID: fmt.Sprintf("f%d", i), Kind: "survival", Players: []string{"alice"}, Active: true}
				if err := tx.Games().Put(g, t0); err != nil {
					return err
				}
				g.Active = false
				if err := tx.Games().Put(g, t0.Add(time.Duration(i)*time.Minute)); err != nil {
					return err
				}
			}
			return tx.Games().Put(&Game{ID: "a1", Kind: "survival", Players: []string{"alice"}, Active: true}, t0)
		})
		view(t, s, func(tx Tx) {
			page, err := tx.Games().Finished("alice", time.Time{}, 3)
			require.NoError(t, err)
			require.Equal(t, []string{"f6", "f5", "f4"}, ids(page), "newest first")
			page, err = tx.Games().Finished("alice", page[2].Ended, 3)
			require.NoError(t, err)
			require.Equal(t, []string{"f3", "f2", "f1"}, ids(page), "the next page starts after the last one shown")
			page, _ = tx.Games().Finished("alice", page[2].Ended, 3)
			require.Equal(t, []string{"f0"}, ids(page))
			page, _ = tx.Games().Finished("bob", time.Time{}, 3)
			require.Empty(t, page)
			act, _ := tx.Games().Active("alice")
			require.Equal(t, []string{"a1"}, ids(act))
		})
	})
}

func TestGamesPutRefusesStaleVersion(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		g := &Game{ID: "g1", Kind: "survival", Active: true}
		update(t, s, func(tx Tx) error { return tx.Games().Put(g, t0) })
		stale := *g
		stale.Version = 0
		err := s.Update(ctx, func(tx Tx) error { return tx.Games().Put(&stale, t0) })
		require.ErrorIs(t, err, ErrConflict)
		err = s.Update(ctx, func(tx Tx) error { return tx.Games().Put(&Game{ID: "", Kind: "survival"}, t0) })
		require.Error(t, err)
	})
}

// TestFailedTransactionSavesNothing: an error after writes in the same
// transaction rolls back the records and every index.
func TestFailedTransactionSavesNothing(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		g := &Game{ID: "g1", Kind: "survival", ThreadID: "th1", Players: []string{"alice"}, Active: true, State: []byte(`{"moves":[]}`)}
		update(t, s, func(tx Tx) error { return tx.Games().Put(g, t0) })
		boom := errors.New("boom")
		err := s.Update(ctx, func(tx Tx) error {
			cur, err := tx.Games().Get("g1")
			require.NoError(t, err)
			cur.State = []byte(`{"moves":["e2e4"]}`)
			cur.ThreadID = "th2"
			cur.Players = []string{"carol"}
			cur.Deadline = t0
			if _, err := tx.Dedupe().Mark("i1", t0); err != nil {
				return err
			}
			if err := tx.Challenges().Put("c1", t0, map[string]string{"kind": "survival"}); err != nil {
				return err
			}
			if err := tx.Games().Put(cur, t0); err != nil {
				return err
			}
			return boom
		})
		require.ErrorIs(t, err, boom)
		view(t, s, func(tx Tx) {
			got, err := tx.Games().ByChannel("th1")
			require.NoError(t, err)
			require.JSONEq(t, `{"moves":[]}`, string(got.State))
			_, err = tx.Games().ByChannel("th2")
			require.ErrorIs(t, err, ErrNotFound)
			act, _ := tx.Games().Active("carol")
			require.Empty(t, act)
			due, _ := tx.Games().Due(t0)
			require.Empty(t, due)
			var v any
			_, err = tx.Challenges().Get("c1", &v)
			require.ErrorIs(t, err, ErrNotFound)
			exp, _ := tx.Challenges().Expired(t0)
			require.Empty(t, exp)
		})
		update(t, s, func(tx Tx) error {
			seen, err := tx.Dedupe().Mark("i1", t0)
			require.False(t, seen, "the rolled-back mark must not survive")
			return err
		})
	})
}

func TestViewRefusesWrites(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		err := s.View(ctx, func(tx Tx) error { return tx.Games().Put(&Game{ID: "g", Kind: "survival"}, t0) })
		require.ErrorIs(t, err, ErrReadOnly)
		err = s.View(ctx, func(tx Tx) error { return tx.Meta().SetHeartbeat(t0) })
		require.ErrorIs(t, err, ErrReadOnly)
	})
}

func TestDedupe(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		for i, want := range []bool{false, true} {
			update(t, s, func(tx Tx) error {
				seen, err := tx.Dedupe().Mark("i1", t0)
				require.Equal(t, want, seen, "call %d", i)
				return err
			})
		}
		update(t, s, func(tx Tx) error {
			_, err := tx.Dedupe().Mark("i2", t0.Add(2*time.Minute))
			require.NoError(t, err)
			n, err := tx.Dedupe().Prune(t0.Add(time.Minute), 100)
			require.Equal(t, 1, n)
			return err
		})
		update(t, s, func(tx Tx) error {
			seen, err := tx.Dedupe().Mark("i1", t0)
			require.False(t, seen, "pruned")
			require.NoError(t, err)
			seen, err = tx.Dedupe().Mark("i2", t0)
			require.True(t, seen, "newer than the cutoff")
			return err
		})
	})
}

func TestInvitations(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		type doc struct {
			ID   string `json:"id"`
			Kind string `json:"kind"`
		}
		update(t, s, func(tx Tx) error {
			require.NoError(t, tx.Challenges().Put("c1", t0.Add(time.Hour), doc{"c1", "survival"}))
			require.NoError(t, tx.Challenges().Put("c2", t0.Add(2*time.Hour), doc{"c2", "sandtable"}))
			require.Error(t, tx.Challenges().Put("a/b", t0, doc{}))
			return tx.Lobbies().Put("l1", time.Time{}, doc{"l1", "teamchess"})
		})
		view(t, s, func(tx Tx) {
			var d doc
			exp, err := tx.Challenges().Get("c1", &d)
			require.NoError(t, err)
			require.Equal(t, doc{"c1", "survival"}, d)
			require.True(t, exp.Equal(t0.Add(time.Hour)))
			_, err = tx.Lobbies().Get("c1", &d)
			require.ErrorIs(t, err, ErrNotFound, "challenges and lobbies are apart")
			exp, err = tx.Lobbies().Get("l1", &d)
			require.NoError(t, err)
			require.True(t, exp.IsZero())
			got, _ := tx.Challenges().Expired(t0.Add(90 * time.Minute))
			require.Equal(t, []string{"c1"}, got)
			got, _ = tx.Lobbies().Expired(t0.Add(1000 * time.Hour))
			require.Empty(t, got, "a lobby without expiry never expires")
			var all []string
			require.NoError(t, tx.Challenges().Each(func(id string, raw []byte) error {
				var d doc
				require.NoError(t, json.Unmarshal(raw, &d))
				all = append(all, id+"="+d.Kind)
				return nil
			}))
			require.Equal(t, []string{"c1=survival", "c2=sandtable"}, all)
		})
		// A new expiry replaces the old one in the index; Delete clears both.
		update(t, s, func(tx Tx) error {
			require.NoError(t, tx.Challenges().Put("c1", t0.Add(3*time.Hour), doc{"c1", "survival"}))
			return tx.Challenges().Delete("c2")
		})
		view(t, s, func(tx Tx) {
			got, _ := tx.Challenges().Expired(t0.Add(150 * time.Minute))
			require.Empty(t, got)
			got, _ = tx.Challenges().Expired(t0.Add(3 * time.Hour))
			require.Equal(t, []string{"c1"}, got)
			next, err := tx.Challenges().NextExpiry()
			require.NoError(t, err)
			require.True(t, next.Equal(t0.Add(3*time.Hour)), "next expiry %s", next)
			next, err = tx.Lobbies().NextExpiry()
			require.NoError(t, err)
			require.True(t, next.IsZero(), "no lobby expires")
		})
	})
}

// TestClockOffset: growing the offset moves every running deadline and
// expiry later, rewriting no record, and what is written afterwards is read
// back as written.
func TestClockOffset(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		d1 := t0.Add(time.Hour)
		update(t, s, func(tx Tx) error {
			require.NoError(t, tx.Games().Put(&Game{ID: "g1", Kind: "survival", Players: []string{"a"}, Active: true, Deadline: d1}, t0))
			require.NoError(t, tx.Games().Put(&Game{ID: "g2", Kind: "survival", Players: []string{"a"}, Active: false}, t0))
			return tx.Challenges().Put("c1", d1, map[string]int{"n": 1})
		})
		var before []byte
		view(t, s, func(tx Tx) { before = mustRaw(t, tx, "g1") })
		update(t, s, func(tx Tx) error {
			off, err := tx.Meta().ClockOffset()
			require.NoError(t, err)
			require.Zero(t, off)
			return tx.Meta().SetClockOffset(10 * time.Minute)
		})
		view(t, s, func(tx Tx) {
			g, _ := tx.Games().Get("g1")
			require.True(t, g.Deadline.Equal(d1.Add(10*time.Minute)))
			require.Equal(t, before, mustRaw(t, tx, "g1"), "the record is not rewritten")
			due, _ := tx.Games().Due(d1)
			require.Empty(t, due)
			due, _ = tx.Games().Due(d1.Add(10 * time.Minute))
			require.Equal(t, []string{"g1"}, due)
			next, _ := tx.Games().NextDeadline()
			require.True(t, next.Equal(d1.Add(10*time.Minute)))
			var v any
			exp, _ := tx.Challenges().Get("c1", &v)
			require.True(t, exp.Equal(d1.Add(10*time.Minute)))
			gone, _ := tx.Challenges().Expired(d1)
			require.Empty(t, gone)
			g2, _ := tx.Games().Get("g2")
			require.True(t, g2.Deadline.IsZero())
		})
		d3 := t0.Add(5 * time.Hour)
		update(t, s, func(tx Tx) error {
			g, _ := tx.Games().Get("g1")
			g.Deadline = d3
			return tx.Games().Put(g, t0)
		})
		view(t, s, func(tx Tx) {
			g, _ := tx.Games().Get("g1")
			require.True(t, g.Deadline.Equal(d3), "written after the offset grew, read back unchanged")
		})
		err := s.Update(ctx, func(tx Tx) error { return tx.Meta().SetClockOffset(-time.Second) })
		require.Error(t, err)
	})
}

// mustRaw is the stored bytes of a game, through the backend.
func mustRaw(t *testing.T, tx Tx, id string) []byte {
	t.Helper()
	return append([]byte(nil), tx.(*txImpl).kv.get(bGames, id)...)
}

func TestRecordsLogsMetaBlobs(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		type rec struct{ N int }
		update(t, s, func(tx Tx) error {
			require.NoError(t, tx.Records().Put("teamchess", "g1", "alice", rec{1}))
			require.NoError(t, tx.Records().Put("teamchess", "g1", "bob", rec{2}))
			require.NoError(t, tx.Records().Put("teamchess", "g2", "alice", rec{3}))
			require.NoError(t, tx.Records().Put("survival", "g1", "alice", rec{4}))
			require.Error(t, tx.Records().Put("teamchess", "g/1", "alice", rec{}))
			for _, seq := range []int{2, 10, 1} {
				require.NoError(t, tx.Logs().Put("game1", seq, rec{seq}))
			}
			require.NoError(t, tx.Logs().Put("game10", 1, rec{99}))
			require.Error(t, tx.Logs().Put("game1", 0, rec{}))
			require.NoError(t, tx.Meta().SetHeartbeat(t0))
			require.NoError(t, tx.Playground().Put("file/a", []byte{1, 2}))
			return tx.Playground().Put("discord", []byte(`{}`))
		})
		view(t, s, func(tx Tx) {
			var users []string
			require.NoError(t, tx.Records().Each("teamchess", "g1", func(u string, raw []byte) error {
				var r rec
				require.NoError(t, json.Unmarshal(raw, &r))
				users = append(users, fmt.Sprintf("%s=%d", u, r.N))
				return nil
			}))
			require.Equal(t, []string{"alice=1", "bob=2"}, users)
			var r rec
			require.NoError(t, tx.Records().Get("survival", "g1", "alice", &r))
			require.Equal(t, 4, r.N)
			require.ErrorIs(t, tx.Records().Get("survival", "g1", "bob", &r), ErrNotFound)
			var seqs []int
			require.NoError(t, tx.Logs().Each("game1", func(seq int, raw []byte) error {
				seqs = append(seqs, seq)
				return nil
			}))
			require.Equal(t, []int{1, 2, 10}, seqs, "in sequence order, one game only")
			hb, err := tx.Meta().Heartbeat()
			require.NoError(t, err)
			require.True(t, hb.Equal(t0))
			data, err := tx.Playground().Get("file/a")
			require.NoError(t, err)
			require.Equal(t, []byte{1, 2}, data)
			_, err = tx.Playground().Get("file/b")
			require.ErrorIs(t, err, ErrNotFound)
			var keys []string
			require.NoError(t, tx.Playground().Each("file/", func(k string, _ []byte) error { keys = append(keys, k); return nil }))
			require.Equal(t, []string{"file/a"}, keys)
		})
	})
}

// leaseFor is a lease for owner on s (revoked at the test's end), or 0 on
// a store that has none (bbolt).
func leaseFor(t *testing.T, s Store, owner string) int64 {
	t.Helper()
	ls, ok := s.(Leaser)
	if !ok {
		return 0
	}
	l, err := ls.Grant(ctx, owner, DefaultLeaseTTL)
	require.NoError(t, err)
	t.Cleanup(func() { _ = l.Revoke(context.Background()) })
	return l.ID()
}

// An effect is claimed before it is delivered: other owners leave it alone
// while the claim lives; claiming it again under the same lease counts
// nothing, and a claim ends only with its lease, Release or Done.
func TestOutboxClaims(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		l1, l2 := leaseFor(t, s, "p1"), leaseFor(t, s, "p2")
		var a, b string
		update(t, s, func(tx Tx) error {
			var err error
			if a, err = tx.Outbox().Add("ga", "first"); err != nil {
				return err
			}
			// The writer claims in its own transaction.
			if err := tx.Outbox().Claim(a, "p1", l1); err != nil {
				return err
			}
			b, err = tx.Outbox().Add("gb", "other")
			return err
		})
		heads := func(owner string, now time.Time) []string {
			var out []string
			view(t, s, func(tx Tx) {
				ps, err := tx.Outbox().HeadsFor(owner, now, 10)
				require.NoError(t, err)
				for _, p := range ps {
					out = append(out, p.ID)
				}
			})
			return out
		}
		require.ElementsMatch(t, []string{a, b}, heads("p1", t0))
		require.Equal(t, []string{b}, heads("p2", t0), "p1's live claim hides its effect from p2")
		view(t, s, func(tx Tx) {
			p, err := tx.Outbox().Get(a)
			require.NoError(t, err)
			require.Equal(t, "p1", p.Owner)
			require.Equal(t, l1, p.Lease)
			require.Equal(t, 1, p.Claims)
			all, err := tx.Outbox().Heads(t0, 10)
			require.NoError(t, err)
			require.Len(t, all, 2, "Heads still lists claimed heads")
		})

		err := s.Update(ctx, func(tx Tx) error { return tx.Outbox().Claim(a, "p2", l2) })
		require.ErrorIs(t, err, ErrClaimed)
		// The owner claims again: still one claim; a retry keeps it; a
		// year later it still holds (a claim does not run out with time).
		update(t, s, func(tx Tx) error { return tx.Outbox().Claim(a, "p1", l1) })
		update(t, s, func(tx Tx) error { return tx.Outbox().Retry(a, 1, t0.Add(5*time.Second)) })
		require.Equal(t, []string{b}, heads("p2", t0.Add(365*24*time.Hour)))
		view(t, s, func(tx Tx) {
			p, err := tx.Outbox().Get(a)
			require.NoError(t, err)
			require.Equal(t, 1, p.Claims)
			require.Equal(t, 1, p.Attempts)
			require.Equal(t, "p1", p.Owner)
		})
		// Released, p2 takes it over: a second claim.
		update(t, s, func(tx Tx) error { _, err := tx.Outbox().Release("p1"); return err })
		require.ElementsMatch(t, []string{a, b}, heads("p2", t0.Add(time.Minute)))
		update(t, s, func(tx Tx) error { return tx.Outbox().Claim(a, "p2", l2) })
		require.Equal(t, []string{b}, heads("p1", t0.Add(time.Minute)))
		view(t, s, func(tx Tx) {
			p, err := tx.Outbox().Get(a)
			require.NoError(t, err)
			require.Equal(t, "p2", p.Owner)
			require.Equal(t, 2, p.Claims)
		})

		update(t, s, func(tx Tx) error { return tx.Outbox().Done(a) })
		err = s.Update(ctx, func(tx Tx) error { return tx.Outbox().Claim(a, "p1", l1) })
		require.ErrorIs(t, err, ErrNotFound)
		err = s.Update(ctx, func(tx Tx) error { return tx.Outbox().Claim(b, "", l1) })
		require.Error(t, err, "a claim needs an owner")
		view(t, s, func(tx Tx) {
			n := 0
			require.NoError(t, tx.(*txImpl).kv.scan(bOutboxClaims, "", "", func(string, []byte) error { n++; return nil }))
			require.Zero(t, n, "Done removed the claim with the effect")
		})
	})
}

// TestOutboxClaimsLiveWithTheirLease, on the stores that grant leases: a
// claim lives exactly as long as its lease. A claim can only be taken
// bound to a live lease (each case fails if a claim is taken, or reused,
// without one); when the lease ends the claim is gone but the effect stays,
// and the next claim counts as another owner's (reconciled first).
func TestOutboxClaimsLiveWithTheirLease(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		store func(t *testing.T) Store
	}{
		{"memory", func(*testing.T) Store { return NewMemory() }},
		{"etcd", func(t *testing.T) Store { return openEtcd(t) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := tc.store(t)
			ls := s.(Leaser)
			grant := func(owner string) Lease {
				l, err := ls.Grant(ctx, owner, DefaultLeaseTTL)
				require.NoError(t, err)
				t.Cleanup(func() { _ = l.Revoke(context.Background()) })
				return l
			}
			l1 := grant("p1")
			var a string
			update(t, s, func(tx Tx) error {
				var err error
				if a, err = tx.Outbox().Add("g", "effect"); err != nil {
					return err
				}
				return tx.Outbox().Claim(a, "p1", l1.ID())
			})
			get := func() *Pending {
				var p *Pending
				view(t, s, func(tx Tx) {
					var err error
					p, err = tx.Outbox().Get(a)
					require.NoError(t, err, "an ended lease never deletes the effect")
				})
				return p
			}
			require.Equal(t, "p1", get().Owner)

			// p1 dies: its lease ends (etcd deletes the lease's keys).
			if ml, ok := l1.(*MemoryLease); ok {
				ml.Expire()
			} else {
				require.NoError(t, l1.Revoke(ctx))
			}
			<-l1.Done()
			p := get()
			require.Empty(t, p.Owner, "the claim ended with its lease")
			require.Equal(t, 1, p.Claims, "the effect keeps its count")

			cases := []struct {
				name   string
				owner  string
				lease  func() int64
				err    error
				claims int
			}{
				{"reused under the ended lease", "p1", l1.ID, ErrLeaseLost, 1},
				{"under an unknown lease", "p2", func() int64 { return l1.ID() + 1<<40 }, ErrLeaseLost, 1},
				{"taken over under a live lease", "p2", grant("p2").ID, nil, 2},
				{"its old owner back under a new lease", "p1", grant("p1").ID, ErrClaimed, 2},
			}
			for _, c := range cases {
				err := s.Update(ctx, func(tx Tx) error { return tx.Outbox().Claim(a, c.owner, c.lease()) })
				if c.err != nil {
					require.ErrorIs(t, err, c.err, c.name)
				} else {
					require.NoError(t, err, c.name)
					require.Equal(t, c.owner, get().Owner, c.name)
				}
				require.Equal(t, c.claims, get().Claims, c.name)
			}
		})
	}
}

// A claimed head holds its stream back: the stream's next effect is not
// offered to another owner either.
func TestOutboxClaimHoldsItsStream(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		l1, l2 := leaseFor(t, s, "p1"), leaseFor(t, s, "p2")
		var first string
		update(t, s, func(tx Tx) error {
			var err error
			if first, err = tx.Outbox().Add("g", "one"); err != nil {
				return err
			}
			if _, err := tx.Outbox().Add("g", "two"); err != nil {
				return err
			}
			return tx.Outbox().Claim(first, "p1", l1)
		})
		view(t, s, func(tx Tx) {
			ps, err := tx.Outbox().HeadsFor("p2", t0, 10)
			require.NoError(t, err)
			require.Empty(t, ps)
		})
		// A claim in a failed transaction is not kept.
		update(t, s, func(tx Tx) error { _, err := tx.Outbox().Release("p1"); return err })
		err := s.Update(ctx, func(tx Tx) error {
			if err := tx.Outbox().Claim(first, "p2", l2); err != nil {
				return err
			}
			return errors.New("rolled back")
		})
		require.Error(t, err)
		view(t, s, func(tx Tx) {
			p, err := tx.Outbox().Get(first)
			require.NoError(t, err)
			require.Empty(t, p.Owner)
			require.Equal(t, 1, p.Claims)
		})
	})
}

// A stopping process releases its claims: other owners may take its
// effects at once; other owners' claims stay.
func TestOutboxRelease(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		l1, l2, l3 := leaseFor(t, s, "p1"), leaseFor(t, s, "p2"), leaseFor(t, s, "p3")
		var mine1, mine2, theirs string
		update(t, s, func(tx Tx) error {
			var err error
			if mine1, err = tx.Outbox().Add("g", "one"); err != nil {
				return err
			}
			if mine2, err = tx.Outbox().Add("g", "two"); err != nil {
				return err
			}
			if theirs, err = tx.Outbox().Add("h", "three"); err != nil {
				return err
			}
			for _, id := range []string{mine1, mine2} {
				if err := tx.Outbox().Claim(id, "p1", l1); err != nil {
					return err
				}
			}
			return tx.Outbox().Claim(theirs, "p2", l2)
		})
		var n int
		update(t, s, func(tx Tx) error {
			var err error
			n, err = tx.Outbox().Release("p1")
			return err
		})
		require.Equal(t, 2, n)
		view(t, s, func(tx Tx) {
			ps, err := tx.Outbox().HeadsFor("p3", t0.Add(time.Second), 10)
			require.NoError(t, err)
			require.Len(t, ps, 1)
			require.Equal(t, mine1, ps[0].ID)
			p, err := tx.Outbox().Get(mine2)
			require.NoError(t, err)
			require.Empty(t, p.Owner)
			require.Equal(t, 1, p.Claims)
		})
		// A new owner's claim counts as a second one.
		update(t, s, func(tx Tx) error { return tx.Outbox().Claim(mine1, "p3", l3) })
		view(t, s, func(tx Tx) {
			p, err := tx.Outbox().Get(mine1)
			require.NoError(t, err)
			require.Equal(t, 2, p.Claims)
		})
		// AnyOwner ends every owner's claims (p2's and p3's here).
		update(t, s, func(tx Tx) error {
			var err error
			n, err = tx.Outbox().Release(AnyOwner)
			return err
		})
		require.Equal(t, 2, n)
		view(t, s, func(tx Tx) {
			ps, err := tx.Outbox().HeadsFor("p4", t0.Add(2*time.Second), 10)
			require.NoError(t, err)
			require.Len(t, ps, 2, "both streams' heads are free")
		})
	})
}

// TestUpdateRerunBehaves: Update's function may run more than once (the
// etcd backend re-runs it after a conflict). Concurrent Updates that all
// change one record, each also saving a game of its own that the caller
// holds and queueing an effect, lose no update; each caller's game has the
// version of its one commit, and the outbox IDs the functions captured are
// those stored.
func TestUpdateRerunBehaves(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		const n = 6
		games := make([]*Game, n)
		captured := make([]string, n)
		errs := make(chan error, n)
		for i := range n {
			games[i] = &Game{ID: fmt.Sprintf("g%d", i), Kind: "survival", Players: []string{"a"}, Active: true}
			go func() {
				errs <- s.Update(ctx, func(tx Tx) error {
					var c struct{ N int }
					if err := tx.Records().Get("k", "guild", "counter", &c); err != nil && !errors.Is(err, ErrNotFound) {
						return err
					}
					c.N++
					if err := tx.Records().Put("k", "guild", "counter", c); err != nil {
						return err
					}
					if err := tx.Games().Put(games[i], t0); err != nil {
						return err
					}
					id, err := tx.Outbox().Add(games[i].ID, i)
					captured[i] = id
					return err
				})
			}()
		}
		for range n {
			require.NoError(t, <-errs)
		}
		view(t, s, func(tx Tx) {
			var c struct{ N int }
			require.NoError(t, tx.Records().Get("k", "guild", "counter", &c))
			require.Equal(t, n, c.N, "no update lost")
			heads, err := tx.Outbox().Heads(t0, 100)
			require.NoError(t, err)
			var stored []string
			for _, p := range heads {
				stored = append(stored, p.ID)
			}
			require.ElementsMatch(t, captured, stored)
			for _, g := range games {
				got, err := tx.Games().Get(g.ID)
				require.NoError(t, err)
				require.Equal(t, int64(1), got.Version)
				require.Equal(t, int64(1), g.Version, "the caller's game is the committed one")
			}
		})
	})
}

// TestScanSeesOwnWrites: a scan inside an Update meets the transaction's
// own puts and deletes merged with the stored keys, in key order, across
// the backends' pages.
func TestScanSeesOwnWrites(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		want := map[string]bool{}
		for b := range 5 {
			update(t, s, func(tx Tx) error {
				for i := range 90 {
					k := fmt.Sprintf("k%04d", (b*90+i)*2)
					want[k] = true
					if err := tx.Playground().Put(k, []byte(k)); err != nil {
						return err
					}
				}
				return nil
			})
		}
		update(t, s, func(tx Tx) error {
			for i := 0; i < 900; i += 9 {
				k := fmt.Sprintf("k%04d", i)
				if i%4 == 0 {
					delete(want, k)
					require.NoError(t, tx.Playground().Delete(k))
				} else {
					want[k] = true
					require.NoError(t, tx.Playground().Put(k, []byte(k)))
				}
			}
			require.NoError(t, tx.Playground().Put("k0000", []byte("k0000")))
			want["k0000"] = true
			var got []string
			require.NoError(t, tx.Playground().Each("k", func(k string, v []byte) error {
				require.Equal(t, k, string(v))
				got = append(got, k)
				return nil
			}))
			var exp []string
			for k := range want {
				exp = append(exp, k)
			}
			sort.Strings(exp)
			require.Equal(t, exp, got)
			return nil
		})
	})
}

// TestRatings: a rating per kind, guild and user; Each lists one kind in
// one guild only, by user ID; bad keys are refused; a failed transaction
// writes no rating.
func TestRatings(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		update(t, s, func(tx Tx) error {
			_, err := tx.Ratings().Get("survival", "g1", "alice")
			require.ErrorIs(t, err, ErrNotFound)
			require.NoError(t, tx.Ratings().Put("survival", "g1", "bob", &PlayerRating{Rating: 1400, Deviation: 80, Games: 3, Losses: 3, Streak: -3}))
			require.NoError(t, tx.Ratings().Put("survival", "g1", "alice", &PlayerRating{Rating: 1600, Deviation: 90, Volatility: 0.06, Last: t0, Games: 3, Wins: 3, Streak: 3, BestStreak: 3, LastGame: "x"}))
			require.NoError(t, tx.Ratings().Put("survival", "g2", "carol", &PlayerRating{Rating: 2000}))
			require.NoError(t, tx.Ratings().Put("sandtable", "g1", "dave", &PlayerRating{Rating: 1700}))
			require.Error(t, tx.Ratings().Put("survival", "g/1", "alice", &PlayerRating{}))
			require.Error(t, tx.Ratings().Put("survival", "g1", "", &PlayerRating{}))
			return nil
		})
		require.Error(t, s.Update(ctx, func(tx Tx) error {
			require.NoError(t, tx.Ratings().Put("survival", "g1", "erin", &PlayerRating{Rating: 1}))
			return errors.New("abandoned")
		}))
		view(t, s, func(tx Tx) {
			got, err := tx.Ratings().Get("survival", "g1", "alice")
			require.NoError(t, err)
			require.Equal(t, 1600.0, got.Rating)
			require.Equal(t, 3, got.Wins)
			require.Equal(t, "x", got.LastGame)
			require.True(t, got.Last.Equal(t0))
			var seen []string
			require.NoError(t, tx.Ratings().Each("survival", "g1", func(u string, r *PlayerRating) error {
				seen = append(seen, fmt.Sprintf("%s=%.0f", u, r.Rating))
				return nil
			}))
			require.Equal(t, []string{"alice=1600", "bob=1400"}, seen, "one guild and kind, by user")
			_, err = tx.Ratings().Get("survival", "g1", "erin")
			require.ErrorIs(t, err, ErrNotFound, "the failed transaction wrote nothing")
			require.Error(t, tx.Ratings().Put("survival", "g1", "zed", &PlayerRating{}), "read-only")
		})
	})
}

// TestNotify: one notification choice per user and guild, and one for every
// server (guild ""); Each lists one user's, by guild; bad keys and choices
// are refused; Delete forgets; a failed transaction writes nothing.
func TestNotify(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		update(t, s, func(tx Tx) error {
			_, err := tx.Notify().Get("g1", "alice")
			require.ErrorIs(t, err, ErrNotFound)
			require.NoError(t, tx.Notify().Put("g1", "alice", NotifyDM))
			require.NoError(t, tx.Notify().Put("g2", "alice", NotifyOff))
			require.NoError(t, tx.Notify().Put("", "alice", NotifyThread))
			require.NoError(t, tx.Notify().Put("g1", "bob", NotifyOff))
			require.NoError(t, tx.Notify().Put("g3", "alice", NotifyDM))
			require.NoError(t, tx.Notify().Delete("g3", "alice"))
			require.NoError(t, tx.Notify().Delete("g4", "alice"), "forgetting no choice is no error")
			require.Error(t, tx.Notify().Put("g1", "alice", "loud"))
			require.Error(t, tx.Notify().Put("g/1", "alice", NotifyDM))
			require.Error(t, tx.Notify().Put("g1", "", NotifyDM))
			return nil
		})
		require.Error(t, s.Update(ctx, func(tx Tx) error {
			require.NoError(t, tx.Notify().Put("g1", "erin", NotifyDM))
			return errors.New("abandoned")
		}))
		view(t, s, func(tx Tx) {
			got, err := tx.Notify().Get("g1", "alice")
			require.NoError(t, err)
			require.Equal(t, NotifyDM, got)
			got, err = tx.Notify().Get("", "alice")
			require.NoError(t, err)
			require.Equal(t, NotifyThread, got)
			var seen []string
			require.NoError(t, tx.Notify().Each("alice", func(g, w string) error {
				seen = append(seen, g+"="+w)
				return nil
			}))
			require.Equal(t, []string{"=thread", "g1=dm", "g2=off"}, seen, "one user's, by guild")
			_, err = tx.Notify().Get("g1", "erin")
			require.ErrorIs(t, err, ErrNotFound, "the failed transaction wrote nothing")
			require.Error(t, tx.Notify().Put("g1", "zed", NotifyDM), "read-only")
		})
	})
}

// TestAnalyses: one analysis per game, as the caller's JSON; a missing one
// is ErrNotFound; Put replaces; bad keys are refused; a failed
// transaction writes none; a read-only one refuses to write.
func TestAnalyses(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		type doc struct {
			Version int       `json:"v"`
			Evals   []float64 `json:"evals"`
		}
		update(t, s, func(tx Tx) error {
			_, err := tx.Analyses().Get("g1")
			require.ErrorIs(t, err, ErrNotFound)
			require.NoError(t, tx.Analyses().Put("g1", doc{Version: 1, Evals: []float64{0.5, -1.25}}))
			require.NoError(t, tx.Analyses().Put("g2", doc{Version: 1}))
			require.NoError(t, tx.Analyses().Put("g2", doc{Version: 2}), "replaced")
			require.Error(t, tx.Analyses().Put("", doc{}))
			require.Error(t, tx.Analyses().Put("a/b", doc{}))
			_, err = tx.Analyses().Get("a/b")
			require.Error(t, err)
			return nil
		})
		require.Error(t, s.Update(ctx, func(tx Tx) error {
			require.NoError(t, tx.Analyses().Put("g3", doc{Version: 1}))
			return errors.New("abandoned")
		}))
		view(t, s, func(tx Tx) {
			raw, err := tx.Analyses().Get("g1")
			require.NoError(t, err)
			var d doc
			require.NoError(t, json.Unmarshal(raw, &d))
			require.Equal(t, doc{Version: 1, Evals: []float64{0.5, -1.25}}, d)
			raw, err = tx.Analyses().Get("g2")
			require.NoError(t, err)
			require.JSONEq(t, `{"v":2,"evals":null}`, string(raw))
			_, err = tx.Analyses().Get("g3")
			require.ErrorIs(t, err, ErrNotFound, "the failed transaction wrote nothing")
			require.Error(t, tx.Analyses().Put("g4", doc{}), "read-only")
		})
	})
}

// TestAnalysisClaims: one owner at a time claims a game's analysis; the
// other is told who holds it and writes nothing; Release by another owner
// changes nothing, by the holder ends the claim; on a store with leases a
// claim ends with its lease.
func TestAnalysisClaims(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		l1, l2 := leaseFor(t, s, "p1"), leaseFor(t, s, "p2")
		claim := func(owner string, lease int64) string {
			t.Helper()
			var other string
			update(t, s, func(tx Tx) error {
				var err error
				other, err = tx.Analyses().Claim("game1", owner, lease)
				return err
			})
			return other
		}
		require.Empty(t, claim("p1", l1))
		require.Empty(t, claim("p1", l1), "held already")
		require.Equal(t, "p1", claim("p2", l2))
		update(t, s, func(tx Tx) error { return tx.Analyses().Release("game1", "p2") })
		require.Equal(t, "p1", claim("p2", l2), "only the holder releases")
		update(t, s, func(tx Tx) error {
			_, err := tx.Analyses().Get("game1")
			require.ErrorIs(t, err, ErrNotFound, "a claim is no analysis")
			return tx.Analyses().Release("game1", "p1")
		})
		require.Empty(t, claim("p2", l2), "released: p2 claims")
		update(t, s, func(tx Tx) error {
			require.NoError(t, tx.Analyses().Release("game1", "p2"))
			_, err := tx.Analyses().Claim("", "p1", l1)
			require.Error(t, err)
			_, err = tx.Analyses().Claim("game1", "", l1)
			require.Error(t, err)
			return nil
		})
		ls, ok := s.(Leaser)
		if !ok {
			return
		}
		l3, err := ls.Grant(ctx, "p3", DefaultLeaseTTL)
		require.NoError(t, err)
		require.Empty(t, claim("p3", l3.ID()))
		require.Equal(t, "p3", claim("p1", l1))
		require.NoError(t, l3.Revoke(ctx))
		require.Eventually(t, func() bool { return claim("p1", l1) == "" }, testkit.Wait, 10*time.Millisecond,
			"the claim ended with its lease")
	})
}
