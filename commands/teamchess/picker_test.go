package teamchess

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/games/chess"
	tc "sandtable/games/teamchess"
	"sandtable/storage"
)

// startGameID is startGame with the game's ID chosen (so that two apps
// playing the same game write the same messages).
func startGameID(t *testing.T, a *commands.App, store storage.Store, id, fen string, white, black []commands.User) (g *storage.Game, pub string, team [2]string) {
	t.Helper()
	l := &lobby{ID: id, Kind: Kind, GuildID: "g", ChannelID: "general", Creator: white[0],
		White: white, Black: black, MoveTime: time.Hour, Created: t0, StartFEN: fen}
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error { return tx.Lobbies().Put(l.ID, time.Time{}, l) }))
	resp, err := a.Handle(commandstest.Click(white[0], commands.CustomID{Scope: "c", ID: l.ID, Action: "start"}.String(), "lobbymsg-"+l.ID))
	require.NoError(t, err)
	require.True(t, resp.Update)
	commandstest.Deliver(t, a, t0)
	g = commandstest.Game(t, store, l.ID)
	return g, g.ThreadID, load(t, store, g.ID).TeamThreads
}

// boardAsked is the board /board shows u in channel.
func boardAsked(t *testing.T, a *commands.App, u commands.User, channel string) commands.Message {
	t.Helper()
	resp, err := a.Handle(in(u, channel, "board", "", nil))
	require.NoError(t, err)
	return resp.Message
}

// pickIn is u's click in channel on the route of a picker or board
// control, with the select value when one is given.
func pickIn(a *commands.App, u commands.User, channel, route string, values ...string) (*commands.Response, error) {
	r := click(u, route, values...)
	r.ChannelID = channel
	return a.Handle(r)
}

// menu is m's select menu.
func menu(t *testing.T, m commands.Message) ui.Select {
	t.Helper()
	for _, row := range m.Rows {
		for _, c := range row {
			if s, ok := c.(ui.Select); ok {
				return s
			}
		}
	}
	t.Fatalf("no select in %+v", m)
	return ui.Select{}
}

// labels are the labels of m's select menu's options.
func labels(t *testing.T, m commands.Message) []string {
	var out []string
	for _, o := range menu(t, m).Options {
		out = append(out, o.Label)
	}
	return out
}

// walkPicker returns every whole move the picker of st offers, reaching
// each by its steps (every option of every step, on every page).
func walkPicker(t *testing.T, st *State) []string {
	t.Helper()
	var out []string
	var walk func(path string)
	walk = func(path string) {
		step, uci, err := pickStep(st, path)
		require.NoError(t, err, "path %q", path)
		if uci != "" {
			out = append(out, uci)
			return
		}
		require.NotEmpty(t, step.Options, "path %q offers nothing", path)
		seen := map[string]bool{}
		for _, o := range step.Options {
			require.True(t, strings.HasPrefix(o.Value, path) && len(o.Value) > len(path), "%q extends %q", o.Value, path)
			require.False(t, seen[o.Value], "%q offered twice", o.Value)
			seen[o.Value] = true
			if path != "" {
				back, ok := pickBack(o.Value)
				require.True(t, ok)
				require.Equal(t, path, back, "Back from %q", o.Value)
			}
			walk(o.Value)
		}
	}
	walk("")
	sort.Strings(out)
	return out
}

// stateOf is a fresh state of a game from fen.
func stateOf(t *testing.T, fen string) *State {
	t.Helper()
	g, err := tc.NewGame(tc.Setup{FEN: fen, White: []tc.Member{{ID: alice.ID, Name: alice.Name}}, Black: []tc.Member{{ID: bob.ID, Name: bob.Name}}})
	require.NoError(t, err)
	return &State{game: g}
}

// TestTeamChessPickerOffersExactlyTheLegalMoves walks every step of the
// picker (pieces, moves, roles, Assassin targets, and the replies a
// Saboteur forces, down to a Saboteur forcing a Saboteur) and compares
// the whole moves it reaches with the engine's move generator; each
// option extends its step's path and Back returns to it.
func TestTeamChessPickerOffersExactlyTheLegalMoves(t *testing.T) {
	t.Parallel()
	for _, fen := range []string{
		chess.TeamChess.StartFEN(),
		"r3k3/1P6/8/3n4/8/8/8/Q3K3 w - - 0 1",    // b8 and bxa8: Assassin, Saboteur, Political Agent
		"r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",       // the Queen captured: Royal Guard only
		"3qk3/1P6/8/8/8/8/6p1/Q3K3 w - - 0 1",    // a Saboteur whose forced reply may be a Saboteur
		"4k3/8/8/8/3Q4/8/8/4K3 w - - 0 1",        // a Queen with 27 moves
		"4k3/8/8/8/8/8/6p1/Q3K3 b - - 0 1",       // Black: Royal Guard on g1 (Black's Queen is gone)
		"4k3/1P6/8/8/8/8/8/3rK3 w - - 0 1",       // in check: the Assassin may remove the checker
		"3qk3/1P4P1/8/8/8/8/1p5p/Q3K3 w - - 0 1", // two pawns a side: chains of Saboteurs
	} {
		t.Run(fen, func(t *testing.T) {
			st := stateOf(t, fen)
			pos := st.game.Position()
			var want []string
			for _, m := range tc.LegalMoves(&pos) {
				want = append(want, m.UCI())
			}
			sort.Strings(want)
			require.Equal(t, want, walkPicker(t, st))
		})
	}
}

// TestTeamChessPickerSacrifice picks a sacrifice through the board's
// button in the team thread: the pawn, its move to the last rank, the
// role (the impossible Royal Guard said with its reason), the Assassin's
// target; then Back and Start over; the move played is /move's.
func TestTeamChessPickerSacrifice(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	g, _, team := startGame(t, a, store, "r3k3/1P6/8/3n4/8/8/8/Q3K3 w - - 0 1", []commands.User{alice, carol}, []commands.User{bob})
	board := boardAsked(t, a, alice, team[chess.White])
	resp, err := pickIn(a, alice, team[chess.White], buttonOf(t, board, "Pick a move"))
	require.NoError(t, err)
	require.True(t, resp.Ephemeral)
	root := resp.Message
	require.Contains(t, root.Content, "**Pick a move** · you command White, move 1.")
	require.Equal(t, []string{"King e1", "Queen a1", "Pawn b7"}, labels(t, root))

	resp, err = pickIn(a, alice, team[chess.White], menu(t, root).Route, "b7")
	require.NoError(t, err)
	require.True(t, resp.Update)
	require.Equal(t, []string{"b8=…", "bxa8=…"}, labels(t, resp.Message))
	require.Contains(t, resp.Message.Content, "its role comes next")

	resp, err = pickIn(a, alice, team[chess.White], menu(t, resp.Message).Route, "b7b8")
	require.NoError(t, err)
	roles := resp.Message
	require.Equal(t, []string{"b8=Assassin:…", "b8=Saboteur:…", "b8=PoliticalAgent"}, labels(t, roles))
	require.Contains(t, roles.Content, "Not possible here: Royal Guard: your Queen is still on the board")

	resp, err = pickIn(a, alice, team[chess.White], menu(t, roles).Route, "b7b8a")
	require.NoError(t, err)
	targets := resp.Message
	require.Equal(t, []string{"b8=Assassin:xa8", "b8=Assassin:xd5"}, labels(t, targets))
	require.Equal(t, "removes Black's knight on d5", menu(t, targets).Options[1].Description)

	// Back returns to the roles, Start over to the pieces.
	resp, err = pickIn(a, alice, team[chess.White], buttonOf(t, targets, "Back"))
	require.NoError(t, err)
	require.Equal(t, roles, resp.Message)
	resp, err = pickIn(a, alice, team[chess.White], buttonOf(t, targets, "Start over"))
	require.NoError(t, err)
	require.Equal(t, root, resp.Message)

	resp, err = pickIn(a, alice, team[chess.White], menu(t, targets).Route, "b7b8a:d5")
	require.NoError(t, err)
	require.False(t, resp.Ephemeral, "the move's answer is /move's: the board, in the thread the picker was used in")
	require.Contains(t, resp.Content, "**alice** (White) played **b8=Assassin:xd5**.")
	st := load(t, store, g.ID)
	require.Equal(t, "b7b8a:d5", st.game.State().Actions[len(st.game.State().Actions)-1].Move)
}

// TestTeamChessPickerForcedReply: a Saboteur's forced reply is picked as
// a move of the opponent's; then the opponent's picker offers that move
// alone, and plays it.
func TestTeamChessPickerForcedReply(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	g, pub, _ := startGame(t, a, store, "r3k3/1P6/8/3n4/8/8/8/Q3K3 w - - 0 1", []commands.User{alice}, []commands.User{bob})
	resp, err := pickIn(a, alice, pub, buttonOf(t, boardAsked(t, a, alice, pub), "Pick a move"))
	require.NoError(t, err)
	for _, v := range []string{"b7", "b7b8", "b7b8s"} {
		resp, err = pickIn(a, alice, pub, menu(t, resp.Message).Route, v)
		require.NoError(t, err, v)
	}
	require.Contains(t, resp.Message.Content, "**b8=Saboteur** forces Black's next move (rule 3.3)")
	require.Contains(t, resp.Message.Content, "Pick the piece Black must move.")
	require.Equal(t, []string{"King e8", "Rook a8", "Knight d5"}, labels(t, resp.Message))
	resp, err = pickIn(a, alice, pub, menu(t, resp.Message).Route, "b7b8s:d5")
	require.NoError(t, err)
	require.Contains(t, labels(t, resp.Message), "Nf6")
	resp, err = pickIn(a, alice, pub, menu(t, resp.Message).Route, "b7b8s:d5f6")
	require.NoError(t, err)
	require.Contains(t, resp.Content, "Black's next move is forced: **Nf6**")

	// Alice's turn is over: her board's button refuses her now.
	_, err = pickIn(a, alice, pub, buttonOf(t, boardAsked(t, a, alice, pub), "Pick a move"))
	require.Contains(t, commandstest.UserMsg(t, err), "It is Black's turn")

	resp, err = pickIn(a, bob, pub, buttonOf(t, boardAsked(t, a, bob, pub), "Pick a move"))
	require.NoError(t, err)
	require.Contains(t, resp.Message.Content, "A Saboteur forced your move (rule 3.3): **Nf6** is the only move.")
	require.Equal(t, []string{"Nf6"}, labels(t, resp.Message))
	resp, err = pickIn(a, bob, pub, menu(t, resp.Message).Route, menu(t, resp.Message).Options[0].Value)
	require.NoError(t, err)
	require.Contains(t, resp.Content, "played **Nf6**, the move the Saboteur forced.")
	st := load(t, store, g.ID)
	acts := st.game.State().Actions
	require.Equal(t, "d5f6", acts[len(acts)-1].Move)
}

// TestTeamChessPickerRefusals: only the active commander of the side to
// move opens a picker; advisers, the other side and outsiders are told
// who acts; a picker shown before a tag-out or a move refuses; a forged
// choice is refused; nothing is played.
func TestTeamChessPickerRefusals(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	g, pub, team := startGame(t, a, store, "", []commands.User{alice, carol}, []commands.User{bob, dan})
	open := buttonOf(t, boardAsked(t, a, alice, pub), "Pick a move")
	_, err := pickIn(a, carol, pub, open)
	require.Contains(t, commandstest.UserMsg(t, err), "Only the active commander may move")
	_, err = pickIn(a, bob, pub, open)
	require.Contains(t, commandstest.UserMsg(t, err), "It is White's turn")
	_, err = pickIn(a, commands.User{ID: "100009", Name: "eve"}, pub, open)
	require.Contains(t, commandstest.UserMsg(t, err), "You are not playing in this game")

	resp, err := pickIn(a, alice, team[chess.White], open)
	require.NoError(t, err)
	root := resp.Message
	require.Len(t, menu(t, root).Options, 10, "8 pawns and 2 knights can move")
	_, err = pickIn(a, alice, pub, menu(t, root).Route, "e2e5")
	require.Contains(t, commandstest.UserMsg(t, err), "not one this picker offered")
	_, err = pickIn(a, alice, pub, menu(t, root).Route, "d4")
	require.Contains(t, commandstest.UserMsg(t, err), "No piece on d4 can move now")

	// Alice tags out: carol commands now; alice's picker is stale, and the
	// old board's button refuses alice (no longer commanding) and carol
	// (the board is out of date).
	_, err = commandstest.Confirm(t, a, in(alice, pub, "tagout", "", nil))
	require.NoError(t, err)
	_, err = pickIn(a, alice, pub, menu(t, root).Route, "e2")
	require.Equal(t, "The game moved on since this picker was shown: nothing was played. Use Pick a move on the latest board.", commandstest.UserMsg(t, err))
	_, err = pickIn(a, alice, pub, open)
	require.Contains(t, commandstest.UserMsg(t, err), "Only the active commander may move")
	_, err = pickIn(a, carol, pub, open)
	require.Contains(t, commandstest.UserMsg(t, err), "This board is out of date")
	_, err = pickIn(a, carol, pub, buttonOf(t, boardAsked(t, a, carol, pub), "Pick a move"))
	require.NoError(t, err, "the new board's button opens carol's picker")
	st := load(t, store, g.ID)
	for _, act := range st.game.State().Actions {
		require.NotEqual(t, tc.ActMove, act.Kind, "nothing was played")
	}
}

// TestTeamChessPickerPlaysLikeMove: a move picked in the public thread
// leaves exactly what the same /move leaves: the stored game, the answer
// and every post in the three threads.
func TestTeamChessPickerPlaysLikeMove(t *testing.T) {
	t.Parallel()
	const id = "pickpickpi"
	const fen = "r3k3/1P6/8/3n4/8/8/8/Q3K3 w - - 0 1"
	a, pa, storeA := newApp(t)
	_, pubA, _ := startGameID(t, a, storeA, id, fen, []commands.User{alice, carol}, []commands.User{bob})
	resp, err := pickIn(a, alice, pubA, buttonOf(t, boardAsked(t, a, alice, pubA), "Pick a move"))
	require.NoError(t, err)
	for _, v := range []string{"b7", "b7b8", "b7b8p"} {
		resp, err = pickIn(a, alice, pubA, menu(t, resp.Message).Route, v)
		require.NoError(t, err, v)
	}
	commandstest.Deliver(t, a, t0)

	b, pb, storeB := newApp(t)
	_, pubB, _ := startGameID(t, b, storeB, id, fen, []commands.User{alice, carol}, []commands.User{bob})
	require.Equal(t, pubA, pubB)
	typed, err := b.Handle(in(alice, pubB, "move", "", map[string]string{"move": "b8=PoliticalAgent"}))
	require.NoError(t, err)
	commandstest.Deliver(t, b, t0)

	require.Contains(t, typed.Content, "Political Agent")
	// /move answers the commander privately (the boards are posted in the
	// threads); the picker shows that same answer in its own place.
	require.True(t, typed.Ephemeral)
	require.Equal(t, typed.Message, resp.Message)
	require.True(t, resp.Update, "the private answer replaces the picker in place")
	gA, gB := commandstest.Game(t, storeA, id), commandstest.Game(t, storeB, id)
	require.JSONEq(t, string(gB.State), string(gA.State))
	require.Equal(t, gB.Deadline, gA.Deadline)
	postsA, editsA := pa.Snapshot()
	postsB, editsB := pb.Snapshot()
	jA, _ := json.Marshal([]any{postsA, editsA})
	jB, _ := json.Marshal([]any{postsB, editsB})
	require.JSONEq(t, string(jB), string(jA))
}

// TestTeamChessPickerPagesAndSiege: a Queen's 27 moves fill two pages;
// during a siege decision the board has no picker and an older picker
// says to decide the siege first.
func TestTeamChessPickerPagesAndSiege(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	g, pub, _ := startGame(t, a, store, "4k3/8/8/8/3Q4/8/8/4K3 w - - 0 1", []commands.User{alice}, []commands.User{bob})
	resp, err := pickIn(a, alice, pub, buttonOf(t, boardAsked(t, a, alice, pub), "Pick a move"))
	require.NoError(t, err)
	resp, err = pickIn(a, alice, pub, menu(t, resp.Message).Route, "d4")
	require.NoError(t, err)
	first := menu(t, resp.Message)
	require.Len(t, first.Options, 25)
	require.Contains(t, first.Placeholder, "(page 1 of 2)")
	resp, err = pickIn(a, alice, pub, buttonOf(t, resp.Message, "Next ▶"))
	require.NoError(t, err)
	second := menu(t, resp.Message)
	require.Len(t, second.Options, 2)
	var all []string
	for _, o := range append(first.Options, second.Options...) {
		all = append(all, o.Value)
	}
	st := load(t, store, g.ID)
	pos := st.game.Position()
	var want []string
	for _, m := range tc.LegalMoves(&pos) {
		if m.Board.From().String() == "d4" {
			want = append(want, m.UCI())
		}
	}
	require.ElementsMatch(t, want, all)

	// A siege: Black (king a8) has no move after Qb6 (ruling 4).
	a2, _, store2 := newApp(t)
	g2, pub2, _ := startGame(t, a2, store2, "k7/8/8/8/8/8/8/1Q2K3 w - - 0 1", []commands.User{alice}, []commands.User{bob})
	old, err := pickIn(a2, alice, pub2, buttonOf(t, boardAsked(t, a2, alice, pub2), "Pick a move"))
	require.NoError(t, err)
	_, err = a2.Handle(in(alice, pub2, "move", "", map[string]string{"move": "Qb6"}))
	require.NoError(t, err)
	board := boardAsked(t, a2, alice, pub2)
	for _, row := range board.Rows {
		for _, c := range row {
			if b, ok := c.(ui.Button); ok {
				require.NotEqual(t, "Pick a move", b.Label, "no picker during a siege decision")
			}
		}
	}
	_, err = pickIn(a2, alice, pub2, menu(t, old.Message).Route, "b1")
	require.Contains(t, commandstest.UserMsg(t, err), "The game moved on since this picker was shown")
	// A picker opened now (a button of the current stamp) says to decide
	// the siege first.
	_, err = pickIn(a2, alice, pub2, commands.PickButton(g2, "pick", pickStamp(load(t, store2, g2.ID))).Route)
	require.Contains(t, commandstest.UserMsg(t, err), "is besieged and has passed: first decide the siege")
}

// TestTeamChessPickerForgedPaths: whatever path a forged interaction
// carries, the picker refuses it with a message for the user or shows a
// step; it never panics and never names a move the engine refuses.
func TestTeamChessPickerForgedPaths(t *testing.T) {
	t.Parallel()
	st := stateOf(t, "3qk3/1P6/8/8/8/8/6p1/Q3K3 w - - 0 1")
	pos := st.game.Position()
	paths := []string{"e", "b", "b7b", "b7b8x", "b7b8g", "b7b8a:", "b7b8a:zz", "b7b8a:e8", "b7b8p:d8", "b7b8s", "b7b8s:",
		"b7b8s:g", "b7b8s:g2g1s:", "b7b8s:g2g1s:a1a2x", "b7b8s:d8d1", "a1a9", "z9z9", "a1h8", "a1a1", "e1e2:", "b7b8ss"}
	for _, base := range []string{"b7b8s:g2g1s:a1b1", "b7b8a:d8", "b7b8s:e8d7", "a1h8"} {
		for i := range len(base) + 1 {
			paths = append(paths, base[:i])
		}
	}
	for _, path := range paths {
		require.NotPanics(t, func() {
			_, uci, err := pickStep(st, path)
			switch {
			case err != nil:
				var ue *commands.UserError
				require.ErrorAs(t, err, &ue, "path %q", path)
			case uci != "":
				_, perr := tc.ParseMove(&pos, uci)
				require.NoError(t, perr, "path %q names %q", path, uci)
			}
		}, "path %q", path)
	}
}

// BenchmarkPickerSteps times the picker's steps in a position with
// Saboteur chains (two pawns a side on the verge of the last rank): the
// pieces, a pawn's moves, its roles, the forced reply's pieces.
func BenchmarkPickerSteps(b *testing.B) {
	g, err := tc.NewGame(tc.Setup{FEN: "3qk3/1P4P1/8/8/8/8/1p5p/Q3K3 w - - 0 1", White: []tc.Member{{ID: "a", Name: "a"}}, Black: []tc.Member{{ID: "b", Name: "b"}}})
	require.NoError(b, err)
	st := &State{game: g}
	for b.Loop() {
		for _, path := range []string{"", "b7", "b7b8", "b7b8s", "b7b8s:b2"} {
			if _, _, err := pickStep(st, path); err != nil {
				b.Fatal(path, err)
			}
		}
	}
}
