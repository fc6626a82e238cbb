package storage

import (
	"errors"
)

// kv is what a backend gives the repositories: ordered buckets of byte keys
// and values inside one transaction. The repositories (repos.go) are
// written once over it, so every backend has the same schema.
type kv interface {
	// get returns the value of key, or nil; the slice is valid only inside
	// the transaction.
	get(b, key string) []byte
	put(b, key string, v []byte) error
	// putBound is put with the key bound to lease (Leaser): the store
	// deletes it when the lease ends; lease 0 binds nothing (put). A lease
	// the store does not hold fails the transaction with ErrLeaseLost.
	putBound(b, key string, v []byte, lease int64) error
	del(b, key string) error
	// scan calls fn for each key in [from, to) in ascending order (to ""
	// means no upper bound); fn returning errStop ends the scan without
	// error. Values are valid only during fn.
	scan(b, from, to string, fn func(k string, v []byte) error) error
}

// prefetchRead is one read a transaction is about to make: the key key of
// bucket b (to "" and not toEnd), or the first limit keys of [key, to)
// (toEnd: to the bucket's end; limit 0: a scan's page).
type prefetchRead struct {
	b, key, to string
	toEnd      bool
	limit      int
}

// prefetcher is a kv whose reads are round trips (etcd): it reads what a
// repository is about to read in one request instead of one each.
type prefetcher interface {
	prefetch(reads []prefetchRead)
}

// prefetch tells t what the caller is about to read (a hint: the reads
// themselves are made, and recorded, as usual).
func prefetch(t kv, reads ...prefetchRead) {
	if p, ok := t.(prefetcher); ok {
		p.prefetch(reads)
	}
}

// guesser is a kv that remembers, across transactions, values an index
// held (a channel's game), so that a read of the index can fetch what it
// probably points to along (prefetch). A guess is only ever a hint.
type guesser interface {
	guess(b, key string) (string, bool)
	learn(b, key, v string)
}

// errStop ends a scan early.
var errStop = errors.New("stop")

// The buckets of the current schema (11).
const (
	bMeta         = "meta"          // "schema", "heartbeat", "clock_offset", "outbox_seq" (schema 3 and 4's counter, read only since 5)
	bGames        = "games"         // game ID -> JSON Game (Deadline in the bot's clock)
	bChannels     = "channel_games" // thread or linked channel ID -> game ID
	bUserActive   = "user_active"   // user ID "/" game ID -> ""
	bUserFinished = "user_finished" // user ID "/" inverted end time "/" game ID -> ""
	bTimers       = "timers"        // deadline or reminder (bot's clock, sortable) "/" game ID -> ""
	bInteractions = "interactions"  // interaction ID -> unix seconds applied
	bChallenges   = "challenges"    // ID -> JSON envelope {expires, doc}
	bLobbies      = "lobbies"       // ID -> JSON envelope {expires, doc}
	bExpiry       = "expiry"        // expiry (bot's clock, sortable) "/" bucket "/" ID -> ""
	bRecords      = "records"       // kind "/" guild "/" user -> JSON
	bLogs         = "logs"          // game ID "/" %09d sequence -> JSON
	bPlayground   = "playground"    // the playground's keys -> bytes
	bOutbox       = "outbox"        // stream "/" %020d sequence -> JSON {attempts, due} (schema 3; 3 kept the effect here too)
	bOutboxBodies = "outbox_bodies" // stream "/" %020d sequence -> the effect's JSON (schema 4)
	bOutboxSeq    = "outbox_seq"    // stream -> its last sequence number, decimal, kept for ever (schema 5)
	bRatings      = "ratings"       // kind "/" guild "/" user -> JSON PlayerRating (schema 6)
	bOutboxDue    = "outbox_due"    // head's due (bot's clock, sortable) "/" stream -> the head's ID (schema 7)
	bNotify       = "notify"        // user "/" guild ("" for every server) -> where the user's turn pings go (schema 8)
	bAnalyses     = "analyses"      // game ID -> the game's analysis, JSON (schema 9)
	// bAnalysisClaims holds the live claims on analyses being computed:
	// game ID -> JSON {owner, lease}, bound to the owner's lease (schema
	// 9; only stores shared by processes have any).
	bAnalysisClaims = "analysis_claims"
	// bRatingRank is the ratings' ranking index (schema 10, ratings.go):
	// kind "/" guild "/" rating desc, deviation asc (hex) "/" user -> the
	// instant the rating turns provisional (timeKey, "~": never).
	bRatingRank = "rating_rank"
	// bOutboxClaims holds the live claims: effect ID -> JSON {owner,
	// lease}, bound to the owner's lease (lease.go). Added to schema 7
	// without a version of its own: it holds nothing that outlives the
	// processes, and every open creates it when missing.
	bOutboxClaims  = "outbox_claims"
	bGuildSettings = "guild_settings" // guild ID -> JSON settings (schema 11)
	bAdminLog      = "admin_log"      // guild ID "/" inverted time -> JSON entry (schema 11)
	bAttempts      = "attempts"       // guild ID "/" user ID -> JSON times of recent attempts (schema 11)
	// bProcs holds one key per process holding a lease, bound to it:
	// process name -> "" (lease.go; never in a bbolt file).
	bProcs = "procs"
)

// buckets lists every bucket of the current schema.
var buckets = []string{bMeta, bGames, bChannels, bUserActive, bUserFinished, bTimers, bInteractions,
	bChallenges, bLobbies, bExpiry, bRecords, bLogs, bPlayground, bOutbox, bOutboxBodies, bOutboxSeq, bRatings, bOutboxDue, bOutboxClaims, bProcs, bNotify, bAnalyses, bAnalysisClaims, bRatingRank,
	bGuildSettings, bAdminLog, bAttempts}

// prefixEnd is the smallest key greater than every key starting with p.
func prefixEnd(p string) string {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1])
		}
	}
	return ""
}

// scanPrefix calls fn for every key starting with p.
func scanPrefix(t kv, b, p string, fn func(k string, v []byte) error) error {
	return t.scan(b, p, prefixEnd(p), fn)
}
