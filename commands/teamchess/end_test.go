package teamchess

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/games/chess"
	"sandtable/storage"
)

// TestTeamThreadsArchivedAtTheEnd: ArchiveDelay after the end, the public
// thread gets its summary, linking to the final public board (posted by
// the outbox when the game ends in a team thread), and so does each team
// thread, pointing to it; all three are archived and locked, once (ruling
// D21).
func TestTeamThreadsArchivedAtTheEnd(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	g, pub, team := startGame(t, a, store, "", []commands.User{alice, carol}, []commands.User{bob, dan})
	_, err := a.Handle(in(alice, team[chess.White], "move", "", map[string]string{"move": "e4"}))
	require.NoError(t, err)
	// bob resigns for Black in Black's team thread: the answer is there,
	// the public board an effect.
	_, err = commandstest.Confirm(t, a, in(bob, team[chess.Black], "resign", "", nil))
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0)
	posts := p.Shown() // the final board is the live board edited
	var final commandstest.Sent
	for _, s := range posts {
		if s.Channel == pub {
			final = s
		}
	}
	require.Contains(t, text(t, final.Msg), "resigned")
	require.NotEmpty(t, final.Msg.Files, "the final public board")
	require.Equal(t, final.ID, commandstest.Game(t, store, g.ID).FinalMessage)

	commandstest.Deliver(t, a, t0.Add(commands.ArchiveDelay-time.Second))
	require.Empty(t, p.Archived, "nothing archived before everything the end shows")
	commandstest.Deliver(t, a, t0.Add(commands.ArchiveDelay))
	for _, th := range []string{pub, team[chess.White], team[chess.Black]} {
		require.True(t, p.Archived[th], "thread %s archived and locked", th)
	}
	link := "https://discord.com/channels/g/" + pub + "/" + final.ID
	summaries := func() map[string][]string {
		posts, _ := p.Snapshot()
		out := map[string][]string{}
		for _, s := range posts {
			if strings.HasPrefix(s.Msg.Content, "**Game over.**") {
				out[s.Channel] = append(out[s.Channel], s.Msg.Content)
			}
		}
		return out
	}
	got := summaries()
	require.Len(t, got, 3)
	require.Len(t, got[pub], 1)
	require.Contains(t, got[pub][0], alice.Mention()+", "+carol.Mention()+" win by resignation.")
	require.Contains(t, got[pub][0], link)
	for _, side := range sides {
		require.Len(t, got[team[side]], 1)
		require.Contains(t, got[team[side]][0], "in the game thread: "+link)
		require.Contains(t, got[team[side]][0], "This team thread is now archived and locked.")
	}
	commandstest.Deliver(t, a, t0.Add(2*commands.ArchiveDelay))
	require.Equal(t, got, summaries(), "once")
}

// TestRematchSwapsSides: the final public board's Rematch button opens a
// lobby in the game's text channel at once (before the thread closes)
// with the same teams, sides swapped, each queue's order and second
// command kept, the same move time, the clicker its creator; only players
// may click it, and only once the game is over; another click points to
// the open lobby, or to the game it started; a member who cannot play
// again leaves it before the start (ruling D20).
func TestRematchSwapsSides(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	// bob commands twice for Black, the smaller team (rule 1.1).
	g, pub, _ := startGame(t, a, store, "", []commands.User{carol, alice}, []commands.User{bob, bob})
	button := commands.CustomID{Scope: "g", ID: g.ID, Action: "rematch"}.String()
	clickAt := func(u commands.User, customID, message, channel string, d time.Duration) *commands.Request {
		r := commandstest.Click(u, customID, message)
		r.ChannelID, r.Now = channel, t0.Add(d)
		return r
	}
	_, err := a.Handle(clickAt(alice, button, "board", pub, 0))
	require.Contains(t, commandstest.UserMsg(t, err), "still on")

	_, err = commandstest.Confirm(t, a, in(carol, pub, "resign", "", nil))
	require.NoError(t, err)
	require.Equal(t, button, buttonOf(t, boardIn(t, a, p, pub), "Rematch"), "the final public board offers a rematch")
	commandstest.Deliver(t, a, t0)
	before, _ := p.Snapshot()

	_, err = a.Handle(clickAt(erin, button, "final", pub, time.Second))
	require.Contains(t, commandstest.UserMsg(t, err), "Only the players")
	r, err := a.Handle(clickAt(bob, button, "final", pub, time.Second))
	require.NoError(t, err)
	require.True(t, r.Ephemeral, "the clicker is answered privately")
	require.Contains(t, r.Content, "Rematch lobby opened in <#general>")

	// Posted at once, though the closing summary, due later, waits in the
	// game's stream.
	commandstest.Deliver(t, a, t0.Add(time.Second))
	posts, _ := p.Snapshot()
	require.Len(t, posts, len(before)+1)
	post := posts[len(posts)-1]
	require.Equal(t, "general", post.Channel)
	require.Contains(t, post.Msg.Content, bob.Mention()+" opened a rematch of game "+g.ID+" with the sides swapped: "+
		bob.Mention()+" now play White, "+carol.Mention()+", "+alice.Mention()+" Black")
	require.Empty(t, p.Archived)

	id := load(t, store, g.ID).Rematch
	require.NotEmpty(t, id)
	var l lobby
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		exp, err := tx.Lobbies().Get(id, &l)
		require.Equal(t, t0.Add(time.Second+24*time.Hour), exp, "open for the lobby time")
		return err
	}))
	require.Equal(t, []commands.User{bob, bob}, l.White, "Black's queue, second command kept, now White")
	require.Equal(t, []commands.User{carol, alice}, l.Black, "White's queue, in its order, now Black")
	require.Equal(t, bob, l.Creator)
	require.Equal(t, time.Hour, l.MoveTime)
	require.Equal(t, "general", l.ChannelID)
	require.Equal(t, post.ID, l.MessageID, "its message is known, for its expiry")

	// Another click points to the open lobby.
	again, err := a.Handle(clickAt(alice, button, "final", pub, 2*time.Second))
	require.NoError(t, err)
	require.Equal(t, "Already done: the rematch lobby is open in https://discord.com/channels/g/general/"+post.ID+". Join it there; "+bob.Mention()+" starts it.", again.Content)
	require.Equal(t, id, load(t, store, g.ID).Rematch)

	// alice cannot play again: she leaves; bob's second command no longer
	// balances anything and is withdrawn; bob starts.
	lobbyClick := func(u commands.User, action string) (*commands.Response, error) {
		return a.Handle(clickAt(u, commands.CustomID{Scope: "c", ID: id, Action: action}.String(), post.ID, "general", 3*time.Second))
	}
	r, err = lobbyClick(alice, "leave")
	require.NoError(t, err)
	require.Contains(t, r.Content, alice.Mention()+" left Black.")
	_, err = lobbyClick(carol, "start")
	require.Contains(t, commandstest.UserMsg(t, err), "Only bob")
	_, err = lobbyClick(bob, "start")
	require.NoError(t, err)
	second := commandstest.Game(t, store, id)
	require.True(t, second.Active)
	require.Equal(t, post.ID, second.ThreadID, "the rematch's thread starts from the lobby's message")
	s := load(t, store, id)
	require.Equal(t, []string{bob.ID}, memberIDs(s, chess.White))
	require.Equal(t, []string{carol.ID}, memberIDs(s, chess.Black))

	again, err = a.Handle(clickAt(carol, button, "final", pub, 4*time.Second))
	require.NoError(t, err)
	require.Equal(t, "Already done: the rematch has started, in <#"+post.ID+">.", again.Content)
}

// TestRematchAfterTheLobbyClosed: once the rematch lobby is cancelled or
// expired (its message then says so), Rematch opens another.
func TestRematchAfterTheLobbyClosed(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	g, pub, _ := startGame(t, a, store, "", []commands.User{alice}, []commands.User{bob})
	_, err := commandstest.Confirm(t, a, in(alice, pub, "resign", "", nil))
	require.NoError(t, err)
	button := commands.CustomID{Scope: "g", ID: g.ID, Action: "rematch"}.String()
	click := func(u commands.User, customID string) (*commands.Response, error) {
		r := commandstest.Click(u, customID, "m")
		r.ChannelID = pub
		return a.Handle(r)
	}
	_, err = click(alice, button)
	require.NoError(t, err)
	first := load(t, store, g.ID).Rematch
	_, err = click(alice, commands.CustomID{Scope: "c", ID: first, Action: "cancel"}.String())
	require.NoError(t, err)
	_, err = click(bob, button)
	require.NoError(t, err)
	next := load(t, store, g.ID).Rematch
	require.NotEqual(t, first, next, "a new lobby")
	var l lobby
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error { _, err := tx.Lobbies().Get(next, &l); return err }))
	require.Equal(t, bob, l.Creator)
	require.Equal(t, []commands.User{bob}, l.White)
	require.Equal(t, []commands.User{alice}, l.Black)

	// Nobody starts it: it expires, its message says so.
	commandstest.Deliver(t, a, t0)
	posts, _ := p.Snapshot()
	var lobbyPost commandstest.Sent
	for _, s := range posts {
		if s.Channel == "general" && strings.HasPrefix(s.Msg.Content, bob.Mention()+" opened a rematch") {
			lobbyPost = s
		}
	}
	require.NotEmpty(t, lobbyPost.ID, "bob's rematch lobby is posted")
	require.NoError(t, a.Sweep(t0.Add(24*time.Hour)))
	commandstest.Deliver(t, a, t0.Add(24*time.Hour))
	_, edits := p.Snapshot()
	require.NotEmpty(t, edits)
	expired := edits[len(edits)-1]
	require.Equal(t, lobbyPost.ID, expired.ID, "the expiry closes the lobby's message")
	require.Contains(t, expired.Msg.Cards[0].Description, "This lobby expired")
	_, err = click(alice, button)
	require.NoError(t, err)
	require.NotEqual(t, next, load(t, store, g.ID).Rematch, "another lobby")
}

// memberIDs lists side's distinct members' IDs.
func memberIDs(s *State, side chess.Color) []string {
	var out []string
	for _, m := range s.game.Members(side) {
		out = append(out, m.ID)
	}
	return out
}

// TestRematchOfAnAbortedGame: a game aborted before its first move
// (ruling D18) offers a rematch too, and its threads close like any other.
func TestRematchOfAnAbortedGame(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	g, pub, team := startGame(t, a, store, "", []commands.User{alice}, []commands.User{bob})
	require.NoError(t, a.Sweep(t0.Add(time.Hour)))
	require.True(t, load(t, store, g.ID).Aborted)
	commandstest.Deliver(t, a, t0.Add(time.Hour))
	posts := p.Shown()
	var final commandstest.Sent
	for _, s := range posts {
		if s.Channel == pub {
			final = s
		}
	}
	button := buttonOf(t, final.Msg, "Rematch")
	require.Equal(t, final.ID, commandstest.Game(t, store, g.ID).FinalMessage)
	r := commandstest.Click(bob, button, final.ID)
	r.ChannelID, r.Now = pub, t0.Add(time.Hour)
	_, err := a.Handle(r)
	require.NoError(t, err)
	require.NotEmpty(t, load(t, store, g.ID).Rematch)
	commandstest.Deliver(t, a, t0.Add(time.Hour+commands.ArchiveDelay))
	for _, th := range []string{pub, team[chess.White], team[chess.Black]} {
		require.True(t, p.Archived[th], "thread %s archived", th)
	}
}

// TestAbortedBoardSaysUnrated: the public final board of a game aborted
// before its first move says "aborted · unrated" and offers no Replay of
// zero moves.
func TestAbortedBoardSaysUnrated(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	_, pub, _ := startGame(t, a, store, "", []commands.User{alice}, []commands.User{bob})
	require.NoError(t, a.Sweep(t0.Add(time.Hour)))
	commandstest.Deliver(t, a, t0.Add(time.Hour))
	var final commandstest.Sent
	for _, s := range p.Shown() {
		if s.Channel == pub && len(s.Msg.Cards) > 0 {
			final = s
		}
	}
	require.Contains(t, final.Msg.Cards[0].Footer, "aborted · unrated")
	for _, row := range final.Msg.Rows {
		for _, c := range row {
			if b, ok := c.(ui.Button); ok {
				require.NotEqual(t, "Replay", b.Label, "no replay of zero moves")
			}
		}
	}
}
