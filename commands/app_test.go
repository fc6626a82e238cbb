package commands_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/storage"
)

var (
	alice = commandstest.Alice
	t0    = commandstest.T0
)

func TestCustomIDValidation(t *testing.T) {
	t.Parallel()
	good := []string{"c:abcd1234:accept", "g:abcdef:flip", "g:abcdef:draw-accept:x"}
	for _, s := range good {
		c, err := commands.ParseCustomID(s)
		require.NoError(t, err, s)
		require.Equal(t, s, c.String())
	}
	bad := []string{"", "x", "g:abc", "q:abcdef:flip", "g:ABCDEF:flip", "g:abcdef:", "g:abcdef:Flip", "g:ab:flip", "g:abcdef:fl!p",
		"g:" + string(make([]byte, 200)) + ":flip"}
	for _, s := range bad {
		_, err := commands.ParseCustomID(s)
		require.Error(t, err, s)
	}
	a, _, _ := commandstest.NewApp(t)
	_, err := a.Handle(&commands.Request{Type: commands.ComponentRequest, CustomID: "g:nosuchgame:flip", User: alice})
	require.Contains(t, commandstest.UserMsg(t, err), "no longer exists")
	_, err = a.Handle(&commands.Request{Type: commands.ComponentRequest, CustomID: "evil", User: alice})
	require.Contains(t, commandstest.UserMsg(t, err), "not one of mine")
}

// TestSendPrivately: a secret goes by direct message (its ID kept, to edit
// it later), ephemerally with the reason when the user's DMs are closed,
// and a Discord failure is an error, not "your DMs are closed".
func TestSendPrivately(t *testing.T) {
	t.Parallel()
	a, p, _ := commandstest.NewApp(t)
	req := commandstest.Cmd(alice, "x", "", nil)
	r, id, err := a.SendPrivatelyID(req, commands.Message{Content: "secret"}, "sent by DM")
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	require.Equal(t, "sent by DM", r.Content)
	require.Equal(t, "secret", p.DMs[alice.ID][0].Content)
	require.NotEmpty(t, id, "the direct message's ID, to edit it later")
	p.Closed[alice.ID] = true
	r, id, err = a.SendPrivatelyID(req, commands.Message{Content: "secret"}, "sent by DM")
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	require.Equal(t, commands.DMClosedNote+"\nsecret", r.Content)
	require.Empty(t, id, "shown ephemerally: nothing to edit later")
	p.Closed[alice.ID] = false
	p.Fail = func(op, _ string) error {
		if op == "dm" {
			return fmt.Errorf("500 Internal Server Error")
		}
		return nil
	}
	_, err = a.SendPrivately(req, commands.Message{Content: "secret"}, "sent by DM")
	require.Error(t, err)
	var ue *commands.UserError
	require.False(t, errors.As(err, &ue), "a failure on Discord's side is not the user's fault")
	require.NotErrorIs(t, err, commands.ErrDMClosed, "a 500 is not a closed DM")
}

// TestMoveTimeNamesTheRange: every refused move_time names the allowed
// range, also one too large to be read as a duration at all.
func TestMoveTimeNamesTheRange(t *testing.T) {
	t.Parallel()
	a, _, _ := commandstest.NewApp(t)
	for _, in := range []string{"99999d", "soon", "10s", "31d", "-5m"} {
		_, err := a.MoveTimeOption(commandstest.Cmd(alice, "survival", "challenge", map[string]string{"move_time": in}), "move_time")
		msg := commandstest.UserMsg(t, err)
		require.Contains(t, msg, "between 1m and 30d", in)
		require.Contains(t, msg, "`"+in+"`", in)
	}
	d, err := a.MoveTimeOption(commandstest.Cmd(alice, "survival", "challenge", map[string]string{"move_time": "30d"}), "move_time")
	require.NoError(t, err)
	require.Equal(t, "720h0m0s", d.String())
}

// BenchmarkStartAfterDowntime measures crediting 10 minutes of downtime
// to 10,000 running games (issue 13's target: at most 70 ms, and no growth
// of the database file), reported with the file's growth in bytes. The
// games' kind is not registered: crediting downtime reads no state.
func BenchmarkStartAfterDowntime(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.db")
	store, err := storage.Open(path, time.Second)
	require.NoError(b, err)
	b.Cleanup(func() { store.Close() })
	a, _, _ := commandstest.NewApp(b)
	a.Store = store
	for start := 0; start < 10000; start += 1000 {
		require.NoError(b, store.Update(b.Context(), func(tx storage.Tx) error {
			for i := start; i < start+1000; i++ {
				g := &storage.Game{ID: fmt.Sprintf("g%05d", i), Kind: "survival", GuildID: "g", ChannelID: "general",
					ThreadID: fmt.Sprintf("th%05d", i), Players: []string{alice.ID, commandstest.Bob.ID}, Active: true,
					Deadline: t0.Add(time.Hour), State: []byte(`{}`)}
				if err := tx.Games().Put(g, t0.Add(time.Duration(i)*time.Second)); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	st, err := os.Stat(path)
	require.NoError(b, err)
	before := st.Size()
	now := t0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		require.NoError(b, a.Heartbeat(now))
		now = now.Add(10 * time.Minute)
		down, err := a.CreditDowntime(now)
		if err != nil || down != 10*time.Minute {
			b.Fatal(down, err)
		}
	}
	b.StopTimer()
	st, err = os.Stat(path)
	require.NoError(b, err)
	b.ReportMetric(float64(st.Size()-before), "file-growth-bytes")
}
