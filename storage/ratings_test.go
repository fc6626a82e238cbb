package storage

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
	clientv3 "go.etcd.io/etcd/client/v3"

	"sandtable/internal/glicko2"
)

// oldRanking is the ranking as /leaderboard computed it before the index
// (commands/rating Ranked then Order, every rating decoded): by rating,
// then lower deviation, then user ID; then the established ones (the
// deviation grown to now at most glicko2.ProvisionalDeviation) first,
// stably. It returns "user" or "user?" (provisional) per place.
func oldRanking(t *testing.T, tx Tx, kind, guild string, now time.Time) []string {
	t.Helper()
	type e struct {
		u string
		r PlayerRating
	}
	var all []e
	require.NoError(t, tx.Ratings().Each(kind, guild, func(u string, r *PlayerRating) error {
		all = append(all, e{u, *r})
		return nil
	}))
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.r.Rating != b.r.Rating {
			return a.r.Rating > b.r.Rating
		}
		if a.r.Deviation != b.r.Deviation {
			return a.r.Deviation < b.r.Deviation
		}
		return a.u < b.u
	})
	prov := func(x e) bool { return glicko2.Decay(x.r.Glicko(), now).Provisional() }
	sort.SliceStable(all, func(i, j int) bool { return !prov(all[i]) && prov(all[j]) })
	out := []string{}
	for _, x := range all {
		s := x.u
		if prov(x) {
			s += "?"
		}
		out = append(out, s)
	}
	return out
}

// indexRanking is the whole ranking at now as Standings gives it, in the
// form of oldRanking, and checks each player's own Standing against it.
func indexRanking(t *testing.T, tx Tx, kind, guild string, now time.Time) []string {
	t.Helper()
	st, err := tx.Ratings().Standings(kind, guild, now, 1<<20, "")
	require.NoError(t, err)
	require.Len(t, st.Top, st.Total)
	out := []string{}
	for i, p := range st.Top {
		require.Equal(t, i+1, p.Rank)
		s := p.User
		if p.Provisional {
			s += "?"
		}
		out = append(out, s)
		me, err := tx.Ratings().Standings(kind, guild, now, 0, p.User)
		require.NoError(t, err)
		require.NotNil(t, me.User)
		require.Equal(t, p.Rank, me.User.Rank, "%s's rank", p.User)
		require.Equal(t, p.Provisional, me.User.Provisional, p.User)
		require.Equal(t, p.Rating, me.User.Rating)
		require.Equal(t, st.Total, me.Total)
		require.Empty(t, me.Top)
	}
	return out
}

// randomRatings writes n ratings of "survival" in guild g: established,
// provisional, turning provisional within the days after t0, ties.
func randomRatings(t *testing.T, s Store, rng *rand.Rand, g string, n int) {
	t.Helper()
	for start := 0; start < n; start += 50 {
		update(t, s, func(tx Tx) error {
			for i := start; i < min(n, start+50); i++ {
				r := &PlayerRating{Rating: float64(1300 + 20*rng.IntN(20)), Deviation: float64(45 + 5*rng.IntN(25)),
					Volatility: 0.06, Last: t0.Add(-time.Duration(rng.IntN(600*24)) * time.Hour), Games: 1 + rng.IntN(30)}
				switch rng.IntN(8) {
				case 0:
					r.Last = time.Time{} // never grows
				case 1:
					r = &PlayerRating{Rating: 1500} // no deviation: a new rating
				}
				if err := tx.Ratings().Put("survival", g, fmt.Sprintf("u%03d", i), r); err != nil {
					return err
				}
			}
			return nil
		})
	}
}

// TestRatingStandings: the index gives today's ranking at every instant
// (established first, those whose deviation has grown past the threshold
// since moving to the provisional group, to the nanosecond), the first
// players, each player's rank and the counts, one kind of one guild only;
// a rating written again moves its key (no stale one), a failed
// transaction leaves the index as it was.
func TestRatingStandings(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		rng := rand.New(rand.NewPCG(10, 26))
		randomRatings(t, s, rng, "g1", 60)
		update(t, s, func(tx Tx) error {
			require.NoError(t, tx.Ratings().Put("survival", "g2", "other", &PlayerRating{Rating: 3000, Deviation: 45, Volatility: 0.06, Last: t0}))
			return tx.Ratings().Put("sandtable", "g1", "other", &PlayerRating{Rating: 3000, Deviation: 45, Volatility: 0.06, Last: t0})
		})
		check := func(now time.Time) {
			view(t, s, func(tx Tx) {
				want := oldRanking(t, tx, "survival", "g1", now)
				require.Equal(t, want, indexRanking(t, tx, "survival", "g1", now), "at %s", now)
				st, err := tx.Ratings().Standings("survival", "g1", now, 15, "u007")
				require.NoError(t, err)
				require.Equal(t, 60, st.Total)
				require.Len(t, st.Top, 15)
				prov := 0
				for i, p := range st.Top {
					require.Equal(t, want[i], p.User+map[bool]string{true: "?"}[p.Provisional])
				}
				for _, w := range want {
					if w[len(w)-1] == '?' {
						prov++
					}
				}
				require.Equal(t, 60-prov, st.Established)
				require.Equal(t, slices.Index(want, "u007")+slices.Index(want, "u007?")+2, st.User.Rank)
			})
		}
		for _, d := range []time.Duration{0, 24 * time.Hour, 90 * 24 * time.Hour, 400 * 24 * time.Hour, 3000 * 24 * time.Hour} {
			check(t0.Add(d))
		}
		// A player established at t0 who turns provisional later: one
		// nanosecond before their instant, established; at it, not.
		var who string
		var from time.Time
		view(t, s, func(tx Tx) {
			require.NoError(t, tx.Ratings().Each("survival", "g1", func(u string, r *PlayerRating) error {
				if f, ever := glicko2.ProvisionalFrom(r.Glicko()); ever && f.After(t0) && who == "" {
					who, from = u, f
				}
				return nil
			}))
		})
		require.NotEmpty(t, who)
		for _, at := range []time.Time{from.Add(-1), from} {
			view(t, s, func(tx Tx) {
				st, err := tx.Ratings().Standings("survival", "g1", at, 0, who)
				require.NoError(t, err)
				require.Equal(t, at.Equal(from), st.User.Provisional, "%s at %s (turns at %s)", who, at, from)
			})
			check(at)
		}
		// Written again: the player moves to the top, the count stays.
		update(t, s, func(tx Tx) error {
			return tx.Ratings().Put("survival", "g1", "u010", &PlayerRating{Rating: 2900, Deviation: 50, Volatility: 0.06, Last: t0, Games: 40})
		})
		require.Error(t, s.Update(ctx, func(tx Tx) error {
			require.NoError(t, tx.Ratings().Put("survival", "g1", "u011", &PlayerRating{Rating: 2950, Deviation: 50, Volatility: 0.06, Last: t0}))
			require.NoError(t, tx.Ratings().Put("survival", "g1", "new", &PlayerRating{Rating: 2950, Deviation: 50, Volatility: 0.06, Last: t0}))
			return fmt.Errorf("abandoned")
		}))
		view(t, s, func(tx Tx) {
			st, err := tx.Ratings().Standings("survival", "g1", t0, 1, "u010")
			require.NoError(t, err)
			require.Equal(t, 60, st.Total)
			require.Equal(t, "u010", st.Top[0].User)
			require.Equal(t, 1, st.User.Rank)
			require.Equal(t, 40, st.Top[0].Rating.Games)
		})
		check(t0)
		// Another guild, another kind, a player never rated, an empty guild.
		view(t, s, func(tx Tx) {
			st, err := tx.Ratings().Standings("survival", "g2", t0, 15, "u001")
			require.NoError(t, err)
			require.Equal(t, 1, st.Total)
			require.Equal(t, "other", st.Top[0].User)
			require.Nil(t, st.User, "u001 is not rated in g2")
			st, err = tx.Ratings().Standings("survival", "g3", t0, 15, "u001")
			require.NoError(t, err)
			require.Zero(t, st.Total)
			require.Empty(t, st.Top)
			_, err = tx.Ratings().Standings("survival", "g/1", t0, 15, "")
			require.Error(t, err)
		})
	})
}

// TestRatingIndexMigration opens a schema-9 file holding ratings but no
// ranking index (as every database before schema 10): the migration
// builds it, and the ranking is the one the ratings gave before, at every
// instant; a rating that does not decode does not stop the file from
// opening (it is left out until written again).
func TestRatingIndexMigration(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "v9.db")
	s, err := Open(path, time.Second)
	require.NoError(t, err)
	randomRatings(t, s, rand.New(rand.NewPCG(9, 10)), "g1", 80)
	nows := []time.Time{t0, t0.Add(100 * 24 * time.Hour), t0.Add(1000 * 24 * time.Hour)}
	var before [][]string
	view(t, s, func(tx Tx) {
		for _, now := range nows {
			before = append(before, oldRanking(t, tx, "survival", "g1", now))
		}
	})
	require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte(bRatingRank)); err != nil {
			return err
		}
		if err := tx.Bucket([]byte(bRatings)).Put([]byte("survival/g1/broken"), []byte("{not json")); err != nil {
			return err
		}
		return tx.Bucket([]byte(bMeta)).Put([]byte("schema"), []byte("9"))
	}))
	require.NoError(t, s.Close())
	s, err = Open(path, time.Second)
	require.NoError(t, err)
	defer s.Close()
	v, err := s.SchemaVersion()
	require.NoError(t, err)
	require.Equal(t, SchemaVersion, v)
	view(t, s, func(tx Tx) {
		for i, now := range nows {
			require.Equal(t, before[i], indexRanking(t, tx, "survival", "g1", now), "the rating that does not decode is left out")
		}
	})
	// Written again, it is ranked.
	update(t, s, func(tx Tx) error {
		return tx.Ratings().Put("survival", "g1", "broken", &PlayerRating{Rating: 2990, Deviation: 50, Volatility: 0.06, Last: t0})
	})
	view(t, s, func(tx Tx) {
		st, err := tx.Ratings().Standings("survival", "g1", t0, 1, "broken")
		require.NoError(t, err)
		require.Equal(t, 81, st.Total)
		require.Equal(t, 1, st.User.Rank)
	})
}

// TestEtcdRatingIndexMigration migrates an etcd store of schema 9 with
// more ratings than one etcd transaction could index (128 operations at
// most): the index is built in batches, what an interrupted build left (a
// stale key) is cleared first, and the ranking is the one before.
func TestEtcdRatingIndexMigration(t *testing.T) {
	t.Parallel()
	s := openEtcd(t)
	randomRatings(t, s, rand.New(rand.NewPCG(9, 11)), "g1", 260)
	var before []string
	view(t, s, func(tx Tx) { before = oldRanking(t, tx, "survival", "g1", t0) })
	cli, err := clientv3.New(clientv3.Config{Endpoints: sharedEtcd().Endpoints()})
	require.NoError(t, err)
	defer cli.Close()
	_, err = cli.Delete(ctx, s.opts.Prefix+bRatingRank+"/", clientv3.WithPrefix())
	require.NoError(t, err)
	_, err = cli.Put(ctx, s.opts.Prefix+bRatingRank+"/survival/g1/00000000000000000000000000000000/gone", "~")
	require.NoError(t, err)
	_, err = cli.Put(ctx, s.opts.Prefix+bMeta+"/schema", "9")
	require.NoError(t, err)

	s2, err := OpenEtcd(ctx, s.opts)
	require.NoError(t, err)
	defer s2.Close()
	v, err := s2.SchemaVersion()
	require.NoError(t, err)
	require.Equal(t, SchemaVersion, v)
	view(t, s2, func(tx Tx) {
		st, err := tx.Ratings().Standings("survival", "g1", t0, 1<<20, "")
		require.NoError(t, err)
		require.Equal(t, 260, st.Total)
		var got []string
		for _, p := range st.Top {
			got = append(got, p.User+map[bool]string{true: "?"}[p.Provisional])
		}
		require.Equal(t, before, got)
	})
}

// TestMergeRebuildsRatingIndex: a store copied (sandtable migrate) ranks
// its players as the source did.
func TestMergeRebuildsRatingIndex(t *testing.T) {
	t.Parallel()
	src := openBolt(t, filepath.Join(t.TempDir(), "src.db"))
	randomRatings(t, src, rand.New(rand.NewPCG(9, 12)), "g1", 120)
	dst := openBolt(t, filepath.Join(t.TempDir(), "dst.db"))
	rep, err := Merge(ctx, dst, []Source{{Name: "src", Store: src}})
	require.NoError(t, err)
	require.Equal(t, 120, rep.Written[bRatingRank])
	now := t0.Add(200 * 24 * time.Hour)
	var want []string
	view(t, src, func(tx Tx) { want = oldRanking(t, tx, "survival", "g1", now) })
	view(t, dst, func(tx Tx) { require.Equal(t, want, indexRanking(t, tx, "survival", "g1", now)) })
}

// TestFixtureV6RankingIndex opens the database written by the main of
// 2026-12-06 (testdata/fixture-v6-outbox, schema 6, a rated Survival game
// won by carol over dave): the migration indexes its ratings, and each
// kind's ranking in each guild is the one its ratings gave before, now and
// once the deviations have grown.
func TestFixtureV6RankingIndex(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("testdata", "fixture-v6-outbox", "bot.db"))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "bot.db")
	require.NoError(t, os.WriteFile(path, raw, 0o600))
	s := openBolt(t, path)
	groups := map[[2]string]int{}
	view(t, s, func(tx Tx) {
		require.NoError(t, tx.(*txImpl).kv.scan(bRatings, "", "", func(k string, _ []byte) error {
			parts := strings.Split(k, "/")
			groups[[2]string{parts[0], parts[1]}]++
			return nil
		}))
	})
	require.NotEmpty(t, groups, "the fixture holds ratings")
	for g, n := range groups {
		for _, now := range []time.Time{t0, t0.Add(5 * 365 * 24 * time.Hour)} {
			view(t, s, func(tx Tx) {
				got := indexRanking(t, tx, g[0], g[1], now)
				require.Len(t, got, n)
				require.Equal(t, oldRanking(t, tx, g[0], g[1], now), got)
			})
		}
	}
}
