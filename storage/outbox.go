package storage

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// outbox implements Outbox. Keys are stream "/" %020d sequence, so a scan
// meets each stream's effects in the order they were added; the sequence is
// the stream's counter in outbox_seq (schema 5; before, one global counter
// in meta), never reused. The outbox bucket holds each
// effect's small envelope (attempts, due time), which Heads scans; the
// effect itself (a message may carry a board image) is in outbox_bodies
// under the same key, read only for the heads that are due.
type outbox struct{ t *txImpl }

type outboxEnvelope struct {
	Attempts int       `json:"attempts,omitempty"`
	Due      time.Time `json:"due"` // the bot's clock
	// Effect is where schema 3 kept the effect (schema 4 moved it to
	// outbox_bodies); still read.
	Effect json.RawMessage `json:"effect,omitempty"`
	// The claim (outbox_claim.go): the process delivering the effect,
	// until when (wall time: a claim is about live processes, not the
	// game's clock), and how many times it was claimed.
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
	n, err := seqValue(r.t.kv.get(bMeta, "outbox_seq"))
	if err != nil {
		return "", err
	}
	m, err := seqValue(r.t.kv.get(bOutboxSeq, stream))
	if err != nil {
		return "", err
	}
	n = max(n, m) + 1
	if err := r.t.kv.put(bOutboxSeq, stream, []byte(strconv.FormatUint(n, 10))); err != nil {
		return "", err
	}
	id := fmt.Sprintf("%s/%020d", stream, n)
	if err := r.t.kv.put(bOutboxBodies, id, raw); err != nil {
		return "", err
	}
	return id, putJSON(r.t.kv, bOutbox, id, outboxEnvelope{})
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
	p := &Pending{ID: id, Stream: stream, Attempts: env.Attempts, Due: due, Effect: env.Effect,
		Owner: env.Owner, Until: env.Until, Claims: env.Claims}
	if withBody && p.Effect == nil {
		body := r.t.kv.get(bOutboxBodies, id)
		if body == nil {
			return nil, fmt.Errorf("outbox %s: %w: its effect is missing", id, ErrNotFound)
		}
		p.Effect = append(json.RawMessage(nil), body...)
	}
	return p, nil
}

// heads decodes the first effect of every stream.
func (r outbox) heads() ([]*Pending, error) {
	var out []*Pending
	last := ""
	err := r.t.kv.scan(bOutbox, "", "", func(k string, v []byte) error {
		stream, _, _ := strings.Cut(k, "/")
		if stream == last {
			return nil
		}
		last = stream
		p, err := r.decode(k, v, false)
		if err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Due.Before(out[j].Due) })
	return out, err
}

func (r outbox) Heads(now time.Time, limit int) ([]Pending, error) {
	hs, err := r.heads()
	if err != nil {
		return nil, err
	}
	var out []Pending
	for _, p := range hs {
		if p.Due.After(now) || len(out) >= limit {
			break
		}
		full, err := r.Get(p.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, *full)
	}
	return out, nil
}

func (r outbox) Get(id string) (*Pending, error) {
	v := r.t.kv.get(bOutbox, id)
	if v == nil {
		return nil, fmt.Errorf("outbox %s: %w", id, ErrNotFound)
	}
	return r.decode(id, v, true)
}

func (r outbox) StreamHead(stream string) (*Pending, error) {
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

func (r outbox) Retry(id string, attempts int, due time.Time) error {
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
	env.Attempts, env.Due = attempts, bot // the claim stays
	return putJSON(r.t.kv, bOutbox, id, env)
}

func (r outbox) Done(id string) error {
	if err := r.t.kv.del(bOutboxBodies, id); err != nil {
		return err
	}
	return r.t.kv.del(bOutbox, id)
}

func (r outbox) Len() (int, error) {
	n := 0
	err := r.t.kv.scan(bOutbox, "", "", func(string, []byte) error { n++; return nil })
	return n, err
}

func (r outbox) NextDue() (time.Time, error) {
	hs, err := r.heads()
	if err != nil || len(hs) == 0 {
		return time.Time{}, err
	}
	return hs[0].Due, nil
}
