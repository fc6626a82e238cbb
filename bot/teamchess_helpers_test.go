package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
	"sandtable/storage"
)

// Helpers for the Team Chess end-to-end tests (teamchess_e2e_test.go).

// tcTable is a running Team Chess game as the players see it: the public
// game thread and the two private team threads.
type tcTable struct {
	h     *harness
	t     testing.TB
	pub   *discordsim.Channel
	team  [2]*discordsim.Channel // White's, Black's
	sides [2][]*discordsim.User  // each team's distinct members
	id    string                 // game ID (board footer)
}

const (
	tcWhite = 0
	tcBlack = 1
)

// tcAnswer waits for the answer to in as a player sees it, whether the bot
// answered at once or deferred (slow handlers, e.g. under -race): the
// original message once filled, or the private follow-up that replaced a
// deferred public one; for a component, the updated message (component is
// its version before the click) or a private follow-up.
func (h *harness) tcAnswer(in *discordsim.Interaction, component *discordsim.Message) *discordsim.Message {
	h.t.Helper()
	r, err := in.WaitResponse(wait)
	require.NoError(h.t, err)
	var out *discordsim.Message
	switch r.Type {
	case discordgo.InteractionResponseDeferredChannelMessageWithSource:
		// The filled original first: a public answer may be followed by a
		// private note (Response.PrivateNote).
		err = h.srv.WaitFor(wait, func() bool {
			if m := in.Message(); m != nil && !m.Loading() {
				out = m
				return true
			}
			if fs := in.Followups(); len(fs) > 0 {
				out = fs[0]
				return true
			}
			return false
		})
	case discordgo.InteractionResponseDeferredMessageUpdate:
		// An edit through the interaction or a follow-up, not another edit
		// of the clicked message.
		out, err = in.WaitReply(wait, nil)
	default:
		var newer func(*discordsim.Message) bool
		if component != nil {
			// An update of the clicked message: its new version.
			newer = func(m *discordsim.Message) bool { return m.ID != component.ID || m.Version > component.Version }
		}
		out, err = in.WaitMessage(wait, newer)
	}
	require.NoError(h.t, err, "no answer to %s%s", in.Command, in.CustomID)
	h.drained() // the boards in the game's other threads, the members
	return out
}

// tcReply runs a slash command and returns its answer (see tcAnswer).
func (h *harness) tcReply(u *discordsim.User, channelID, command string, opts ...discordsim.Option) *discordsim.Message {
	h.t.Helper()
	return h.tcAnswer(h.slash(u, channelID, command, opts...), nil)
}

// tcOpen opens a lobby and returns its message.
func (h *harness) tcOpen(creator *discordsim.User, opts ...discordsim.Option) *discordsim.Message {
	h.t.Helper()
	m := h.tcReply(creator, h.gen.ID, "teamchess new", opts...)
	require.False(h.t, m.Ephemeral(), "a lobby is public: %s", m.Text())
	require.Contains(h.t, m.Text(), "Team Chess lobby")
	return m
}

// tcPress clicks the button with label on the lobby and returns the answer:
// the updated lobby, or a private refusal.
func (h *harness) tcPress(u *discordsim.User, lobby *discordsim.Message, label string) *discordsim.Message {
	h.t.Helper()
	cur := h.srv.Message(lobby.ID)
	in, err := h.srv.Click(u, cur, buttonID(h.t, cur, label))
	require.NoError(h.t, err)
	return h.tcAnswer(in, cur)
}

// tcChoose picks value in the lobby's select menu whose custom ID ends with
// action and returns the answer.
func (h *harness) tcChoose(u *discordsim.User, lobby *discordsim.Message, action, value string) *discordsim.Message {
	h.t.Helper()
	cur := h.srv.Message(lobby.ID)
	in, err := h.srv.Select(u, cur, "c:"+lobbyID(h.t, cur)+":"+action, value)
	require.NoError(h.t, err)
	return h.tcAnswer(in, cur)
}

// selectValues lists the option values of the lobby's select menu action.
func selectValues(t testing.TB, lobby *discordsim.Message, action string) []string {
	t.Helper()
	sm := lobby.SelectMenu("c:" + lobbyID(t, lobby) + ":" + action)
	if sm == nil {
		return nil
	}
	var out []string
	for _, o := range sm.Options {
		out = append(out, o.Value+" = "+o.Label)
	}
	return out
}

func lobbyID(t testing.TB, lobby *discordsim.Message) string {
	t.Helper()
	parts := strings.Split(buttonID(t, lobby, "Start"), ":")
	require.Len(t, parts, 3)
	return parts[1]
}

// tcSetFEN writes a start position into the stored lobby: the test-only
// way to start from a special position (no command can do it).
func (h *harness) tcSetFEN(lobby *discordsim.Message, fen string) {
	h.t.Helper()
	id := lobbyID(h.t, lobby)
	require.NoError(h.t, h.store.Update(context.Background(), func(tx storage.Tx) error {
		var doc map[string]any
		exp, err := tx.Lobbies().Get(id, &doc)
		if err != nil {
			return err
		}
		doc["start_fen"] = fen
		return tx.Lobbies().Put(id, exp, doc)
	}))
}

// tcStart opens a lobby by white[0], has everyone join in order (White's
// queue, then Black's), optionally sets the start FEN, starts, and finds
// the threads.
func (h *harness) tcStart(fen string, white, black []*discordsim.User, opts ...discordsim.Option) *tcTable {
	h.t.Helper()
	lobby := h.tcOpen(white[0], opts...)
	for _, u := range white {
		lobby = h.tcPress(u, lobby, "Join White")
		require.False(h.t, lobby.Ephemeral(), lobby.Text())
	}
	for _, u := range black {
		lobby = h.tcPress(u, lobby, "Join Black")
		require.False(h.t, lobby.Ephemeral(), lobby.Text())
	}
	if fen != "" {
		h.tcSetFEN(lobby, fen)
	}
	return h.tcBegin(white[0], lobby, white, black)
}

// tcBegin presses Start and finds the game's threads.
func (h *harness) tcBegin(creator *discordsim.User, lobby *discordsim.Message, white, black []*discordsim.User) *tcTable {
	h.t.Helper()
	started := h.tcPress(creator, lobby, "Start")
	require.False(h.t, started.Ephemeral(), "start refused: %s", started.Text())
	require.Contains(h.t, started.Text(), "started the game")
	require.Empty(h.t, started.Buttons(), "a started lobby has no buttons")
	link := regexp.MustCompile(`<#(\d+)>`).FindStringSubmatch(started.Text())
	require.NotNil(h.t, link)
	tb := &tcTable{h: h, t: h.t, pub: h.srv.ChannelByID(link[1]), sides: [2][]*discordsim.User{dedupe(white), dedupe(black)}}
	require.NotNil(h.t, tb.pub)
	require.Equal(h.t, discordgo.ChannelTypeGuildPublicThread, tb.pub.Type)
	// The team threads link the public thread in their first message.
	for _, th := range h.srv.Threads(h.gen.ID) {
		if th.Type != discordgo.ChannelTypeGuildPrivateThread {
			continue
		}
		msgs := h.srv.Messages(th.ID)
		if len(msgs) == 0 || !strings.Contains(msgs[0].Text(), "<#"+tb.pub.ID+">") {
			continue
		}
		switch {
		case strings.Contains(msgs[0].Text(), "White's private thread"):
			tb.team[tcWhite] = th
		case strings.Contains(msgs[0].Text(), "Black's private thread"):
			tb.team[tcBlack] = th
		}
	}
	require.NotNil(h.t, tb.team[tcWhite], "White's team thread")
	require.NotNil(h.t, tb.team[tcBlack], "Black's team thread")
	first := h.srv.Messages(tb.pub.ID)
	require.NotEmpty(h.t, first)
	require.NotNil(h.t, first[0].Attachment("board.png"), "the first board is posted in the game thread")
	tb.id = gameIDFromFooterTC(h.t, first[0])
	return tb
}

func dedupe(us []*discordsim.User) []*discordsim.User {
	var out []*discordsim.User
	seen := map[string]bool{}
	for _, u := range us {
		if !seen[u.ID] {
			seen[u.ID] = true
			out = append(out, u)
		}
	}
	return out
}

func gameIDFromFooterTC(t testing.TB, m *discordsim.Message) string {
	t.Helper()
	for _, e := range m.Embeds {
		if e.Footer != nil && strings.HasPrefix(e.Footer.Text, "Game ") {
			return strings.Fields(strings.TrimPrefix(e.Footer.Text, "Game "))[0]
		}
	}
	t.Fatalf("no game ID in %q", m.Text())
	return ""
}

// refresh re-reads the threads (membership changes).
func (tb *tcTable) refresh() {
	tb.pub = tb.h.srv.ChannelByID(tb.pub.ID)
	for i := range tb.team {
		tb.team[i] = tb.h.srv.ChannelByID(tb.team[i].ID)
	}
}

// do runs a command in channel and returns the answer, which must be
// public (in that channel); for a game action (move, tag-out,
// resignation, siege), whose user is answered privately, the live board it
// posted in channel.
func (tb *tcTable) do(u *discordsim.User, channel *discordsim.Channel, command string, opts ...discordsim.Option) *discordsim.Message {
	tb.t.Helper()
	action := command == "move" || command == "tagout" || command == "resign" || strings.HasPrefix(command, "siege")
	before := 0
	if action {
		before = tb.storedActions()
	}
	m := tb.h.tcReply(u, channel.ID, command, opts...)
	if command == "tagout" || command == "resign" {
		// Both ask first, privately: confirm.
		require.Contains(tb.t, mustBeEphemeral(tb.t, m, u), "Confirm within", "/%s by %s refused", command, u.Name)
		in, err := tb.h.srv.Click(u, m, buttonID(tb.t, m, "Confirm"))
		require.NoError(tb.t, err)
		m = tb.h.tcAnswer(in, m) // the answer replaces the prompt
	}
	if action {
		require.Greater(tb.t, tb.storedActions(), before, "/%s by %s refused: %s", command, u.Name, m.Text())
		mustBeEphemeral(tb.t, m, u)
		return tb.h.liveBoard(channel)
	}
	require.False(tb.t, m.Ephemeral(), "/%s by %s refused: %s", command, u.Name, m.Text())
	return m
}

// move plays a move in the public thread.
func (tb *tcTable) move(u *discordsim.User, text string) *discordsim.Message {
	tb.t.Helper()
	return tb.do(u, tb.pub, "move", discordsim.Opt("move", text))
}

// refused runs a command that must be refused privately and returns the
// refusal.
func (tb *tcTable) refused(u *discordsim.User, channel *discordsim.Channel, command string, opts ...discordsim.Option) string {
	tb.t.Helper()
	m := tb.h.tcReply(u, channel.ID, command, opts...)
	return mustBeEphemeral(tb.t, m, u)
}

// last returns the live board of a channel (edited in place, so pings and
// suggestions may be newer), or its newest public message, pings aside,
// when it has no board.
func (tb *tcTable) last(channel *discordsim.Channel) *discordsim.Message {
	tb.t.Helper()
	ms := public(tb.h.srv.Messages(channel.ID))
	for i := len(ms) - 1; i >= 0; i-- {
		if hasImage(ms[i]) {
			return ms[i]
		}
	}
	for i := len(ms) - 1; i >= 0; i-- {
		if !(pingText.MatchString(ms[i].Content) && len(ms[i].Embeds) == 0) {
			return ms[i]
		}
	}
	tb.t.Fatalf("no message in %s", channel.Name)
	return nil
}

// choices returns the autocomplete choices for the move typed so far.
func (tb *tcTable) choices(u *discordsim.User, channel *discordsim.Channel, typed string) []string {
	tb.t.Helper()
	in, err := tb.h.srv.Autocomplete(u, channel.ID, "move", discordsim.Focused("move", typed))
	require.NoError(tb.t, err)
	cs, err := in.WaitChoices(wait)
	require.NoError(tb.t, err)
	var out []string
	for _, c := range cs {
		out = append(out, c.Name+" = "+fmt.Sprint(c.Value))
	}
	return out
}

// requirePrivacy checks that nobody outside a team sees anything of its
// private thread, and that every team member who may be there does.
func (tb *tcTable) requirePrivacy() {
	tb.t.Helper()
	tb.refresh()
	for side, th := range tb.team {
		other := 1 - side
		for _, u := range tb.sides[other] {
			require.False(tb.t, tb.h.srv.CanSee(u, th.ID), "%s sees the other team's thread", u.Name)
			require.Empty(tb.t, tb.h.srv.VisibleMessages(u, th.ID), "%s reads the other team's thread", u.Name)
		}
		// Nothing from the team thread that is not also public shows up in
		// a channel the other team sees.
		for _, m := range tb.h.srv.Messages(th.ID) {
			if strings.Contains(m.Text(), "suggests") {
				for _, u := range tb.sides[other] {
					for _, ch := range tb.h.srv.VisibleChannels(u) {
						for _, vm := range tb.h.srv.VisibleMessages(u, ch.ID) {
							require.NotContains(tb.t, vm.Text(), m.Content, "a suggestion leaked to %s in %s", u.Name, ch.Name)
						}
					}
				}
			}
		}
	}
}

// requireBoard decodes the board image of m and returns it as PNG bytes.
func requireBoard(t testing.TB, m *discordsim.Message) []byte {
	t.Helper()
	a := m.Attachment("board.png")
	require.NotNil(t, a, "no board in %q", m.Text())
	_, err := png.Decode(bytes.NewReader(a.Data))
	require.NoError(t, err)
	return a.Data
}

// tcDump writes m's text and images under SANDTABLE_DUMP (for looking at
// what players see), when that variable is set.
func tcDump(t testing.TB, name string, m *discordsim.Message) {
	dir := os.Getenv("SANDTABLE_DUMP")
	if dir == "" || m == nil {
		return
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	vis := "public"
	if m.Ephemeral() {
		vis = "ephemeral"
	}
	text := fmt.Sprintf("[%s in %s] %s\n", vis, m.ChannelID, m.Text())
	for _, b := range m.Buttons() {
		text += fmt.Sprintf("  [button %s]\n", b.Label)
	}
	for _, row := range m.Components {
		if r, ok := row.(*discordgo.ActionsRow); ok {
			for _, c := range r.Components {
				if sm, ok := c.(*discordgo.SelectMenu); ok {
					text += fmt.Sprintf("  [select %s]\n", sm.Placeholder)
					for _, o := range sm.Options {
						text += fmt.Sprintf("    - %s\n", o.Label)
					}
				}
			}
		}
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, name+".txt"), []byte(text), 0o644))
	for _, a := range m.Attachments {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+"-"+a.Filename), a.Data, 0o644))
	}
}

// tcStateOf reads the stored game's engine state (for assertions on the
// record of a restarted game).
func (tb *tcTable) stored() *storage.Game {
	tb.t.Helper()
	var g *storage.Game
	require.NoError(tb.t, tb.h.store.View(context.Background(), func(tx storage.Tx) error {
		var err error
		g, err = tx.Games().Get(tb.id)
		return err
	}))
	return g
}

// storedActions counts the engine actions of the stored game.
func (tb *tcTable) storedActions() int {
	tb.t.Helper()
	var st struct {
		Game struct {
			Actions []json.RawMessage `json:"actions"`
		} `json:"game"`
	}
	require.NoError(tb.t, json.Unmarshal(tb.stored().State, &st))
	return len(st.Game.Actions)
}
