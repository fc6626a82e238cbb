package commands_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/render"
	"sandtable/storage"
)

// replayToe is tic-tac-toe with replays (a frame per move: as many rooks
// as moves made) and a /history route of its own, the viewer's stand-in.
type replayToe struct{ ticTacToe }

func (replayToe) Spec() commands.Spec[*tttState] {
	s := ticTacToe{}.Spec()
	s.Thread[commands.HistoryAction] = func(t *commands.Turn[*tttState]) (*commands.Response, error) {
		return &commands.Response{Ephemeral: true, Message: commands.Message{Content: "the viewer of " + t.Game.ID}}, nil
	}
	s.Replay = func(t *commands.Turn[*tttState]) (*commands.Replay, error) {
		frames := make([]render.ChessBoard, t.State.Moves+1)
		for i := range frames {
			for k := 0; k < i; k++ {
				frames[i].Squares[k] = render.ChessPiece{Kind: render.Rook, Colour: render.White}
			}
		}
		return &commands.Replay{Name: "ttt-" + t.Game.ID + ".gif", Chess: frames}, nil
	}
	s.RecordName = "grid"
	return s
}

// archiveApp is an App with replayToe ("ttt") and a bare kind ("other", no
// replays) and a store holding, for alice: 8 finished ttt games vs bob in
// guild g (ended t0+1m ... t0+8m, alice winning, losing, drawing in turn),
// 3 finished "other" games vs carol in g (t0+9m ... t0+11m), 105 newer ttt
// games in another guild (so a page needs more than one read of her
// games), and an active ttt game in g (thread "th-live").
func archiveApp(t *testing.T) (*commands.App, *commandstest.Platform, storage.Store, map[string]string) {
	alice, bob, carol := commandstest.Alice, commandstest.Bob, commandstest.Carol
	a, p, store := commandstest.NewApp(t, func(a *commands.App) {
		commands.Register[*tttState](a, replayToe{})
		commands.Register(a, commandstest.Toy{Routes: commands.Spec[commandstest.None]{Name: "other", Title: "Other game"}})
	})
	ids := map[string]string{}
	put := func(name, kind, guild string, players []string, o *storage.Outcome, ended time.Time, st *tttState) {
		raw, err := json.Marshal(st)
		require.NoError(t, err)
		g := &storage.Game{ID: commands.NewID(), Kind: kind, GuildID: guild, ChannelID: "general", ThreadID: "th-" + name,
			Players: players, Active: o == nil, State: raw, StateVersion: 1, Outcome: o, FinalMessage: "m-" + name}
		require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error { return tx.Games().Put(g, ended) }))
		ids[name] = g.ID
	}
	t0 := commandstest.T0
	for i := 1; i <= 8; i++ {
		st := &tttState{X: alice, O: bob, Moves: 4 + i%3}
		o := &storage.Outcome{Method: storage.Stalemate}
		switch i % 3 {
		case 0:
			st.Won, o = "X", &storage.Outcome{Winners: []string{alice.ID}, Losers: []string{bob.ID}, Method: "three_in_a_row"}
		case 1:
			st.Won, o = "O", &storage.Outcome{Winners: []string{bob.ID}, Losers: []string{alice.ID}, Method: storage.Time}
		default:
			st.Won = "draw"
		}
		put(fmt.Sprintf("ttt%d", i), "ttt", "g", []string{alice.ID, bob.ID}, o, t0.Add(time.Duration(i)*time.Minute), st)
	}
	for i := 1; i <= 3; i++ {
		put(fmt.Sprintf("other%d", i), "other", "g", []string{alice.ID, carol.ID},
			&storage.Outcome{Winners: []string{carol.ID}, Losers: []string{alice.ID}, Method: storage.Resignation},
			t0.Add(time.Duration(8+i)*time.Minute), &tttState{})
	}
	for i := 0; i < 105; i++ {
		put(fmt.Sprintf("far%d", i), "ttt", "elsewhere", []string{alice.ID, bob.ID},
			&storage.Outcome{Method: storage.Stalemate}, t0.Add(time.Hour+time.Duration(i)*time.Second), &tttState{X: alice, O: bob, Won: "draw"})
	}
	put("live", "ttt", "g", []string{alice.ID, bob.ID}, nil, t0, &tttState{X: alice, O: bob})
	return a, p, store, ids
}

// at is req at t0+2h: after every stored game ended.
func at(req *commands.Request) *commands.Request {
	req.Now = commandstest.T0.Add(2 * time.Hour)
	return req
}

// archiveLines are the numbered game lines of an archive page.
func archiveLines(t *testing.T, m commands.Message) []string {
	t.Helper()
	require.Len(t, m.Cards, 1)
	var out []string
	for _, l := range strings.Split(m.Cards[0].Description, "\n") {
		if strings.HasPrefix(l, "**") {
			out = append(out, l)
		}
	}
	return out
}

// pager is the ◀ ▶ row of an archive page (nil when it has one page).
func pager(m commands.Message) (prev, next *ui.Button) {
	for _, row := range m.Rows {
		for _, c := range row {
			if b, ok := c.(ui.Button); ok && b.Emoji == "◀" {
				prev = &b
			} else if ok && b.Emoji == "▶" {
				next = &b
			}
		}
	}
	return prev, next
}

// TestArchivePagesAndFilters: /history outside a game thread lists the
// invoker's finished games of this server, newest first, five a page, with
// ◀ ▶; the game option keeps one kind, the user option lists someone
// else's; other servers' games and games still on are never listed.
func TestArchivePagesAndFilters(t *testing.T) {
	t.Parallel()
	alice, bob := commandstest.Alice, commandstest.Bob
	a, _, _, ids := archiveApp(t)
	history := func(u commands.User, channel string, opts map[string]commands.Option) (*commands.Response, error) {
		r := at(commandstest.Cmd(u, "history", "", nil))
		r.ChannelID = channel
		for k, v := range opts {
			r.Options[k] = v
		}
		return a.Handle(r)
	}
	click := func(b *ui.Button) commands.Message {
		t.Helper()
		require.NotNil(t, b)
		require.False(t, b.Disabled, "an enabled button")
		r, err := a.Handle(at(commandstest.Click(alice, b.Route, "m1")))
		require.NoError(t, err)
		require.True(t, r.Update, "a page button updates the archive in place")
		return r.Message
	}

	r, err := history(alice, "general", nil)
	require.NoError(t, err)
	require.True(t, r.Ephemeral, "the archive is private")
	t.Logf("page 1 of alice's archive:\n%s\n%s", r.Cards[0].Description, r.Cards[0].Footer)
	lines := archiveLines(t, r.Message)
	require.Len(t, lines, 5)
	for i, name := range []string{"other3", "other2", "other1", "ttt8", "ttt7"} {
		require.Contains(t, lines[i], fmt.Sprintf("**%d. ", i+1), "numbered")
		require.Contains(t, r.Cards[0].Description, "th-"+name, "%s on page 1", name)
	}
	require.Contains(t, lines[0], "Other game")
	require.Contains(t, lines[0], "**lost** (resignation)")
	require.Contains(t, lines[0], "vs <@"+commandstest.Carol.ID+">")
	require.Contains(t, lines[3], "Tic-tac-toe")
	require.Contains(t, lines[3], "vs <@"+bob.ID+">")
	require.Contains(t, r.Cards[0].Description, "[thread](https://discord.com/channels/g/th-ttt8)")
	require.Contains(t, r.Cards[0].Description, "[final board and grid](https://discord.com/channels/g/th-ttt8/m-ttt8)")
	require.Contains(t, r.Cards[0].Description, fmt.Sprintf("<t:%d:d>", commandstest.T0.Add(8*time.Minute).Unix()), "the date")
	require.NotContains(t, r.Cards[0].Description, "th-live", "a game still on is not in the archive")
	require.NotContains(t, r.Cards[0].Description, "th-far", "nor another server's")
	replays := r.Rows[0]
	require.Len(t, replays, 2, "a Replay button for each game with replays (not the other kind's)")
	require.Equal(t, "g:"+ids["ttt8"]+":replay", replays[0].(ui.Button).Route)
	require.Equal(t, "4", replays[0].(ui.Button).Label, "numbered as its line")
	prev, next := pager(r.Message)
	require.True(t, prev.Disabled, "no newer page")

	page2 := click(next)
	lines = archiveLines(t, page2)
	require.Len(t, lines, 5)
	for i, name := range []string{"ttt6", "ttt5", "ttt4", "ttt3", "ttt2"} {
		require.Contains(t, lines[i], fmt.Sprintf("**%d. ", i+6))
		require.Contains(t, lines[i], "Tic-tac-toe", name)
	}
	require.Contains(t, page2.Cards[0].Description, "th-ttt6")
	require.Contains(t, lines[0], "**won** (three in a row)", "ttt6: alice won")
	require.Contains(t, lines[1], "**drawn** (stalemate)", "ttt5: drawn")
	require.Contains(t, lines[2], "**lost** (time)", "ttt4: alice lost")
	_, next = pager(page2)
	page3 := click(next)
	lines = archiveLines(t, page3)
	require.Len(t, lines, 1)
	require.Contains(t, page3.Cards[0].Description, "th-ttt1")
	prev, next = pager(page3)
	require.True(t, next.Disabled, "the last page")
	back := click(prev)
	require.Equal(t, page2.Cards[0].Description, back.Cards[0].Description, "◀ shows the page before again")

	// One kind.
	r, err = history(alice, "general", map[string]commands.Option{"game": {String: "ttt"}})
	require.NoError(t, err)
	lines = archiveLines(t, r.Message)
	require.Len(t, lines, 5)
	require.Contains(t, r.Cards[0].Description, "th-ttt8")
	require.NotContains(t, r.Cards[0].Description, "Other game")
	_, next = pager(r.Message)
	require.Len(t, archiveLines(t, click(next)), 3, "8 ttt games: 5 and 3")
	r, err = history(alice, "general", map[string]commands.Option{"game": {String: "other"}})
	require.NoError(t, err)
	require.Len(t, archiveLines(t, r.Message), 3)
	prev, next = pager(r.Message)
	require.Nil(t, prev, "one page: no ◀ ▶")
	require.Nil(t, next)
	_, err = history(alice, "general", map[string]commands.Option{"game": {String: "chess"}})
	require.Contains(t, commandstest.UserMsg(t, err), "no game called")

	// Someone else's archive.
	r, err = history(alice, "general", map[string]commands.Option{"user": {User: &bob}})
	require.NoError(t, err)
	require.Contains(t, r.Cards[0].Description, "<@"+bob.ID+">")
	lines = archiveLines(t, r.Message)
	require.Contains(t, lines[0], "vs <@"+alice.ID+">")
	require.Contains(t, lines[0], "**drawn**", "ttt8, drawn")
	require.NotContains(t, r.Cards[0].Description, "Other game", "bob did not play those")

	// Nothing in another server.
	rr := at(commandstest.Cmd(alice, "history", "", nil))
	rr.GuildID, rr.ChannelID = "g3", "general3"
	r, err = a.Handle(rr)
	require.NoError(t, err)
	require.Empty(t, archiveLines(t, r.Message))
	require.Contains(t, r.Cards[0].Description, "no finished games in this server")
}

// TestArchiveOrViewer: /history with no option in a game's thread opens
// that game's viewer, as before the archive existed; with an option, or
// anywhere else, the archive.
func TestArchiveOrViewer(t *testing.T) {
	t.Parallel()
	alice := commandstest.Alice
	a, _, _, ids := archiveApp(t)
	in := func(channel string, opts map[string]string) *commands.Response {
		t.Helper()
		r := at(commandstest.Cmd(alice, "history", "", opts))
		r.ChannelID = channel
		resp, err := a.Handle(r)
		require.NoError(t, err)
		require.True(t, resp.Ephemeral)
		return resp
	}
	require.Equal(t, "the viewer of "+ids["live"], in("th-live", nil).Content, "a running game's thread")
	require.Equal(t, "the viewer of "+ids["ttt3"], in("th-ttt3", nil).Content, "a finished game's thread")
	require.Len(t, archiveLines(t, in("th-live", map[string]string{"game": "ttt"}).Message), 5, "an option: the archive")
	require.Len(t, archiveLines(t, in("general", nil).Message), 5, "outside a game thread: the archive")
	require.True(t, a.AnswersPrivately(at(commandstest.Cmd(alice, "history", "", map[string]string{"game": "ttt"}))),
		"a slow archive is deferred privately")

	// The command's definition offers both options, the game's choices
	// from the registered kinds.
	for _, d := range a.Definitions() {
		if d.Name != "history" {
			continue
		}
		require.Len(t, d.Options, 2)
		require.Equal(t, "user", d.Options[0].Name)
		require.Equal(t, "game", d.Options[1].Name)
		var kinds []string
		for _, c := range d.Options[1].Choices {
			kinds = append(kinds, c.Value)
		}
		require.ElementsMatch(t, []string{"ttt", "other"}, kinds)
		require.LessOrEqual(t, len(d.Description), 100)
	}
}

// TestArchiveStablePages: a game that ends while someone reads the archive
// does not shift its pages; a new /history lists it first.
func TestArchiveStablePages(t *testing.T) {
	t.Parallel()
	alice, bob := commandstest.Alice, commandstest.Bob
	a, _, store, _ := archiveApp(t)
	r, err := a.Handle(at(commandstest.Cmd(alice, "history", "", map[string]string{"game": "ttt"})))
	require.NoError(t, err)
	_, next := pager(r.Message)

	raw, _ := json.Marshal(&tttState{X: alice, O: bob, Won: "draw"})
	g := &storage.Game{ID: "newgame1", Kind: "ttt", GuildID: "g", ThreadID: "th-new", Players: []string{alice.ID, bob.ID},
		State: raw, StateVersion: 1, Outcome: &storage.Outcome{Method: storage.Stalemate}}
	later := commandstest.T0.Add(2*time.Hour + time.Minute)
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error { return tx.Games().Put(g, later) }))

	click := commandstest.Click(alice, next.Route, "m1")
	click.Now = later
	p2, err := a.Handle(click)
	require.NoError(t, err)
	require.Contains(t, p2.Cards[0].Description, "th-ttt3", "page 2 as it was: ttt3 ... ttt1")
	require.NotContains(t, p2.Cards[0].Description, "th-new")
	again := commandstest.Cmd(alice, "history", "", map[string]string{"game": "ttt"})
	again.Now = later.Add(time.Second)
	r, err = a.Handle(again)
	require.NoError(t, err)
	d := r.Cards[0].Description
	require.Contains(t, d, "th-new")
	require.Less(t, strings.Index(d, "th-new"), strings.Index(d, "th-ttt8"), "a new /history lists it first")
}

// TestArchiveReplayButton: the archive's 🎞 button sends the game's
// replay privately, one frame per position.
func TestArchiveReplayButton(t *testing.T) {
	t.Parallel()
	a, _, _, ids := archiveApp(t)
	r, err := a.Handle(at(commandstest.Click(commandstest.Carol, "g:"+ids["ttt5"]+":replay", "m1")))
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	require.Len(t, r.Files, 1)
	require.Len(t, commandstest.GIFFrames(t, r.Files[0].Data), 4+5%3+1, "the start and every move")
	require.Contains(t, r.Content, "https://discord.com/channels/g/th-ttt5/m-ttt5", "with a link to the final board")
	_, err = a.Handle(at(commandstest.Click(commandstest.Carol, "g:"+ids["live"]+":replay", "m1")))
	require.Contains(t, commandstest.UserMsg(t, err), "once the game is over")
}
