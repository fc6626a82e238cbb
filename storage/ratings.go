package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"time"

	"sandtable/internal/glicko2"
)

// The ratings and their ranking index (schema 10).
//
// A kind's ranking in a guild is: the established ratings first, then the
// provisional ones (their deviation, grown to now by glicko2.Decay, above
// glicko2.ProvisionalDeviation); in each group by rating, highest first,
// then by deviation, lowest first, then by user ID. Whether a rating is
// provisional depends on the time of the question, but the instant it
// turns provisional is fixed when it is written (glicko2.ProvisionalFrom).
// So bRatingRank holds one key per rating, in ranking order within each
// group, with that instant as its value: a ranking at now is read from the
// keys alone, and only the ratings shown are decoded. Ratings.Put writes
// the key in the transaction that writes the rating.

// Glicko is the rating as internal/glicko2 computes with it; a rating
// with no deviation (never rated) is glicko2.New().
func (p *PlayerRating) Glicko() glicko2.Rating {
	if p == nil || p.Deviation == 0 {
		return glicko2.New()
	}
	return glicko2.Rating{Rating: p.Rating, Deviation: p.Deviation, Volatility: p.Volatility, Last: p.Last}
}

// Standing is one player's place in a ranking.
type Standing struct {
	User string
	// Rank counts from 1.
	Rank int
	// Provisional is the rating's group at the time of the question.
	Provisional bool
	Rating      PlayerRating
}

// Standings is a kind's ranking in a guild at one instant (see
// Ratings.Standings).
type Standings struct {
	// Total is how many players are rated; Established how many of them
	// are not provisional.
	Total, Established int
	// Top are the first players of the ranking, best first.
	Top []Standing
	// User is the player asked about, nil when not rated (or not asked).
	User *Standing
}

// ratingRankKey is the ranking key of a rating: kind "/" guild "/" the
// rating descending and the deviation ascending (fixed-width hex of their
// order-preserving bits) "/" user.
func ratingRankKey(kind, guildID, userID string, pr *PlayerRating) string {
	return fmt.Sprintf("%s/%s/%016x%016x/%s", kind, guildID, ^sortableFloat(pr.Rating), sortableFloat(pr.Deviation), userID)
}

// rankKeyWidth is the width of ratingRankKey's middle part.
const rankKeyWidth = 32

// sortableFloat maps f to bits that sort as f does (-0 as 0).
func sortableFloat(f float64) uint64 {
	if f == 0 {
		f = 0
	}
	b := math.Float64bits(f)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// neverProvisional is the index value of a rating that never turns
// provisional: after every timeKey.
const neverProvisional = "~"

// provisionalFromValue is the index value of a rating: the timeKey of the
// instant it turns provisional.
func provisionalFromValue(pr *PlayerRating) string {
	from, ever := glicko2.ProvisionalFrom(pr.Glicko())
	if !ever || from.Year() > 9999 {
		return neverProvisional
	}
	return timeKey(from)
}

// ratings implements Ratings.
type ratings struct{ kv kv }

func (r ratings) Get(kind, guildID, userID string) (*PlayerRating, error) {
	k, err := recordKey(kind, guildID, userID)
	if err != nil {
		return nil, err
	}
	var pr PlayerRating
	if err := getJSON(r.kv, bRatings, k, "rating", &pr); err != nil {
		return nil, err
	}
	return &pr, nil
}

func (r ratings) Put(kind, guildID, userID string, pr *PlayerRating) error {
	k, err := recordKey(kind, guildID, userID)
	if err != nil {
		return err
	}
	// The old rating's key goes (a rating that does not decode has none:
	// buildIndex).
	if raw := r.kv.get(bRatings, k); raw != nil {
		var old PlayerRating
		if json.Unmarshal(raw, &old) == nil {
			if err := r.kv.del(bRatingRank, ratingRankKey(kind, guildID, userID, &old)); err != nil {
				return err
			}
		}
	}
	if err := indexRating(r.kv, kind, guildID, userID, pr); err != nil {
		return err
	}
	return putJSON(r.kv, bRatings, k, pr)
}

// indexRating writes a rating's ranking key.
func indexRating(k kv, kind, guildID, userID string, pr *PlayerRating) error {
	return k.put(bRatingRank, ratingRankKey(kind, guildID, userID, pr), []byte(provisionalFromValue(pr)))
}

func (r ratings) Each(kind, guildID string, fn func(userID string, pr *PlayerRating) error) error {
	if _, err := recordKey(kind, guildID, "x"); err != nil {
		return err
	}
	p := kind + "/" + guildID + "/"
	return scanPrefix(r.kv, bRatings, p, func(k string, v []byte) error {
		var pr PlayerRating
		if err := json.Unmarshal(v, &pr); err != nil {
			return fmt.Errorf("rating %s: corrupt record: %w", k, err)
		}
		return fn(k[len(p):], &pr)
	})
}

func (r ratings) Standings(kind, guildID string, now time.Time, top int, userID string) (*Standings, error) {
	if _, err := recordKey(kind, guildID, "x"); err != nil {
		return nil, err
	}
	if top < 0 {
		return nil, fmt.Errorf("storage: standings of %d players", top)
	}
	st := &Standings{}
	nowKey := timeKey(now)
	// The player asked about: their key and group.
	var mine string
	var mineProv bool
	if userID != "" {
		pr, err := r.Get(kind, guildID, userID)
		switch {
		case errors.Is(err, ErrNotFound):
		case err != nil:
			return nil, err
		default:
			mine = ratingRankKey(kind, guildID, userID, pr)
			mineProv = provisionalFromValue(pr) <= nowKey
			st.User = &Standing{User: userID, Rank: 1, Provisional: mineProv, Rating: *pr}
		}
	}
	// One pass over the keys, none decoded: the counts, the first top of
	// each group, and how many of the player's group rank before them.
	p := kind + "/" + guildID + "/"
	var est, prov []string
	if err := scanPrefix(r.kv, bRatingRank, p, func(k string, v []byte) error {
		if len(k) < len(p)+rankKeyWidth+2 {
			return fmt.Errorf("storage: bad rating index key %q", k)
		}
		isProv := string(v) <= nowKey
		st.Total++
		if isProv {
			if len(prov) < top {
				prov = append(prov, k[len(p)+rankKeyWidth+1:])
			}
		} else {
			st.Established++
			if len(est) < top {
				est = append(est, k[len(p)+rankKeyWidth+1:])
			}
		}
		if mine != "" && isProv == mineProv && k < mine {
			st.User.Rank++
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if st.User != nil && mineProv {
		st.User.Rank += st.Established
	}
	users := append(est, prov[:min(len(prov), top-len(est))]...)
	for i, u := range users {
		pr, err := r.Get(kind, guildID, u)
		if err != nil {
			return nil, fmt.Errorf("storage: the rating index names %s/%s/%s: %w", kind, guildID, u, err)
		}
		st.Top = append(st.Top, Standing{User: u, Rank: i + 1, Provisional: i >= len(est), Rating: *pr})
	}
	return st, nil
}

// buildIndex writes the ranking keys of the ratings after the rating key
// after ("": from the first), at most limit of them (-1: all), and
// returns the last rating key indexed ("" when none remain) and how many
// it indexed. The index must hold no key of those ratings yet (a
// migration, or a copy: schema 10).
func (r ratings) buildIndex(after string, limit int) (last string, n int, err error) {
	from := ""
	if after != "" {
		from = after + "\x00"
	}
	type entry struct {
		key string
		pr  PlayerRating
	}
	var todo []entry
	more := false
	if err := r.kv.scan(bRatings, from, "", func(k string, v []byte) error {
		if limit >= 0 && len(todo) == limit {
			more = true
			return errStop
		}
		var pr PlayerRating
		if err := json.Unmarshal(v, &pr); err != nil {
			slog.Warn("storage: a rating that does not decode is left out of the ranking", "rating", k, "error", err)
			return nil
		}
		todo = append(todo, entry{k, pr})
		return nil
	}); err != nil {
		return "", 0, err
	}
	for _, e := range todo {
		parts := strings.Split(e.key, "/")
		if len(parts) != 3 {
			return "", 0, fmt.Errorf("storage: bad rating key %q", e.key)
		}
		if err := indexRating(r.kv, parts[0], parts[1], parts[2], &e.pr); err != nil {
			return "", 0, err
		}
	}
	if more {
		last = todo[len(todo)-1].key
	}
	return last, len(todo), nil
}

// ratingIndexBatch is how many ratings one transaction of
// rebuildRatingIndex indexes: a scan and a put each, well inside etcd's
// 128 operations per transaction.
const ratingIndexBatch = 100

// rebuildRatingIndex writes the ranking key of every rating of s, whose
// index must be empty, in transactions of ratingIndexBatch ratings; it
// returns how many ratings and transactions it took.
func rebuildRatingIndex(ctx context.Context, s Store) (n, batches int, err error) {
	after := ""
	for {
		var last string
		var k int
		if err := s.Update(ctx, func(tx Tx) error {
			var err error
			last, k, err = ratings{tx.(*txImpl).kv}.buildIndex(after, ratingIndexBatch)
			return err
		}); err != nil {
			return n, batches, err
		}
		n += k
		batches++
		if last == "" {
			return n, batches, nil
		}
		after = last
	}
}
