package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Claims let several bot processes share one outbox and deliver each
// effect once: a process claims an effect in a transaction before
// delivering it (the action that queues effects claims them in its own
// commit), and the other processes' dispatchers leave it alone while the
// claim lives. A claim is a key of its own, outbox_claims/<effect ID>,
// bound to its owner's lease (lease.go): it lives as long as its owner
// does, however long the effect waits, and the store deletes it when the
// owner's lease ends. It is never the effect's own key, which an ended
// lease must not delete. The effect's envelope counts the claims taken:
// an effect anybody but its writer ever took may have been performed
// already and is reconciled before being performed again.

// ErrClaimed is returned by Outbox.Claim when another owner's claim on the
// effect lives.
var ErrClaimed = errors.New("storage: the effect is claimed by another process")

// claimRecord is a claim key's value.
type claimRecord struct {
	Owner string `json:"owner"`
	Lease int64  `json:"lease,omitempty"`
}

// claimOf reads the live claim on the effect id (zero: none).
func (r outbox) claimOf(id string) (claimRecord, error) {
	var c claimRecord
	if r.t.isAdded(id) {
		// Added by this transaction, which has not claimed it: nobody can
		// have claimed an effect that did not exist (a claim needs the
		// effect), and IDs are never reused.
		return c, nil
	}
	v := r.t.kv.get(bOutboxClaims, id)
	if v == nil {
		return c, nil
	}
	if err := json.Unmarshal(v, &c); err != nil {
		return c, fmt.Errorf("outbox %s: corrupt claim: %w", id, err)
	}
	return c, nil
}

func (r outbox) Claim(id, owner string, lease int64) error {
	if owner == "" {
		return fmt.Errorf("outbox %s: a claim needs an owner", id)
	}
	if !r.t.isAdded(id) {
		prefetch(r.t.kv, prefetchRead{b: bOutbox, key: id}, prefetchRead{b: bOutboxClaims, key: id})
	}
	v := r.t.kv.get(bOutbox, id)
	if v == nil {
		return fmt.Errorf("outbox %s: %w", id, ErrNotFound)
	}
	c, err := r.claimOf(id)
	if err != nil {
		return err
	}
	if c.Owner != "" && c.Owner != owner {
		return fmt.Errorf("outbox %s: %w (by %s)", id, ErrClaimed, c.Owner)
	}
	if c.Owner == owner && c.Lease == lease {
		return nil // held already
	}
	var env outboxEnvelope
	if err := json.Unmarshal(v, &env); err != nil {
		return fmt.Errorf("outbox %s: corrupt record: %w", id, err)
	}
	// A new claim (the owner's own under a new lease too: what it did
	// under the old one is as uncertain as a dead process's work).
	env.Claims++
	env.Owner = owner
	raw, err := json.Marshal(claimRecord{Owner: owner, Lease: lease})
	if err != nil {
		return err
	}
	if err := r.t.kv.putBound(bOutboxClaims, id, raw, lease); err != nil {
		return err
	}
	delete(r.t.adds, id) // its claim is read from the transaction's writes now
	return putJSON(r.t.kv, bOutbox, id, env)
}

func (r outbox) HeadsFor(owner string, now time.Time, limit int) ([]Pending, error) {
	return r.heads(now, limit, func(p Pending) bool {
		return p.Owner == "" || p.Owner == owner // else another process delivers it
	})
}

// heads lists the stream heads due at now that keep accepts, at most limit.
func (r outbox) heads(now time.Time, limit int, keep func(Pending) bool) ([]Pending, error) {
	var out []Pending
	if limit <= 0 {
		return nil, nil
	}
	err := r.due(now, func(id string) error {
		p, err := r.Get(id)
		if err != nil {
			return err
		}
		if !keep(*p) {
			return nil
		}
		out = append(out, *p)
		if len(out) >= limit {
			return errStop
		}
		return nil
	})
	return out, err
}

func (r outbox) Release(owner string) (int, error) {
	var ended []string
	err := r.t.kv.scan(bOutboxClaims, "", "", func(k string, v []byte) error {
		var c claimRecord
		if err := json.Unmarshal(v, &c); err != nil {
			return fmt.Errorf("outbox %s: corrupt claim: %w", k, err)
		}
		if owner == AnyOwner || c.Owner == owner {
			ended = append(ended, k)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, id := range ended {
		if err := r.t.kv.del(bOutboxClaims, id); err != nil {
			return 0, err
		}
	}
	return len(ended), nil
}
