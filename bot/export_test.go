package bot

import "context"

// Crash stops b as Shutdown does, except that its outbox claims are kept,
// as when the process dies: another process takes its effects over only
// once their claims run out.
func (b *Bot) Crash(ctx context.Context) error {
	b.skipHandOver = true
	return b.Shutdown(ctx)
}
