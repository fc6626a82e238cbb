package bot

import "context"

// Crash stops b as Shutdown does, except that its outbox claims are kept,
// as when the process dies: another process takes its effects over only
// once their claims run out.
func (b *Bot) Crash(ctx context.Context) error {
	b.skipHandOver = true
	return b.Shutdown(ctx)
}

// WaitIdle returns once no interaction is being handled: a handler that
// met a failed answer has also queued its repair (AnswerLost) by then.
func (b *Bot) WaitIdle() { b.inflight.Wait(nil) }
