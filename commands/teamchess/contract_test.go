package teamchess

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/games/chess"
	tc "sandtable/games/teamchess"
	"sandtable/storage"
)

// TestMoveTimerRestartsWithEveryTransition: the clock key changes exactly
// when a transition is saved (ruling D9): a move, a voluntary tag-out and
// a timeout each give the next commander the full move time; a refused
// action or a read (/board, /record) keeps the deadline; the end stops it.
func TestMoveTimerRestartsWithEveryTransition(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	g, pub, _ := startGame(t, a, store, "", []commands.User{alice, bob}, []commands.User{carol, dan})
	deadline := func() time.Time { return commandstest.Game(t, store, g.ID).Deadline }
	require.Equal(t, t0.Add(time.Hour), deadline(), "the first commander has the move time from the start")
	at := func(u commands.User, minutes int, command, sub string, opts map[string]string) error {
		r := in(u, pub, command, sub, opts)
		r.Now = t0.Add(time.Duration(minutes) * time.Minute)
		if command == "tagout" || command == "resign" {
			_, err := commandstest.Confirm(t, a, r)
			return err
		}
		_, err := a.Handle(r)
		return err
	}
	require.NoError(t, at(alice, 54, "move", "", map[string]string{"move": "e4"}))
	require.Equal(t, t0.Add(114*time.Minute), deadline(), "a move restarts it")
	require.Error(t, at(carol, 60, "move", "", map[string]string{"move": "e4"}))
	require.NoError(t, at(dan, 61, "board", "", nil))
	require.NoError(t, at(dan, 62, "record", "", nil))
	require.Equal(t, t0.Add(114*time.Minute), deadline(), "a refusal or a read keeps it")
	require.NoError(t, at(carol, 100, "tagout", "", nil))
	require.Equal(t, t0.Add(160*time.Minute), deadline(), "a tag-out restarts it")

	require.NoError(t, at(dan, 110, "move", "", map[string]string{"move": "e5"}))
	require.Equal(t, t0.Add(170*time.Minute), deadline())

	require.NoError(t, a.Sweep(t0.Add(169*time.Minute)))
	require.Len(t, load(t, store, g.ID).game.State().Actions, 3, "not due yet")
	require.NoError(t, a.Sweep(t0.Add(170*time.Minute)))
	s := load(t, store, g.ID)
	require.Equal(t, tc.ActTimeout, s.game.State().Actions[3].Kind, "alice ran out of time")
	require.Equal(t, t0.Add(230*time.Minute), deadline(), "a timeout restarts it for the next commander")
	require.Equal(t, commands.Clock{Rule: commands.PerMove, Actors: []string{bob.ID}, Key: "4", Period: time.Hour, PingIn: s.TeamThreads[s.game.Turn()]}, Game{}.Clock(s))

	require.NoError(t, at(bob, 240, "resign", "", nil))
	g = commandstest.Game(t, store, g.ID)
	require.False(t, g.Active)
	require.True(t, g.Deadline.IsZero(), "the end stops it")
}

// TestNoMoveTimeNoClock: a game without a move time has no deadline.
func TestNoMoveTimeNoClock(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	l := &lobby{ID: commands.NewID(), Kind: Kind, GuildID: "g", ChannelID: "general", Creator: alice,
		White: []commands.User{alice}, Black: []commands.User{bob}}
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error { return tx.Lobbies().Put(l.ID, time.Time{}, l) }))
	_, err := a.Handle(commandstest.Click(alice, commands.CustomID{Scope: "c", ID: l.ID, Action: "start"}.String(), "m"))
	require.NoError(t, err)
	g := commandstest.Game(t, store, l.ID)
	require.True(t, g.Deadline.IsZero())
	r := in(alice, g.ThreadID, "move", "", map[string]string{"move": "e4"})
	_, err = a.Handle(r)
	require.NoError(t, err)
	require.True(t, commandstest.Game(t, store, l.ID).Deadline.IsZero())
}

// TestOutcomes: every way a game ends is stored as a typed outcome: the
// method, the winning side, and the teams' members as winners and losers.
func TestOutcomes(t *testing.T) {
	t.Parallel()
	type step struct {
		by       commands.User
		cmd, sub string
		move     string
	}
	ab, cd := []commands.User{alice, bob}, []commands.User{carol, dan}
	for _, c := range []struct {
		name         string
		fen          string
		white, black []commands.User
		steps        []step
		timeouts     int
		want         storage.Outcome
	}{
		{"honourable checkmate", "7k/5K2/8/6Q1/8/8/8/8 w - - 0 1", ab, cd,
			[]step{{alice, "move", "", "Qg6"}, {alice, "siege", "continue", ""}, {alice, "move", "", "Qh6#"}}, 0,
			storage.Outcome{Method: storage.Checkmate, Side: "white", Winners: []string{alice.ID, bob.ID}, Losers: []string{carol.ID, dan.ID}}},
		{"dishonourable checkmate", "7k/P4K2/8/6Q1/8/8/8/8 w - - 0 1", ab, cd,
			[]step{{alice, "move", "", "a8=PoliticalAgent"}, {dan, "move", "", "Kh7"}, {alice, "move", "", "Kf8"}, {dan, "move", "", "Kh8"},
				{alice, "move", "", "Qg6"}, {alice, "siege", "continue", ""}, {alice, "move", "", "Qh6#"}}, 0,
			storage.Outcome{Method: storage.Checkmate, Side: "white", Winners: []string{alice.ID, bob.ID}, Losers: []string{carol.ID, dan.ID}}},
		{"siege win", "7k/5K2/8/6Q1/8/8/8/8 w - - 0 1", ab, cd,
			[]step{{alice, "move", "", "Qg6"}, {alice, "siege", "win", ""}}, 0,
			storage.Outcome{Method: storage.Siege, Side: "white", Winners: []string{alice.ID, bob.ID}, Losers: []string{carol.ID, dan.ID}}},
		{"resignation", "", ab, cd,
			[]step{{alice, "resign", "", ""}}, 0,
			storage.Outcome{Method: storage.Resignation, Side: "black", Winners: []string{carol.ID, dan.ID}, Losers: []string{alice.ID, bob.ID}}},
		{"fatigue: the last commander deposed", "4k3/P7/8/8/8/8/8/Q3K3 w - - 0 1", ab, []commands.User{carol},
			[]step{{alice, "move", "", "a8=PoliticalAgent"}}, 0,
			storage.Outcome{Method: storage.Fatigue, Side: "white", Winners: []string{alice.ID, bob.ID}, Losers: []string{carol.ID}}},
		{"fatigue: the last commander is tagged out for fatigue", "", []commands.User{alice}, []commands.User{carol},
			[]step{{alice, "move", "", "Nf3"}, {carol, "move", "", "a6"}, {alice, "move", "", "Ng1"}, {carol, "move", "", "a5"},
				{alice, "move", "", "Nf3"}, {carol, "move", "", "a4"}, {alice, "move", "", "Ng1"}, {carol, "move", "", "a3"}}, 0,
			storage.Outcome{Method: storage.Fatigue, Side: "black", Winners: []string{carol.ID}, Losers: []string{alice.ID}}},
		{"time: the last commander runs out of time", "", []commands.User{alice}, []commands.User{carol},
			[]step{{alice, "move", "", "e4"}}, 1,
			storage.Outcome{Method: storage.Time, Side: "white", Winners: []string{alice.ID}, Losers: []string{carol.ID}}},
		{"aborted: no first move before the time ran out", "", ab, cd,
			nil, 1,
			storage.Outcome{Method: storage.Aborted}},
		{"mutual loss", "", ab, cd,
			[]step{{alice, "move", "", "Nf3"}, {carol, "move", "", "Nf6"}, {alice, "move", "", "Ng1"}, {carol, "move", "", "Ng8"},
				{alice, "move", "", "Nf3"}, {carol, "move", "", "Nf6"}, {alice, "move", "", "Ng1"}, {carol, "move", "", "Ng8"}}, 0,
			storage.Outcome{Method: storage.MutualLoss, Losers: []string{alice.ID, bob.ID, carol.ID, dan.ID}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, _, store := newApp(t)
			g, pub, _ := startGame(t, a, store, c.fen, c.white, c.black)
			for _, s := range c.steps {
				handle := a.Handle
				if s.cmd == "tagout" || s.cmd == "resign" {
					handle = func(r *commands.Request) (*commands.Response, error) { return commandstest.Confirm(t, a, r) }
				}
				_, err := handle(in(s.by, pub, s.cmd, s.sub, map[string]string{"move": s.move}))
				require.NoError(t, err, "%s %s %s", s.cmd, s.sub, s.move)
			}
			for i := range c.timeouts {
				require.NoError(t, a.Sweep(t0.Add(time.Duration(i+1)*time.Hour)))
			}
			g = commandstest.Game(t, store, g.ID)
			require.False(t, g.Active)
			require.NotNil(t, g.Outcome)
			require.Equal(t, c.want, *g.Outcome)
			o, over := Game{}.Outcome(load(t, store, g.ID))
			require.True(t, over)
			require.Equal(t, c.want, o, "Outcome agrees with what was stored")
		})
	}
}

// TestStateCodec: a state stored before the game core (codec version 0:
// no version, the same layout as version 1) decodes with its engine game
// replayed, and this code writes it back in the same layout plus the
// engine's snapshot (version 2), which decodes to the same game; an
// unknown version or a state that does not replay is an error.
func TestStateCodec(t *testing.T) {
	t.Parallel()
	game, err := tc.NewGame(tc.Setup{White: []tc.Member{{ID: alice.ID, Name: "alice"}}, Black: []tc.Member{{ID: bob.ID, Name: "bob"}}})
	require.NoError(t, err)
	_, err = game.Play(alice.ID, "e4")
	require.NoError(t, err)
	engine, err := game.MarshalJSON()
	require.NoError(t, err)
	// The JSON the flow stored before the game core (commands.tcState).
	v0 := []byte(`{"game":` + string(engine) + `,"team_threads":["tw","tb"],"in_thread":[["` + alice.ID + `"],["` + bob.ID + `"]],` +
		`"move_time":3600000000000,"started":"2026-11-30T12:00:00Z","creator":{"ID":"` + alice.ID + `","Name":"alice","Bot":false}}`)
	s, err := Game{}.Decode(0, v0)
	require.NoError(t, err)
	require.Equal(t, [2]string{"tw", "tb"}, s.TeamThreads)
	require.Equal(t, [2][]string{{alice.ID}, {bob.ID}}, s.InThread)
	require.Equal(t, time.Hour, s.MoveTime)
	require.Equal(t, alice, s.Creator)
	require.Equal(t, chess.Black, s.game.Turn(), "the engine game is replayed")

	raw, err := Game{}.Encode(s)
	require.NoError(t, err)
	var a, b map[string]any
	require.NoError(t, json.Unmarshal(v0, &a))
	require.NoError(t, json.Unmarshal(raw, &b))
	require.NotNil(t, b["position"], "version 2 stores the snapshot")
	delete(b, "position")
	require.Equal(t, a, b, "version 2 writes version 0's layout besides the snapshot")
	s1, err := Game{}.Decode(Game{}.Version(), raw)
	require.NoError(t, err)
	require.Equal(t, s.game.State(), s1.game.State())
	require.Equal(t, s.game.Snapshot(), s1.game.Snapshot())

	_, err = Game{}.Decode(3, raw)
	require.ErrorContains(t, err, "unknown Team Chess state version 3")
	_, err = Game{}.Decode(1, []byte(`{"game":{"version":2,"start_fen":"","white":[],"black":[],"actions":[]}}`))
	require.Error(t, err, "a state that does not replay")
}

// TestStartIsOneTransactionThenEffects: Start opens the three threads,
// then saves the game, links the team threads and closes the lobby at
// once; the members and the first boards are effects, performed by the
// outbox, in order.
func TestStartIsOneTransactionThenEffects(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	l := &lobby{ID: commands.NewID(), Kind: Kind, GuildID: "g", ChannelID: "general", Creator: alice,
		White: []commands.User{alice, bob}, Black: []commands.User{carol}, MoveTime: time.Hour, Created: t0}
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error { return tx.Lobbies().Put(l.ID, time.Time{}, l) }))
	start := commandstest.Click(alice, commands.CustomID{Scope: "c", ID: l.ID, Action: "start"}.String(), "lobbymsg")
	resp, err := a.Handle(start)
	require.NoError(t, err)
	require.True(t, resp.Update)
	require.True(t, resp.Committed, "a lost answer is sent through the outbox")
	require.Empty(t, resp.Rows, "the closed lobby has no buttons")
	require.Len(t, p.Threads, 3)
	require.Equal(t, "lobbymsg", p.Threads[0], "the public thread starts from the lobby's message")
	posts, _ := p.Snapshot()
	require.Empty(t, posts, "nothing is posted before the outbox delivers")
	require.Empty(t, p.Members)

	g := commandstest.Game(t, store, l.ID)
	require.Equal(t, "lobbymsg", g.ThreadID)
	s := load(t, store, g.ID)
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		for _, th := range s.TeamThreads {
			lg, err := tx.Games().ByChannel(th)
			require.NoError(t, err)
			require.Equal(t, g.ID, lg.ID, "the team thread reaches the game")
		}
		_, err := tx.Lobbies().Get(l.ID, &lobby{})
		require.ErrorIs(t, err, storage.ErrNotFound, "the lobby is closed")
		return nil
	}))

	require.Equal(t, 7, commandstest.Deliver(t, a, t0), "one effect adding the members per thread (3 + 2 + 1 members), 3 boards, the first ping")
	require.ElementsMatch(t, []string{alice.ID, bob.ID, carol.ID}, p.Members[g.ThreadID])
	require.ElementsMatch(t, []string{alice.ID, bob.ID}, p.Members[s.TeamThreads[chess.White]])
	require.ElementsMatch(t, []string{carol.ID}, p.Members[s.TeamThreads[chess.Black]])
	posts, _ = p.Snapshot()
	require.Len(t, posts, 4)
	require.Equal(t, []string{g.ThreadID, s.TeamThreads[chess.White], s.TeamThreads[chess.Black], s.TeamThreads[chess.White]},
		[]string{posts[0].Channel, posts[1].Channel, posts[2].Channel, posts[3].Channel})
	require.True(t, strings.HasPrefix(posts[3].Msg.Content, alice.Mention()+", your move"), "White's commander pinged in White's thread")
	require.Contains(t, posts[0].Msg.Content, alice.Mention()+" commands White and acts first")
	require.Contains(t, posts[1].Msg.Content, "White's private thread")
	require.Contains(t, posts[2].Msg.Content, "Black's private thread")

	_, err = a.Handle(commandstest.Click(alice, start.CustomID, "lobbymsg"))
	require.Contains(t, commandstest.UserMsg(t, err), "no longer open", "a second Start makes no second game")
}

// TestStartRefusedThreadChangesNothing: when Discord refuses a team
// thread, no game is saved and the lobby stays open; the next Start
// reuses the public thread (started from the same message) and makes the
// game.
func TestStartRefusedThreadChangesNothing(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	l := &lobby{ID: commands.NewID(), Kind: Kind, GuildID: "g", ChannelID: "general", Creator: alice,
		White: []commands.User{alice}, Black: []commands.User{bob}, MoveTime: time.Hour, Created: t0}
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error { return tx.Lobbies().Put(l.ID, time.Time{}, l) }))
	route := commands.CustomID{Scope: "c", ID: l.ID, Action: "start"}.String()
	threads := 0
	p.Fail = func(op, channel string) error {
		if op == "thread" {
			threads++
			if threads == 2 { // White's team thread
				return &commands.PlatformError{HTTPStatus: 403, Status: "403 Forbidden", Code: 50013, Message: "Missing Permissions", Err: errors.New("403")}
			}
		}
		return nil
	}
	_, err := a.Handle(commandstest.Click(alice, route, "lobbymsg"))
	msg := commandstest.UserMsg(t, err)
	require.Contains(t, msg, "I could not create White's private team thread")
	require.Contains(t, msg, "The lobby is still open")
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		_, err := tx.Games().Get(l.ID)
		require.ErrorIs(t, err, storage.ErrNotFound, "no game")
		_, err = tx.Lobbies().Get(l.ID, &lobby{})
		return err
	}))
	require.Zero(t, a.Pending(), "no effect queued")

	p.Fail = nil
	_, err = a.Handle(commandstest.Click(alice, route, "lobbymsg"))
	require.NoError(t, err)
	require.Equal(t, "lobbymsg", commandstest.Game(t, store, l.ID).ThreadID)
	require.Equal(t, []string{"lobbymsg"}, p.Threads[:1])
	require.Len(t, p.Threads, 3, "one public thread, two team threads")
}
