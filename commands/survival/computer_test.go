package survival

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/games/chess"
	"sandtable/games/engine"
	"sandtable/storage"
)

// computerGame is alice's game against the computer at level, alice
// playing color; it returns the stored game once started.
func computerGame(t *testing.T, a *commands.App, store storage.Store, color, level string) *storage.Game {
	t.Helper()
	r := cmd(alice, "survival", "challenge", map[string]string{"color": color, "level": level})
	r.ChannelID = "general"
	bot := commandstest.Computer
	r.Options["opponent"] = commands.Option{User: &bot}
	resp, err := a.Handle(r)
	require.NoError(t, err)
	require.Contains(t, resp.Cards[0].Description, "Computer ("+engine.CanonicalLevel(level)+")")
	var g *storage.Game
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		act, err := tx.Games().Active(alice.ID)
		require.Len(t, act, 1)
		g = act[0]
		return err
	}))
	return g
}

// waitPly waits (polling the store, generous deadline) until the game id
// has at least n plies, and returns it.
func waitPly(t *testing.T, store storage.Store, id string, n int) (*storage.Game, *State) {
	t.Helper()
	var g *storage.Game
	var s *State
	require.Eventually(t, func() bool {
		g, s = load(t, store, id)
		return len(s.Moves) >= n
	}, 60*time.Second, 5*time.Millisecond)
	return g, s
}

// TestComputerPlaysWhiteAndReplies: alice takes Black against the
// computer: it moves first at once (a promotion, as the rules demand),
// answers her move, and each of its moves is posted as the thread's live
// board like a human's, mentioning alice; the board says "vs Computer";
// the game is unrated.
func TestComputerPlaysWhiteAndReplies(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	g := computerGame(t, a, store, "black", "beginner")
	require.True(t, g.Unrated)
	g, s := waitPly(t, store, g.ID, 1)
	require.Equal(t, commandstest.Computer.ID, s.White.ID)
	require.Equal(t, alice.ID, s.Black.ID)
	require.True(t, g.ComputerMove.IsZero(), "alice to move: nothing pending")
	require.Equal(t, time.Duration(24*time.Hour), s.MoveTime)

	commandstest.Deliver(t, a, t0)
	last := commandstest.Sent{Channel: g.ThreadID, Msg: liveBoard(t, a, p)}
	require.Equal(t, g.ThreadID, last.Channel)
	require.Contains(t, last.Msg.Content, commandstest.Computer.Mention()+" played **")
	require.Contains(t, last.Msg.Content, alice.Mention()+", your move.")
	require.Contains(t, last.Msg.Cards[0].Description, "vs Computer (beginner)")
	for _, f := range last.Msg.Cards[0].Fields {
		require.NotContains(t, f.Value, "1500?", "no rating beside anyone in an unrated computer game")
	}
	require.NotEmpty(t, last.Msg.Files, "the computer's move is a board like a human's")

	// alice replies with a legal move; the computer answers.
	mv := s.game.Position().LegalMoveTexts()[0].UCI
	r := cmd(alice, "move", "", map[string]string{"move": mv})
	r.ChannelID = g.ThreadID
	_, err := a.Handle(r)
	require.NoError(t, err)
	_, s = waitPly(t, store, g.ID, 3)
	require.Equal(t, mv, s.Moves[1])
}

// TestComputerRematchStartsAtOnce: resigning then clicking Rematch starts
// a new game against the computer at the same level, without acceptance.
// level:casual, the former name of easy, is still accepted, and is easy.
func TestComputerRematchStartsAtOnce(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	g := computerGame(t, a, store, "white", "casual")
	require.Equal(t, []storage.ComputerSeat{{User: commandstest.Computer.ID, Level: "easy"}}, g.Computers, "casual is easy")
	r := cmd(alice, "resign", "", nil)
	r.ChannelID = g.ThreadID
	_, err := commandstest.Confirm(t, a, r)
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0)
	g, _ = load(t, store, g.ID)
	require.False(t, g.Active)
	require.Equal(t, []string{commandstest.Computer.ID}, g.Outcome.Winners)
	require.True(t, g.ComputerMove.IsZero())
	rematch := commandstest.ButtonOf(t, liveBoard(t, a, p), "Rematch")
	c := commandstest.Click(alice, rematch, "m9")
	c.ChannelID = g.ThreadID
	resp, err := a.Handle(c)
	require.NoError(t, err)
	require.Contains(t, resp.Content, "Rematch started")
	var next *storage.Game
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		act, err := tx.Games().Active(alice.ID)
		require.Len(t, act, 1)
		next = act[0]
		return err
	}))
	require.Equal(t, []storage.ComputerSeat{{User: commandstest.Computer.ID, Level: "easy"}}, next.Computers)
	_, s2 := load(t, store, next.ID)
	require.Equal(t, alice.ID, s2.Black.ID, "colours swapped")
	require.Contains(t, resp.Content, "<#"+next.ThreadID+">", "the answer links the new game's thread")
	require.Contains(t, resp.Content, "Computer (easy)", "the computer is named, not the bot pinged")
	require.NotContains(t, resp.Content, commandstest.Computer.Mention())
	waitPly(t, store, next.ID, 1)
}

// TestStoredCasualGamePlaysOn: a game stored before the level "casual"
// became "easy" (its computer seat names "casual") loads, and the computer
// plays its move.
func TestStoredCasualGamePlaysOn(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	bot := commandstest.Computer
	st := &State{StartFEN: chess.TartanFEN, Moves: []string{"a7a8q"}, White: alice, Black: bot, MoveTime: time.Hour, Started: t0}
	raw, err := Game{}.Encode(st)
	require.NoError(t, err)
	g := &storage.Game{ID: "old1", Kind: Kind, GuildID: "g", ChannelID: "general", ThreadID: "th-old",
		Players: []string{alice.ID, bot.ID}, Active: true, Unrated: true, State: raw, StateVersion: Game{}.Version(),
		Computers: []storage.ComputerSeat{{User: bot.ID, Level: "casual"}}, Deadline: t0.Add(time.Hour), ComputerMove: t0}
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error { return tx.Games().Put(g, t0) }))
	require.NoError(t, a.Sweep(t0))
	g, s := waitPly(t, store, g.ID, 2)
	require.True(t, g.Active)
	require.True(t, g.ComputerMove.IsZero(), "alice to move: nothing pending")
	replay, err := chess.ReplayGame(chess.Survival, chess.TartanFEN, s.Moves)
	require.NoError(t, err, "the computer's move is legal")
	require.Equal(t, chess.White, replay.Position().Turn())
}

// TestComputerMoveIsDeterministic: the same position, level and seed
// give the same legal move (the framework seeds by game and ply), and the
// level's node budget, not the time cap, bounds the search.
func TestComputerMoveIsDeterministic(t *testing.T) {
	t.Parallel()
	g, err := chess.ReplayGame(chess.Survival, chess.NewGame(chess.Survival).StartFEN(), nil)
	require.NoError(t, err)
	s := &State{StartFEN: g.StartFEN(), Moves: []string{}, game: g}
	first, err := chooseMove(t.Context(), s, "easy", 42, time.Minute)
	require.NoError(t, err)
	_, err = g.Position().ParseMove(first)
	require.NoError(t, err, "a legal move")
	for i := 0; i < 2; i++ {
		again, err := chooseMove(t.Context(), s, "easy", 42, time.Minute)
		require.NoError(t, err)
		require.Equal(t, first, again)
	}
	_, err = chooseMove(t.Context(), s, "grandmaster", 42, time.Minute)
	require.Error(t, err)
}

// BenchmarkComputerMove is the search time of one computer move from the
// start position, per level (the worker's cost per move).
func BenchmarkComputerMove(b *testing.B) {
	for _, level := range engine.LevelNames() {
		b.Run(level, func(b *testing.B) {
			g := chess.NewGame(chess.Survival)
			s := &State{StartFEN: g.StartFEN(), Moves: []string{}, game: g}
			for i := 0; i < b.N; i++ {
				if _, err := chooseMove(b.Context(), s, level, uint64(i), time.Minute); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
