package commands

import (
	"context"
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

func (p *fakePlatform) Send(ctx context.Context, channelID string, m Message) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sent = append(p.sent, sent{channelID, m})
	return p.id(), nil
}

func (p *fakePlatform) Edit(ctx context.Context, channelID, messageID string, m Message) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.edits = append(p.edits, edited{channelID, messageID, m})
	return nil
}

func (p *fakePlatform) EditDM(ctx context.Context, userID, messageID string, m Message) error {
	return p.Edit(ctx, "dm:"+userID, messageID, m)
}

func (p *fakePlatform) ChannelType(ctx context.Context, channelID string) (ui.ChannelType, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t, ok := p.types[channelID]; ok {
		return t, nil
	}
	return ui.TextChannel, nil
}

func (p *fakePlatform) StartThread(ctx context.Context, channelID, name string, private bool) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.threadErr != nil {
		return "", p.threadErr
	}
	id := p.id()
	p.threads = append(p.threads, id)
	return id, nil
}

func (p *fakePlatform) StartThreadFrom(ctx context.Context, channelID, messageID, name string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.threadErr != nil {
		return "", p.threadErr
	}
	p.threads = append(p.threads, messageID)
	return messageID, nil
}

func (p *fakePlatform) FindThreads(ctx context.Context, guildID, parentID, name string) ([]string, error) {
	return nil, nil
}

func (p *fakePlatform) Recent(ctx context.Context, channelID string, limit int) ([]Posted, error) {
	return nil, nil
}

func (p *fakePlatform) AddThreadMember(ctx context.Context, threadID, userID string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.members[threadID] = append(p.members[threadID], userID)
	return nil
}

func (p *fakePlatform) RemoveThreadMember(ctx context.Context, threadID, userID string) error {
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
func (p *fakePlatform) Download(ctx context.Context, url string, maxBytes int64) ([]byte, error) {
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

func (p *fakePlatform) DM(ctx context.Context, userID string, m Message) (string, error) {
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
