package commands_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/internal/testkit"
	"sandtable/storage"
)

// TestDeliveryFigures: Delivering counts the streams being delivered
// (0, then 1 while a post is held, then 0), PoolSize is App.Workers, and
// OnDone reports each effect done with how long it waited since due: since
// it was queued for a first attempt, since its retry's time after a
// failure. All on the App's clock.
func TestDeliveryFigures(t *testing.T) {
	t.Parallel()
	a, p, _ := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*ogState](a, ogGame{}) })
	a.Workers = 3
	require.Equal(t, 3, a.PoolSize())
	var (
		mu    sync.Mutex
		now   = commandstest.T0
		waits []time.Duration
	)
	a.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	setNow := func(t time.Time) { mu.Lock(); defer mu.Unlock(); now = t }
	a.OnDone = func(d time.Duration) { mu.Lock(); defer mu.Unlock(); waits = append(waits, d) }
	rec := &storage.Game{ID: commands.NewID(), Kind: "og", GuildID: "g", ChannelID: "general", ThreadID: "th1",
		Players: []string{commandstest.Alice.ID}, Active: true}
	require.NoError(t, commands.Create(a, &commands.Request{Now: commandstest.T0}, rec, func(tt *commands.Turn[*ogState]) error {
		tt.Save(&ogState{})
		return nil
	}))
	bump := func() {
		t.Helper()
		_, err := a.Handle(commandstest.Click(commandstest.Alice, "g:"+rec.ID+":bump", "m1"))
		require.NoError(t, err)
	}

	// A post held on its way: one stream in delivery, then none.
	entered, release := make(chan struct{}), make(chan struct{})
	p.Fail = func(op, _ string) error {
		if op == "send" {
			entered <- struct{}{}
			<-release
		}
		return nil
	}
	bump() // queued at T0
	require.Zero(t, a.Delivering())
	setNow(commandstest.T0.Add(3 * time.Second))
	done := make(chan error, 1)
	go func() { _, err := a.Deliver(context.Background(), a.Now()); done <- err }()
	select {
	case <-entered:
	case <-time.After(testkit.Wait):
		t.Fatal("the post was not attempted")
	}
	require.Equal(t, 1, a.Delivering())
	close(release)
	require.NoError(t, <-done)
	require.Zero(t, a.Delivering())
	mu.Lock()
	require.Equal(t, []time.Duration{3 * time.Second}, waits, "waited since queued")
	mu.Unlock()

	// A failed post waits from its retry's due time.
	fails := 1
	p.Fail = func(op, _ string) error {
		if op == "send" && fails > 0 {
			fails--
			return &commands.PlatformError{HTTPStatus: 500, Status: "500 Internal Server Error", Err: errors.New("500: Internal Server Error")}
		}
		return nil
	}
	bump()
	n, err := a.Deliver(context.Background(), a.Now())
	require.NoError(t, err)
	require.Zero(t, n, "the post failed")
	due := a.NextDelivery()
	require.True(t, due.After(a.Now()), "a retry later")
	setNow(due.Add(2 * time.Second))
	n, err = a.Deliver(context.Background(), a.Now())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	mu.Lock()
	require.Equal(t, []time.Duration{3 * time.Second, 2 * time.Second}, waits, "waited since the retry was due")
	mu.Unlock()
	require.Zero(t, a.Delivering())
	require.Zero(t, a.Parked())
}
