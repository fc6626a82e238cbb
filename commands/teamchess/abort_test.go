package teamchess

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/games/chess"
	"sandtable/storage"
)

// TestNoPersonSeatedAborts: when the last person seated tags out and only
// computer commanders remain, the game is aborted in the same transition
// (ruling D31): no computer acts after it, the outcome is aborted (no
// winner or loser), every thread is told why, the tag-out stays in the
// game's record with its personal loss, the abort adds none, and the
// prompt warned of it.
func TestNoPersonSeatedAborts(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	cpu1, cpu2 := commands.ComputerUser(1, "beginner"), commands.ComputerUser(2, "beginner")
	g, pub, _ := startGame(t, a, store, "", []commands.User{alice, cpu1}, []commands.User{cpu2})
	before, beforeEdits := p.Snapshot()
	prompt, err := a.Handle(in(alice, pub, "tagout", "", nil))
	require.NoError(t, err)
	require.Contains(t, text(t, prompt.Message), "the game will be aborted")
	click := commandstest.Click(alice, commandstest.ButtonOf(t, prompt.Message, "Confirm"), "")
	click.ChannelID, click.Now = pub, t0.Add(time.Second)
	r, err := a.Handle(click)
	require.NoError(t, err)
	require.Contains(t, text(t, r.Message), "aborted")

	stored := commandstest.Game(t, store, g.ID)
	require.False(t, stored.Active)
	require.Equal(t, &storage.Outcome{Method: storage.Aborted}, stored.Outcome, "no winner, no loser")
	require.True(t, stored.ComputerMove.IsZero(), "no computer move is due")
	s := load(t, store, g.ID)
	require.True(t, s.Aborted)
	require.Equal(t, 1, s.game.ActionCount(), "the tag-out, and no computer action after it")
	w, l := s.game.PersonalRecord(alice.ID)
	require.Equal(t, [2]int{0, 1}, [2]int{w, l}, "alice's tag-out stays recorded")
	for _, side := range sides {
		for _, c := range s.game.Commanders(side) {
			if c.Member.ID != alice.ID {
				require.False(t, c.Lost, "the abort adds no personal loss (%s)", c.Member.ID)
			}
		}
	}
	commandstest.Deliver(t, a, t0.Add(time.Second))
	// Each thread's live board, edited in place into its final board, says why.
	posts, edits := p.Snapshot()
	told := map[string]bool{}
	shown := func(channel string, m commands.Message) {
		if m.Content != "" && len(m.Files) > 0 {
			require.Contains(t, m.Content, "no person is left seated")
			told[channel] = true
		}
	}
	for _, m := range posts[len(before):] {
		shown(m.Channel, m.Msg)
	}
	for _, m := range edits[len(beforeEdits):] {
		shown(m.Channel, m.Msg)
	}
	require.Len(t, told, 3, "the public thread and both team threads")
	_, err = a.Handle(in(alice, pub, "move", "", map[string]string{"move": "e4"}))
	require.Contains(t, commandstest.UserMsg(t, err), "no person is left seated")
	r, err = a.Handle(click)
	require.Error(t, err, "a second Confirm changes nothing")
}

// TestLastPersonTimedOutAborts: the move timer's tag-out of the last
// person seated (ruling B1) aborts the game on the same path (ruling
// D31); while a person is seated on either side, the game is scored as
// before.
func TestLastPersonTimedOutAborts(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	cpu1, cpu2 := commands.ComputerUser(1, "beginner"), commands.ComputerUser(2, "beginner")
	g, pub, _ := startGame(t, a, store, "", []commands.User{alice, cpu1}, []commands.User{cpu2})
	_, err := a.Handle(in(alice, pub, "move", "", map[string]string{"move": "e4"}))
	require.NoError(t, err)
	s := waitActions(t, store, g.ID, 2)
	require.Equal(t, chess.White, s.game.Turn(), "Black's computer replied")
	require.NoError(t, a.Sweep(t0.Add(2*time.Hour)))
	stored := commandstest.Game(t, store, g.ID)
	require.False(t, stored.Active)
	require.Equal(t, &storage.Outcome{Method: storage.Aborted}, stored.Outcome)
	s = load(t, store, g.ID)
	require.True(t, s.Aborted)
	require.Contains(t, s.AbortReason, "no person is left seated")
	require.Equal(t, 3, s.game.ActionCount(), "e4, the reply, the timeout: no computer action after")

	// carol is seated on Black: alice, White's last commander, loses on time.
	a, _, store = newApp(t)
	g, pub, _ = startGame(t, a, store, "", []commands.User{alice}, []commands.User{cpu1, carol})
	_, err = a.Handle(in(alice, pub, "move", "", map[string]string{"move": "e4"}))
	require.NoError(t, err)
	waitActions(t, store, g.ID, 2)
	require.NoError(t, a.Sweep(t0.Add(2*time.Hour)))
	stored = commandstest.Game(t, store, g.ID)
	require.False(t, stored.Active)
	require.Equal(t, storage.Time, stored.Outcome.Method, "carol is seated: the game is scored")
	require.False(t, load(t, store, g.ID).Aborted)
}
