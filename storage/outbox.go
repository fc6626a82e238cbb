package storage

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// outbox implements Outbox. Keys are stream "/" %020d sequence, so a scan
// meets each stream's effects in the order they were added; the sequence is
// the stream's counter in outbox_seq (schema 5; before, one global counter
// in meta), never reused. The outbox bucket holds each
// effect's small envelope (attempts, due time); the
// effect itself (a message may carry a board image) is in outbox_bodies
// under the same key, read only for the heads that are due.
//
// The due index (outbox_due, schema 7) holds one entry per stream with
// pending effects: its head's due time (bot's clock) "/" stream -> the
// head's ID. Every write that changes a stream's head (Add to an empty
// stream, Retry of a head, Done of a head) moves the entry in the same
// transaction, so Heads, HeadsFor and NextDue read only the entries due,
// never the whole outbox. A stream's head is the first key of its prefix
// (a seek).
type outbox struct{ t *txImpl }

type outboxEnvelope struct {
	Attempts int       `json:"attempts,omitempty"`
	Due      time.Time `json:"due"` // the bot's clock
	// Effect is where schema 3 kept the effect (schema 4 moved it to
	// outbox_bodies); still read.
	Effect json.RawMessage `json:"effect,omitempty"`
	// Owner is the process that last claimed the effect and Claims how
	// many claims were taken (outbox_claim.go); whether a claim lives is
	// its own key's business. Until is where schema 7's first claims kept
	// their end: ignored (such a claim is over; Claims still counts it).
	Owner  string    `json:"owner,omitempty"`
	Until  time.Time `json:"until,omitzero"`
	Claims int       `json:"claims,omitempty"`
}

func (r outbox) Add(stream string, v any) (string, error) {
	if stream == "" || strings.ContainsRune(stream, '/') {
		return "", fmt.Errorf("storage: bad outbox stream %q", stream)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	// The stream's own counter, so that transactions queueing effects of
	// different streams touch no common key; it starts above the global
	// counter schemas 3 and 4 left, so no ID is ever given twice.
	prefetch(r.t.kv, r.addReads(stream)...)
	n, err := seqValue(r.t.kv.get(bMeta, "outbox_seq"))
	if err != nil {
		return "", err
	}
	m, err := seqValue(r.t.kv.get(bOutboxSeq, stream))
	if err != nil {
		return "", err
	}
	n = max(n, m) + 1
	head, _, err := r.first(stream)
	if err != nil {
		return "", err
	}
	if err := r.t.kv.put(bOutboxSeq, stream, []byte(strconv.FormatUint(n, 10))); err != nil {
		return "", err
	}
	id := fmt.Sprintf("%s/%020d", stream, n)
	r.t.added(id)
	if err := r.t.kv.put(bOutboxBodies, id, raw); err != nil {
		return "", err
	}
	if head == "" {
		if err := r.t.kv.put(bOutboxDue, dueKey(time.Time{}, stream), []byte(id)); err != nil {
			return "", err
		}
	}
	return id, putJSON(r.t.kv, bOutbox, id, outboxEnvelope{})
}

// dueKey is the due index's key of a stream whose head is due at due (the
// bot's clock).
func dueKey(due time.Time, stream string) string { return timeKey(due) + "/" + stream }

// addReads are the reads of Add to stream.
func (r outbox) addReads(stream string) []prefetchRead {
	return []prefetchRead{{b: bMeta, key: "outbox_seq"}, {b: bOutboxSeq, key: stream}, r.headRead(stream, 1)}
}

// headRead is the read of the first n keys of stream in bucket b
// (bOutbox unless given), for prefetch.
func (r outbox) headRead(stream string, n int, b ...string) prefetchRead {
	bk := bOutbox
	if len(b) > 0 {
		bk = b[0]
	}
	return prefetchRead{b: bk, key: stream + "/", to: stream + "0", limit: n}
}

// first reads the head of stream: its ID and envelope ("" when the stream
// has no pending effect).
func (r outbox) first(stream string) (id string, env outboxEnvelope, err error) {
	err = r.t.kv.scan(bOutbox, stream+"/", stream+"0", func(k string, v []byte) error {
		id = k
		if err := json.Unmarshal(v, &env); err != nil {
			return fmt.Errorf("outbox %s: corrupt record: %w", k, err)
		}
		return errStop
	})
	return id, env, err
}

// indexHead puts the due index's entry of stream's head, if it has one.
func (r outbox) indexHead(stream string) error {
	id, env, err := r.first(stream)
	if err != nil || id == "" {
		return err
	}
	return r.t.kv.put(bOutboxDue, dueKey(env.Due, stream), []byte(id))
}

// due calls fn with the ID of every stream head due at or before now (wall
// time), the earliest first, until fn returns errStop.
func (r outbox) due(now time.Time, fn func(id string) error) error {
	// The index's first page comes with the clock offset the bound needs.
	prefetch(r.t.kv, prefetchRead{b: bOutboxDue, toEnd: true})
	bot, err := r.t.toBot(now)
	if err != nil {
		return err
	}
	end := prefixEnd(timeKey(bot) + "/")
	return r.t.kv.scan(bOutboxDue, "", "", func(k string, v []byte) error {
		if k >= end {
			return errStop
		}
		return fn(string(v))
	})
}

// seqValue parses a stored outbox sequence number (nil: 0).
func seqValue(b []byte) (uint64, error) {
	if b == nil {
		return 0, nil
	}
	n, err := strconv.ParseUint(string(b), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("storage: bad outbox sequence %q", b)
	}
	return n, nil
}

// decode reads an envelope; the effect itself only when withBody.
func (r outbox) decode(id string, v []byte, withBody bool) (*Pending, error) {
	var env outboxEnvelope
	if err := json.Unmarshal(v, &env); err != nil {
		return nil, fmt.Errorf("outbox %s: corrupt record: %w", id, err)
	}
	due, err := r.t.toWall(env.Due)
	if err != nil {
		return nil, err
	}
	stream, _, _ := strings.Cut(id, "/")
	c, err := r.claimOf(id)
	if err != nil {
		return nil, err
	}
	p := &Pending{ID: id, Stream: stream, Attempts: env.Attempts, Due: due, Effect: env.Effect,
		Owner: c.Owner, Lease: c.Lease, Claims: env.Claims}
	if withBody && p.Effect == nil {
		body := r.t.kv.get(bOutboxBodies, id)
		if body == nil {
			return nil, fmt.Errorf("outbox %s: %w: its effect is missing", id, ErrNotFound)
		}
		p.Effect = append(json.RawMessage(nil), body...)
	}
	return p, nil
}

func (r outbox) Heads(now time.Time, limit int) ([]Pending, error) {
	return r.heads(now, limit, func(Pending) bool { return true })
}

func (r outbox) Get(id string) (*Pending, error) {
	prefetch(r.t.kv, prefetchRead{b: bOutbox, key: id}, prefetchRead{b: bOutboxBodies, key: id},
		prefetchRead{b: bOutboxClaims, key: id})
	v := r.t.kv.get(bOutbox, id)
	if v == nil {
		return nil, fmt.Errorf("outbox %s: %w", id, ErrNotFound)
	}
	return r.decode(id, v, true)
}

func (r outbox) StreamHead(stream string) (*Pending, error) {
	// The head, its body and its claim in one request: a stream's first
	// body is its head's, and its first claim the head's if it has one.
	prefetch(r.t.kv, r.headRead(stream, 1), r.headRead(stream, 1, bOutboxBodies), r.headRead(stream, 1, bOutboxClaims))
	var p *Pending
	err := r.t.kv.scan(bOutbox, stream+"/", stream+"0", func(k string, v []byte) error {
		var err error
		p, err = r.decode(k, v, true)
		if err == nil {
			err = errStop
		}
		return err
	})
	return p, err
}

func (r outbox) StreamHeads(streams ...string) ([]*Pending, error) {
	var reads []prefetchRead
	for _, s := range streams {
		reads = append(reads, r.headRead(s, 1), r.headRead(s, 1, bOutboxBodies), r.headRead(s, 1, bOutboxClaims))
	}
	prefetch(r.t.kv, reads...)
	out := make([]*Pending, len(streams))
	for i, s := range streams {
		p, err := r.StreamHead(s)
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

func (r outbox) Retry(id string, attempts int, due time.Time) error {
	stream, _, _ := strings.Cut(id, "/")
	prefetch(r.t.kv, prefetchRead{b: bOutbox, key: id}, r.headRead(stream, 1))
	v := r.t.kv.get(bOutbox, id)
	if v == nil {
		return fmt.Errorf("outbox %s: %w", id, ErrNotFound)
	}
	var env outboxEnvelope
	if err := json.Unmarshal(v, &env); err != nil {
		return fmt.Errorf("outbox %s: corrupt record: %w", id, err)
	}
	bot, err := r.t.toBot(due)
	if err != nil {
		return err
	}
	head, _, err := r.first(stream)
	if err != nil {
		return err
	}
	if head == id && !bot.Equal(env.Due) {
		if err := r.t.kv.del(bOutboxDue, dueKey(env.Due, stream)); err != nil {
			return err
		}
		if err := r.t.kv.put(bOutboxDue, dueKey(bot, stream), []byte(id)); err != nil {
			return err
		}
	}
	env.Attempts, env.Due = attempts, bot // the claim stays
	return putJSON(r.t.kv, bOutbox, id, env)
}

func (r outbox) Done(id string) error {
	stream, _, _ := strings.Cut(id, "/")
	// The head and the one after it: when id is the head, the next one is
	// indexed in its place.
	prefetch(r.t.kv, HintDone(id).reads...)
	head, env, err := r.first(stream)
	if err != nil {
		return err
	}
	if err := r.t.kv.del(bOutboxBodies, id); err != nil {
		return err
	}
	if err := r.t.kv.del(bOutbox, id); err != nil {
		return err
	}
	if err := r.t.kv.del(bOutboxClaims, id); err != nil {
		return err
	}
	if head != id {
		return nil
	}
	if err := r.t.kv.del(bOutboxDue, dueKey(env.Due, stream)); err != nil {
		return err
	}
	return r.indexHead(stream)
}

func (r outbox) Len() (int, error) {
	n := 0
	err := r.t.kv.scan(bOutbox, "", "", func(string, []byte) error { n++; return nil })
	return n, err
}

func (r outbox) NextDue() (time.Time, error) {
	var due time.Time
	err := r.t.kv.scan(bOutboxDue, "", "", func(k string, _ []byte) error {
		ts, _, _ := strings.Cut(k, "/")
		var err error
		if due, err = time.Parse(timeLayout, ts); err != nil {
			return fmt.Errorf("bad outbox_due key %q", k)
		}
		return errStop
	})
	if err != nil || due.Equal(time.Time{}) {
		return time.Time{}, err
	}
	return r.t.toWall(due)
}

// buildDueIndex writes the due index's entry of every stream from after
// on (in key order), at most limit of them; it returns the last stream
// indexed ("" when it reached the end) and how many it indexed. The
// migration to schema 7 calls it over an outbox without an index.
func (r outbox) buildDueIndex(after string, limit int) (last string, n int, err error) {
	from := ""
	if after != "" {
		from = after + "0" // past every key of stream after
	}
	for {
		var stream string
		if err := r.t.kv.scan(bOutbox, from, "", func(k string, _ []byte) error {
			stream, _, _ = strings.Cut(k, "/")
			return errStop
		}); err != nil || stream == "" {
			return "", n, err
		}
		if n == limit {
			return last, n, nil
		}
		if err := r.indexHead(stream); err != nil {
			return "", n, err
		}
		last, from = stream, stream+"0"
		n++
	}
}
