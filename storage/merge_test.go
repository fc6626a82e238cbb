package storage

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// shardFile writes a bbolt file as one shard's bot would have: a running
// game with a deadline and a pending effect, a finished game, a challenge
// expiring, a record, log entries, the finished game's analysis, a dedupe
// mark, a heartbeat and a clock offset.
func shardFile(t *testing.T, name string, offset time.Duration, beat time.Time) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".db")
	s, err := Open(path, time.Second)
	require.NoError(t, err)
	defer s.Close()
	update(t, s, func(tx Tx) error {
		run := &Game{ID: name + "-run", Kind: "survival", ThreadID: "th-" + name, Players: []string{"alice", name}, Active: true,
			Deadline: t0.Add(time.Hour), Remind: t0.Add(45 * time.Minute)}
		require.NoError(t, tx.Games().Put(run, t0))
		fin := &Game{ID: name + "-fin", Kind: "survival", Players: []string{"alice"}, Active: true}
		require.NoError(t, tx.Games().Put(fin, t0))
		fin.Active = false
		require.NoError(t, tx.Games().Put(fin, t0.Add(time.Minute)))
		require.NoError(t, tx.Challenges().Put("ch-"+name, t0.Add(2*time.Hour), map[string]string{"by": name}))
		require.NoError(t, tx.Records().Put("teamchess", "guild-"+name, "alice", map[string]int{"wins": 1}))
		require.NoError(t, tx.Records().Put("teamchess", "shared", "bob", map[string]int{"wins": 7}))
		require.NoError(t, tx.Logs().Put(run.ID, 1, "turn 1"))
		require.NoError(t, tx.Analyses().Put(fin.ID, map[string]string{"of": name}))
		_, err := tx.Dedupe().Mark("i-"+name, t0)
		require.NoError(t, err)
		id, err := tx.Outbox().Add(run.ID, map[string]string{"op": "post"})
		require.NoError(t, err)
		require.NoError(t, tx.Outbox().Retry(id, 1, t0.Add(30*time.Minute)))
		return tx.Meta().SetHeartbeat(beat)
	})
	// Downtime credited afterwards moves every deadline, expiry and due time.
	update(t, s, func(tx Tx) error { return tx.Meta().SetClockOffset(offset) })
	return path
}

func openBolt(t *testing.T, path string) *Bolt {
	t.Helper()
	s, err := Open(path, time.Second)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// TestMergeShardsIntoEtcd: two shards' files merged into etcd read back
// whole: every game, index, invitation, record, log, mark and effect, the
// wall times of deadlines, expiries and retries kept though the files
// credited different downtime, the latest heartbeat, and outbox IDs that
// keep growing. Then etcd back into a new bbolt file holds the same.
func TestMergeShardsIntoEtcd(t *testing.T) {
	a := shardFile(t, "a", 0, t0)
	b := shardFile(t, "b", 10*time.Minute, t0.Add(time.Hour))
	dst := openEtcd(t)
	srcA := openBolt(t, a)
	// A's run died with an effect claimed: the claim does not come along
	// (the destination's processes take the effect, reconciled).
	update(t, srcA, func(tx Tx) error {
		hs, err := tx.Outbox().Heads(t0.Add(time.Hour), 1)
		if err != nil || len(hs) == 0 {
			return fmt.Errorf("no head to claim: %v", err)
		}
		return tx.Outbox().Claim(hs[0].ID, "dead-run", 0)
	})
	rep, err := Merge(ctx, dst, []Source{{a, srcA}, {b, openBolt(t, b)}})
	require.NoError(t, err)
	view(t, dst, func(tx Tx) {
		hs, err := tx.Outbox().HeadsFor("p", t0.Add(time.Hour), 10)
		require.NoError(t, err)
		all, err := tx.Outbox().Heads(t0.Add(time.Hour), 10)
		require.NoError(t, err)
		require.Len(t, hs, len(all), "no claim came along")
		claims := 0
		for _, h := range all {
			claims += h.Claims
		}
		require.Equal(t, 1, claims, "the envelope still counts the dead run's claim")
	})
	require.Equal(t, 10*time.Minute, rep.ClockOffset)
	require.True(t, rep.Heartbeat.Equal(t0.Add(time.Hour)))
	require.Equal(t, 4, rep.Written[bGames])
	require.Equal(t, 3, rep.Written[bRecords], "the shared identical record once")

	check := func(s Store) {
		t.Helper()
		requireDueIndexSound(t, s)
		view(t, s, func(tx Tx) {
			for _, n := range []string{"a", "b"} {
				g, err := tx.Games().ByChannel("th-" + n)
				require.NoError(t, err)
				want := t0.Add(time.Hour)
				if n == "b" {
					want = want.Add(10 * time.Minute) // b credited 10 minutes
				}
				require.True(t, g.Deadline.Equal(want), "%s: deadline %s, want %s", n, g.Deadline, want)
				require.True(t, g.Remind.Equal(want.Add(-15*time.Minute)), "%s: the reminder keeps its wall time: %s", n, g.Remind)
				var ch map[string]string
				exp, err := tx.Challenges().Get("ch-"+n, &ch)
				require.NoError(t, err)
				require.Equal(t, n, ch["by"])
				require.True(t, exp.Sub(want) == time.Hour, "%s: expiry keeps its wall time", n)
				var r map[string]int
				require.NoError(t, tx.Records().Get("teamchess", "guild-"+n, "alice", &r))
				seqs := 0
				require.NoError(t, tx.Logs().Each(g.ID, func(int, []byte) error { seqs++; return nil }))
				require.Equal(t, 1, seqs)
				an, err := tx.Analyses().Get(n + "-fin")
				require.NoError(t, err)
				require.JSONEq(t, `{"of":"`+n+`"}`, string(an), "the finished game's analysis")
			}
			act, err := tx.Games().Active("alice")
			require.NoError(t, err)
			require.Len(t, act, 2)
			fin, err := tx.Games().Finished("alice", time.Time{}, 10)
			require.NoError(t, err)
			require.Len(t, fin, 2)
			due, err := tx.Games().Due(t0.Add(50 * time.Minute))
			require.NoError(t, err)
			require.Equal(t, []string{"a-run"}, due, "b's reminder is 10 minutes later in wall time")
			due, err = tx.Games().Due(t0.Add(time.Hour + 9*time.Minute))
			require.NoError(t, err)
			require.Equal(t, []string{"a-run", "b-run"}, due, "a's deadline and b's reminder, each once")
			heads, err := tx.Outbox().Heads(t0.Add(40*time.Minute), 10)
			require.NoError(t, err)
			require.Len(t, heads, 2)
			exp, err := tx.Challenges().Expired(t0.Add(2 * time.Hour))
			require.NoError(t, err)
			require.ElementsMatch(t, []string{"ch-a"}, exp)
			hb, err := tx.Meta().Heartbeat()
			require.NoError(t, err)
			require.True(t, hb.Equal(t0.Add(time.Hour)))
		})
		update(t, s, func(tx Tx) error {
			seen, err := tx.Dedupe().Mark("i-b", t0)
			require.True(t, seen, "the marks came along")
			return err
		})
	}
	check(dst)
	var old string
	view(t, dst, func(tx Tx) {
		heads, err := tx.Outbox().Heads(t0.Add(time.Hour), 10)
		require.NoError(t, err)
		old = heads[0].ID
	})
	var next string
	update(t, dst, func(tx Tx) error {
		var err error
		next, err = tx.Outbox().Add(old[:len(old)-21], 1)
		return err
	})
	require.Greater(t, next, old, "outbox IDs keep growing in a stream")

	// And back into a new bbolt file.
	back := openBolt(t, filepath.Join(t.TempDir(), "back.db"))
	_, err = Merge(ctx, back, []Source{{"etcd", dst}})
	require.NoError(t, err)
	check(back)
	d1, err := dump(ctx, dst)
	require.NoError(t, err)
	d2, err := dump(ctx, back)
	require.NoError(t, err)
	require.Equal(t, d1, d2, "the same keys and values")
}

// TestMergeRefusesConflicts: two files holding one game ID (or one
// player's record) with different contents are refused, listing each key
// and where it is, and nothing is written; a destination holding bot data
// is refused too.
func TestMergeRefusesConflicts(t *testing.T) {
	a := shardFile(t, "a", 0, t0)
	b := shardFile(t, "b", 0, t0)
	sb := openBolt(t, b)
	update(t, sb, func(tx Tx) error {
		require.NoError(t, tx.Records().Put("teamchess", "shared", "bob", map[string]int{"wins": 8}))
		return tx.Games().Put(&Game{ID: "a-run", Kind: "sandtable", Active: true}, t0)
	})
	sa := openBolt(t, a)
	dst := openEtcd(t)
	rep, err := Merge(ctx, dst, []Source{{a, sa}, {b, sb}})
	require.ErrorIs(t, err, ErrMergeConflict)
	var keys []string
	for _, c := range rep.Conflicts {
		keys = append(keys, c.Bucket+" "+c.Key)
		require.Equal(t, []string{a, b}, c.Sources)
	}
	require.Contains(t, keys, "games a-run")
	require.Contains(t, keys, "records teamchess/shared/bob")
	d, err := dump(ctx, dst)
	require.NoError(t, err)
	require.Equal(t, map[string]map[string][]byte{bMeta: {"schema": []byte(fmt.Sprint(SchemaVersion))}}, d, "nothing written")

	// A destination that is not empty.
	_, err = Merge(ctx, sa, []Source{{b, sb}})
	require.ErrorIs(t, err, ErrNotEmpty)
}
