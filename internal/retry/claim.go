package retry

import (
	"context"
	"time"
)

// A claim is held until a time and lasts a TTL from each renewal. Its
// owner renews it once a third of the TTL has passed since it was
// granted, that is when at most two thirds are left, as etcd's sessions
// renew their leases: a live owner's claim never runs out, even when one
// renewal fails or comes late.

// RenewDue is when a claim held until until, granted for ttl, is to be
// renewed: two thirds of ttl before it runs out.
func RenewDue(until time.Time, ttl time.Duration) time.Time {
	return until.Add(-ttl * 2 / 3)
}

// NeedsRenewal reports whether, at now, the owner of a claim held until
// until (granted for ttl) must renew it before relying on it.
func NeedsRenewal(now, until time.Time, ttl time.Duration) bool {
	return !now.Before(RenewDue(until, ttl))
}

// Keeper renews one claim while its owner lives.
type Keeper struct {
	TTL time.Duration
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// Sleep waits d or until ctx ends (returning its error); nil sleeps on
	// a timer. Tests inject one that advances their clock.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Keep renews the claim held until until, calling renew (which returns the
// claim's new end) whenever NeedsRenewal says so, until ctx ends (the
// owner is done or dead: Keep returns nil). A failed renewal is tried
// again after a tenth of the TTL while the claim lasts; Keep returns
// renew's error once the claim has run out (the owner must stop: another
// process may take the work over), or at once when the error is
// Permanent (the claim is someone else's). A renewal that returns an end
// not after its own time (a clock that moved, a store that granted
// nothing) is followed by the next one a tenth of the TTL later, never at
// once.
func (k Keeper) Keep(ctx context.Context, until time.Time, renew func(context.Context) (time.Time, error)) error {
	var failed error
	var floor time.Duration // the least wait before the next renewal
	for {
		now := k.now()
		wait := max(RenewDue(until, k.TTL).Sub(now), floor)
		floor = 0
		if failed != nil {
			if !now.Before(until) {
				return failed
			}
			wait = min(k.TTL/10, until.Sub(now))
		}
		if wait > 0 {
			if err := k.sleep(ctx, wait); err != nil {
				return nil
			}
		}
		if ctx.Err() != nil {
			return nil
		}
		next, err := renew(ctx)
		switch {
		case err == nil:
			until, failed = next, nil
			if !next.After(k.now()) {
				floor = k.TTL / 10
			}
		case IsPermanent(err):
			return err
		default:
			failed = err
		}
	}
}

func (k Keeper) now() time.Time {
	if k.Now != nil {
		return k.Now()
	}
	return time.Now()
}

func (k Keeper) sleep(ctx context.Context, d time.Duration) error {
	if k.Sleep != nil {
		return k.Sleep(ctx, d)
	}
	return Sleep(ctx, d)
}

// Sleep waits d, or less when ctx ends first (then it returns ctx's error).
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
