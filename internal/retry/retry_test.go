package retry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"sandtable/internal/testkit"
)

// described is an error that carries its Failure, as the bot's REST errors do.
type described struct{ f Failure }

func (e *described) Error() string         { return fmt.Sprintf("HTTP %d (code %d)", e.f.Status, e.f.Code) }
func (e *described) RetryFailure() Failure { return e.f }

func fail(status, code int, after time.Duration) error {
	return fmt.Errorf("posting: %w", &described{Failure{Status: status, Code: code, RetryAfter: after}})
}

// fixed returns a Rand that always draws r.
func fixed(r float64) func() float64 { return func() float64 { return r } }

var testPolicy = Policy{Base: time.Second, Cap: time.Hour, Jitter: 1, MaxAttempts: 50}

// TestDelay: which failures are retried, and no earlier than what.
func TestDelay(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		attempt  int
		err      error
		rand     float64
		retry    bool
		min, max time.Duration
	}{
		{"429 waits its Retry-After", 1, fail(429, 0, 2*time.Second), 0, true, 2 * time.Second, 2 * time.Second},
		{"429 plus a tenth at most", 1, fail(429, 0, 2*time.Second), 0.999, true, 2 * time.Second, 2200 * time.Millisecond},
		{"429 late in the attempts still waits only its Retry-After", 20, fail(429, 0, 3*time.Second), 0, true, 3 * time.Second, 3 * time.Second},
		{"429 with a Discord code is still a rate limit", 1, fail(429, 20028, 5*time.Second), 0, true, 5 * time.Second, 5500 * time.Millisecond},
		{"429 without Retry-After backs off", 3, fail(429, 0, 0), 0, true, 4 * time.Second, 4 * time.Second},
		{"500 backs off", 1, fail(500, 0, 0), 0, true, time.Second, time.Second},
		{"502 backs off exponentially", 5, fail(502, 0, 0), 0, true, 16 * time.Second, 16 * time.Second},
		{"503 honours a longer Retry-After", 1, fail(503, 0, 30*time.Second), 0, true, 30 * time.Second, 30 * time.Second},
		{"5xx capped", 40, fail(500, 0, 0), 0, true, time.Hour, time.Hour},
		{"full jitter draws below the exponential", 5, fail(500, 0, 0), 0.75, true, 4 * time.Second, 4 * time.Second},
		{"no answer is retried", 2, fmt.Errorf("posting: %w", io.ErrUnexpectedEOF), 0, true, 2 * time.Second, 2 * time.Second},
		{"timeout is retried", 1, context.DeadlineExceeded, 0, true, time.Second, time.Second},
		{"408 is retried", 1, fail(408, 0, 0), 0, true, time.Second, time.Second},
		{"overloaded (130000) is retried", 1, fail(400, CodeAPIResourceOverloaded, 0), 0, true, time.Second, time.Second},
		{"unknown channel", 1, fail(404, CodeUnknownChannel, 0), 0, false, 0, 0},
		{"unknown message", 1, fail(404, CodeUnknownMessage, 0), 0, false, 0, 0},
		{"missing access", 1, fail(403, CodeMissingAccess, 0), 0, false, 0, 0},
		{"missing permissions", 1, fail(403, CodeMissingPermissions, 0), 0, false, 0, 0},
		{"cannot DM", 1, fail(403, CodeCannotSendToUser, 0), 0, false, 0, 0},
		{"invalid form body", 1, fail(400, CodeInvalidFormBody, 0), 0, false, 0, 0},
		{"a 4xx without code", 1, fail(404, 0, 0), 0, false, 0, 0},
		{"marked permanent", 1, Permanent(errors.New("no threads here")), 0, false, 0, 0},
		{"given up after MaxAttempts", 50, fail(500, 0, 0), 0, false, 0, 0},
		{"given up after MaxAttempts, rate limit too", 50, fail(429, 0, time.Second), 0, false, 0, 0},
		{"no error, nothing to retry", 1, nil, 0, false, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := testPolicy
			p.Rand = fixed(tc.rand)
			d, retry := p.Delay(tc.attempt, tc.err)
			if retry != tc.retry {
				t.Fatalf("Delay(%d, %v) retries: %v, want %v", tc.attempt, tc.err, retry, tc.retry)
			}
			if d < tc.min || d > tc.max {
				t.Fatalf("Delay(%d, %v) = %s, want in [%s, %s]", tc.attempt, tc.err, d, tc.min, tc.max)
			}
			if retry == IsPermanent(tc.err) && tc.err != nil && tc.attempt < p.MaxAttempts {
				t.Fatalf("IsPermanent(%v) = %v, but Delay retries: %v", tc.err, IsPermanent(tc.err), retry)
			}
		})
	}
}

// TestBackoffGrowsToItsCap: without the random part the waits double from
// Base up to Cap, and stay there; with it, they spread below.
func TestBackoffGrowsToItsCap(t *testing.T) {
	t.Parallel()
	p := Policy{Base: 100 * time.Millisecond, Cap: 5 * time.Second, Jitter: 1, Rand: fixed(0)}
	want := []time.Duration{100, 200, 400, 800, 1600, 3200, 5000, 5000}
	for i, w := range want {
		if got := p.Backoff(i + 1); got != w*time.Millisecond {
			t.Fatalf("Backoff(%d) = %s, want %s", i+1, got, w*time.Millisecond)
		}
	}
	for _, n := range []int{-3, 0, 1} {
		if got := p.Backoff(n); got != 100*time.Millisecond {
			t.Fatalf("Backoff(%d) = %s, want the first wait", n, got)
		}
	}
	for _, n := range []int{62, 63, 64, 1000} {
		if got := p.Backoff(n); got != 5*time.Second {
			t.Fatalf("Backoff(%d) = %s, want the cap", n, got)
		}
	}
	// Jitter: a wait d is uniform in (d·(1-Jitter), d].
	for _, tc := range []struct {
		jitter, r float64
		want      time.Duration
	}{
		{1, 0.5, 800 * time.Millisecond},
		{1, 0.999999, 1600 * time.Nanosecond},
		{0.5, 0.5, 1200 * time.Millisecond},
		{0, 0.9, 1600 * time.Millisecond},
	} {
		q := p
		q.Jitter, q.Rand = tc.jitter, fixed(tc.r)
		if got := q.Backoff(5); got < tc.want-time.Microsecond || got > tc.want+time.Microsecond || got <= 0 {
			t.Fatalf("Backoff(5) with jitter %v and draw %v = %s, want %s", tc.jitter, tc.r, got, tc.want)
		}
	}
}

// endpoint fails with its script's errors, one a call, then succeeds.
type endpoint struct {
	clock  *testkit.Clock
	script []error
	calls  []time.Time
}

func (e *endpoint) call() error {
	e.calls = append(e.calls, e.clock.Now())
	if len(e.calls) <= len(e.script) {
		return e.script[len(e.calls)-1]
	}
	return nil
}

// TestRetriesOnAClock drives an outbox-like loop on an injected clock: each
// failure stores a due time (now + Delay) and the attempt count; the clock
// jumps to the due time. Rate limits are retried no earlier than their
// Retry-After, server errors after growing waits, and a permanent refusal
// ends it.
func TestRetriesOnAClock(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		script []error
		done   bool            // the call finally succeeds
		gaps   []time.Duration // between successive calls
	}{
		{"rate limited twice", []error{fail(429, 0, 3*time.Second), fail(429, 0, 7*time.Second)}, true,
			[]time.Duration{3 * time.Second, 7 * time.Second}},
		{"server errors back off", []error{fail(500, 0, 0), fail(502, 0, 0), io.EOF, fail(503, 0, 0)}, true,
			[]time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second}},
		{"a rate limit amid server errors", []error{fail(500, 0, 0), fail(429, 0, 20*time.Second), fail(500, 0, 0)}, true,
			[]time.Duration{time.Second, 20 * time.Second, 4 * time.Second}},
		{"refused", []error{fail(500, 0, 0), fail(403, CodeMissingPermissions, 0)}, false,
			[]time.Duration{time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := testkit.NewClock(start)
			e := &endpoint{clock: clock, script: tc.script}
			p := Policy{Base: time.Second, Cap: time.Minute, Jitter: 1, MaxAttempts: 10, Rand: fixed(0)}
			attempts, done := 0, false
			for {
				err := e.call()
				if err == nil {
					done = true
					break
				}
				attempts++
				d, retry := p.Delay(attempts, err)
				if !retry {
					break
				}
				clock.Set(clock.Now().Add(d)) // the stored due time
			}
			if done != tc.done {
				t.Fatalf("done = %v, want %v after %d calls", done, tc.done, len(e.calls))
			}
			if len(e.calls) != len(tc.gaps)+1 {
				t.Fatalf("%d calls, want %d", len(e.calls), len(tc.gaps)+1)
			}
			for i, g := range tc.gaps {
				if got := e.calls[i+1].Sub(e.calls[i]); got != g {
					t.Fatalf("wait before call %d = %s, want %s", i+2, got, g)
				}
			}
		})
	}
}

// TestBackoffIsRandomByDefault: with no injected Rand the waits of one
// attempt spread (no two processes retry in step) and stay in bounds.
func TestBackoffIsRandomByDefault(t *testing.T) {
	t.Parallel()
	p := Policy{Base: time.Second, Cap: time.Hour, Jitter: 1}
	seen := map[time.Duration]bool{}
	for range 50 {
		d := p.Backoff(4)
		if d <= 0 || d > 8*time.Second {
			t.Fatalf("Backoff(4) = %s, want in (0, 8s]", d)
		}
		seen[d] = true
	}
	if len(seen) < 10 {
		t.Fatalf("50 draws gave %d distinct waits", len(seen))
	}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		f    Failure
		want Class
	}{
		{Failure{Status: 429}, RateLimited},
		{Failure{Status: 429, Code: CodeMissingAccess}, RateLimited},
		{Failure{}, Transient},
		{Failure{Status: 500}, Transient},
		{Failure{Status: 504}, Transient},
		{Failure{Status: 400, Code: CodeServiceRateLimited}, Transient},
		{Failure{Status: 403, Code: CodeMissingAccess}, Refused},
		{Failure{Code: CodeUnknownMessage}, Refused},
		{Failure{Status: 400}, Refused},
		{Failure{Status: 401}, Refused},
	} {
		if got := Classify(tc.f); got != tc.want {
			t.Errorf("Classify(%+v) = %s, want %s", tc.f, got, tc.want)
		}
	}
}

func TestNonce(t *testing.T) {
	t.Parallel()
	a, b := Nonce("g123/00000000000000000042"), Nonce("g123/00000000000000000043")
	if len(a) > MaxNonce || len(a) == 0 {
		t.Fatalf("Nonce is %d characters: %q", len(a), a)
	}
	if a == b {
		t.Fatalf("two effects share the nonce %q", a)
	}
	if a != Nonce("g123/00000000000000000042") {
		t.Fatal("the nonce of one effect changed")
	}
	ctx := context.Background()
	if NonceFrom(ctx) != "" || !TransportRetries(ctx) {
		t.Fatal("a plain context carries a nonce or forbids transport retries")
	}
	ctx = WithoutTransportRetries(WithNonce(ctx, a))
	if NonceFrom(ctx) != a || TransportRetries(ctx) {
		t.Fatalf("marked context: nonce %q, transport retries %v", NonceFrom(ctx), TransportRetries(ctx))
	}
}

func ExamplePolicy_Delay() {
	p := Policy{Base: time.Second, Cap: time.Hour, Jitter: 1, MaxAttempts: 30, Rand: func() float64 { return 0 }}
	rateLimited := fail(429, 0, 5*time.Second)
	gone := fail(404, CodeUnknownChannel, 0)
	for _, err := range []error{rateLimited, fail(502, 0, 0), gone} {
		d, retry := p.Delay(3, err)
		fmt.Println(d, retry)
	}
	// Output:
	// 5s true
	// 4s true
	// 0s false
}
