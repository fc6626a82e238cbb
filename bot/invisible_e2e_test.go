package bot_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/games/sandtable"
	"sandtable/internal/discordsim"
)

// TestQuoteInvisibleCharactersAreNotRead: a move pasted with invisible
// characters (a zero-width space, a NUL, a word joiner) is read as the
// echo shows it, so a visibly legal move is played instead of being
// refused as "not a move"; a comment keeps its joined emoji whole while a
// zero-width space and a bidi override in it are removed.
func TestQuoteInvisibleCharactersAreNotRead(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob, carol := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol")

	t.Run("survival move", func(t *testing.T) {
		thread := h.survivalGame(alice, bob)
		m := h.reply(alice, thread.ID, "move", discordsim.Opt("move", "\u200ba8=\x00Q\u2060"))
		require.Contains(t, m.Text(), "You played **a8=Q**", "refused: %s", m.Text())
	})
	t.Run("team chess move and suggestion", func(t *testing.T) {
		tb := h.tcStart("", []*discordsim.User{alice, bob}, []*discordsim.User{carol})
		emoji := "👩\u200d💻 🏳\ufe0f\u200d🌈 🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F 👨\u200d👩\u200d👧"
		m := tb.refused(bob, tb.pub, "suggest", discordsim.Opt("move", "N\u200bf3"), discordsim.Opt("comment", emoji+" ad\u200bmin \u202egnp.exe"))
		require.Contains(t, m, "posted in your team thread")
		s := h.lastPublic(tb.team[tcWhite].ID).Content
		require.Contains(t, s, "**Nf3**")
		require.Contains(t, s, emoji, "joined emoji stay whole")
		require.Contains(t, s, "admin gnp.exe")
		require.NotContains(t, s, "\u202e")
		tb.move(alice, "Nf3\u200b")
		tb.move(carol, "\u200be5")
	})
	t.Run("sandtable deployment edit and move", func(t *testing.T) {
		g := h.sandStart(alice, bob)
		m := h.reply(alice, g.thread.ID, "sandtable deploy", discordsim.Opt("edit", "place T c3\u200b; place I\u2060 a5"))
		text := mustBeEphemeral(t, m, alice)
		require.Contains(t, text, "2 changes applied", text)
		// Layout files: a UTF-8 byte-order mark is ignored, UTF-16 is
		// reported as not UTF-8 (not as a misread row).
		d, err := sandtable.Preset(sandtable.South, "phalanx")
		require.NoError(t, err)
		dm := h.srv.DM(alice)
		up := h.reply(alice, dm.ID, "sandtable deploy", discordsim.Opt("file", discordsim.File{Name: "bom.txt", Data: []byte("\ufeff" + d.Layout())}))
		require.Contains(t, up.Text(), "Layout loaded: 68 pieces")
		bad := h.reply(alice, dm.ID, "sandtable deploy", discordsim.Opt("file", discordsim.File{Name: "utf16.txt", Data: []byte("\xff\xfe\x00\x019 II\n")}))
		require.Contains(t, bad.Text(), "Your layout cannot be read")
		require.Contains(t, bad.Text(), "not UTF-8")
		require.NotContains(t, bad.Text(), "rank number")
		require.NoError(t, h.loadSandPosition(g.id, draftPosition))
		require.Equal(t, sandtable.PhaseMain, g.pos().Phase())
		g.move(g.user(sandtable.South), "\u200be4-e5\u2060")
		require.True(t, strings.Contains(g.board().Text(), "e4"), g.board().Text())
	})
}
