package bot_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	sandflow "sandtable/commands/sandtable"
	"sandtable/games/sandtable"
	"sandtable/internal/discordsim"
	"sandtable/storage"
)

// sandGame is a SandTable game being played through the fake Discord.
type sandGame struct {
	h            *harness
	south, north *discordsim.User
	thread       *discordsim.Channel
	id           string
	status       *discordsim.Message // the public deployment status message
	firstCall    int                 // the first REST call of this game's challenge
}

// sandStart challenges north as south and accepts: the game thread with
// its deployment status message.
func (h *harness) sandStart(south, north *discordsim.User, opts ...discordsim.Option) *sandGame {
	h.t.Helper()
	first := len(h.srv.Calls())
	opts = append([]discordsim.Option{discordsim.Opt("opponent", north)}, opts...)
	ch := h.reply(south, h.gen.ID, "sandtable challenge", opts...)
	require.False(h.t, ch.Ephemeral(), "a challenge is public: %s", ch.Text())
	require.Contains(h.t, ch.Text(), "SandTable Chess")
	in := h.click(north, ch, buttonID(h.t, ch, "Accept"))
	updated, err := in.WaitReply(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "accepted") })
	require.NoError(h.t, err)
	link := regexp.MustCompile(`<#(\d+)>`).FindStringSubmatch(updated.Text())
	require.NotNil(h.t, link, "the accepted challenge links the game thread")
	thread := h.srv.ChannelByID(link[1])
	require.NotNil(h.t, thread)
	require.Equal(h.t, "SandTable · "+south.Name+" vs "+north.Name, thread.Name)
	h.drained()
	thread = h.srv.ChannelByID(thread.ID)
	require.True(h.t, thread.HasMember(south.ID) && thread.HasMember(north.ID))
	status, err := h.srv.WaitMessage(wait, func(m *discordsim.Message) bool {
		return m.ChannelID == thread.ID && strings.Contains(m.Text(), "SandTable Chess: Deployment")
	})
	require.NoError(h.t, err)
	g := &sandGame{h: h, south: south, north: north, thread: thread, status: status, id: gameIDFromFooter(h.t, status), firstCall: first}
	return g
}

// loadSandPosition sets up the position text in the SandTable game id
// (sandflow.LoadPosition) and waits for the outbox to post its board.
func (h *harness) loadSandPosition(id, text string) error {
	h.t.Helper()
	if err := sandflow.LoadPosition(h.bot.App(), id, text); err != nil {
		return err
	}
	h.drained()
	return nil
}

func gameIDFromFooter(t testing.TB, m *discordsim.Message) string {
	t.Helper()
	for _, e := range m.Embeds {
		if e.Footer != nil {
			if f := regexp.MustCompile(`Game ([a-z2-7]+)`).FindStringSubmatch(e.Footer.Text); f != nil {
				return f[1]
			}
		}
	}
	t.Fatalf("no game ID in %q", m.Text())
	return ""
}

// user returns the player of side.
func (g *sandGame) user(side sandtable.Side) *discordsim.User {
	if side == sandtable.North {
		return g.north
	}
	return g.south
}

// state reads the stored game: full position and recent log.
func (g *sandGame) state() (*storage.Game, *sandtable.Position, []sandtable.Entry) {
	g.h.t.Helper()
	var sg *storage.Game
	require.NoError(g.h.t, g.h.store.View(context.Background(), func(tx storage.Tx) error {
		var err error
		sg, err = tx.Games().Get(g.id)
		return err
	}))
	pos, log, err := sandflow.Load(sg)
	require.NoError(g.h.t, err)
	return sg, pos, log
}

func (g *sandGame) pos() *sandtable.Position {
	_, p, _ := g.state()
	return p
}

// panel waits for u's newest deployment panel in their DMs.
func (g *sandGame) dmPanel(u *discordsim.User) *discordsim.Message {
	g.h.t.Helper()
	dm := g.h.srv.DM(u)
	var panel *discordsim.Message
	require.NoError(g.h.t, g.h.srv.WaitFor(wait, func() bool {
		for _, m := range g.h.srv.VisibleMessages(u, dm.ID) {
			if strings.Contains(m.Text(), "Your secret deployment") && strings.Contains(m.Text(), "Game "+g.id) {
				panel = m
			}
		}
		return panel != nil
	}), "no deployment panel for %s", u.Name)
	return panel
}

// press clicks a button of m by label and returns the interaction's answer:
// the updated message, or a new (ephemeral or public) message.
func (g *sandGame) press(u *discordsim.User, m *discordsim.Message, label string) (*discordsim.Interaction, *discordsim.Message) {
	g.h.t.Helper()
	in := g.h.click(u, m, buttonID(g.h.t, m, label))
	return in, g.h.answerOf(in, m.Version)
}

// answerOf is what an interaction produced: its message (an update of the
// component's message, or a new one), or its first follow-up. version is
// the component message's version when it was used (0 for commands).
func (h *harness) answerOf(in *discordsim.Interaction, version int) *discordsim.Message {
	h.t.Helper()
	clicked := in.MessageID
	r, err := in.WaitResponse(wait)
	require.NoError(h.t, err)
	if r.Type == discordgo.InteractionResponseDeferredMessageUpdate {
		// The answer is an edit through the interaction or a follow-up; an
		// edit of the live board by the outbox meanwhile is not it.
		m, err := in.WaitReply(wait, nil)
		require.NoError(h.t, err)
		return m
	}
	var m *discordsim.Message
	require.NoError(h.t, h.srv.WaitFor(wait, func() bool {
		if fs := in.Followups(); len(fs) > 0 {
			m = fs[0]
			return true
		}
		m = in.Message()
		return m != nil && !m.Loading() && (m.ID != clicked || m.Version > version)
	}))
	return m
}

// dump writes m's text and images under SANDTABLE_DUMP (for looking at
// what players see), when that variable is set.
func dump(t testing.TB, name string, m *discordsim.Message) {
	dir := os.Getenv("SANDTABLE_DUMP")
	if dir == "" || m == nil {
		return
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	vis := "public"
	if m.Ephemeral() {
		vis = "ephemeral"
	}
	text := fmt.Sprintf("[%s] %s\n", vis, m.Text())
	for _, b := range m.Buttons() {
		text += fmt.Sprintf("  [button %s]\n", b.Label)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, name+".txt"), []byte(text), 0o644))
	for _, a := range m.Attachments {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+"-"+a.Filename), a.Data, 0o644))
	}
}

type dtMessage = discordsim.Message

func optMove(s string) discordsim.Option { return discordsim.Opt("move", s) }

// board returns the newest public board message in the game thread.
func (g *sandGame) board() *discordsim.Message {
	g.h.t.Helper()
	g.h.drained()
	var last *discordsim.Message
	for _, m := range g.h.srv.Messages(g.thread.ID) {
		if !m.Ephemeral() && m.Attachment("board.png") != nil {
			last = m
		}
	}
	require.NotNil(g.h.t, last, "no board in the thread")
	return last
}

// droneBoard is the newest board that offers the Drone order: the board
// of the current PostTurn (outbox posts of earlier turns may come later in
// the thread than the answers that carry newer boards).
func (g *sandGame) droneBoard() *discordsim.Message {
	g.h.t.Helper()
	g.h.drained()
	var last *discordsim.Message
	for _, m := range g.h.srv.Messages(g.thread.ID) {
		if m.Ephemeral() || m.Attachment("board.png") == nil {
			continue
		}
		for _, b := range m.Buttons() {
			if b.Label == "Order a Drone (private)" {
				last = m
			}
		}
	}
	require.NotNil(g.h.t, last, "no board offering a Drone in the thread")
	return last
}

// move plays text as u with /move and returns the live board it posted
// or updated (the player is answered privately).
func (g *sandGame) move(u *discordsim.User, text string) *discordsim.Message {
	g.h.t.Helper()
	m := g.h.reply(u, g.thread.ID, "move", optMove(text))
	require.True(g.h.t, strings.HasPrefix(m.Text(), "You played"), "/move %s by %s refused: %s", text, u.Name, m.Text())
	mustBeEphemeral(g.h.t, m, u)
	return g.board()
}

// refused runs /move text as u and returns the private refusal.
func (g *sandGame) refused(u *discordsim.User, text string) string {
	g.h.t.Helper()
	m := g.h.reply(u, g.thread.ID, "move", optMove(text))
	return mustBeEphemeral(g.h.t, m, u)
}

// mine places a Mine for the side to move on the first legal square that
// ok accepts.
func (g *sandGame) mine(ok func(sandtable.Square) bool) *discordsim.Message {
	g.h.t.Helper()
	p := g.pos()
	require.Equal(g.h.t, sandtable.PhasePostTurn, p.Phase())
	uses, err := p.LegalHazardUses()
	require.NoError(g.h.t, err)
	for _, u := range uses {
		if u.Kind == sandtable.ActMine && ok(u.To) {
			return g.move(g.user(p.ToMove()), u.String())
		}
	}
	g.h.t.Fatalf("no Mine square for %s", p.ToMove())
	return nil
}

// openModal presses label on m as u and returns the modal it opened.
func (g *sandGame) openModal(u *discordsim.User, m *discordsim.Message, label string) *discordsim.Modal {
	g.h.t.Helper()
	in := g.h.click(u, m, buttonID(g.h.t, m, label))
	r, err := in.WaitResponse(wait)
	require.NoError(g.h.t, err)
	require.Equal(g.h.t, discordgo.InteractionResponseModal, r.Type, "%s did not open a form", label)
	md := g.h.srv.OpenModal(u)
	require.NotNil(g.h.t, md)
	return md
}

// submit submits u's open modal and returns the answer (the updated
// message, or a new private one).
func (g *sandGame) submit(u *discordsim.User, values map[string]string) *discordsim.Message {
	g.h.t.Helper()
	md := g.h.srv.OpenModal(u)
	require.NotNil(g.h.t, md)
	version := 0
	if md.From != nil && md.From.MessageID != "" {
		version = g.h.srv.Message(md.From.MessageID).Version
	}
	in, err := g.h.srv.SubmitModal(u, values)
	require.NoError(g.h.t, err)
	return g.h.answerOf(in, version)
}

// drone orders a Drone as u through the board's button and the form, and
// confirms it where the order was sent (the DM, or the ephemeral answer
// when u's DMs are closed). It returns the confirmed private message.
func (g *sandGame) drone(u *discordsim.User, spotter, target string) *discordsim.Message {
	g.h.t.Helper()
	g.openModal(u, g.droneBoard(), "Order a Drone (private)")
	ans := g.submit(u, map[string]string{"spotter": spotter, "target": target})
	require.True(g.h.t, ans.Ephemeral(), "the answer to a Drone order is private: %s", ans.Text())
	preview := ans
	if ans.Attachment("drone.png") == nil {
		require.Contains(g.h.t, ans.Text(), "direct message")
		preview = g.lastDM(u, "Your Drone order")
	}
	require.Contains(g.h.t, preview.Text(), "target **"+target+"**")
	require.NotNil(g.h.t, preview.Attachment("drone.png"))
	_, done := g.press(u, preview, "Confirm Drone")
	require.Contains(g.h.t, done.Text(), "Drone ordered")
	return done
}

// lastDM waits for the newest DM to u containing text.
func (g *sandGame) lastDM(u *discordsim.User, text string) *discordsim.Message {
	g.h.t.Helper()
	dm := g.h.srv.DM(u)
	var found *discordsim.Message
	require.NoError(g.h.t, g.h.srv.WaitFor(wait, func() bool {
		for _, m := range g.h.srv.VisibleMessages(u, dm.ID) {
			if strings.Contains(m.Text(), text) {
				found = m
			}
		}
		return found != nil
	}), "no DM to %s with %q", u.Name, text)
	return found
}

// presetID is the custom ID of the preset menu of the deployment panel m
// ("" when m has none).
func presetID(m *discordsim.Message) string {
	for _, s := range m.SelectMenus() {
		if strings.Contains(s.CustomID, ":dep-preset") {
			return s.CustomID
		}
	}
	return ""
}

// choosePreset picks preset in the preset menu of u's deployment panel m
// and returns the panel as the answer left it.
func (g *sandGame) choosePreset(u *discordsim.User, m *discordsim.Message, preset string) *discordsim.Message {
	g.h.t.Helper()
	id := presetID(m)
	require.NotEmpty(g.h.t, id, "no preset menu on %q", m.Text())
	sel, err := g.h.srv.Select(u, m, id, preset)
	require.NoError(g.h.t, err)
	return g.h.answerOf(sel, m.Version)
}

// deploy runs /sandtable deploy as u in channelID with opts (a change, or
// none), which gives u's panel anew by direct message: it returns the
// short private answer and the new panel.
func (g *sandGame) deploy(u *discordsim.User, channelID string, opts ...discordsim.Option) (ack, panel *discordsim.Message) {
	g.h.t.Helper()
	old := g.dmPanel(u)
	ack = g.h.reply(u, channelID, "sandtable deploy", opts...)
	mustBeEphemeral(g.h.t, ack, u)
	require.Contains(g.h.t, ack.Text(), "I sent your deployment panel", "refused: %s", ack.Text())
	require.NoError(g.h.t, g.h.srv.WaitFor(wait, func() bool { panel = g.dmPanel(u); return panel.ID != old.ID }), "no new panel")
	// The old panel is closed by the effect after the new panel's post: the
	// action delivers it before answering only when it can within a second.
	g.h.drained()
	return ack, panel
}

// panelCount counts the deployment panels of this game in u's direct
// messages that still have controls (the live ones).
func (g *sandGame) panelCount(u *discordsim.User) int {
	n := 0
	for _, m := range g.h.srv.VisibleMessages(u, g.h.srv.DM(u).ID) {
		if strings.Contains(m.Text(), "Your secret deployment") && strings.Contains(m.Text(), "Game "+g.id) && len(m.Components) > 0 {
			n++
		}
	}
	return n
}

// requireNoSquare fails when text names the square sq as a word (a game ID
// such as "qdj3f6mg2o" may hold the letters of a square by chance).
func requireNoSquare(t testing.TB, text, sq string) {
	t.Helper()
	require.False(t, regexp.MustCompile(`(?i)\b`+regexp.QuoteMeta(sq)+`\b`).MatchString(text), "%q names %s", text, sq)
}
