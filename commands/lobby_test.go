package commands_test

// The framework's lobby helpers through a fake game whose lobby is a
// sign-up sheet: App.PutLobby, Lobby, LobbyPosted, CloseLobby, the expiry
// through Spec.LobbyExpired, Create with threads opened first, and the
// effects Turn.AddMember and Turn.RemoveMember.

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/storage"
)

type sheet struct {
	ID        string   `json:"id"`
	Kind      string   `json:"kind"`
	ChannelID string   `json:"channel_id"`
	MessageID string   `json:"message_id,omitempty"`
	Names     []string `json:"names"`
}

type sheetState struct {
	Players []string `json:"players"`
}

type sheetGame struct{}

func (sheetGame) Version() int                         { return 1 }
func (sheetGame) Encode(s *sheetState) ([]byte, error) { return json.Marshal(s) }
func (sheetGame) Decode(v int, raw []byte) (*sheetState, error) {
	var s sheetState
	return &s, json.Unmarshal(raw, &s)
}
func (sheetGame) Clock(*sheetState) commands.Clock                  { return commands.Clock{Rule: commands.NoClock} }
func (sheetGame) Outcome(*sheetState) (storage.Outcome, bool)       { return storage.Outcome{}, false }
func (sheetGame) Timeout(*commands.Turn[*sheetState]) error         { return nil }
func (sheetGame) Summary(*storage.Game, *sheetState, string) string { return "" }
func sheetRoute(id, action string) string {
	return commands.CustomID{Scope: "c", ID: id, Action: action}.String()
}
func sheetMsg(l *sheet, closed bool) commands.Message {
	m := commands.Message{Content: "sheet", Rows: []ui.Row{{ui.Button{Label: "Sign", Route: sheetRoute(l.ID, "sign")}}}}
	if closed {
		m = commands.Message{Content: "closed", Rows: []ui.Row{}}
	}
	return m
}

func (sheetGame) Spec() commands.Spec[*sheetState] {
	return commands.Spec[*sheetState]{
		Name: "sheet", Title: "Sheet", Definitions: defs("sheet"),
		TopLevel: map[string]commands.Handler{"sheet": func(a *commands.App, req *commands.Request) (*commands.Response, error) {
			if err := a.NeedTextChannel(req); err != nil {
				return nil, err
			}
			l := &sheet{ID: commands.NewID(), Kind: "sheet", ChannelID: req.ChannelID}
			if err := a.PutLobby(req, l.ID, l); err != nil {
				return nil, err
			}
			return &commands.Response{Message: sheetMsg(l, false), Posted: a.LobbyPosted(l.ID)}, nil
		}},
		Invitations: map[string]commands.Handler{
			"sign": func(a *commands.App, req *commands.Request) (*commands.Response, error) {
				id, _ := commands.ParseCustomID(req.CustomID)
				var l sheet
				if _, err := a.Lobby(id.ID, &l); err != nil {
					return nil, err
				}
				l.Names = append(l.Names, req.User.ID)
				return &commands.Response{Update: true, Message: sheetMsg(&l, false)}, a.PutLobby(req, l.ID, &l)
			},
			"start": func(a *commands.App, req *commands.Request) (*commands.Response, error) {
				id, _ := commands.ParseCustomID(req.CustomID)
				var l sheet
				if _, err := a.Lobby(id.ID, &l); err != nil {
					return nil, err
				}
				side, err := a.OpenThread(req.Context(), "g", l.ChannelID, "", "Sheet "+l.ID+" side", true)
				if err != nil {
					msg, _ := commands.ThreadRefused("the side thread", err, "press Start again.")
					return nil, commands.Errorf("%s", msg)
				}
				rec := &storage.Game{ID: l.ID, Kind: "sheet", GuildID: "g", ChannelID: l.ChannelID, ThreadID: req.MessageID, Players: l.Names, Active: true}
				return &commands.Response{Update: true, Message: sheetMsg(&l, true)}, commands.Create(a, req, rec, func(t *commands.Turn[*sheetState]) error {
					t.Save(&sheetState{Players: l.Names})
					t.Also(func(tx storage.Tx) error {
						if err := tx.Games().LinkChannel(side, rec.ID); err != nil {
							return err
						}
						return tx.Lobbies().Delete(l.ID)
					})
					t.AddMember(side, l.Names[0])
					t.RemoveMember(side, l.Names[0])
					return nil
				})
			},
		},
		LobbyExpired: func(a *commands.App, doc []byte) (commands.Message, error) {
			var l sheet
			return sheetMsg(&l, true), json.Unmarshal(doc, &l)
		},
	}
}

func TestLobbyHelpers(t *testing.T) {
	t.Parallel()
	alice, bob := commandstest.Alice, commandstest.Bob
	a, p, _ := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*sheetState](a, sheetGame{}) })
	p.Types["th"] = ui.PublicThread
	r := commandstest.Cmd(alice, "sheet", "", nil)
	r.ChannelID = "th"
	_, err := a.Handle(r)
	require.Contains(t, commandstest.UserMsg(t, err), "not in a thread")

	r.ChannelID = "general"
	resp, err := a.Handle(r)
	require.NoError(t, err)
	resp.Posted("sheetmsg")
	id, err := commands.ParseCustomID(resp.Rows[0][0].(ui.Button).Route)
	require.NoError(t, err)
	var l sheet
	exp, err := a.Lobby(id.ID, &l)
	require.NoError(t, err)
	require.Equal(t, "sheetmsg", l.MessageID, "LobbyPosted records the message")
	require.Equal(t, commandstest.T0.Add(24*time.Hour), exp)

	sign := commandstest.Click(bob, sheetRoute(id.ID, "sign"), "sheetmsg")
	sign.Now = commandstest.T0.Add(time.Hour)
	_, err = a.Handle(sign)
	require.NoError(t, err)
	exp, err = a.Lobby(id.ID, &l)
	require.NoError(t, err)
	require.Equal(t, []string{bob.ID}, l.Names)
	require.Equal(t, "sheetmsg", l.MessageID, "kept by later changes")
	require.Equal(t, commandstest.T0.Add(25*time.Hour), exp, "a change renews the lobby")
	_, err = a.Handle(sign)
	require.Contains(t, commandstest.UserMsg(t, err), "already applied", "PutLobby marks the interaction applied")

	// Expiry: the framework deletes it and edits its message as the game
	// says.
	require.NoError(t, a.Sweep(commandstest.T0.Add(25*time.Hour-time.Second)))
	commandstest.Deliver(t, a, commandstest.T0.Add(25*time.Hour-time.Second))
	_, edits := p.Snapshot()
	require.Empty(t, edits)
	require.NoError(t, a.Sweep(commandstest.T0.Add(25*time.Hour)))
	commandstest.Deliver(t, a, commandstest.T0.Add(25*time.Hour))
	_, edits = p.Snapshot()
	require.Len(t, edits, 1)
	require.Equal(t, "general", edits[0].Channel)
	require.Equal(t, "sheetmsg", edits[0].ID)
	require.Equal(t, "closed", edits[0].Msg.Content, "the message the game gave")
	require.Empty(t, edits[0].Msg.Rows)
	_, err = a.Lobby(id.ID, &l)
	require.ErrorIs(t, err, storage.ErrNotFound)
}

func TestLobbyStartThroughCreate(t *testing.T) {
	t.Parallel()
	alice := commandstest.Alice
	a, p, store := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*sheetState](a, sheetGame{}) })
	l := &sheet{ID: commands.NewID(), Kind: "sheet", ChannelID: "general", Names: []string{alice.ID}}
	require.NoError(t, a.PutLobby(&commands.Request{Now: commandstest.T0}, l.ID, l))
	p.Fail = func(op, _ string) error {
		return &commands.PlatformError{HTTPStatus: 403, Status: "403 Forbidden", Code: 50013, Message: "Missing Permissions", Err: errors.New("403")}
	}
	_, err := a.Handle(commandstest.Click(alice, sheetRoute(l.ID, "start"), "sheetmsg"))
	require.Contains(t, commandstest.UserMsg(t, err), `I could not create the side thread: Discord said "Missing Permissions" (error 50013). Nothing was started.`)
	p.Fail = nil
	resp, err := a.Handle(commandstest.Click(alice, sheetRoute(l.ID, "start"), "sheetmsg"))
	require.NoError(t, err)
	require.True(t, resp.Update)
	require.NoError(t, a.View(func(tx storage.Tx) error {
		g, err := tx.Games().ByChannel(p.Threads[0])
		require.NoError(t, err)
		require.Equal(t, l.ID, g.ID, "the side thread is linked in the same transaction")
		_, err = tx.Lobbies().Get(l.ID, &sheet{})
		require.ErrorIs(t, err, storage.ErrNotFound, "and the lobby closed")
		return nil
	}))
	require.Empty(t, p.Members)
	require.Equal(t, 2, commandstest.Deliver(t, a, commandstest.T0))
	require.Empty(t, p.Members[p.Threads[0]], "added, then removed, in order")
	_ = store
}
