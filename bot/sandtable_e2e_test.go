package bot_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/games/sandtable"
)

func TestSandTableSmoke(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	g := h.sandStart(alice, bob)
	dump(t, "01-status", g.status)
	sp := g.dmPanel(alice)
	dump(t, "02-south-panel", sp)
	in := h.srv
	_ = in
	sel, err := h.srv.Select(alice, sp, "g:"+g.id+":dep-preset", "phalanx")
	require.NoError(t, err)
	sp = h.answerOf(sel, sp.Version)
	dump(t, "03-south-preset", sp)
	_, conf := g.press(alice, sp, "Confirm")
	dump(t, "04-south-confirmed", conf)
	np := g.dmPanel(bob)
	_, np = g.press(bob, np, "Random")
	dump(t, "05-north-random", np)
	_, np = g.press(bob, np, "Confirm")
	dump(t, "06-north-confirmed", np)
	board, err := h.srv.WaitMessage(wait, func(m *dtMessage) bool {
		return m.ChannelID == g.thread.ID && strings.Contains(m.Text(), "coin")
	})
	require.NoError(t, err)
	dump(t, "07-revealed", board)
	p := g.pos()
	mover := g.user(p.ToMove)
	steps, err := p.LegalNextSteps(nil)
	require.NoError(t, err)
	m := h.reply(mover, g.thread.ID, "move", optMove(steps[0].String()))
	dump(t, "08-move", m)
	require.False(t, m.Ephemeral(), m.Text())
	_ = sandtable.South
}
