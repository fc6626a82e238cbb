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

// compactions maps each message ID edited to how many times it was, and
// checks each edit is a compact line: text only, no card, file or button.
func compactions(t *testing.T, p *commandstest.Platform) map[string]int {
	t.Helper()
	_, edits := p.Snapshot()
	n := map[string]int{}
	for _, e := range edits {
		require.NotEmpty(t, e.Msg.Content)
		require.Empty(t, e.Msg.Cards, "a compacted board shows no card")
		require.Empty(t, e.Msg.Files, "a compacted board keeps no image")
		require.Empty(t, e.Msg.Rows, "a compacted board has no buttons")
		n[e.ID]++
	}
	return n
}

// TestBoardReplacesTheLiveBoardOnce: every board posted compacts the one
// before it in its channel, once, into the line the earlier board named;
// the newest is the live board and keeps its image and buttons.
func TestBoardReplacesTheLiveBoardOnce(t *testing.T) {
	t.Parallel()
	a, p, store, id := newLiveBoardGame(t)
	commandstest.Deliver(t, a, commandstest.T0)
	for range 3 {
		lbMove(t, a, "")
		commandstest.Deliver(t, a, commandstest.T0)
	}
	posts, edits := p.Snapshot()
	require.Len(t, posts, 4)
	require.Len(t, edits, 3)
	for i, e := range edits {
		require.Equal(t, posts[i].ID, e.ID, "board %d is compacted", i)
		require.Equal(t, "th1", e.Channel)
	}
	require.Equal(t, "Game start", edits[0].Msg.Content)
	require.Equal(t, "1. moved", edits[1].Msg.Content)
	for id, n := range compactions(t, p) {
		require.Equal(t, 1, n, "message %s edited once", id)
	}
	g := commandstest.Game(t, store, id)
	require.Equal(t, posts[3].ID, commands.LiveBoard(g, commands.ChannelOfGame))
	require.Equal(t, "", commands.LiveBoard(g, "team"))
}

// TestBoardsPerChannel: a second channel's boards replace only each other.
func TestBoardsPerChannel(t *testing.T) {
	t.Parallel()
	a, p, store, id := newLiveBoardGame(t)
	lbMove(t, a, "both")
	lbMove(t, a, "both")
	commandstest.Deliver(t, a, commandstest.T0)
	posts, edits := p.Snapshot()
	require.Len(t, posts, 5) // start, then thread and team twice
	byID := map[string]commandstest.Sent{}
	for _, s := range posts {
		byID[s.ID] = s
	}
	require.Len(t, edits, 3)
	compacted := map[string]string{}
	for _, e := range edits {
		compacted[byID[e.ID].Msg.Content] = e.Msg.Content
		require.Equal(t, byID[e.ID].Channel, e.Channel, "compacted in its own channel")
	}
	require.Equal(t, map[string]string{
		"Board 0 (thread). <@2>, your move.": "Game start",
		"Board 1 (thread). <@2>, your move.": "1. moved",
		"Board 1 (team). <@2>, your move.":   "team 1",
	}, compacted)
	g := commandstest.Game(t, store, id)
	require.Equal(t, "Board 2 (thread). <@2>, your move.", byID[commands.LiveBoard(g, commands.ChannelOfGame)].Msg.Content)
	require.Equal(t, "Board 2 (team). <@2>, your move.", byID[commands.LiveBoard(g, "team")].Msg.Content)
}

// TestBoardRetriedAfterTheNextMove: a board whose post fails is retried;
// meanwhile the next move is saved (its board queued behind it). Each
// board still compacts exactly the one before it, and one live board is
// left with its image.
func TestBoardRetriedAfterTheNextMove(t *testing.T) {
	t.Parallel()
	a, p, store, id := newLiveBoardGame(t)
	commandstest.Deliver(t, a, commandstest.T0)
	p.Fail = func(op, ch string) error {
		if op == "send" {
			return &commands.PlatformError{HTTPStatus: 500, Err: errors.New("500 Internal Server Error")}
		}
		return nil
	}
	lbMove(t, a, "")
	commandstest.Deliver(t, a, commandstest.T0)
	lbMove(t, a, "")
	p.Fail = nil
	commandstest.Deliver(t, a, commandstest.T0.Add(time1h))
	posts, edits := p.Snapshot()
	require.Len(t, posts, 3, "each board posted once")
	require.Len(t, edits, 2)
	require.Equal(t, posts[0].ID, edits[0].ID)
	require.Equal(t, posts[1].ID, edits[1].ID)
	g := commandstest.Game(t, store, id)
	require.Equal(t, posts[2].ID, commands.LiveBoard(g, commands.ChannelOfGame))
}

// TestBoardPostedButNotRecorded: the post reached Discord but its answer
// was lost (a crash, a timeout): the retry finds the message among the
// recent ones instead of posting it again, and swaps the live board once.
func TestBoardPostedButNotRecorded(t *testing.T) {
	t.Parallel()
	a, p, store, id := newLiveBoardGame(t)
	commandstest.Deliver(t, a, commandstest.T0)
	lost := &losingPlatform{Platform: p, lose: 1}
	a.Platform = lost
	lbMove(t, a, "")
	commandstest.Deliver(t, a, commandstest.T0)
	require.Equal(t, 0, lost.lose, "the answer of one post was lost")
	commandstest.Deliver(t, a, commandstest.T0.Add(time1h))
	posts, edits := p.Snapshot()
	require.Len(t, posts, 2, "the board shown once")
	require.Len(t, edits, 1)
	require.Equal(t, posts[0].ID, edits[0].ID, "the earlier board compacted, not the new one")
	g := commandstest.Game(t, store, id)
	require.Equal(t, posts[1].ID, commands.LiveBoard(g, commands.ChannelOfGame))
}

// TestBoardRefusedReplacesNothing: a board Discord refuses for good (a
// 4xx) is dropped, and the board before it stays live, uncompacted.
func TestBoardRefusedReplacesNothing(t *testing.T) {
	t.Parallel()
	a, p, store, id := newLiveBoardGame(t)
	commandstest.Deliver(t, a, commandstest.T0)
	p.Fail = func(op, ch string) error {
		if op == "send" {
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
	g := commandstest.Game(t, store, id)
	require.Equal(t, posts[0].ID, commands.LiveBoard(g, commands.ChannelOfGame))
}

// TestCompactionWaitsOutTooManyEdits: Discord's 30046 on a compaction is
// waited out (retried), not posted anew below the newer board.
func TestCompactionWaitsOutTooManyEdits(t *testing.T) {
	t.Parallel()
	a, p, _, _ := newLiveBoardGame(t)
	commandstest.Deliver(t, a, commandstest.T0)
	p.Fail = func(op, ch string) error {
		if op == "edit" {
			return &commands.PlatformError{HTTPStatus: 400, Code: 30046, Err: errors.New("400: too many edits")}
		}
		return nil
	}
	lbMove(t, a, "")
	commandstest.Deliver(t, a, commandstest.T0)
	posts, edits := p.Snapshot()
	require.Len(t, posts, 2, "nothing posted anew")
	require.Empty(t, edits)
	require.Equal(t, 1, a.Pending(), "the compaction waits")
	p.Fail = nil
	commandstest.Deliver(t, a, commandstest.T0.Add(time1h))
	_, edits = p.Snapshot()
	require.Len(t, edits, 1)
	require.Equal(t, posts[0].ID, edits[0].ID)
	require.Equal(t, 0, a.Pending())
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

// TestUpdateBoardEditsInPlace: an update edits the live board (image and
// all) and sets its compact form; the next board compacts it into that.
// When Discord allows no more edits of it (30046), the update is posted
// as a new board, which replaces it.
func TestUpdateBoardEditsInPlace(t *testing.T) {
	t.Parallel()
	a, p, store, id := newLiveBoardGame(t)
	lbMove(t, a, "")
	lbMove(t, a, "in place")
	commandstest.Deliver(t, a, commandstest.T0)
	posts, edits := p.Snapshot()
	require.Len(t, posts, 2, "the update posts nothing")
	require.Len(t, edits, 2)
	// The compaction and the game's own effects are two streams, delivered
	// in parallel: their edits (of two messages) come in either order.
	if edits[0].ID != posts[0].ID {
		edits[0], edits[1] = edits[1], edits[0]
	}
	require.Equal(t, posts[0].ID, edits[0].ID, "the start board compacted")
	require.Equal(t, posts[1].ID, edits[1].ID, "the live board edited")
	require.Equal(t, "Board 2 (thread). <@2>, your move.", edits[1].Msg.Content)
	require.Len(t, edits[1].Msg.Files, 1, "an update keeps the image")
	lbMove(t, a, "")
	commandstest.Deliver(t, a, commandstest.T0)
	posts, edits = p.Snapshot()
	require.Len(t, posts, 3)
	require.Equal(t, posts[1].ID, edits[2].ID)
	require.Equal(t, "2. updated", edits[2].Msg.Content, "compacted into the updated line")

	p.Fail = func(op, ch string) error {
		if op == "edit" {
			return &commands.PlatformError{HTTPStatus: 400, Code: 30046, Err: errors.New("400: too many edits")}
		}
		return nil
	}
	lbMove(t, a, "in place")
	commandstest.Deliver(t, a, commandstest.T0)
	p.Fail = nil
	commandstest.Deliver(t, a, commandstest.T0.Add(time.Hour))
	posts, edits = p.Snapshot()
	require.Len(t, posts, 4, "posted anew")
	require.Equal(t, "Board 4 (thread). <@2>, your move.", posts[3].Msg.Content)
	require.Len(t, edits, 4)
	require.Equal(t, posts[2].ID, edits[3].ID, "the board it replaced is compacted (once Discord allows)")
	g := commandstest.Game(t, store, id)
	require.Equal(t, posts[3].ID, commands.LiveBoard(g, commands.ChannelOfGame))
}

// TestBoardLineSetsTheCompactForm: BoardLine changes what the live board
// becomes, without editing it; the next board compacts it into that.
func TestBoardLineSetsTheCompactForm(t *testing.T) {
	t.Parallel()
	a, p, _, _ := newLiveBoardGame(t)
	lbMove(t, a, "")
	commandstest.Deliver(t, a, commandstest.T0)
	lbMove(t, a, "line")
	commandstest.Deliver(t, a, commandstest.T0)
	posts, edits := p.Snapshot()
	require.Len(t, posts, 3)
	require.Len(t, edits, 2, "the line itself edits nothing")
	require.Equal(t, posts[1].ID, edits[1].ID)
	require.Equal(t, "1. finished the turn", edits[1].Msg.Content)
}

// TestBoardsSafeToRunAgain: on a store that runs every transaction twice
// (the first run thrown away, as an optimistic backend may), each board
// still compacts the one before it once.
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
	require.Len(t, posts, 4)
	require.Len(t, edits, 3)
	for i, e := range edits {
		require.Equal(t, posts[i].ID, e.ID)
	}
	require.Equal(t, posts[3].ID, commands.LiveBoard(commandstest.Game(t, mem, rec.ID), commands.ChannelOfGame))
}
