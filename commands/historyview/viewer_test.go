package historyview

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/ui"
	"sandtable/storage"
)

// TestHistoryFrame: what each control asks for, among n frames.
func TestHistoryFrame(t *testing.T) {
	t.Parallel()
	click := func(id string) *commands.Request {
		return &commands.Request{Type: commands.ComponentRequest, CustomID: id}
	}
	for _, c := range []struct {
		req    *commands.Request
		frame  int
		update bool
		bad    bool
	}{
		{&commands.Request{Type: commands.CommandRequest, Command: "history"}, 9, false, false},
		{click("g:game1:history"), 9, false, false},
		{click("g:game1:history:f"), 0, true, false},
		{click("g:game1:history:l"), 9, true, false},
		{click("g:game1:history:p3"), 3, true, false},
		{click("g:game1:history:n4"), 4, true, false},
		{click("g:game1:history:n40"), 9, true, false}, // past the end: the last
		{click("g:game1:history:p-1"), 0, false, true},
		{click("g:game1:history:p03"), 0, false, true},
		{click("g:game1:history:x3"), 0, false, true},
		{click("g:game1:history:n"), 0, false, true},
	} {
		frame, update, err := Frame(c.req, 10)
		if c.bad {
			var ue *commands.UserError
			require.ErrorAs(t, err, &ue, c.req.CustomID)
			continue
		}
		require.NoError(t, err, c.req.CustomID)
		require.Equal(t, c.frame, frame, c.req.CustomID)
		require.Equal(t, c.update, update, c.req.CustomID)
	}
}

// TestHistoryControls: the controls carry the frames they show, are
// disabled where they would not move, and have distinct custom IDs (even
// with a single frame, where ◀ and ▶ both target frame 0).
func TestHistoryControls(t *testing.T) {
	t.Parallel()
	g := &storage.Game{ID: "game1"}
	routes := func(row ui.Row) (ids []string, disabled []bool) {
		seen := map[string]bool{}
		for _, c := range row {
			b := c.(ui.Button)
			require.False(t, seen[b.Route], "distinct custom IDs")
			seen[b.Route] = true
			ids, disabled = append(ids, b.Route), append(disabled, b.Disabled)
		}
		return ids, disabled
	}
	ids, dis := routes(Controls(g, 3, 10, "Ply 3/9"))
	require.Equal(t, []string{"g:game1:history:f", "g:game1:history:p2", "g:game1:history:c3", "g:game1:history:n4", "g:game1:history:l"}, ids)
	require.Equal(t, []bool{false, false, true, false, false}, dis)
	_, dis = routes(Controls(g, 0, 10, ""))
	require.Equal(t, []bool{true, true, true, false, false}, dis)
	_, dis = routes(Controls(g, 9, 10, ""))
	require.Equal(t, []bool{false, false, true, true, true}, dis)
	_, dis = routes(Controls(g, 0, 1, ""))
	require.Equal(t, []bool{true, true, true, true, true}, dis)
	for _, id := range ids {
		c, err := commands.ParseCustomID(id)
		require.NoError(t, err)
		require.Equal(t, commands.HistoryAction, c.Action)
	}
}

// TestHistoryWindow: the line shown stays, with as many neighbours as fit,
// and ellipses where lines were left out.
func TestHistoryWindow(t *testing.T) {
	t.Parallel()
	var lines []string
	for i := 0; i < 100; i++ {
		lines = append(lines, strings.Repeat("x", 9)) // 10 with the newline
	}
	lines[50] = "**shown**"
	out := Window(lines, 50, 100)
	require.LessOrEqual(t, len(out), 100)
	require.Contains(t, out, "**shown**")
	require.True(t, strings.HasPrefix(out, "…\n") && strings.HasSuffix(out, "\n…"))
	require.Equal(t, "a\nb", Window([]string{"a", "b"}, 0, 100))
	end := Window(lines, 99, 100)
	require.True(t, strings.HasPrefix(end, "…\n") && strings.HasSuffix(end, "xxxxxxxxx"), "nothing left out after the last line")
	require.Contains(t, Window(lines, 0, 100), "xxxxxxxxx\n…")
	require.Empty(t, Window(nil, 0, 100))
}

// TestChessMoveLines: numbered full moves, the shown ply in bold, a game
// starting with Black numbered "1…".
func TestChessMoveLines(t *testing.T) {
	t.Parallel()
	lines, cur := ChessMoveLines([]string{"e8=Q", "a1=N", "Qe7", "Nb3"}, true, 1, 3)
	require.Equal(t, []string{"1. e8=Q a1=N", "2. **Qe7** Nb3"}, lines)
	require.Equal(t, 1, cur)
	lines, cur = ChessMoveLines([]string{"Kg8", "Ka2", "Kf8"}, false, 5, 1)
	require.Equal(t, []string{"5… **Kg8**", "6. Ka2 Kf8"}, lines)
	require.Equal(t, 0, cur)
	lines, _ = ChessMoveLines(nil, true, 1, 0)
	require.Empty(t, lines)
}
