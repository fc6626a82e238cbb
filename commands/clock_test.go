package commands_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/storage"
)

// clockGame is a fake game whose clock is whatever its state says: the
// framework's clock rule, end and transaction are tested on it once, for
// every game.
type clockGame struct{}

type clockState struct {
	Key    string             `json:"key"`
	Rule   commands.ClockRule `json:"rule"`
	Period time.Duration      `json:"period"`
	Over   bool               `json:"over"`
	N      int                `json:"n"` // actions applied
}

func (clockGame) Spec() commands.Spec[*clockState] {
	return commands.Spec[*clockState]{Name: "clock", Title: "Clock", Definitions: defs("set", "fail"), Thread: map[string]commands.Action[*clockState]{
		// set applies the options to the state.
		"set": func(t *commands.Turn[*clockState]) (*commands.Response, error) {
			s := *t.State
			if k := t.Req.Str("key"); k != "" {
				s.Key = k
			}
			if r := t.Req.Str("rule"); r != "" {
				s.Rule = commands.ClockRule(r)
			}
			if p := t.Req.Str("period"); p != "" {
				d, err := time.ParseDuration(p)
				if err != nil {
					return nil, err
				}
				s.Period = d
			}
			s.Over = t.Req.Str("over") == "yes"
			s.N++
			t.Save(&s)
			t.Post(commands.Message{Content: fmt.Sprint("set ", s.N)})
			return &commands.Response{Message: commands.Message{Content: t.Deadline().Format(time.RFC3339),
				Cards: []*ui.Card{{Title: fmt.Sprint("action ", s.N), Image: "board.png"}},
				Files: []*ui.File{{Name: "board.png", ContentType: "image/png", Data: []byte{1, 2, 3}}}}}, nil
		},
		// fail asks for a change and an effect, then fails.
		"fail": func(t *commands.Turn[*clockState]) (*commands.Response, error) {
			s := *t.State
			s.N++
			t.Save(&s)
			t.Post(commands.Message{Content: "never"})
			return nil, commands.Errorf("refused")
		},
	}}
}

func (clockGame) Version() int                         { return 1 }
func (clockGame) Encode(s *clockState) ([]byte, error) { return json.Marshal(s) }
func (clockGame) Decode(v int, raw []byte) (*clockState, error) {
	var s clockState
	return &s, json.Unmarshal(raw, &s)
}
func (clockGame) Clock(s *clockState) commands.Clock {
	return commands.Clock{Rule: s.Rule, Key: s.Key, Period: s.Period}
}
func (clockGame) Outcome(s *clockState) (storage.Outcome, bool) {
	return storage.Outcome{Method: storage.Agreement}, s.Over
}
func (clockGame) Timeout(t *commands.Turn[*clockState]) error {
	s := *t.State
	s.Key += "+timeout"
	s.N++
	t.Save(&s)
	t.Post(commands.Message{Content: "timeout"})
	return nil
}
func (clockGame) Summary(*storage.Game, *clockState, string) string { return "" }

// clockSetup stores a clock game in thread "th1" with the state st and the
// deadline d.
func clockSetup(t *testing.T, st clockState, d time.Time) (*commands.App, *commandstest.Platform, storage.Store) {
	a, p, store := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*clockState](a, clockGame{}) })
	raw, _ := json.Marshal(st)
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
		return tx.Games().Put(&storage.Game{ID: "game1", Kind: "clock", ThreadID: "th1", Players: []string{commandstest.Alice.ID},
			Active: true, Deadline: d, State: raw, StateVersion: 1}, commandstest.T0)
	}))
	return a, p, store
}

func set(t *testing.T, a *commands.App, at time.Duration, opts map[string]string) (*commands.Response, error) {
	r := commandstest.Cmd(commandstest.Alice, "set", "", opts)
	r.Now = commandstest.T0.Add(at)
	return a.Handle(r)
}

// TestClockRule: the deadline restarts when the clock's key changes, stays
// when it does not, stops without a rule or a period and when the game
// ends; Turn.Deadline tells the action the deadline that is then stored.
func TestClockRule(t *testing.T) {
	t.Parallel()
	d0 := commandstest.T0.Add(time.Hour)
	a, _, store := clockSetup(t, clockState{Key: "1", Rule: commands.PerMove, Period: time.Hour}, d0)
	deadline := func() time.Time { return commandstest.Game(t, store, "game1").Deadline }
	step := func(at time.Duration, opts map[string]string, want time.Time) {
		t.Helper()
		resp, err := set(t, a, at, opts)
		require.NoError(t, err)
		require.True(t, deadline().Equal(want), "deadline %s, want %s", deadline(), want)
		require.Equal(t, want.Format(time.RFC3339), resp.Content, "Turn.Deadline is the deadline stored")
	}
	step(time.Minute, nil, d0)                                                                         // same key: kept
	step(2*time.Minute, map[string]string{"period": "3h"}, d0)                                         // a new period waits for the next key
	step(3*time.Minute, map[string]string{"key": "2"}, commandstest.T0.Add(3*time.Minute+3*time.Hour)) // new key: restarted
	step(4*time.Minute, map[string]string{"rule": string(commands.PerTurn)}, commandstest.T0.Add(4*time.Minute+3*time.Hour))
	step(5*time.Minute, map[string]string{"rule": string(commands.NoClock)}, time.Time{})
	step(6*time.Minute, map[string]string{"rule": string(commands.Deployment)}, commandstest.T0.Add(6*time.Minute+3*time.Hour)) // a clock again after none
	step(7*time.Minute, map[string]string{"key": "3", "period": "0s"}, time.Time{})
	step(8*time.Minute, map[string]string{"period": "1h", "over": "yes"}, time.Time{})
	g := commandstest.Game(t, store, "game1")
	require.False(t, g.Active)
	require.Equal(t, &storage.Outcome{Method: storage.Agreement}, g.Outcome)
}

// TestTimeoutAppliesTheClockRule: a due game's Timeout is saved like an
// action: its effects are queued and its new key restarts the clock.
func TestTimeoutAppliesTheClockRule(t *testing.T) {
	t.Parallel()
	d0 := commandstest.T0.Add(time.Hour)
	a, p, store := clockSetup(t, clockState{Key: "1", Rule: commands.PerMove, Period: time.Hour}, d0)
	require.NoError(t, a.Sweep(d0.Add(-time.Second)))
	require.Equal(t, 0, commandstest.Game(t, store, "game1").Deadline.Compare(d0), "not due: untouched")
	require.NoError(t, a.Sweep(d0))
	g := commandstest.Game(t, store, "game1")
	require.True(t, g.Deadline.Equal(d0.Add(time.Hour)), "restarted at the timeout: %s", g.Deadline)
	require.Equal(t, 1, a.Due(d0))
	commandstest.Deliver(t, a, d0)
	posts, _ := p.Snapshot()
	require.Len(t, posts, 1)
	require.Equal(t, "timeout", posts[0].Msg.Content)
	require.Equal(t, "th1", posts[0].Channel)
}

// TestRefusedActionChangesNothing: an action that fails saves neither its
// state nor its effects, and does not use up the interaction.
func TestRefusedActionChangesNothing(t *testing.T) {
	t.Parallel()
	a, p, store := clockSetup(t, clockState{Key: "1", Rule: commands.PerMove, Period: time.Hour}, commandstest.T0.Add(time.Hour))
	r := commandstest.Cmd(commandstest.Alice, "fail", "", nil)
	_, err := a.Handle(r)
	require.Equal(t, "refused", commandstest.UserMsg(t, err))
	before := commandstest.Game(t, store, "game1")
	require.Equal(t, 0, a.Pending())
	require.Zero(t, commandstest.Deliver(t, a, commandstest.T0))
	posts, _ := p.Snapshot()
	require.Empty(t, posts)
	var st clockState
	require.NoError(t, json.Unmarshal(before.State, &st))
	require.Zero(t, st.N)

	// The same interaction ID applied once, then refused.
	ok := commandstest.Cmd(commandstest.Alice, "set", "", nil)
	ok.InteractionID = r.InteractionID
	_, err = a.Handle(ok)
	require.NoError(t, err)
	_, err = a.Handle(ok)
	require.Contains(t, commandstest.UserMsg(t, err), "already applied")
	require.Equal(t, 1, a.Pending(), "one effect for one application")
}

// TestEffectsAreRetriedInOrder: a failed post is retried after its backoff
// and the game's later effects wait for it; a refusal Discord will repeat
// (a 4xx) is dropped instead.
func TestEffectsAreRetriedInOrder(t *testing.T) {
	t.Parallel()
	a, p, _ := clockSetup(t, clockState{Key: "1", Rule: commands.PerMove, Period: time.Hour}, commandstest.T0.Add(time.Hour))
	fails := 1
	p.Fail = func(op, ch string) error {
		if op == "send" && fails > 0 {
			fails--
			return &commands.PlatformError{HTTPStatus: 500, Status: "500 Internal Server Error", Err: errors.New("500")}
		}
		return nil
	}
	for i := 0; i < 2; i++ {
		_, err := set(t, a, 0, nil)
		require.NoError(t, err)
	}
	require.Zero(t, commandstest.Deliver(t, a, commandstest.T0))
	require.Equal(t, 2, a.Pending(), "the second waits behind the first")
	require.Zero(t, commandstest.Deliver(t, a, commandstest.T0), "retried after a wait, not at once")
	// The first wait is at most a second (retry.Effects: full jitter).
	require.Equal(t, 2, commandstest.Deliver(t, a, commandstest.T0.Add(time.Second)))
	posts, _ := p.Snapshot()
	require.Len(t, posts, 2)

	p.Fail = func(op, ch string) error {
		return &commands.PlatformError{HTTPStatus: 403, Status: "403 Forbidden", Err: errors.New("403")}
	}
	_, err := set(t, a, 0, nil)
	require.NoError(t, err)
	require.Equal(t, 1, commandstest.Deliver(t, a, commandstest.T0))
	require.Equal(t, 0, a.Pending(), "a 403 is not retried")
}

// TestAnswerCopies: the public answer to a saved change is saved with it;
// confirmed shown, the copy is dropped; lost in sending, it is posted at
// once; never confirmed (a crash before the answer), it is posted after
// the grace period.
func TestAnswerCopies(t *testing.T) {
	t.Parallel()
	a, p, _ := clockSetup(t, clockState{Key: "1", Rule: commands.PerMove, Period: time.Hour}, commandstest.T0.Add(time.Hour))
	a.AnswerCopies = true
	answers := func() int {
		posts, _ := p.Snapshot()
		n := 0
		for _, s := range posts {
			if !strings.HasPrefix(s.Msg.Content, "set ") {
				n++
			}
		}
		return n
	}
	shown, err := set(t, a, 0, nil)
	require.NoError(t, err)
	require.True(t, shown.Committed)
	a.AnswerSent(shown)
	lost, err := set(t, a, 0, nil)
	require.NoError(t, err)
	a.AnswerLost("th1", "", lost)
	crashed, err := set(t, a, 0, nil)
	require.NoError(t, err)
	require.True(t, crashed.Committed)

	commandstest.Deliver(t, a, commandstest.T0)
	require.Equal(t, 1, answers(), "the lost answer is posted at once")
	posts, _ := p.Snapshot()
	for _, s := range posts {
		if s.Msg.Content == lost.Content {
			require.Len(t, s.Msg.Files, 1, "whole, with its image")
		}
	}
	commandstest.Deliver(t, a, commandstest.T0.Add(29*time.Second))
	require.Equal(t, 1, answers())
	commandstest.Deliver(t, a, commandstest.T0.Add(30*time.Second))
	require.Equal(t, 2, answers(), "the unconfirmed answer after the grace; the shown one never")
	require.Zero(t, a.Pending())
	posts, _ = p.Snapshot()
	var last commands.Message
	for _, s := range posts {
		if s.Msg.Content == crashed.Content && len(s.Msg.Cards) > 0 && s.Msg.Cards[0].Title == crashed.Cards[0].Title {
			last = s.Msg
			require.Equal(t, "th1", s.Channel)
		}
	}
	require.NotEmpty(t, last.Cards, "the crashed answer's copy is posted")
	require.Empty(t, last.Files, "the saved copy is small: no image")
	require.Empty(t, last.Cards[0].Image, "and no card pointing at one")

	refused := commandstest.Cmd(commandstest.Alice, "fail", "", nil)
	_, err = a.Handle(refused)
	require.Error(t, err)
	require.Zero(t, a.Pending(), "a refusal saves no answer")
}

// TestShownAnswerCopiesDroppedAtOnce: the copies of answers confirmed
// shown leave the outbox at the next delivery pass, not when they fall
// due: every pass scans the outbox, which would otherwise hold a copy of
// every answer of the last 30 seconds (7,500 at 250 moves a second;
// BenchmarkProcesses). Copies not confirmed stay until due.
func TestShownAnswerCopiesDroppedAtOnce(t *testing.T) {
	t.Parallel()
	a, _, _ := clockSetup(t, clockState{Key: "1", Rule: commands.PerMove, Period: time.Hour}, commandstest.T0.Add(time.Hour))
	a.AnswerCopies = true
	for range 3 {
		shown, err := set(t, a, 0, nil)
		require.NoError(t, err)
		a.AnswerSent(shown)
	}
	crashed, err := set(t, a, 0, nil)
	require.NoError(t, err)
	require.True(t, crashed.Committed)
	commandstest.Deliver(t, a, commandstest.T0)
	// Failed before the fix: 4 (the three shown copies waited for their due time).
	require.Equal(t, 1, a.Pending(), "only the copy of the answer never confirmed")
	commandstest.Deliver(t, a, commandstest.T0.Add(30*time.Second))
	require.Zero(t, a.Pending())
}

// TestEditRefusedForGoodIsPostedAnew: an edit Discord refuses for good
// because the message was edited too often (30046) is posted as a new
// message instead of being lost; another 4xx is dropped.
func TestEditRefusedForGoodIsPostedAnew(t *testing.T) {
	t.Parallel()
	a, p, store := clockSetup(t, clockState{Key: "1", Rule: commands.PerMove, Period: time.Hour}, commandstest.T0.Add(time.Hour))
	edit := func(code int) {
		require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
			_, err := tx.Outbox().Add("x", commands.Effect{Op: commands.OpEdit, Channel: "general", Message: "old",
				Body: &commands.Message{Content: fmt.Sprint("closed ", code)}})
			return err
		}))
		p.Fail = func(op, ch string) error {
			if op == "edit" {
				return &commands.PlatformError{HTTPStatus: 400, Code: code, Err: errors.New("400")}
			}
			return nil
		}
		commandstest.Deliver(t, a, commandstest.T0)
	}
	edit(30046)
	edit(10008)
	posts, _ := p.Snapshot()
	require.Len(t, posts, 1)
	require.Equal(t, "closed 30046", posts[0].Msg.Content)
	require.Equal(t, "general", posts[0].Channel)
	require.Zero(t, a.Pending())
}

// TestClockReadBeforeTheAction: an action that changes the state it was
// given in place (S is a pointer) still restarts the clock when the key
// changes: the framework reads the clock before the action runs.
func TestClockReadBeforeTheAction(t *testing.T) {
	t.Parallel()
	a, _, store := clockSetup(t, clockState{Key: "1", Rule: commands.PerMove, Period: time.Hour}, commandstest.T0.Add(time.Hour))
	commands.Register[*clockState](a, inPlace{})
	raw, _ := json.Marshal(clockState{Key: "1", Rule: commands.PerMove, Period: time.Hour})
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
		return tx.Games().Put(&storage.Game{ID: "game2", Kind: "inplace", ThreadID: "th2", Players: []string{commandstest.Alice.ID},
			Active: true, Deadline: commandstest.T0.Add(time.Hour), State: raw, StateVersion: 1}, commandstest.T0)
	}))
	r := commandstest.Cmd(commandstest.Alice, "bump", "", nil)
	r.ChannelID, r.Now = "th2", commandstest.T0.Add(time.Minute)
	_, err := a.Handle(r)
	require.NoError(t, err)
	require.True(t, commandstest.Game(t, store, "game2").Deadline.Equal(commandstest.T0.Add(time.Minute+time.Hour)))
}

// inPlace is clockGame whose only action bumps the key in place.
type inPlace struct{ clockGame }

func (inPlace) Spec() commands.Spec[*clockState] {
	return commands.Spec[*clockState]{Name: "inplace", Title: "In place", Definitions: defs("bump"), Thread: map[string]commands.Action[*clockState]{
		"bump": func(t *commands.Turn[*clockState]) (*commands.Response, error) {
			t.State.Key += "+"
			t.Save(t.State)
			return &commands.Response{}, nil
		},
	}}
}

// TestInlineDelivery: with DeliverInline (the bot's default), an action's
// effects are performed right after its commit, before it answers, in
// order; what fails is left to the outbox, which retries it.
func TestInlineDelivery(t *testing.T) {
	t.Parallel()
	a, p, _ := clockSetup(t, clockState{Key: "1", Rule: commands.PerMove, Period: time.Hour}, commandstest.T0.Add(time.Hour))
	a.DeliverInline = true
	_, err := set(t, a, 0, nil)
	require.NoError(t, err)
	posts, _ := p.Snapshot()
	require.Len(t, posts, 1, "posted before the answer")
	require.Zero(t, a.Pending())

	p.Fail = func(op, ch string) error {
		return &commands.PlatformError{HTTPStatus: 500, Status: "500 Internal Server Error", Err: errors.New("500")}
	}
	_, err = set(t, a, 0, nil)
	require.NoError(t, err, "a failed effect does not fail the action")
	require.Equal(t, 1, a.Pending(), "left to the outbox")
	p.Fail = nil
	commandstest.Deliver(t, a, commandstest.T0.Add(time.Second))
	posts, _ = p.Snapshot()
	require.Len(t, posts, 2)
}

// TestRestartReconcilesUnknownEffects: a process that finds an effect it
// did not queue (a restart after a crash) cannot know whether the crashed
// one performed it: a post or a direct message already there is not
// repeated, one not there is made.
func TestRestartReconcilesUnknownEffects(t *testing.T) {
	t.Parallel()
	a, p, store := clockSetup(t, clockState{Key: "1", Rule: commands.PerMove, Period: time.Hour}, commandstest.T0.Add(time.Hour))
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
		for _, e := range []commands.Effect{
			{Op: commands.OpPost, Channel: "th1", Body: &commands.Message{Content: "done before the crash"}},
			{Op: commands.OpDM, User: commandstest.Bob.ID, Body: &commands.Message{Content: "panel sent before the crash"}},
			{Op: commands.OpPost, Channel: "th1", Body: &commands.Message{Content: "not done"}},
		} {
			if _, err := tx.Outbox().Add(fmt.Sprint("s", e.Op, e.Body.Content[:3]), e); err != nil {
				return err
			}
		}
		return nil
	}))
	// What the crashed process did before it died.
	_, err := p.Send(t.Context(), "th1", commands.Message{Content: "done before the crash"})
	require.NoError(t, err)
	_, err = p.DM(t.Context(), commandstest.Bob.ID, commands.Message{Content: "panel sent before the crash"})
	require.NoError(t, err)

	require.Equal(t, 3, commandstest.Deliver(t, a, commandstest.T0))
	posts, _ := p.Snapshot()
	var texts []string
	for _, s := range posts {
		texts = append(texts, s.Msg.Content)
	}
	require.ElementsMatch(t, []string{"done before the crash", "not done"}, texts, "nothing twice")
	require.Len(t, p.DMs[commandstest.Bob.ID], 1, "the panel once")
}

// TestEffectsOnlyActionAppliedOnce: an action that only does something on
// Discord (no new state) is refused when its interaction comes again, so
// it is not done twice.
func TestEffectsOnlyActionAppliedOnce(t *testing.T) {
	t.Parallel()
	a, _, store := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*clockState](a, postOnly{}) })
	raw, _ := json.Marshal(clockState{Key: "1"})
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
		return tx.Games().Put(&storage.Game{ID: "game1", Kind: "clock", ThreadID: "th1", Players: []string{commandstest.Alice.ID},
			Active: true, State: raw, StateVersion: 1}, commandstest.T0)
	}))
	r := commandstest.Cmd(commandstest.Alice, "shout", "", nil)
	_, err := a.Handle(r)
	require.NoError(t, err)
	_, err = a.Handle(r)
	require.Contains(t, commandstest.UserMsg(t, err), "already applied")
	require.Equal(t, 1, a.Pending())
}

// postOnly is clockGame with one action that only posts.
type postOnly struct{ clockGame }

func (postOnly) Spec() commands.Spec[*clockState] {
	return commands.Spec[*clockState]{Name: "clock", Title: "Clock", Definitions: defs("shout"), Thread: map[string]commands.Action[*clockState]{
		"shout": func(t *commands.Turn[*clockState]) (*commands.Response, error) {
			t.Post(commands.Message{Content: "shout"})
			return &commands.Response{Ephemeral: true, Message: commands.Message{Content: "shouted"}}, nil
		},
	}}
}

// defs defines the test games' commands (Register refuses a route to a
// command defined nowhere).
func defs(names ...string) []*ui.Command {
	out := make([]*ui.Command, len(names))
	for i, n := range names {
		out[i] = &ui.Command{Name: n, Description: "A test command"}
	}
	return out
}
