package outbox

import (
	"errors"
	"time"
)

// MaxAttempts is how many failed attempts an effect gets before it is
// dropped (logged as an error): with the backoff, about a day of retries.
const MaxAttempts = 30

// Backoff is the wait after the n-th failed attempt (1, 2, 4 ... seconds,
// at most an hour).
func Backoff(n int) time.Duration {
	if n > 12 {
		return time.Hour
	}
	d := time.Second << (n - 1)
	if d > time.Hour {
		d = time.Hour
	}
	return d
}

// Permanent reports whether retrying err cannot help: Discord refused the
// request itself (4xx but 429), or the channel holds no threads.
func Permanent(err error) bool {
	if errors.Is(err, ErrNoThreads) {
		return true
	}
	var pe *PlatformError
	return errors.As(err, &pe) && pe.HTTPStatus >= 400 && pe.HTTPStatus < 500 && pe.HTTPStatus != 429
}

// CodeTooManyEdits is Discord's refusal to edit a message older than an
// hour too many times (30046): the edit is posted as a new message.
const CodeTooManyEdits = 30046
