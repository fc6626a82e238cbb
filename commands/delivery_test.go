package commands_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/storage"
)

// gatedPlatform holds every post to the channel slow until open is closed,
// telling held when the first one arrives.
type gatedPlatform struct {
	*commandstest.Platform
	slow       string
	held, open chan struct{}
}

func (g *gatedPlatform) Send(ctx context.Context, channelID string, m commands.Message) (string, error) {
	if channelID == g.slow {
		select {
		case g.held <- struct{}{}:
		default:
		}
		select {
		case <-g.open:
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	return g.Platform.Send(ctx, channelID, m)
}

// TestDeliveryDoesNotWaitForOtherGames: while one game's post hangs, the
// dispatcher delivers the other streams (a pool of workers, each stream in
// order), and an action delivers its own effects before it answers.
func TestDeliveryDoesNotWaitForOtherGames(t *testing.T) {
	t.Parallel()
	a, p, store := clockSetup(t, clockState{Key: "1", Rule: commands.PerMove, Period: time.Hour}, commandstest.T0.Add(time.Hour))
	g := &gatedPlatform{Platform: p, slow: "slow", held: make(chan struct{}, 1), open: make(chan struct{})}
	a.Platform = g
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
		for _, s := range []struct{ stream, channel, text string }{
			{"hung", "slow", "hangs"}, {"other", "fast", "first"}, {"other", "fast", "second"},
		} {
			if _, err := tx.Outbox().Add(s.stream, commands.Effect{Op: commands.OpPost, Channel: s.channel, Body: &commands.Message{Content: s.text}}); err != nil {
				return err
			}
		}
		return nil
	}))
	type result struct {
		n   int
		err error
	}
	delivered := make(chan result, 1)
	go func() {
		n, err := a.Deliver(context.Background(), commandstest.T0)
		delivered <- result{n, err}
	}()
	select {
	case <-g.held:
	case <-time.After(30 * time.Second):
		t.Fatal("the hanging post was never attempted")
	}
	posted := func(channel string) []string {
		posts, _ := p.Snapshot()
		var out []string
		for _, s := range posts {
			if s.Channel == channel {
				out = append(out, s.Msg.Content)
			}
		}
		return out
	}
	require.Eventually(t, func() bool { return len(posted("fast")) == 2 }, 30*time.Second, time.Millisecond,
		"the other stream is delivered while one hangs")
	require.Equal(t, []string{"first", "second"}, posted("fast"), "in order")

	a.DeliverInline = true
	_, err := set(t, a, 0, nil)
	require.NoError(t, err)
	require.Len(t, posted("th1"), 1, "the action's own post went out before its answer")

	close(g.open)
	select {
	case r := <-delivered:
		require.NoError(t, r.err)
		require.Equal(t, 3, r.n)
	case <-time.After(30 * time.Second):
		t.Fatal("Deliver did not end")
	}
	require.Equal(t, []string{"hangs"}, posted("slow"))
	require.Zero(t, a.Pending())
}
