package commands_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/storage"
)

// A counting game whose every move posts a live board in its thread (and,
// for moves said "both", in a second channel too), through Turn.Board.
type lbState struct {
	Moves int `json:"moves"`
}

type lbGame struct{}

func (lbGame) Spec() commands.Spec[*lbState] {
	return commands.Spec[*lbState]{
		Name: "lb", Title: "Live boards",
		Thread: map[string]commands.Action[*lbState]{"move": func(t *commands.Turn[*lbState]) (*commands.Response, error) {
			s := &lbState{Moves: t.State.Moves + 1}
			t.Save(s)
			if t.Req.Str("where") == "line" {
				t.BoardLine(commands.ChannelOfGame, commands.Message{Content: fmt.Sprintf("%d. finished the turn", s.Moves-1)})
			}
			if t.Req.Str("where") == "in place" {
				t.UpdateBoard(commands.ChannelOfGame, lbBoard(s.Moves, "thread"), commands.Message{Content: fmt.Sprintf("%d. updated", s.Moves)})
				return &commands.Response{Ephemeral: true, Message: commands.Message{Content: "moved"}}, nil
			}
			t.Board(commands.ChannelOfGame, lbBoard(s.Moves, "thread"), commands.Message{Content: fmt.Sprintf("%d. moved", s.Moves)})
			if t.Req.Str("where") == "both" {
				t.Board("team", lbBoard(s.Moves, "team"), commands.Message{Content: fmt.Sprintf("team %d", s.Moves)})
			}
			return &commands.Response{Ephemeral: true, Message: commands.Message{Content: "moved"}}, nil
		}},
	}
}

// lbBoard is a board message: an image, a card showing it, a button.
func lbBoard(n int, where string) commands.Message {
	return commands.Message{
		Content: fmt.Sprintf("Board %d (%s). <@2>, your move.", n, where),
		Cards:   []*ui.Card{{Title: "Live", Image: "board.png", Footer: "move " + strconv.Itoa(n)}},
		Files:   []*ui.File{{Name: "board.png", Data: []byte{byte(n)}}},
		Rows:    []ui.Row{{ui.Button{Label: "Flip", Route: "g:x:flip:" + strconv.Itoa(n)}}},
	}
}

func (lbGame) Version() int                      { return 1 }
func (lbGame) Encode(s *lbState) ([]byte, error) { return json.Marshal(s) }
func (lbGame) Decode(v int, raw []byte) (*lbState, error) {
	var s lbState
	return &s, json.Unmarshal(raw, &s)
}
func (lbGame) Clock(s *lbState) commands.Clock                      { return commands.Clock{Rule: commands.NoClock} }
func (lbGame) Outcome(s *lbState) (storage.Outcome, bool)           { return storage.Outcome{}, false }
func (lbGame) Timeout(t *commands.Turn[*lbState]) error             { return nil }
func (lbGame) Summary(g *storage.Game, s *lbState, u string) string { return "" }

// newLiveBoardGame starts a game of lbGame in thread "th1" with its first
// board (not delivered yet).
func newLiveBoardGame(t *testing.T) (*commands.App, *commandstest.Platform, storage.Store, string) {
	a, p, store := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*lbState](a, lbGame{}) })
	rec := &storage.Game{ID: commands.NewID(), Kind: "lb", GuildID: "g", ChannelID: "general", ThreadID: "th1",
		Players: []string{commandstest.Alice.ID}, Active: true}
	req := &commands.Request{Now: commandstest.T0}
	require.NoError(t, commands.Create(a, req, rec, func(tt *commands.Turn[*lbState]) error {
		tt.Save(&lbState{})
		tt.Board(commands.ChannelOfGame, lbBoard(0, "thread"), commands.Message{Content: "Game start"})
		return nil
	}))
	return a, p, store, rec.ID
}

func lbMove(t *testing.T, a *commands.App, where string) {
	t.Helper()
	resp, err := a.Handle(commandstest.Cmd(commandstest.Alice, "move", "", map[string]string{"where": where}))
	require.NoError(t, err)
	require.True(t, resp.Ephemeral)
}

// boardEdits are the edits of message id, in order, each checked to be a
// whole quiet board (image, card, buttons).
func boardEdits(t *testing.T, p *commandstest.Platform, id string) []commandstest.Edited {
	t.Helper()
	_, edits := p.Snapshot()
	var out []commandstest.Edited
	for _, e := range edits {
		if e.ID != id {
			continue
		}
		require.True(t, e.Msg.Quiet, "a live board pings nobody")
		require.Len(t, e.Msg.Files, 1, "an edited board keeps its image")
		require.NotEmpty(t, e.Msg.Rows, "and its buttons")
		out = append(out, e)
	}
	return out
}

// TestBoardEditedInPlace: the first board is posted (quiet: its mentions
// ping nobody), every later one edits it in place; it stays the live board.
func TestBoardEditedInPlace(t *testing.T) {
	t.Parallel()
	a, p, store, id := newLiveBoardGame(t)
	commandstest.Deliver(t, a, commandstest.T0)
	for range 3 {
		lbMove(t, a, "")
		commandstest.Deliver(t, a, commandstest.T0)
	}
	posts, edits := p.Snapshot()
	require.Len(t, posts, 1)
	require.True(t, posts[0].Msg.Quiet)
	require.Len(t, edits, 3)
	e := boardEdits(t, p, posts[0].ID)
	require.Len(t, e, 3)
	require.Equal(t, "Board 3 (thread). <@2>, your move.", e[2].Msg.Content)
	require.Empty(t, p.Deleted)
	g := commandstest.Game(t, store, id)
	require.Equal(t, posts[0].ID, commands.LiveBoard(g, commands.ChannelOfGame))
	require.Equal(t, "", commands.LiveBoard(g, "team"))
}

// TestBoardsPerChannel: each channel has its own live board, edited in
// place.
func TestBoardsPerChannel(t *testing.T) {
	t.Parallel()
	a, p, store, id := newLiveBoardGame(t)
	lbMove(t, a, "both")
	lbMove(t, a, "both")
	commandstest.Deliver(t, a, commandstest.T0)
	posts, edits := p.Snapshot()
	require.Len(t, posts, 2) // the thread's and the team's
	require.Len(t, edits, 3)
	g := commandstest.Game(t, store, id)
	thread, team := commands.LiveBoard(g, commands.ChannelOfGame), commands.LiveBoard(g, "team")
	require.Len(t, boardEdits(t, p, thread), 2)
	require.Len(t, boardEdits(t, p, team), 1)
	require.Equal(t, "Board 2 (team). <@2>, your move.", boardEdits(t, p, team)[0].Msg.Content)
}

// TestBoardRetriedAfterTheNextMove: a board whose edit fails is retried;
// meanwhile the next move is saved (its board queued behind it). The live
// board ends showing the newest, nothing is posted twice.
func TestBoardRetriedAfterTheNextMove(t *testing.T) {
	t.Parallel()
	a, p, store, id := newLiveBoardGame(t)
	commandstest.Deliver(t, a, commandstest.T0)
	p.Fail = func(op, ch string) error {
		if op == "edit" {
			return &commands.PlatformError{HTTPStatus: 500, Err: errors.New("500 Internal Server Error")}
		}
		return nil
	}
	lbMove(t, a, "")
	commandstest.Deliver(t, a, commandstest.T0)
	lbMove(t, a, "")
	p.Fail = nil
	commandstest.Deliver(t, a, commandstest.T0.Add(time1h))
	posts, _ := p.Snapshot()
	require.Len(t, posts, 1, "the board posted once")
	e := boardEdits(t, p, posts[0].ID)
	require.Len(t, e, 2)
	require.Equal(t, "Board 2 (thread). <@2>, your move.", e[1].Msg.Content)
	g := commandstest.Game(t, store, id)
	require.Equal(t, posts[0].ID, commands.LiveBoard(g, commands.ChannelOfGame))
}

// TestBoardPostedButNotRecorded: the first board's post reached Discord
// but its answer was lost (a crash, a timeout): the retry finds the message
// among the recent ones instead of posting it again, and the next board
// edits it.
func TestBoardPostedButNotRecorded(t *testing.T) {
	t.Parallel()
	a, p, store, id := newLiveBoardGame(t)
	lost := &losingPlatform{Platform: p, lose: 1}
	a.Platform = lost
	commandstest.Deliver(t, a, commandstest.T0)
	require.Equal(t, 0, lost.lose, "the answer of one post was lost")
	commandstest.Deliver(t, a, commandstest.T0.Add(time1h))
	lbMove(t, a, "")
	commandstest.Deliver(t, a, commandstest.T0.Add(time1h))
	posts, _ := p.Snapshot()
	require.Len(t, posts, 1, "the board shown once")
	require.Len(t, boardEdits(t, p, posts[0].ID), 1)
	g := commandstest.Game(t, store, id)
	require.Equal(t, posts[0].ID, commands.LiveBoard(g, commands.ChannelOfGame))
}

// TestBoardRefusedReplacesNothing: a board edit Discord refuses for good
// (a 4xx other than 30046 and 404) is dropped, and the live board stays.
func TestBoardRefusedReplacesNothing(t *testing.T) {
	t.Parallel()
	a, p, store, id := newLiveBoardGame(t)
	commandstest.Deliver(t, a, commandstest.T0)
	p.Fail = func(op, ch string) error {
		if op == "edit" {
			return &commands.PlatformError{HTTPStatus: 400, Code: 50035, Err: errors.New("400 Bad Request")}
		}
		return nil
	}
	lbMove(t, a, "")
	commandstest.Deliver(t, a, commandstest.T0)
	p.Fail = nil
	posts, edits := p.Snapshot()
	require.Len(t, posts, 1)
	require.Empty(t, edits)
	require.Equal(t, 0, a.Pending())
	g := commandstest.Game(t, store, id)
	require.Equal(t, posts[0].ID, commands.LiveBoard(g, commands.ChannelOfGame))
}

// TestBoardPostedAnewOnTooManyEdits: when Discord allows no more edits of
// the live board (30046), the board is posted anew and the old one
// deleted; a delete that finds the message gone (404) is done.
func TestBoardPostedAnewOnTooManyEdits(t *testing.T) {
	t.Parallel()
	a, p, store, id := newLiveBoardGame(t)
	commandstest.Deliver(t, a, commandstest.T0)
	p.Fail = func(op, ch string) error {
		switch op {
		case "edit":
			return &commands.PlatformError{HTTPStatus: 400, Code: 30046, Err: errors.New("400: too many edits")}
		case "delete":
			return &commands.PlatformError{HTTPStatus: 404, Code: 10008, Err: errors.New("404: Unknown Message")}
		}
		return nil
	}
	lbMove(t, a, "")
	commandstest.Deliver(t, a, commandstest.T0)
	posts, _ := p.Snapshot()
	require.Len(t, posts, 2, "posted anew")
	require.True(t, posts[1].Msg.Quiet)
	require.Equal(t, "Board 1 (thread). <@2>, your move.", posts[1].Msg.Content)
	require.Equal(t, 0, a.Pending(), "the old board's delete found it gone: done")
	g := commandstest.Game(t, store, id)
	require.Equal(t, posts[1].ID, commands.LiveBoard(g, commands.ChannelOfGame))
	p.Fail = nil
	lbMove(t, a, "")
	lbMove(t, a, "in place")
	commandstest.Deliver(t, a, commandstest.T0)
	require.Len(t, boardEdits(t, p, posts[1].ID), 2, "the new board is edited in place")
	a2, p2, _, _ := newLiveBoardGame(t)
	commandstest.Deliver(t, a2, commandstest.T0)
	p2.Fail = func(op, ch string) error {
		if op == "edit" {
			return &commands.PlatformError{HTTPStatus: 400, Code: 30046, Err: errors.New("400: too many edits")}
		}
		return nil
	}
	lbMove(t, a2, "")
	commandstest.Deliver(t, a2, commandstest.T0)
	posts, _ = p2.Snapshot()
	require.Equal(t, []string{"th1/" + posts[0].ID}, p2.Deleted, "the replaced board deleted")
}

const time1h = time.Hour

// losingPlatform performs posts but reports the first lose of them failed,
// as when Discord's answer is lost.
type losingPlatform struct {
	*commandstest.Platform
	lose int
}

func (l *losingPlatform) Send(ctx context.Context, channelID string, m commands.Message) (string, error) {
	id, err := l.Platform.Send(ctx, channelID, m)
	if err == nil && l.lose > 0 {
		l.lose--
		return "", &commands.PlatformError{HTTPStatus: 502, Err: errors.New("502 Bad Gateway")}
	}
	return id, err
}

// TestBoardLineEditsNothing: BoardLine (a compact form, no longer shown)
// neither posts nor edits.
func TestBoardLineEditsNothing(t *testing.T) {
	t.Parallel()
	a, p, _, _ := newLiveBoardGame(t)
	lbMove(t, a, "")
	commandstest.Deliver(t, a, commandstest.T0)
	lbMove(t, a, "line")
	commandstest.Deliver(t, a, commandstest.T0)
	posts, edits := p.Snapshot()
	require.Len(t, posts, 1)
	require.Len(t, edits, 2, "the two boards; the line itself edits nothing")
}

// TestBoardsSafeToRunAgain: on a store that runs every transaction twice
// (the first run thrown away, as an optimistic backend may), the board is
// posted once and edited once per move.
func TestBoardsSafeToRunAgain(t *testing.T) {
	t.Parallel()
	p := commandstest.NewPlatform()
	mem := storage.NewMemory()
	a := commands.New(rerunStore{mem}, p, commands.Settings{BoardSize: 320, MoveTime: time.Hour, ChallengeTTL: time.Hour, LobbyTTL: time.Hour},
		slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)))
	a.Now = fixed(commandstest.T0)
	a.DeliverInline = false
	commands.Register[*lbState](a, lbGame{})
	rec := &storage.Game{ID: commands.NewID(), Kind: "lb", GuildID: "g", ChannelID: "general", ThreadID: "th1",
		Players: []string{commandstest.Alice.ID}, Active: true}
	require.NoError(t, commands.Create(a, &commands.Request{Now: commandstest.T0}, rec, func(tt *commands.Turn[*lbState]) error {
		tt.Save(&lbState{})
		tt.Board(commands.ChannelOfGame, lbBoard(0, "thread"), commands.Message{Content: "Game start"})
		return nil
	}))
	for range 3 {
		lbMove(t, a, "")
		commandstest.Deliver(t, a, commandstest.T0)
	}
	posts, edits := p.Snapshot()
	require.Len(t, posts, 1)
	require.Len(t, edits, 3)
	require.Equal(t, posts[0].ID, commands.LiveBoard(commandstest.Game(t, mem, rec.ID), commands.ChannelOfGame))
}
