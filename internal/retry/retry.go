package retry

import (
	"errors"
	"math/rand/v2"
	"time"
)

// Failure is what a failed call says of itself: the HTTP status (0 when no
// answer came), Discord's JSON error code (0 when none) and the wait the
// server asked for (Retry-After, retry_after; 0 when none).
type Failure struct {
	Status     int
	Code       int
	RetryAfter time.Duration
}

// Describer is implemented by errors that carry their Failure (the bot's
// REST errors; the framework's PlatformError can implement it too).
type Describer interface {
	RetryFailure() Failure
}

// Describe returns the Failure of the first error in err's chain that
// describes itself; ok is false when none does (a call with no answer).
func Describe(err error) (f Failure, ok bool) {
	var d Describer
	if errors.As(err, &d) {
		return d.RetryFailure(), true
	}
	return Failure{}, false
}

// Class is how a failure is retried.
type Class int

const (
	// Transient failures (5xx, no answer) are retried with backoff.
	Transient Class = iota
	// RateLimited failures (429) are retried after their Retry-After.
	RateLimited
	// Refused failures are permanent: not retried.
	Refused
)

func (c Class) String() string {
	switch c {
	case RateLimited:
		return "rate limited"
	case Refused:
		return "refused"
	}
	return "transient"
}

// Discord's JSON error codes the classification knows.
const (
	CodeUnknownChannel          = 10003
	CodeUnknownGuild            = 10004
	CodeUnknownMessage          = 10008
	CodeUnknownUser             = 10013
	CodeUnknownWebhook          = 10015
	CodeUnknownInteraction      = 10062
	CodeMissingAccess           = 50001
	CodeCannotSendToUser        = 50007
	CodeMissingPermissions      = 50013
	CodeInvalidFormBody         = 50035
	CodeInvalidWebhookToken     = 50027
	CodeThreadAlreadyCreated    = 160004
	CodeThreadArchived          = 50083
	CodeCannotExecuteOnChannel  = 50024
	CodeServiceRateLimited      = 40062
	CodeAPIResourceOverloaded   = 130000
	CodeMaxActiveThreadsReached = 160006
)

// permanentCodes are refusals no retry can change: the thing is gone, the
// bot may not touch it, or the request itself is wrong.
var permanentCodes = map[int]bool{
	CodeUnknownChannel: true, CodeUnknownGuild: true, CodeUnknownMessage: true, CodeUnknownUser: true,
	CodeUnknownWebhook: true, CodeUnknownInteraction: true, CodeMissingAccess: true,
	CodeCannotSendToUser: true, CodeMissingPermissions: true, CodeInvalidFormBody: true,
	CodeInvalidWebhookToken: true, CodeThreadAlreadyCreated: true, CodeThreadArchived: true,
	CodeCannotExecuteOnChannel: true,
}

// laterCodes are refusals that say to try again later.
var laterCodes = map[int]bool{CodeServiceRateLimited: true, CodeAPIResourceOverloaded: true, CodeMaxActiveThreadsReached: true}

// Classify says how f is retried: a 429 is rate limited; Discord's code
// decides when it is one the classification knows; else a 4xx but 408 is
// permanent and everything else (5xx, no answer) transient.
func Classify(f Failure) Class {
	switch {
	case f.Status == 429:
		return RateLimited
	case laterCodes[f.Code]:
		return Transient
	case permanentCodes[f.Code]:
		return Refused
	case f.Status == 408:
		return Transient
	case f.Status >= 400 && f.Status < 500:
		return Refused
	}
	return Transient
}

type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// Permanent marks err as one no retry can help (nil stays nil).
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err}
}

// IsPermanent reports whether err is marked Permanent or describes a
// permanent failure.
func IsPermanent(err error) bool {
	var pe *permanentError
	if errors.As(err, &pe) {
		return true
	}
	f, ok := Describe(err)
	return ok && Classify(f) == Refused
}

// Policy is an exponential backoff with jitter and a cap, and the
// classification of failures. The zero value is not useful: see Effects.
type Policy struct {
	// Base is the wait after the first failure (before jitter).
	Base time.Duration
	// Cap bounds the exponential wait (a Retry-After may ask for more).
	Cap time.Duration
	// Jitter is the share of each wait drawn at random: a wait d becomes
	// uniform in (d·(1-Jitter), d]. 1 is full jitter.
	Jitter float64
	// MaxAttempts, when > 0, is the number of failures after which a call
	// is given up.
	MaxAttempts int
	// Rand returns a number in [0, 1); nil is math/rand/v2's Float64.
	Rand func() float64
}

// Effects is the policy of the outbox's Discord effects: 1 s doubling to
// an hour, full jitter, given up after 50 failures (about 19 hours of
// retries on average).
var Effects = Policy{Base: time.Second, Cap: time.Hour, Jitter: 1, MaxAttempts: 50}

// Backoff is the wait after the attempt-th failure (less than 1 counts as
// 1): Base doubled attempt-1 times, at most Cap, with jitter. It is always
// positive when Base is.
func (p Policy) Backoff(attempt int) time.Duration {
	attempt = max(attempt, 1)
	d := p.Cap
	if shift := attempt - 1; shift < 62 && p.Base <= p.Cap>>shift {
		d = p.Base << shift
	}
	return d - time.Duration(p.Jitter*p.rand()*float64(d))
}

// Delay says whether a call that failed for the attempt-th time (1 for the
// first failure) with err is retried, and after how long: never for a
// permanent error or past MaxAttempts; after at least the server's
// Retry-After for a 429 (plus up to a tenth of it, so retries spread); after
// Backoff(attempt), or the Retry-After when longer, otherwise.
func (p Policy) Delay(attempt int, err error) (time.Duration, bool) {
	if err == nil || (p.MaxAttempts > 0 && attempt >= p.MaxAttempts) {
		return 0, false
	}
	var pe *permanentError
	if errors.As(err, &pe) {
		return 0, false
	}
	f, _ := Describe(err)
	switch Classify(f) {
	case Refused:
		return 0, false
	case RateLimited:
		if f.RetryAfter > 0 {
			return f.RetryAfter + time.Duration(p.rand()*float64(f.RetryAfter)/10), true
		}
	}
	return max(p.Backoff(attempt), f.RetryAfter), true
}

func (p Policy) rand() float64 {
	if p.Rand != nil {
		return p.Rand()
	}
	return rand.Float64()
}
