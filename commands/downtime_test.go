package commands

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/storage"
)

// TestDowntimeIsCredited: a game whose clock ran out while the bot was down
// is not lost on time at the restart; its deadline moves by the downtime.
func TestDowntimeIsCredited(t *testing.T) {
	a, p := testApp(t)
	id := putSurvival(t, a, kingsShuffle) // deadline t0+1h
	open, err := a.Handle(&Request{Type: CommandRequest, InteractionID: "ch1", GuildID: "g", ChannelID: "general",
		User: alice, Command: "survival", Sub: "challenge", Now: t0,
		Options: map[string]Option{"opponent": {User: &bob}}})
	require.NoError(t, err)
	require.NotNil(t, open)
	require.NoError(t, a.Heartbeat(t0.Add(10*time.Minute)))

	// Down from t0+10m to t0+3h: 2h50m, more than the game had left.
	restart := t0.Add(3 * time.Hour)
	down, err := a.CreditDowntime(restart)
	require.NoError(t, err)
	require.Equal(t, 170*time.Minute, down)
	g, _ := loadState(t, a, id)
	require.True(t, g.Deadline.Equal(t0.Add(time.Hour+170*time.Minute)), "deadline %s", g.Deadline)

	require.NoError(t, a.Sweep(restart))
	g, _ = loadState(t, a, id)
	require.True(t, g.Active, "no loss on time for the downtime")
	require.Empty(t, p.sent)
	require.NoError(t, a.view(func(tx storage.Tx) error {
		n := 0
		err := tx.Challenges().Each(func(id string, _ []byte) error {
			var ch Challenge
			require.NoError(t, getChallenge(tx, id, &ch))
			require.True(t, ch.Expires.Equal(t0.Add(time.Hour+170*time.Minute)), "the challenge's expiry moved too: %s", ch.Expires)
			n++
			return nil
		})
		require.Equal(t, 1, n)
		return err
	}))

	// The remaining 50 minutes still run out.
	require.NoError(t, a.Sweep(g.Deadline))
	g, _ = loadState(t, a, id)
	require.False(t, g.Active)

	// A second start right away credits nothing.
	down, err = a.CreditDowntime(restart.Add(time.Second))
	require.NoError(t, err)
	require.Zero(t, down)
}

func TestNoHeartbeatNoCredit(t *testing.T) {
	a, _ := testApp(t)
	id := putSurvival(t, a, kingsShuffle)
	down, err := a.CreditDowntime(t0.Add(5 * time.Hour))
	require.NoError(t, err)
	require.Zero(t, down, "a first start has nothing to credit")
	g, _ := loadState(t, a, id)
	require.True(t, g.Deadline.Equal(t0.Add(time.Hour)))
}
