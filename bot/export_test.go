package bot

import (
	"context"
	"fmt"
	"time"
)

// Crash stops b as Shutdown does, except that its outbox claims are kept,
// as when the process dies: its lease is abandoned (not revoked), so on a
// shared store another process takes its effects over only once the lease
// runs out.
func (b *Bot) Crash(ctx context.Context) error {
	b.skipHandOver = true
	b.abandoned.Store(true) // no new lease either
	if l := b.lease.Load(); l != nil {
		(*l).Abandon()
	}
	return b.Shutdown(ctx)
}

// WaitIdle returns nil once no interaction is being handled (a handler
// that met a failed answer has also queued its repair, AnswerLost, by then;
// a deferred answer has been sent), or an error after timeout.
func (b *Bot) WaitIdle(timeout time.Duration) error {
	idle := make(chan struct{})
	go func() {
		b.inflight.Wait(nil)
		close(idle)
	}()
	select {
	case <-idle:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("interactions still in flight after %s", timeout)
	}
}
