package commands_test

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/storage"
)

// A counting game reached every way an interaction reaches a game: the
// thread command /move (and its autocomplete, which names the count), the
// button "bump" and the form "set". Every change posts in the thread.
type ogState struct {
	N int `json:"n"`
}

type ogGame struct{}

func (ogGame) Spec() commands.Spec[*ogState] {
	bump := func(t *commands.Turn[*ogState]) (*commands.Response, error) {
		t.Save(&ogState{N: t.State.N + 1})
		t.Post(commands.Message{Content: "bumped"})
		return commands.Private("bumped"), nil
	}
	return commands.Spec[*ogState]{
		Name: "og", Title: "Origins",
		Thread: map[string]commands.Action[*ogState]{"move": bump},
		Autocomplete: map[string]commands.Action[*ogState]{"move": func(t *commands.Turn[*ogState]) (*commands.Response, error) {
			return &commands.Response{Choices: []*ui.Choice{{Name: "count " + strconv.Itoa(t.State.N), Value: "1"}}}, nil
		}},
		Components: map[string]commands.Action[*ogState]{"bump": bump},
		Modals: map[string]commands.Action[*ogState]{"set": func(t *commands.Turn[*ogState]) (*commands.Response, error) {
			n, err := strconv.Atoi(t.Req.Field("n"))
			if err != nil {
				return nil, commands.Errorf("Give a number.")
			}
			t.Save(&ogState{N: n})
			t.Post(commands.Message{Content: "set"})
			return commands.Private("set"), nil
		}},
	}
}

func (ogGame) Version() int                      { return 1 }
func (ogGame) Encode(s *ogState) ([]byte, error) { return json.Marshal(s) }
func (ogGame) Decode(v int, raw []byte) (*ogState, error) {
	var s ogState
	return &s, json.Unmarshal(raw, &s)
}
func (ogGame) Clock(s *ogState) commands.Clock                      { return commands.Clock{Rule: commands.NoClock} }
func (ogGame) Outcome(s *ogState) (storage.Outcome, bool)           { return storage.Outcome{}, false }
func (ogGame) Timeout(t *commands.Turn[*ogState]) error             { return nil }
func (ogGame) Summary(g *storage.Game, s *ogState, u string) string { return "" }

// TestInteractionsFromAnotherGuildAreRefused: a command, autocomplete,
// button or form aimed at a game (by its thread or its custom ID) but
// coming from another server than the game's is refused with a clear
// error, changes nothing and queues no effect; autocomplete answers no
// choice (nothing of the game leaks). From the game's server each works.
// From direct messages (no server) only the game's players may act.
func TestInteractionsFromAnotherGuildAreRefused(t *testing.T) {
	t.Parallel()
	alice, bob, carol := commandstest.Alice, commandstest.Bob, commandstest.Carol
	a, _, store := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*ogState](a, ogGame{}) })
	rec := &storage.Game{ID: commands.NewID(), Kind: "og", GuildID: "g", ChannelID: "general", ThreadID: "th1",
		Players: []string{alice.ID, bob.ID}, Active: true}
	require.NoError(t, commands.Create(a, &commands.Request{Now: commandstest.T0}, rec, func(tt *commands.Turn[*ogState]) error {
		tt.Save(&ogState{})
		return nil
	}))
	commandstest.Deliver(t, a, commandstest.T0)

	move := func(u commands.User) *commands.Request {
		return commandstest.Cmd(u, "move", "", map[string]string{"move": "1"}) // in th1
	}
	complete := func(u commands.User) *commands.Request {
		r := move(u)
		r.Type, r.Focused = commands.AutocompleteRequest, "move"
		return r
	}
	click := func(u commands.User) *commands.Request {
		return commandstest.Click(u, "g:"+rec.ID+":bump", "m1")
	}
	form := func(u commands.User) *commands.Request {
		r := commandstest.Click(u, "g:"+rec.ID+":set", "m1")
		r.Type, r.Fields = commands.ModalRequest, map[string]string{"n": "7"}
		return r
	}
	from := func(guild string, r *commands.Request) *commands.Request {
		r.GuildID = guild
		if guild == "" {
			r.ChannelID = "dm-" + r.User.ID
		}
		return r
	}
	version := func() int64 { return commandstest.Game(t, store, rec.ID).Version }
	pending := func() int {
		var n int
		require.NoError(t, store.View(t.Context(), func(tx storage.Tx) (err error) { n, err = tx.Outbox().Len(); return err }))
		return n
	}
	require.Zero(t, pending())
	v0 := version()

	refused := func(r *commands.Request, want string) {
		t.Helper()
		resp, err := a.Handle(r)
		require.Nil(t, resp)
		require.Contains(t, commandstest.UserMsg(t, err), want)
		require.Equal(t, v0, version(), "nothing changed")
		require.Zero(t, pending(), "no effect queued")
	}
	// Replayed from another server: the thread command (the thread's ID
	// with another guild), the button, the form.
	for _, r := range []*commands.Request{from("other", move(alice)), from("other", click(alice)), from("other", form(alice))} {
		refused(r, "another server")
	}
	// Autocomplete from another server: no choices, not the game's count.
	resp, err := a.Handle(from("other", complete(alice)))
	require.NoError(t, err)
	require.Empty(t, resp.Choices)
	// Direct messages: a non-player's click and form are refused.
	refused(from("", click(carol)), "not playing")
	refused(from("", form(carol)), "not playing")

	// From the game's server every way works; from direct messages a
	// player's does.
	resp, err = a.Handle(from("g", complete(alice)))
	require.NoError(t, err)
	require.Equal(t, "count 0", resp.Choices[0].Name)
	for i, r := range []*commands.Request{from("g", move(alice)), from("g", click(bob)), from("", click(bob)), from("g", form(alice)), from("", form(bob))} {
		_, err := a.Handle(r)
		require.NoError(t, err, "request %d", i)
	}
	require.Equal(t, v0+5, version())
	require.Equal(t, 5, pending(), "one post each")
}
