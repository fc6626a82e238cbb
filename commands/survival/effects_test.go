package survival

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
)

// Survival's effects (the first board, the players added to the thread,
// the time-out's announcement) go through the framework's outbox: these
// tests check that Discord failing delays them and never loses or repeats
// them.

var serverError = &commands.PlatformError{HTTPStatus: 500, Status: "500 Internal Server Error", Err: errors.New("HTTP 500")}

// failOnce makes p fail the next call of each op in ops with a 500.
func failOnce(p *commandstest.Platform, ops ...string) {
	pending := map[string]bool{}
	for _, op := range ops {
		pending[op] = true
	}
	p.Fail = func(op, _ string) error {
		if pending[op] {
			pending[op] = false
			return serverError
		}
		return nil
	}
}

// TestTimeLossAnnouncedDespiteErrors: a 500 on the time-out's
// announcement delays it; it is posted once, with the record, on a later
// delivery.
func TestTimeLossAnnouncedDespiteErrors(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	id := putGame(t, store, kingsShuffle, "a1a2")
	failOnce(p, "send")
	require.NoError(t, a.Sweep(t0.Add(time.Hour)))
	g, _ := load(t, store, id)
	require.False(t, g.Active, "the result is stored")
	commandstest.Deliver(t, a, t0.Add(time.Hour))
	require.Empty(t, p.Posts)
	require.Equal(t, 5, a.Pending(), "the announcement, the pings' delete, then the replay and the thread's closing (summary, archive), due later")
	next := a.NextDelivery()
	require.True(t, next.After(t0.Add(time.Hour)), "a retry is due later: %s", next)
	commandstest.Deliver(t, a, next)
	require.Len(t, p.Posts, 1)
	require.Contains(t, p.Posts[0].Msg.Content, "ran out of time")
	require.NotNil(t, fileOf(p.Posts[0].Msg, ".pgn"))
	commandstest.Deliver(t, a, next.Add(time.Hour))
	require.Len(t, p.Posts, 3, "the announcement once, then the replay and the closing summary")
	require.Contains(t, p.Posts[1].Msg.Content, "Replay")
	require.Contains(t, p.Posts[2].Msg.Content, "Game over")
	require.True(t, p.Archived["th1"], "the thread is archived and locked")
}

// lossyPlatform posts like its Platform but answers the first lose posts
// with a 502, as when Discord posted and its answer was lost.
type lossyPlatform struct {
	*commandstest.Platform
	mu   sync.Mutex
	lose int
}

func (p *lossyPlatform) Send(ctx context.Context, channelID string, m commands.Message) (string, error) {
	id, err := p.Platform.Send(ctx, channelID, m)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err == nil && p.lose > 0 {
		p.lose--
		return "", &commands.PlatformError{HTTPStatus: 502, Status: "502 Bad Gateway", Err: errors.New("HTTP 502")}
	}
	return id, err
}

// TestLostAnswerNotPostedTwice: when Discord posted the time-out's
// announcement but its answer was lost, the retry finds the post among the
// thread's recent messages and posts nothing more.
func TestLostAnswerNotPostedTwice(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	a.Platform = &lossyPlatform{Platform: p, lose: 1}
	putGame(t, store, kingsShuffle)
	require.NoError(t, a.Sweep(t0.Add(time.Hour)))
	commandstest.Deliver(t, a, t0.Add(time.Hour))
	require.Len(t, p.Posts, 1, "Discord has it")
	require.Equal(t, 5, a.Pending(), "the bot does not know (and the pings' delete, the replay and the thread's closing are due later)")
	commandstest.Deliver(t, a, a.NextDelivery())
	require.Equal(t, 3, a.Pending(), "the replay and the thread's closing are due later")
	require.Len(t, p.Posts, 1, "the retry recognised the post")
}

// TestPlayersAddedDespiteErrors: a 500 on adding a player to the new
// game's thread is retried, and the first board follows it.
func TestPlayersAddedDespiteErrors(t *testing.T) {
	t.Parallel()
	a, p, _ := newApp(t)
	msg := challengeOf(t, a, "chal1", nil)
	_, err := a.Handle(commandstest.Click(bob, buttonOf(t, msg, "Accept"), "chal1"))
	require.NoError(t, err)
	failOnce(p, "member")
	commandstest.Deliver(t, a, t0)
	require.Empty(t, p.Members["chal1"])
	require.Empty(t, p.Posts, "the game's effects are delivered in order")
	for i := 0; a.Pending() > 0; i++ {
		require.Less(t, i, 5, "delivered within a few retries")
		commandstest.Deliver(t, a, a.NextDelivery())
	}
	require.ElementsMatch(t, []string{alice.ID, bob.ID}, p.Members["chal1"])
	require.Len(t, p.Posts, 2, "the board and the first turn's ping")
	require.Equal(t, "chal1", p.Posts[0].Channel)
}

// TestSimultaneousMovesApplyOnce: the same move sent many times at once
// (double clicks, two devices) is played once; the others are refused.
func TestSimultaneousMovesApplyOnce(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	id := putGame(t, store, kingsShuffle)
	const n = 8
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := a.Handle(cmd(alice, "move", "", map[string]string{"move": "Ka2"}))
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	ok := 0
	for err := range errs {
		if err == nil {
			ok++
			continue
		}
		require.Contains(t, userMsg(t, err), "It is not your turn")
	}
	require.Equal(t, 1, ok)
	_, st := load(t, store, id)
	require.Equal(t, []string{"a1a2"}, st.Moves)
}

// TestExpiredChallengeEditRetried: the edit that closes an expired
// challenge's message is an effect like the others: a 500 delays it, it
// is not lost.
func TestExpiredChallengeEditRetried(t *testing.T) {
	t.Parallel()
	a, p, _ := newApp(t)
	challengeOf(t, a, "chal1", nil)
	failOnce(p, "edit")
	require.NoError(t, a.Sweep(t0.Add(time.Hour)))
	commandstest.Deliver(t, a, t0.Add(time.Hour))
	require.Empty(t, p.Edits)
	for i := 0; i < 5 && len(p.Edits) == 0; i++ {
		at := t0.Add(time.Hour + time.Duration(i+1)*time.Minute)
		require.NoError(t, a.Sweep(at))
		commandstest.Deliver(t, a, at)
	}
	require.Len(t, p.Edits, 1, "the expired challenge's message is closed after the 500")
	require.Equal(t, "chal1", p.Edits[0].ID)
	require.Empty(t, p.Edits[0].Msg.Rows)
}

// TestGameEffectsKeepTheirOrder: a game's effects are delivered in the
// order they were made: a time-out's announcement waits for the first
// board that Discord refused earlier.
func TestGameEffectsKeepTheirOrder(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	msg := challengeOf(t, a, "chal1", nil)
	_, err := a.Handle(commandstest.Click(bob, buttonOf(t, msg, "Accept"), "chal1"))
	require.NoError(t, err)
	failOnce(p, "send")
	commandstest.Deliver(t, a, t0)
	require.Empty(t, p.Posts)

	late := t0.Add(24 * time.Hour)
	require.NoError(t, a.Sweep(late))
	g, _ := gameIn(t, store, "chal1")
	require.False(t, g.Active, "White never moved: aborted")
	commandstest.Deliver(t, a, late)
	require.Len(t, p.Posts, 2, "the first board and the first turn's ping")
	require.Contains(t, p.Posts[0].Msg.Content, "White moves first", "the first board first")
	last := p.Edits[len(p.Edits)-1]
	require.Equal(t, p.Posts[0].ID, last.ID)
	require.Contains(t, last.Msg.Content, "aborted", "then the time-out, on the live board")
	require.Len(t, p.Deleted, 1, "and the ping deleted")
}
