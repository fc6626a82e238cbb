package retry

import (
	"context"
	"errors"
	"testing"
	"time"

	"sandtable/internal/testkit"
)

func TestNeedsRenewal(t *testing.T) {
	t.Parallel()
	ttl := 60 * time.Second
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		left time.Duration // until - now
		want bool
	}{
		{ttl, false},              // just granted
		{41 * time.Second, false}, // more than two thirds left
		{40 * time.Second, true},  // two thirds left: renew
		{10 * time.Second, true},  // late
		{time.Millisecond, true},  // about to run out
		{0, true},                 // run out
		{-5 * time.Second, true},  // run out: renew (retake) before relying on it
		{ttl + time.Hour, false},  // granted long
		{ttl*2/3 + time.Nanosecond, false},
	} {
		if got := NeedsRenewal(now, now.Add(tc.left), ttl); got != tc.want {
			t.Errorf("NeedsRenewal with %s left of %s = %v, want %v", tc.left, ttl, got, tc.want)
		}
	}
}

// owner simulates a process holding a claim on an injected clock: Keep
// sleeps by advancing the clock, and the owner dies (ctx cancelled) at
// death; the store grants ttl from each renewal, or fails as told.
type owner struct {
	t      *testing.T
	clock  *testkit.Clock
	ttl    time.Duration
	until  time.Time // the claim as the store holds it
	death  time.Time
	cancel context.CancelFunc
	fails  func(n int) error // the n-th renewal's error (1-based), nil: granted
	renews int
	lapsed []time.Time // times the claim had run out while the owner lived
}

func (o *owner) sleep(ctx context.Context, d time.Duration) error {
	for d > 0 {
		// Advance in steps, checking the claim as the store would.
		step := min(d, o.ttl/20)
		o.clock.Advance(step)
		d -= step
		now := o.clock.Now()
		if !now.Before(o.death) {
			o.cancel()
			return ctx.Err()
		}
		if !now.Before(o.until) {
			o.lapsed = append(o.lapsed, now)
		}
	}
	return ctx.Err()
}

func (o *owner) renew(ctx context.Context) (time.Time, error) {
	o.renews++
	if o.fails != nil {
		if err := o.fails(o.renews); err != nil {
			return time.Time{}, err
		}
	}
	now := o.clock.Now()
	if !now.Before(o.until) {
		o.lapsed = append(o.lapsed, now)
	}
	o.until = now.Add(o.ttl)
	return o.until, nil
}

func runOwner(t *testing.T, lives time.Duration, fails func(int) error) (*owner, error) {
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := &owner{t: t, clock: testkit.NewClock(start), ttl: 30 * time.Second, death: start.Add(lives), cancel: cancel, fails: fails}
	o.until = start.Add(o.ttl)
	k := Keeper{TTL: o.ttl, Now: o.clock.Now, Sleep: o.sleep}
	err := k.Keep(ctx, o.until, o.renew)
	return o, err
}

// TestKeepRenewsWhileTheOwnerLives: over ten TTLs of a live owner the claim
// never runs out, renewed about every third of the TTL; once the owner is
// dead, it is not renewed any more and runs out.
func TestKeepRenewsWhileTheOwnerLives(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		fails      func(int) error
		wantRenews [2]int // at least, at most
	}{
		{"every renewal granted", nil, [2]int{28, 31}},
		{"one renewal fails", func(n int) error {
			if n == 3 {
				return errors.New("store unavailable")
			}
			return nil
		}, [2]int{29, 33}},
		{"two renewals fail in a row", func(n int) error {
			if n == 5 || n == 6 {
				return errors.New("store unavailable")
			}
			return nil
		}, [2]int{30, 34}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := runOwner(t, 10*30*time.Second, tc.fails)
			if err != nil {
				t.Fatalf("Keep: %v", err)
			}
			if len(o.lapsed) > 0 {
				t.Fatalf("the claim of a live owner ran out at %v", o.lapsed)
			}
			if o.renews < tc.wantRenews[0] || o.renews > tc.wantRenews[1] {
				t.Fatalf("%d renewals in ten TTLs, want %d to %d", o.renews, tc.wantRenews[0], tc.wantRenews[1])
			}
			if !o.until.Before(o.death.Add(o.ttl)) {
				t.Fatalf("the claim outlives its dead owner by more than a TTL: until %v, death %v", o.until, o.death)
			}
		})
	}
}

// TestKeepGivesUp: renewals failing until the claim ran out end Keep with
// the error (the owner must stop); a permanent one (the claim is another's)
// at once.
func TestKeepGivesUp(t *testing.T) {
	t.Parallel()
	down := errors.New("store unavailable")
	o, err := runOwner(t, time.Hour, func(n int) error { return down })
	if !errors.Is(err, down) {
		t.Fatalf("Keep = %v, want the renewal's error", err)
	}
	if got, start := o.clock.Now(), o.death.Add(-time.Hour); got.Before(start.Add(o.ttl)) {
		t.Fatalf("Keep gave up at %v, before the claim ran out at %v", got, start.Add(o.ttl))
	}
	taken := Permanent(errors.New("claimed by another process"))
	o, err = runOwner(t, time.Hour, func(n int) error { return taken })
	if !errors.Is(err, taken) || o.renews != 1 {
		t.Fatalf("Keep = %v after %d renewals, want the permanent error after 1", err, o.renews)
	}
}

// TestKeepPacesPastEnds: a renewal that returns an end already past (a
// clock that moved) does not make Keep renew again at once: the renewals
// stay a tenth of the TTL apart.
func TestKeepPacesPastEnds(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	clock := testkit.NewClock(start)
	ttl := 30 * time.Second
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	renews := 0
	k := Keeper{TTL: ttl, Now: clock.Now, Sleep: func(ctx context.Context, d time.Duration) error {
		if d <= 0 {
			t.Errorf("Keep slept %v", d)
		}
		clock.Advance(d)
		if clock.Now().Sub(start) > 10*ttl {
			cancel()
		}
		return ctx.Err()
	}}
	err := k.Keep(ctx, start.Add(ttl), func(context.Context) (time.Time, error) {
		renews++
		if renews > 1000 {
			cancel()
		}
		return clock.Now().Add(-time.Second), nil
	})
	if err != nil {
		t.Fatalf("Keep: %v", err)
	}
	if renews > 101 {
		t.Fatalf("%d renewals in ten TTLs of past ends, want at most one per tenth of the TTL", renews)
	}
}
