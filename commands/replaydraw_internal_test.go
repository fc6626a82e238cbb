package commands

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/internal/testkit"
	"sandtable/storage"
)

// TestWaitReplaysSeesADrawingAlreadyDone: a replay whose drawing ends
// before WaitReplays is called still counts as drawn, so a caller looping
// "Deliver while WaitReplays" delivers it (the loop stopped with the replay
// undelivered when the drawing was quick: TestSweepTimesOutOnlyDueGames
// failed in a CI run).
func TestWaitReplaysSeesADrawingAlreadyDone(t *testing.T) {
	t.Parallel()
	a := &App{kicks: make(chan struct{}, 1)}
	require.False(t, a.WaitReplays(), "nothing drawn yet")
	require.Nil(t, a.replay("e1", "s1", &storage.Game{Kind: "none"}), "the drawing starts")
	require.Eventually(t, func() bool {
		a.replays.mu.Lock()
		defer a.replays.mu.Unlock()
		return a.replays.drawing == 0
	}, testkit.Wait, time.Millisecond)
	require.True(t, a.WaitReplays(), "a drawing ended before the call")
	require.False(t, a.WaitReplays(), "and is reported once")
	require.NotNil(t, a.replay("e1", "s1", &storage.Game{Kind: "none"}), "the drawn replay is ready")
}
