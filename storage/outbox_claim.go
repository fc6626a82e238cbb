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
// commit), and the other processes' dispatchers leave it alone until the
// claim runs out, which it does only when its owner died or stalled. The
// count of claims tells whether anybody but the effect's writer ever took
// it: such an effect may have been performed already and is reconciled
// before being performed again.

// ErrClaimed is returned by Outbox.Claim when another owner's claim on the
// effect has not run out.
var ErrClaimed = errors.New("storage: the effect is claimed by another process")

func (r outbox) Claim(id, owner string, now, until time.Time) error {
	if owner == "" {
		return fmt.Errorf("outbox %s: a claim needs an owner", id)
	}
	v := r.t.kv.get(bOutbox, id)
	if v == nil {
		return fmt.Errorf("outbox %s: %w", id, ErrNotFound)
	}
	var env outboxEnvelope
	if err := json.Unmarshal(v, &env); err != nil {
		return fmt.Errorf("outbox %s: corrupt record: %w", id, err)
	}
	live := env.Owner != "" && env.Until.After(now)
	if live && env.Owner != owner {
		return fmt.Errorf("outbox %s: %w (by %s until %s)", id, ErrClaimed, env.Owner, env.Until.Format(time.RFC3339))
	}
	if !live || env.Owner != owner {
		env.Claims++ // a new claim, not its live owner's renewal
	}
	env.Owner, env.Until = owner, until.UTC()
	return putJSON(r.t.kv, bOutbox, id, env)
}

func (r outbox) HeadsFor(owner string, now time.Time, limit int) ([]Pending, error) {
	return r.heads(now, limit, func(p Pending) bool {
		return p.Owner == "" || p.Owner == owner || !p.Until.After(now) // else another process delivers it
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

func (r outbox) Release(owner string, now time.Time) (int, error) {
	type change struct {
		id  string
		env outboxEnvelope
	}
	var changes []change
	err := r.t.kv.scan(bOutbox, "", "", func(k string, v []byte) error {
		var env outboxEnvelope
		if err := json.Unmarshal(v, &env); err != nil {
			return fmt.Errorf("outbox %s: corrupt record: %w", k, err)
		}
		if (owner == AnyOwner || env.Owner == owner) && env.Until.After(now) {
			env.Until = now.UTC()
			changes = append(changes, change{k, env})
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, c := range changes {
		if err := putJSON(r.t.kv, bOutbox, c.id, c.env); err != nil {
			return 0, err
		}
	}
	return len(changes), nil
}
