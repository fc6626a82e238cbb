package sandtable

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	engine "sandtable/games/sandtable"
	"sandtable/storage"
)

// TestSandTableAgainstTheComputer: alice challenges the bot: the game
// starts at once, the computer (North) deploys and confirms without a
// panel or any direct message, and nothing of its deployment is shown
// before the reveal; once alice confirms, the game plays on, the computer
// making its whole turns (a Main action, then its hazard uses) whenever
// the turn is its own.
func TestSandTableAgainstTheComputer(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	r := cmd(alice, "sandtable", "challenge", map[string]string{"level": "beginner"})
	r.ChannelID = "general"
	bot := commandstest.Computer
	r.Options["opponent"] = commands.Option{User: &bot}
	resp, err := a.Handle(r)
	require.NoError(t, err)
	require.Contains(t, resp.Cards[0].Description, "Computer (beginner)")
	var g *storage.Game
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		act, err := tx.Games().Active(alice.ID)
		require.Len(t, act, 1)
		g = act[0]
		return err
	}))
	require.True(t, g.Unrated)
	require.Eventually(t, func() bool { return gameState(t, store, g).pos.Confirmed(engine.North) }, 60*time.Second, 5*time.Millisecond,
		"the computer confirms its deployment")
	commandstest.Deliver(t, a, a.Now())
	require.Empty(t, p.DMs[bot.ID], "no panel nor message for the computer")
	posts, _ := p.Snapshot()
	for _, m := range posts {
		require.Empty(t, m.Msg.Files, "no board (nor any image of the computer's deployment) before the reveal")
	}
	require.True(t, strings.Contains(posts[len(posts)-1].Msg.Content, "has confirmed their deployment"), posts[len(posts)-1].Msg.Content)

	// alice deploys a preset and confirms: the reveal; the game runs on.
	panel := p.DMs[alice.ID][0]
	rp, err := a.Handle(dmClick(alice, selectRoute(t, panel), "phalanx"))
	require.NoError(t, err)
	_, err = a.Handle(dmClick(alice, buttonOf(t, rp.Message, "Confirm")))
	require.NoError(t, err)
	s := gameState(t, store, g)
	require.NotEqual(t, engine.PhaseDeployment, s.pos.Phase())
	if s.pos.ToMove() == engine.North {
		require.Eventually(t, func() bool {
			st := gameState(t, store, g)
			return st.over() || st.pos.ToMove() == engine.South
		}, 60*time.Second, 5*time.Millisecond, "the computer plays its whole turn")
	}
	// Two rounds: alice plays her turn (a legal Main action, then Mines
	// or Anti-Air for her hazard uses), the computer its own.
	turns := 0
	for round := 0; round < 2; round++ {
		s = gameState(t, store, g)
		if s.over() {
			break
		}
		require.Equal(t, engine.South, s.pos.ToMove())
		turn := s.pos.Turn()
		for st := s; !st.over() && st.pos.ToMove() == engine.South && st.pos.Turn() == turn; st = gameState(t, store, g) {
			var act engine.Action
			for _, x := range st.pos.LegalActions() {
				if x.Kind != engine.ActDrone {
					act = x
					break
				}
			}
			require.NotEqual(t, engine.ActNone, act.Kind, "alice has a legal action")
			mr := cmd(alice, "move", "", map[string]string{"move": act.String()})
			mr.ChannelID = g.ThreadID
			_, err := a.Handle(mr)
			require.NoError(t, err)
		}
		require.Eventually(t, func() bool {
			st := gameState(t, store, g)
			return st.over() || (st.pos.ToMove() == engine.South && st.pos.Turn() > turn)
		}, 60*time.Second, 5*time.Millisecond, "the computer plays its whole turn")
		turns++
	}
	require.Positive(t, turns)
	commandstest.Deliver(t, a, a.Now())
	posts, edits := p.Snapshot()
	var computerTurn bool
	for _, m := range posts {
		if strings.Contains(m.Msg.Content, bot.Mention()) && m.Channel == g.ThreadID && len(m.Msg.Files) > 0 {
			computerTurn = true
		}
	}
	for _, m := range edits {
		if strings.Contains(m.Msg.Content, bot.Mention()) && m.Channel == g.ThreadID && len(m.Msg.Files) > 0 {
			computerTurn = true
		}
	}
	require.True(t, computerTurn, "the computer's turns are shown on the live board in the thread")
	s = gameState(t, store, g)
	require.True(t, s.over() || s.pos.ToMove() == engine.South)
	rec := commandstest.Game(t, store, g.ID)
	require.True(t, rec.ComputerMove.IsZero(), "alice's turn: nothing pending")
}
