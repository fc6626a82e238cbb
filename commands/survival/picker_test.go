package survival

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/games/chess"
)

// board is the current board message of game1 as /board shows it.
func boardMsg(t *testing.T, a *commands.App) commands.Message {
	t.Helper()
	resp, err := a.Handle(cmd(alice, "board", "", nil))
	require.NoError(t, err)
	return resp.Message
}

// selectOf is m's select menu; ok false when m has none.
func selectOf(m commands.Message) (ui.Select, bool) {
	for _, row := range m.Rows {
		for _, c := range row {
			if s, ok := c.(ui.Select); ok {
				return s, true
			}
		}
	}
	return ui.Select{}, false
}

// buttonNamed is m's button labelled label; ok false when m has none.
func buttonNamed(m commands.Message, label string) (ui.Button, bool) {
	for _, row := range m.Rows {
		for _, c := range row {
			if b, ok := c.(ui.Button); ok && b.Label == label {
				return b, true
			}
		}
	}
	return ui.Button{}, false
}

// choose is u's choice of value in the picker m's select.
func choose(t *testing.T, a *commands.App, u commands.User, m commands.Message, value string) (*commands.Response, error) {
	t.Helper()
	s, ok := selectOf(m)
	require.True(t, ok, "no select in %+v", m)
	req := click(u, s.Route)
	req.Values = []string{value}
	return a.Handle(req)
}

// press is u's click on m's button labelled label.
func press(t *testing.T, a *commands.App, u commands.User, m commands.Message, label string) (*commands.Response, error) {
	t.Helper()
	b, ok := buttonNamed(m, label)
	require.True(t, ok, "no %q button in %+v", label, m)
	require.False(t, b.Disabled, "%q is disabled", label)
	return a.Handle(click(u, b.Route))
}

// allOptions collects the options of the picker m over all its pages
// (following Next), checking that each page holds at most 25 and that
// each answer updates the picker in place.
func allOptions(t *testing.T, a *commands.App, u commands.User, m commands.Message) (opts []ui.SelectOption, pages int) {
	t.Helper()
	for {
		s, ok := selectOf(m)
		require.True(t, ok, "no select in %+v", m)
		require.LessOrEqual(t, len(s.Options), 25)
		opts = append(opts, s.Options...)
		pages++
		next, ok := buttonNamed(m, "Next ▶")
		if !ok || next.Disabled {
			return opts, pages
		}
		resp, err := a.Handle(click(u, next.Route))
		require.NoError(t, err)
		require.True(t, resp.Update, "a page turn updates the picker")
		m = resp.Message
	}
}

// openPicker clicks the board's Pick a move button as u.
func openPicker(t *testing.T, a *commands.App, u commands.User) commands.Message {
	t.Helper()
	resp, err := a.Handle(click(u, buttonOf(t, boardMsg(t, a), "Pick a move")))
	require.NoError(t, err)
	require.True(t, resp.Ephemeral, "the picker is private")
	require.False(t, resp.Update, "the picker is a new private message, not the board edited")
	return resp.Message
}

// pickedMoves walks every piece of the picker opened by u and returns
// every move offered (UCI), sorted, with the piece options' values.
func pickedMoves(t *testing.T, a *commands.App, u commands.User) (moves, pieces []string) {
	t.Helper()
	root := openPicker(t, a, u)
	opts, _ := allOptions(t, a, u, root)
	for _, o := range opts {
		pieces = append(pieces, o.Value)
		resp, err := choose(t, a, u, root, o.Value)
		require.NoError(t, err)
		require.True(t, resp.Update, "choosing a piece updates the picker")
		dests, _ := allOptions(t, a, u, resp.Message)
		for _, d := range dests {
			require.True(t, strings.HasPrefix(d.Value, o.Value), "%s's move %s starts from it", o.Value, d.Value)
			moves = append(moves, d.Value)
		}
	}
	sort.Strings(moves)
	return moves, pieces
}

// legalUCI is every legal move of fen, sorted.
func legalUCI(t *testing.T, fen string) []string {
	t.Helper()
	g, err := chess.ReplayGame(chess.Survival, fen, nil)
	require.NoError(t, err)
	var out []string
	for _, m := range g.Position().LegalMoves() {
		out = append(out, m.UCI())
	}
	sort.Strings(out)
	return out
}

// TestSurvivalPickerOffersExactlyTheLegalMoves walks every piece and every
// page of the picker in positions of each kind and compares the moves it
// offers with the move generator's: the Tartan start (promotions only),
// a forced capture, 24 pieces (Survival's most: the pieces never need a
// second page), more than 25 moves of one piece, Black to move.
// A picker that dropped or invented a move, offered a non-capture when a
// capture is due, or cut a list at 25 fails.
func TestSurvivalPickerOffersExactlyTheLegalMoves(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, fen string
		pieces    int
	}{
		{"tartan start", chess.Survival.StartFEN(), 4},
		{"forced capture", "4k3/8/8/3p4/4P3/8/8/K7 w - - 0 1", 1},
		{"24 pieces", "7k/8/8/8/PPPPPPPP/8/RRRRRRRR/NNNNNNNN w - - 0 1", 24},
		{"queen with 27 moves", "8/8/8/3Q4/8/8/8/6k1 w - - 0 1", 1},
		{"black to move", "6k1/8/8/8/3q4/8/8/1K6 b - - 0 1", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _, store := newApp(t)
			putGame(t, store, tc.fen)
			u := alice
			if strings.Contains(tc.fen, " b ") {
				u = bob
			}
			moves, pieces := pickedMoves(t, a, u)
			require.Equal(t, legalUCI(t, tc.fen), moves)
			require.Len(t, pieces, tc.pieces)
		})
	}
}

// TestSurvivalPickerMandatoryCapture: when a capture exists only the
// capturing pieces are offered, the picker says why, and the capture is
// described.
func TestSurvivalPickerMandatoryCapture(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	putGame(t, store, "4k3/8/8/3p4/4P3/8/8/K7 w - - 0 1")
	root := openPicker(t, a, alice)
	require.Contains(t, root.Content, "Capture is mandatory: only the pieces that can capture are offered.")
	s, _ := selectOf(root)
	require.Equal(t, []ui.SelectOption{{Label: "Pawn e4", Value: "e4", Description: "1 move: exd5"}}, s.Options)
	resp, err := choose(t, a, alice, root, "e4")
	require.NoError(t, err)
	s, _ = selectOf(resp.Message)
	require.Equal(t, []ui.SelectOption{{Label: "exd5", Value: "e4d5", Description: "captures the pawn on d5"}}, s.Options)
	_, ok := buttonNamed(resp.Message, "Back")
	require.True(t, ok)
}

// TestSurvivalPickerPromotionPlaysLikeMove: from the Tartan start the
// picker offers each promotion of a pawn (King included), and choosing one
// plays it with exactly /move's effects and answer: the same stored game,
// the same public board and the same posts.
func TestSurvivalPickerPromotionPlaysLikeMove(t *testing.T) {
	t.Parallel()
	start := chess.Survival.StartFEN()
	a, p, store := newApp(t)
	id := putGame(t, store, start)
	root := openPicker(t, a, alice)
	resp, err := choose(t, a, alice, root, "e7")
	require.NoError(t, err)
	require.Contains(t, resp.Message.Content, "**Pawn e7**: pick its move.")
	require.Contains(t, resp.Message.Content, "promotes")
	s, _ := selectOf(resp.Message)
	var labels []string
	for _, o := range s.Options {
		labels = append(labels, o.Label+" "+o.Description)
	}
	require.Equal(t, []string{
		"e8=Q to e8, promotes to a queen", "e8=R to e8, promotes to a rook", "e8=B to e8, promotes to a bishop",
		"e8=N to e8, promotes to a knight", "e8=K to e8, promotes to a king",
	}, labels)
	picked, err := choose(t, a, alice, resp.Message, "e7e8k")
	require.NoError(t, err)

	b, pb, storeB := newApp(t)
	putGame(t, storeB, start)
	typed, err := b.Handle(cmd(alice, "move", "", map[string]string{"move": "e8=K"}))
	require.NoError(t, err)

	// /move answers the mover privately (the board is posted in the
	// thread); the picker shows that same answer in its own place.
	require.True(t, typed.Ephemeral)
	require.Equal(t, typed.Message, picked.Message)
	require.True(t, picked.Update, "the private answer replaces the picker in place")
	gA, sA := load(t, store, id)
	gB, sB := load(t, storeB, id)
	require.Equal(t, []string{"e7e8k"}, sA.Moves)
	require.Equal(t, sB.Moves, sA.Moves)
	require.Equal(t, sB.LastMove, sA.LastMove)
	require.Equal(t, gB.Deadline, gA.Deadline)
	require.Equal(t, gB.State, gA.State)
	commandstest.Deliver(t, a, t0)
	commandstest.Deliver(t, b, t0)
	postsA, editsA := p.Snapshot()
	postsB, editsB := pb.Snapshot()
	require.Equal(t, postsB, postsA)
	require.Equal(t, editsB, editsA)
}

// TestSurvivalPickerRefusesOthersAndStalePickers: only the player to move
// opens a picker (others are told whose turn it is); a picker or board
// button shown before the last move refuses, playing nothing; a forged
// choice is refused.
func TestSurvivalPickerRefusesOthersAndStalePickers(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	id := putGame(t, store, kingsShuffle)
	board := boardMsg(t, a)
	open := buttonOf(t, board, "Pick a move")

	_, err := a.Handle(click(carol, open))
	require.Contains(t, userMsg(t, err), "You are not playing in this game")
	_, err = a.Handle(click(bob, open))
	require.Contains(t, userMsg(t, err), "It is not your turn: <@"+alice.ID+"> (White) is to move.")

	root := openPicker(t, a, alice)
	_, err = choose(t, a, alice, root, "b8")
	require.Contains(t, userMsg(t, err), "No piece on b8 can move now", "a square without a movable piece is refused")

	// Alice and Bob move by typing; the old picker and board are now stale.
	_, err = a.Handle(cmd(alice, "move", "", map[string]string{"move": "Ka2"}))
	require.NoError(t, err)
	_, err = a.Handle(cmd(bob, "move", "", map[string]string{"move": "Kg8"}))
	require.NoError(t, err)
	_, err = choose(t, a, alice, root, "a2")
	require.Equal(t, "The game moved on since this picker was shown: nothing was played. Use Pick a move on the latest board.", userMsg(t, err))
	_, err = a.Handle(click(alice, open))
	require.Contains(t, userMsg(t, err), "This board is out of date")
	_, st := load(t, store, id)
	require.Equal(t, []string{"a1a2", "h8g8"}, st.Moves)

	// A value the select did not offer (a forged interaction) is refused.
	root = openPicker(t, a, alice)
	sel, _ := selectOf(root)
	req := click(alice, sel.Route)
	req.Values = []string{"zz"}
	_, err = a.Handle(req)
	require.Contains(t, userMsg(t, err), "not one this picker offered")
	// And a forged complete move that is illegal plays nothing either.
	req = click(alice, sel.Route)
	req.Values = []string{"a2a4"}
	_, err = a.Handle(req)
	require.Error(t, err)
	_, st = load(t, store, id)
	require.Equal(t, []string{"a1a2", "h8g8"}, st.Moves)

	// A finished game's board has no picker, and its buttons refuse.
	_, err = commandstest.Confirm(t, a, cmd(alice, "resign", "", nil))
	require.NoError(t, err)
	_, ok := buttonNamed(boardMsg(t, a), "Pick a move")
	require.False(t, ok)
	_, err = choose(t, a, alice, root, "a2")
	require.Contains(t, userMsg(t, err), "This game is over")
}

// TestSurvivalPickerPagesAndBack: the pages of a long list turn both ways,
// Back returns to the pieces and the choice made after paging plays.
func TestSurvivalPickerPagesAndBack(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	id := putGame(t, store, "8/8/8/3Q4/8/8/8/6k1 w - - 0 1")
	root := openPicker(t, a, alice)
	resp, err := choose(t, a, alice, root, "d5")
	require.NoError(t, err)
	first := resp.Message
	s, _ := selectOf(first)
	require.Len(t, s.Options, 25)
	require.Contains(t, s.Placeholder, "(page 1 of 2)")
	prev, _ := buttonNamed(first, "◀ Previous")
	require.True(t, prev.Disabled)
	resp, err = press(t, a, alice, first, "Next ▶")
	require.NoError(t, err)
	second := resp.Message
	s2, _ := selectOf(second)
	require.Len(t, s2.Options, 2)
	require.Contains(t, second.Content, "Page 2 of 2: options 26 to 27 of 27.")
	resp, err = press(t, a, alice, second, "◀ Previous")
	require.NoError(t, err)
	require.Equal(t, first, resp.Message)
	resp, err = press(t, a, alice, second, "Back")
	require.NoError(t, err)
	require.Equal(t, root, resp.Message)
	last := s2.Options[1].Value
	resp, err = choose(t, a, alice, second, last)
	require.NoError(t, err)
	require.Contains(t, resp.Content, "played **")
	_, st := load(t, store, id)
	require.Equal(t, []string{last}, st.Moves)
}

// BenchmarkPickerSteps times the picker's two steps from the Tartan start
// after 1. e8=Q (Black's pieces, then a pawn's promotions).
func BenchmarkPickerSteps(b *testing.B) {
	g, err := chess.ReplayGame(chess.Survival, chess.Survival.StartFEN(), []string{"e7e8q"})
	require.NoError(b, err)
	s := &State{White: alice, Black: bob, game: g}
	for b.Loop() {
		for _, path := range []string{"", "a2"} {
			if _, _, err := pickStep(s, chess.Black, path); err != nil {
				b.Fatal(path, err)
			}
		}
	}
}
