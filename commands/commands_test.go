package commands

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands/ui"
	"sandtable/storage"
)

// fakePlatform records what handlers do on Discord.
type fakePlatform struct {
	mu      sync.Mutex
	sent    []sent
	threads []string
	members map[string][]string
	dms     map[string][]Message
	closed  map[string]bool
	files   map[string][]byte // Download: URL -> bytes
	edits   []edited
	next    int
	// types are channel types by ID (default: a server text channel);
	// threadErr, when set, is StartThread's error.
	types     map[string]ui.ChannelType
	threadErr error
}

// edited is one Edit or EditDM (Channel "dm:<user ID>").
type edited struct {
	Channel, ID string
	Msg         Message
}

type sent struct {
	Channel string
	Msg     Message
}

func newFakePlatform() *fakePlatform {
	return &fakePlatform{members: map[string][]string{}, dms: map[string][]Message{}, closed: map[string]bool{}, files: map[string][]byte{},
		types: map[string]ui.ChannelType{}}
}

func (p *fakePlatform) id() string { p.next++; return fmt.Sprintf("%d", 1000+p.next) }

func (p *fakePlatform) Send(channelID string, m Message) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sent = append(p.sent, sent{channelID, m})
	return p.id(), nil
}

func (p *fakePlatform) Edit(channelID, messageID string, m Message) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.edits = append(p.edits, edited{channelID, messageID, m})
	return nil
}

func (p *fakePlatform) EditDM(userID, messageID string, m Message) error {
	return p.Edit("dm:"+userID, messageID, m)
}

func (p *fakePlatform) ChannelType(channelID string) (ui.ChannelType, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t, ok := p.types[channelID]; ok {
		return t, nil
	}
	return ui.TextChannel, nil
}

func (p *fakePlatform) StartThread(channelID, name string, private bool) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.threadErr != nil {
		return "", p.threadErr
	}
	id := p.id()
	p.threads = append(p.threads, id)
	return id, nil
}

func (p *fakePlatform) StartThreadFrom(channelID, messageID, name string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.threadErr != nil {
		return "", p.threadErr
	}
	p.threads = append(p.threads, messageID)
	return messageID, nil
}

func (p *fakePlatform) FindThread(guildID, parentID, name string) (string, error) { return "", nil }

func (p *fakePlatform) Recent(channelID string, limit int) ([]Posted, error) { return nil, nil }

func (p *fakePlatform) AddThreadMember(threadID, userID string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.members[threadID] = append(p.members[threadID], userID)
	return nil
}

func (p *fakePlatform) RemoveThreadMember(threadID, userID string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	ms := p.members[threadID]
	for i, m := range ms {
		if m == userID {
			p.members[threadID] = append(ms[:i:i], ms[i+1:]...)
			break
		}
	}
	return nil
}

// Download serves the files put in p.files by URL.
func (p *fakePlatform) Download(url string, maxBytes int64) ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b, ok := p.files[url]
	if !ok {
		return nil, fmt.Errorf("GET %s: 404 Not Found", url)
	}
	if int64(len(b)) > maxBytes {
		return nil, ErrTooLarge
	}
	return b, nil
}

func (p *fakePlatform) DM(userID string, m Message) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed[userID] {
		return "", ErrDMClosed
	}
	p.dms[userID] = append(p.dms[userID], m)
	return p.id(), nil
}

var (
	t0    = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	alice = User{ID: "100001", Name: "alice"}
	bob   = User{ID: "100002", Name: "bob"}
	carol = User{ID: "100003", Name: "carol"}
)

func testApp(t *testing.T) (*App, *fakePlatform) {
	t.Helper()
	p := newFakePlatform()
	a := New(storage.NewMemory(), p, Settings{BoardSize: 320, MoveTime: 24 * time.Hour, ChallengeTTL: time.Hour}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	a.Now = func() time.Time { return t0 }
	return a, p
}

// putSurvival stores a Survival game starting from fen with alice White and
// bob Black, in thread "th1", and returns its ID.
func putSurvival(t *testing.T, a *App, fen string, moves ...string) string {
	t.Helper()
	st := survivalState{StartFEN: fen, Moves: moves, White: alice, Black: bob, MoveTime: time.Hour, Started: t0}
	raw, err := json.Marshal(st)
	require.NoError(t, err)
	g := &storage.Game{ID: "game1", Kind: kindSurvival, GuildID: "g", ChannelID: "general", ThreadID: "th1",
		Players: []string{alice.ID, bob.ID}, Active: true, Deadline: t0.Add(time.Hour), State: raw}
	require.NoError(t, a.update(func(tx storage.Tx) error { return tx.Games().Put(g, t0) }))
	return g.ID
}

var interactionSeq int

func cmd(u User, command, sub string, opts map[string]string) *Request {
	interactionSeq++
	r := &Request{Type: CommandRequest, InteractionID: fmt.Sprint("i", interactionSeq), GuildID: "g", ChannelID: "th1",
		User: u, Command: command, Sub: sub, Options: map[string]Option{}, Now: t0}
	for k, v := range opts {
		r.Options[k] = Option{String: v}
	}
	return r
}

func userMsg(t *testing.T, err error) string {
	t.Helper()
	require.Error(t, err)
	ue, ok := err.(*UserError)
	require.True(t, ok, "want a message for the user, got %T: %v", err, err)
	return ue.Msg
}

func loadState(t *testing.T, a *App, id string) (*storage.Game, *survivalState) {
	t.Helper()
	var g *storage.Game
	require.NoError(t, a.view(func(tx storage.Tx) error {
		var err error
		g, err = tx.Games().Get(id)
		return err
	}))
	st, _, err := loadSurvival(g)
	require.NoError(t, err)
	return g, st
}

// kingsShuffle: White king a1 with a pawn on a2 ... no captures possible
// anywhere, so kings can walk back and forth to repeat the position.
const kingsShuffle = "7k/8/8/8/8/8/8/K7 w - - 0 1"

func TestSurvivalThreefoldClaim(t *testing.T) {
	a, _ := testApp(t)
	// Ka2 Kg8 Ka1 Kh8 Ka2 Kg8 Ka1 Kh8: the start position has occurred three times.
	id := putSurvival(t, a, kingsShuffle, "a1a2", "h8g8", "a2a1", "g8h8", "a1a2", "h8g8", "a2a1")

	// Black to move (bob); the position after ...Kh8 would be the third
	// occurrence: bob may claim by declaring that move.
	_, err := a.Handle(cmd(alice, "draw", "claim", nil))
	require.Contains(t, userMsg(t, err), "Only the player to move")
	_, err = a.Handle(cmd(bob, "draw", "claim", nil))
	require.Contains(t, userMsg(t, err), "No draw can be claimed")
	_, err = a.Handle(cmd(bob, "draw", "claim", map[string]string{"move": "Kh7"}))
	require.Contains(t, userMsg(t, err), "would not allow a draw claim")
	_, st := loadState(t, a, id)
	require.Len(t, st.Moves, 7, "a refused claim plays nothing")

	resp, err := a.Handle(cmd(bob, "draw", "claim", map[string]string{"move": "Kh8"}))
	require.NoError(t, err)
	require.Contains(t, resp.Content, "claimed a draw by threefold repetition with the move Kh8")
	g, st := loadState(t, a, id)
	require.False(t, g.Active)
	require.Equal(t, "1/2-1/2", st.Result)
	require.Len(t, st.Moves, 8)
}

func TestSurvivalFiftyMoveClaim(t *testing.T) {
	a, _ := testApp(t)
	putSurvival(t, a, "7k/8/8/8/8/8/8/K7 w - - 99 80")
	_, err := a.Handle(cmd(alice, "draw", "claim", nil))
	require.Contains(t, userMsg(t, err), "fifty-move count is 49 of 50")
	resp, err := a.Handle(cmd(alice, "draw", "claim", map[string]string{"move": "Kb1"}))
	require.NoError(t, err)
	require.Contains(t, resp.Content, "the 50-move rule")
}

func TestSurvivalDeadPositionEndsAtOnce(t *testing.T) {
	a, _ := testApp(t)
	// The bishops face each other on the long diagonal: the capture is
	// forced and eliminates Black.
	id := putSurvival(t, a, "8/8/8/8/8/8/1b6/B7 w - - 0 1")
	resp, err := a.Handle(cmd(alice, "move", "", map[string]string{"move": "Bxb2"}))
	require.NoError(t, err)
	require.Contains(t, resp.Content, "wins by elimination of the last piece")
	g, _ := loadState(t, a, id)
	require.False(t, g.Active)

	// White: Ba1 (dark), pawn e4 (light); Black: Bc2 (light), pawn e6.
	// After e5 every White piece is on a dark square, every Black one on a
	// light square and the pawns block each other: no capture can ever
	// happen again, so the game is drawn at once.
	a2, _ := testApp(t)
	id = putSurvival(t, a2, "8/8/4p3/8/4P3/8/2b5/B7 w - - 0 1")
	resp, err = a2.Handle(cmd(alice, "move", "", map[string]string{"move": "e5"}))
	require.NoError(t, err)
	require.Contains(t, resp.Content, "Draw by dead position")
	g, _ = loadState(t, a2, id)
	require.False(t, g.Active)
}

func TestSurvivalResignAnyTimeByEitherPlayer(t *testing.T) {
	a, _ := testApp(t)
	putSurvival(t, a, "7k/8/8/8/8/8/8/K7 w - - 0 1")
	_, err := a.Handle(cmd(carol, "resign", "", nil))
	require.Contains(t, userMsg(t, err), "You are not playing")
	resp, err := a.Handle(cmd(bob, "resign", "", nil))
	require.NoError(t, err, "resigning does not need the turn")
	require.Contains(t, resp.Content, "(White) wins by resignation")
}

func TestSurvivalInteractionAppliedOnce(t *testing.T) {
	a, _ := testApp(t)
	id := putSurvival(t, a, kingsShuffle)
	req := cmd(alice, "move", "", map[string]string{"move": "Ka2"})
	_, err := a.Handle(req)
	require.NoError(t, err)
	// The same interaction delivered again (same ID) must not be applied
	// again, even if it were legal: here it is bob's turn anyway, so use a
	// request that would be legal for bob.
	again := cmd(bob, "move", "", map[string]string{"move": "Kg8"})
	again.InteractionID = req.InteractionID
	_, err = a.Handle(again)
	require.Contains(t, userMsg(t, err), "already applied")
	_, st := loadState(t, a, id)
	require.Equal(t, []string{"a1a2"}, st.Moves)
}

func TestCustomIDValidation(t *testing.T) {
	good := []string{"c:abcd1234:accept", "g:abcdef:flip", "g:abcdef:draw-accept:x"}
	for _, s := range good {
		c, err := ParseCustomID(s)
		require.NoError(t, err, s)
		require.Equal(t, s, c.String())
	}
	bad := []string{"", "x", "g:abc", "q:abcdef:flip", "g:ABCDEF:flip", "g:abcdef:", "g:abcdef:Flip", "g:ab:flip", "g:abcdef:fl!p",
		"g:" + string(make([]byte, 200)) + ":flip"}
	for _, s := range bad {
		_, err := ParseCustomID(s)
		require.Error(t, err, s)
	}
	a, _ := testApp(t)
	_, err := a.Handle(&Request{Type: ComponentRequest, CustomID: "g:nosuchgame:flip", User: alice})
	require.Contains(t, userMsg(t, err), "no longer exists")
	_, err = a.Handle(&Request{Type: ComponentRequest, CustomID: "evil", User: alice})
	require.Contains(t, userMsg(t, err), "not one of mine")
}

func TestSweepTimesOutOnlyDueGames(t *testing.T) {
	a, p := testApp(t)
	id := putSurvival(t, a, kingsShuffle)
	require.NoError(t, a.Sweep(t0.Add(59*time.Minute)))
	g, _ := loadState(t, a, id)
	require.True(t, g.Active)
	require.NoError(t, a.Sweep(t0.Add(time.Hour)))
	g, st := loadState(t, a, id)
	require.False(t, g.Active)
	require.Equal(t, "0-1", st.Result, "White was to move and ran out of time")
	require.Len(t, p.sent, 1)
	require.Contains(t, p.sent[0].Msg.Content, "ran out of time")
	require.Equal(t, "th1", p.sent[0].Channel)
	// A second sweep does nothing more.
	require.NoError(t, a.Sweep(t0.Add(2*time.Hour)))
	require.Len(t, p.sent, 1)
}
