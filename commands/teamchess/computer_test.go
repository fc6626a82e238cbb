package teamchess

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/games/engine"
	tc "sandtable/games/teamchess"
	"sandtable/internal/testkit"
	"sandtable/storage"
)

// waitActions waits (polling the store, generous deadline) until the game
// id has at least n actions.
func waitActions(t *testing.T, store storage.Store, id string, n int) *State {
	t.Helper()
	var s *State
	require.Eventually(t, func() bool {
		s = load(t, store, id)
		return s.game.ActionCount() >= n
	}, 60*time.Second, 5*time.Millisecond)
	return s
}

// TestLobbyAddsAndRemovesComputers: the creator's menu adds computer
// commanders to either queue at a level and removes them; only the
// creator may; Start makes an unrated game recording its computer seats.
func TestLobbyAddsAndRemovesComputers(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	r, err := a.Handle(commandstest.Cmd(alice, "teamchess", "new", nil))
	require.NoError(t, err)
	lobby := r.Message
	r, err = a.Handle(click(alice, buttonOf(t, lobby, "Join White")))
	require.NoError(t, err)
	lobby = r.Message
	menu := selectID(t, lobby, "computer")
	require.Contains(t, selectOptions(t, lobby, "computer"), "b:beginner")
	_, err = a.Handle(click(bob, menu, "b:beginner"))
	require.Contains(t, commandstest.UserMsg(t, err), "Only alice")
	require.Contains(t, selectOptions(t, lobby, "computer"), "b:easy")
	require.NotContains(t, selectOptions(t, lobby, "computer"), "b:casual", "the level casual is now named easy")
	// "b:casual": a menu sent before the level's renaming still adds an
	// easy computer.
	for _, v := range []string{"b:beginner", "b:casual"} {
		r, err = a.Handle(click(alice, menu, v))
		require.NoError(t, err)
		require.True(t, r.Update)
		lobby = r.Message
	}
	require.Contains(t, r.Content, "**Computer 2 (easy)**", "a computer is named, never mentioned")
	require.Contains(t, selectOptions(t, lobby, "computer"), "remove:computer-1-beginner")
	r, err = a.Handle(click(alice, menu, "remove:computer-1-beginner"))
	require.NoError(t, err)
	lobby = r.Message
	require.NotContains(t, selectOptions(t, lobby, "computer"), "remove:computer-1-beginner")
	r, err = a.Handle(click(alice, menu, "remove:computer-1-beginner"))
	require.NoError(t, err)
	require.Contains(t, r.Content, "Already done")
	_, err = a.Handle(click(alice, menu, "b:grandmaster"))
	require.Contains(t, commandstest.UserMsg(t, err), "level must be one of")

	r, err = a.Handle(click(alice, buttonOf(t, lobby, "Start")))
	require.NoError(t, err)
	var g *storage.Game
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		act, err := tx.Games().Active(alice.ID)
		require.Len(t, act, 1)
		g = act[0]
		return err
	}))
	require.True(t, g.Unrated)
	require.Equal(t, []storage.ComputerSeat{{User: "computer-2-easy", Level: "easy"}}, g.Computers)
}

// TestHumanTeamAgainstAComputer: alice and bob (White) against a computer
// commander (Black): after alice's move the computer replies through the
// engine, posted as the live board in every thread; the computer is added
// to no thread and pinged nowhere; bob, alice's adviser, can still
// /suggest. A computer commanding White moves first at once.
func TestHumanTeamAgainstAComputer(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	cpu := commands.ComputerUser(1, "beginner")
	g, pub, team := startGame(t, a, store, "", []commands.User{alice, bob}, []commands.User{cpu})
	require.True(t, g.Unrated)
	require.True(t, g.ComputerMove.IsZero(), "White (alice) acts first")
	for _, th := range append([]string{pub}, team[:]...) {
		require.NotContains(t, p.Members[th], cpu.ID, "a computer joins no thread")
	}

	_, err := a.Handle(in(alice, pub, "move", "", map[string]string{"move": "e4"}))
	require.NoError(t, err)
	s := waitActions(t, store, g.ID, 2)
	require.Equal(t, 2, s.game.ActionCount())
	board := boardIn(t, a, p, pub)
	require.Contains(t, text(t, board), "Computer 1 (beginner)")
	require.NotContains(t, text(t, board), "<@computer-", "a computer is never mentioned as a user")
	require.Contains(t, board.Content, alice.Mention(), "the computer's move pings alice, who must act")

	// bob advises alice, now to move.
	_, err = a.Handle(in(bob, team[0], "suggest", "", map[string]string{"move": "d4"}))
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0)
	posts, _ := p.Snapshot()
	last := posts[len(posts)-1]
	require.Equal(t, team[0], last.Channel)
	require.True(t, strings.Contains(last.Msg.Content, "suggests"), last.Msg.Content)

	// The other way round: a computer commanding White moves at once.
	a2, _, store2 := newApp(t)
	g2, _, _ := startGame(t, a2, store2, "", []commands.User{cpu}, []commands.User{carol})
	waitActions(t, store2, g2.ID, 1)
}

// BenchmarkComputerAction is the search time of one computer commander's
// action from the start position, per level (the worker's cost per move).
func BenchmarkComputerAction(b *testing.B) {
	for _, level := range engine.LevelNames() {
		b.Run(level, func(b *testing.B) {
			g, err := tc.NewGame(tc.Setup{White: []tc.Member{{ID: "w"}}, Black: []tc.Member{{ID: "b"}}})
			if err != nil {
				b.Fatal(err)
			}
			s := &State{game: g}
			seat := storage.ComputerSeat{User: "w", Level: level}
			for i := 0; i < b.N; i++ {
				if _, err := think(b.Context(), s, seat, uint64(i), time.Minute); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestComputersAloneDoNotStart: a lobby whose every commander is a
// computer is refused at Start (ruling D30) and starts no game; with a
// person on a side it starts.
func TestComputersAloneDoNotStart(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	r, err := a.Handle(commandstest.Cmd(alice, "teamchess", "new", nil))
	require.NoError(t, err)
	lobby := r.Message
	menu := selectID(t, lobby, "computer")
	for _, v := range []string{"w:beginner", "b:beginner"} {
		r, err = a.Handle(click(alice, menu, v))
		require.NoError(t, err)
		lobby = r.Message
	}
	_, err = a.Handle(click(alice, buttonOf(t, lobby, "Start")))
	require.Contains(t, commandstest.UserMsg(t, err), "at least one person")
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		act, err := tx.Games().Active(alice.ID)
		require.Empty(t, act, "no game started")
		return err
	}))

	r, err = a.Handle(click(alice, buttonOf(t, lobby, "Join White")))
	require.NoError(t, err)
	_, err = a.Handle(click(alice, buttonOf(t, r.Message, "Start")))
	require.NoError(t, err)
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		act, err := tx.Games().Active(alice.ID)
		require.Len(t, act, 1, "a person and computers start")
		return err
	}))
}

// TestComputerGameEndSaysNoRecordChanges: when a game with a computer
// commander ends, its final message does not claim the records were
// updated (they are not, ruling D27): it says none changed.
func TestComputerGameEndSaysNoRecordChanges(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	cpu := commands.ComputerUser(1, "beginner")
	g, pub, _ := startGame(t, a, store, "", []commands.User{alice}, []commands.User{cpu})
	prompt, err := a.Handle(in(alice, pub, "resign", "", nil))
	require.NoError(t, err)
	confirm := commandstest.Click(alice, commandstest.ButtonOf(t, prompt.Message, "Confirm"), "")
	confirm.ChannelID, confirm.Now = pub, t0.Add(time.Second)
	_, err = a.Handle(confirm)
	require.NoError(t, err)
	require.False(t, commandstest.Game(t, store, g.ID).Active)
	board := boardIn(t, a, p, pub)
	require.NotContains(t, board.Content, "records are updated")
	require.Contains(t, board.Content, "no personal record changes")
}

// hugeFEN has 507,247 legal moves (chains of Saboteurs forcing
// Saboteurs), which take seconds to list.
const hugeFEN = "rn1qk1nr/PP4PP/8/8/8/8/pp4pp/RN1QK1NR w KQkq - 0 1"

// TestComputerInTheHugePositionMovesWithinItsBudget: in the 507k-move
// position the computer's think (the seam the bot's workers call) gives a
// legal action at every level, and a cancelled one (the watchdog's, or the
// First of a computer at the cap of abandoned searches) gives one too,
// without listing every move. No timed assertion (the machine may be
// busy): each must come before testkit.Wait, where listing the moves in
// full took longer than two minutes before the fix; the times are logged.
func TestComputerInTheHugePositionMovesWithinItsBudget(t *testing.T) {
	t.Parallel()
	budget := time.Second
	grace := commands.ComputerGrace(budget)
	g, err := tc.NewGame(tc.Setup{FEN: hugeFEN, White: []tc.Member{{ID: "w"}}, Black: []tc.Member{{ID: "b"}}})
	require.NoError(t, err)
	s := &State{game: g}
	legal := func(what string, act tc.Action) {
		t.Helper()
		act.By = "w"
		_, err := g.Clone().Apply(act)
		require.NoError(t, err, "%s: %+v is legal", what, act)
	}
	choose := func(ctx context.Context, level string) tc.Action {
		t.Helper()
		type result struct {
			act tc.Action
			err error
		}
		done := make(chan result, 1)
		start := time.Now()
		go func() {
			act, err := chooseAction(ctx, s, storage.ComputerSeat{User: "w", Level: level}, 1, budget)
			done <- result{act, err}
		}()
		select {
		case r := <-done:
			require.NoError(t, r.err)
			t.Logf("%s: an action after %s (budget %s, grace %s)", level, time.Since(start), budget, grace)
			return r.act
		case <-time.After(testkit.Wait):
			t.Fatalf("%s: no action after %s", level, testkit.Wait)
			return tc.Action{}
		}
	}
	for _, level := range []string{"beginner", "strongest"} {
		legal(level, choose(t.Context(), level))
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	legal("cancelled", choose(ctx, "strongest"))
}

// TestHugePositionInTheBot: a computer commander to move in the 507k-move
// position, in the bot: its move is made within its budget and the
// watchdog's graces, through the rules.
func TestHugePositionInTheBot(t *testing.T) {
	t.Parallel()
	budget := time.Second
	a, _, store := commandstest.NewApp(t, func(a *commands.App) {
		a.Settings.ComputerBudget = budget
		Register(a)
	})
	cpu := commands.ComputerUser(1, "strongest")
	start := time.Now()
	g, _, _ := startGame(t, a, store, hugeFEN, []commands.User{cpu}, []commands.User{carol})
	s := waitActions(t, store, g.ID, 1)
	// No timed assertion (the machine may be busy): the move comes before
	// waitActions' generous deadline, where listing the position's moves
	// in full took longer than two minutes before the fix. The watchdog's
	// bound is tested on a fake clock (commands' computer tests).
	t.Logf("the computer moved after %s (budget %s)", time.Since(start), budget)
	require.Equal(t, 1, s.game.ActionCount(), "the computer's action, through the rules")
}

// TestStoredCasualComputerPlaysOn: a computer commander added before the
// level "casual" became "easy" (its ID and seat name "casual") still
// plays.
func TestStoredCasualComputerPlaysOn(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	cpu := commands.ComputerUser(1, "casual")
	g, _, _ := startGame(t, a, store, "", []commands.User{cpu}, []commands.User{carol})
	require.Equal(t, []storage.ComputerSeat{{User: cpu.ID, Level: "casual"}}, g.Computers, "the seat as stored")
	s := waitActions(t, store, g.ID, 1)
	require.Equal(t, 1, s.game.ActionCount())
}

// TestLobbyWithAComputerSaysUnrated: a lobby that seats a computer
// commander says its game is unrated, not rated; once the computer is
// removed it says rated again.
func TestLobbyWithAComputerSaysUnrated(t *testing.T) {
	t.Parallel()
	a, _, _ := newApp(t)
	r, err := a.Handle(commandstest.Cmd(alice, "teamchess", "new", nil))
	require.NoError(t, err)
	require.Contains(t, r.Message.Cards[0].Description, "**Rated**")
	r, err = a.Handle(click(alice, buttonOf(t, r.Message, "Join White")))
	require.NoError(t, err)
	menu := selectID(t, r.Message, "computer")
	r, err = a.Handle(click(alice, menu, "b:easy"))
	require.NoError(t, err)
	desc := r.Message.Cards[0].Description
	require.Contains(t, desc, "**Unrated**")
	require.NotContains(t, desc, "**Rated**")
	r, err = a.Handle(click(alice, menu, "remove:computer-1-easy"))
	require.NoError(t, err)
	require.Contains(t, r.Message.Cards[0].Description, "**Rated**")
}
