package storage

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	tc "sandtable/games/teamchess"
)

// randomRecords writes n Team Chess records in guild g, with ties of
// every part of rule 6.1's order (team wins, ratio, losses, names that
// differ in case only or are prefixes of one another).
func randomRecords(t *testing.T, s Store, rng *rand.Rand, g string, n int) {
	t.Helper()
	names := []string{"Ann", "ann", "anna", "Bob", "bob b", "Zed", "émile", ""}
	for start := 0; start < n; start += 50 {
		update(t, s, func(tx Tx) error {
			for i := start; i < min(n, start+50); i++ {
				id := fmt.Sprintf("u%03d", i)
				ps := tc.PlayerStats{ID: id, Name: names[rng.IntN(len(names))], TeamWins: rng.IntN(4), PersonalWins: rng.IntN(7), PersonalLosses: rng.IntN(4)}
				ps.Games = ps.TeamWins + rng.IntN(3)
				if err := tx.Records().Put("teamchess", g, id, &ps); err != nil {
					return err
				}
			}
			return nil
		})
	}
}

// ruleOrder is rule 6.1's ranking as games/teamchess.Rank gives it over
// every record (the order before the index), by user ID.
func ruleOrder(t *testing.T, tx Tx, g string) []string {
	t.Helper()
	var all []tc.PlayerStats
	require.NoError(t, tx.Records().Each("teamchess", g, func(_ string, raw []byte) error {
		var ps tc.PlayerStats
		require.NoError(t, json.Unmarshal(raw, &ps))
		all = append(all, ps)
		return nil
	}))
	out := []string{}
	for _, ps := range tc.Rank(all) {
		out = append(out, ps.ID)
	}
	return out
}

// indexOrder is the ranking Records.Ranked gives, checking each record's
// own place and bytes.
func indexOrder(t *testing.T, tx Tx, g string) []string {
	t.Helper()
	st, err := tx.Records().Ranked("teamchess", g, 1<<20, "")
	require.NoError(t, err)
	require.Len(t, st.Top, st.Total)
	out := []string{}
	for i, r := range st.Top {
		require.Equal(t, i+1, r.Rank)
		out = append(out, r.User)
		me, err := tx.Records().Ranked("teamchess", g, 0, r.User)
		require.NoError(t, err)
		require.Equal(t, r.Rank, me.User.Rank, r.User)
		require.JSONEq(t, string(r.Raw), string(me.User.Raw))
		require.Equal(t, st.Total, me.Total)
	}
	return out
}

// TestRecordsRanked: Team Chess records are ranked by rule 6.1 as
// games/teamchess.Rank ranks them (ties of every part included), from the
// index; a record written again moves; a failed transaction leaves the
// index as it was; one guild only; a kind not ranked is refused.
func TestRecordsRanked(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		randomRecords(t, s, rand.New(rand.NewPCG(6, 1)), "g1", 120)
		randomRecords(t, s, rand.New(rand.NewPCG(6, 2)), "g2", 5)
		view(t, s, func(tx Tx) { require.Equal(t, ruleOrder(t, tx, "g1"), indexOrder(t, tx, "g1")) })
		update(t, s, func(tx Tx) error {
			return tx.Records().Put("teamchess", "g1", "u050", &tc.PlayerStats{ID: "u050", Name: "top", TeamWins: 99})
		})
		require.Error(t, s.Update(ctx, func(tx Tx) error {
			require.NoError(t, tx.Records().Put("teamchess", "g1", "u051", &tc.PlayerStats{ID: "u051", TeamWins: 100}))
			return fmt.Errorf("abandoned")
		}))
		view(t, s, func(tx Tx) {
			want := ruleOrder(t, tx, "g1")
			require.Equal(t, "u050", want[0])
			require.Equal(t, want, indexOrder(t, tx, "g1"))
			st, err := tx.Records().Ranked("teamchess", "g1", 3, "u050")
			require.NoError(t, err)
			require.Equal(t, 120, st.Total)
			require.Len(t, st.Top, 3)
			require.Equal(t, 1, st.User.Rank)
			st, err = tx.Records().Ranked("teamchess", "g2", 15, "u050")
			require.NoError(t, err)
			require.Equal(t, 5, st.Total)
			require.Equal(t, ruleOrder(t, tx, "g2"), indexOrder(t, tx, "g2"))
			_, err = tx.Records().Ranked("survival", "g1", 15, "")
			require.Error(t, err)
		})
	})
}

// TestRecordIndexMigration: a schema-9 file holding Team Chess records but
// no index (as every database before schema 10) opens with them ranked as
// before.
func TestRecordIndexMigration(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "v9.db")
	s, err := Open(path, time.Second)
	require.NoError(t, err)
	randomRecords(t, s, rand.New(rand.NewPCG(6, 3)), "g1", 90)
	var before []string
	view(t, s, func(tx Tx) { before = ruleOrder(t, tx, "g1") })
	require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte(bRecordRank)); err != nil {
			return err
		}
		if err := tx.Bucket([]byte(bRecords)).Put([]byte("teamchess/g1/broken"), []byte("{not json")); err != nil {
			return err
		}
		return tx.Bucket([]byte(bMeta)).Put([]byte("schema"), []byte("9"))
	}))
	require.NoError(t, s.Close())
	s = openBolt(t, path)
	view(t, s, func(tx Tx) {
		st, err := tx.Records().Ranked("teamchess", "g1", 1<<20, "")
		require.NoError(t, err)
		require.Equal(t, 90, st.Total, "the record that does not decode is left out")
		var got []string
		for _, r := range st.Top {
			got = append(got, r.User)
		}
		require.Equal(t, before, got)
	})
	update(t, s, func(tx Tx) error {
		return tx.Records().Put("teamchess", "g1", "broken", &tc.PlayerStats{ID: "broken", TeamWins: 50})
	})
	view(t, s, func(tx Tx) {
		st, err := tx.Records().Ranked("teamchess", "g1", 1, "broken")
		require.NoError(t, err)
		require.Equal(t, 91, st.Total)
		require.Equal(t, 1, st.User.Rank)
	})
}
