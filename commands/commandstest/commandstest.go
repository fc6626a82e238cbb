// Package commandstest helps test game packages against the framework
// without Discord: a fake Platform that records what is done on it, an App
// on an in-memory store with a fixed clock, and request builders.
package commandstest

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/draw"
	"image/gif"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/ui"
	"sandtable/storage"
)

// T0 is the tests' clock.
var T0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// Players of the tests.
var (
	Alice = commands.User{ID: "100001", Name: "alice"}
	Bob   = commands.User{ID: "100002", Name: "bob"}
	Carol = commands.User{ID: "100003", Name: "carol"}
	// Computer is the bot itself (App.Self in NewApp): the opponent that
	// starts a game against the computer.
	Computer = commands.User{ID: "900001", Name: "SandTable Bot", Bot: true}
)

// Sent is one message posted in a channel.
type Sent struct {
	Channel string
	Msg     commands.Message
	ID      string // the message's ID, as Send returned it
}

// Edited is one Edit or EditDM (Channel "dm:<user ID>").
type Edited struct {
	Channel, ID string
	Msg         commands.Message
}

// Platform is a fake commands.Platform: it records every call. Fail, when
// set, is asked before each call (op is "send", "edit", "dm", "thread",
// "member"...) and its error is returned instead of doing it.
type Platform struct {
	mu      sync.Mutex
	Posts   []Sent
	Threads []string
	Members map[string][]string
	DMs     map[string][]commands.Message
	Closed  map[string]bool // users whose DMs are closed
	Files   map[string][]byte
	Edits   []Edited
	Types   map[string]ui.ChannelType
	// Archived are the threads archived and locked (ArchiveThread).
	Archived map[string]bool
	// Renames are the channels renamed (RenameChannel), as
	// "<channel>: <name>", in order.
	Renames []string
	// Deleted are the messages deleted (Delete; DeleteDM as channel
	// "dm:<user ID>"), as "<channel>/<message>".
	Deleted []string
	Fail    func(op, channel string) error
	next    int
	names   map[string]string // thread ID -> parent "/" name
}

// NewPlatform returns an empty fake platform.
func NewPlatform() *Platform {
	return &Platform{Members: map[string][]string{}, DMs: map[string][]commands.Message{}, Closed: map[string]bool{},
		Files: map[string][]byte{}, Types: map[string]ui.ChannelType{}}
}

func (p *Platform) id() string { p.next++; return fmt.Sprintf("%d", 1000+p.next) }

func (p *Platform) fail(op, ch string) error {
	if p.Fail == nil {
		return nil
	}
	return p.Fail(op, ch)
}

// Snapshot returns copies of what was posted and edited so far.
func (p *Platform) Snapshot() (posts []Sent, edits []Edited) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Sent(nil), p.Posts...), append([]Edited(nil), p.Edits...)
}

// Shown returns what the channels show now: every post, as last edited,
// without those deleted, in the order posted.
func (p *Platform) Shown() []Sent {
	p.mu.Lock()
	defer p.mu.Unlock()
	gone := map[string]bool{}
	for _, d := range p.Deleted {
		gone[d] = true
	}
	var out []Sent
	for _, s := range p.Posts {
		if gone[s.Channel+"/"+s.ID] {
			continue
		}
		for _, e := range p.Edits {
			if e.ID == s.ID && e.Channel == s.Channel {
				s.Msg = e.Msg
			}
		}
		out = append(out, s)
	}
	return out
}

func (p *Platform) Send(ctx context.Context, channelID string, m commands.Message) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.fail("send", channelID); err != nil {
		return "", err
	}
	id := p.id()
	p.Posts = append(p.Posts, Sent{Channel: channelID, Msg: m, ID: id})
	return id, nil
}

func (p *Platform) Edit(ctx context.Context, channelID, messageID string, m commands.Message) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.fail("edit", channelID); err != nil {
		return err
	}
	p.Edits = append(p.Edits, Edited{channelID, messageID, m})
	return nil
}

func (p *Platform) Delete(ctx context.Context, channelID, messageID string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.fail("delete", channelID); err != nil {
		return err
	}
	p.Deleted = append(p.Deleted, channelID+"/"+messageID)
	return nil
}

func (p *Platform) DeleteDM(ctx context.Context, userID, messageID string) error {
	return p.Delete(ctx, "dm:"+userID, messageID)
}

func (p *Platform) EditDM(ctx context.Context, userID, messageID string, m commands.Message) error {
	return p.Edit(ctx, "dm:"+userID, messageID, m)
}

func (p *Platform) ChannelType(ctx context.Context, channelID string) (ui.ChannelType, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t, ok := p.Types[channelID]; ok {
		return t, nil
	}
	return ui.TextChannel, nil
}

func (p *Platform) StartThread(ctx context.Context, channelID, name string, private bool) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.fail("thread", channelID); err != nil {
		return "", err
	}
	id := p.id()
	p.Threads = append(p.Threads, id)
	if p.names == nil {
		p.names = map[string]string{}
	}
	p.names[id] = channelID + "/" + name
	return id, nil
}

func (p *Platform) StartThreadFrom(ctx context.Context, channelID, messageID, name string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.fail("thread", channelID); err != nil {
		return "", err
	}
	for _, th := range p.Threads {
		if th == messageID {
			return messageID, nil
		}
	}
	p.Threads = append(p.Threads, messageID)
	return messageID, nil
}

// FindThreads finds the threads StartThread made under that name, newest
// first.
func (p *Platform) FindThreads(ctx context.Context, guildID, parentID, name string) ([]string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for i := len(p.Threads) - 1; i >= 0; i-- {
		if p.names[p.Threads[i]] == parentID+"/"+name {
			out = append(out, p.Threads[i])
		}
	}
	return out, nil
}

// Recent lists what was posted in channelID, newest first, with the IDs
// Send returned.
func (p *Platform) Recent(ctx context.Context, channelID string, limit int) ([]commands.Posted, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []commands.Posted
	for i := len(p.Posts) - 1; i >= 0 && len(out) < limit; i-- {
		s := p.Posts[i]
		if s.Channel != channelID {
			continue
		}
		po := commands.Posted{ID: s.ID, Content: s.Msg.Content}
		for _, c := range s.Msg.Cards {
			po.Cards = append(po.Cards, ui.Card{Title: c.Title, Description: c.Description, Footer: c.Footer})
		}
		out = append(out, po)
	}
	return out, nil
}

// RecentDM lists the direct messages sent to userID, newest first.
func (p *Platform) RecentDM(ctx context.Context, userID string, limit int) ([]commands.Posted, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []commands.Posted
	dms := p.DMs[userID]
	for i := len(dms) - 1; i >= 0 && len(out) < limit; i-- {
		po := commands.Posted{ID: fmt.Sprint("dm-", i), Content: dms[i].Content}
		for _, c := range dms[i].Cards {
			po.Cards = append(po.Cards, ui.Card{Title: c.Title, Description: c.Description, Footer: c.Footer})
		}
		out = append(out, po)
	}
	return out, nil
}

func (p *Platform) AddThreadMember(ctx context.Context, threadID, userID string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.fail("member", threadID); err != nil {
		return err
	}
	p.Members[threadID] = append(p.Members[threadID], userID)
	return nil
}

// RenameChannel records channelID's new name.
func (p *Platform) RenameChannel(ctx context.Context, channelID, name string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.fail("rename", channelID); err != nil {
		return err
	}
	p.Renames = append(p.Renames, channelID+": "+name)
	if parent, ok := p.names[channelID]; ok {
		if i := strings.Index(parent, "/"); i >= 0 {
			p.names[channelID] = parent[:i+1] + name
		}
	}
	return nil
}

// ThreadName is the name of the thread id now ("" when unknown).
func (p *Platform) ThreadName(id string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.names[id]
	if i := strings.Index(n, "/"); i >= 0 {
		return n[i+1:]
	}
	return n
}

// ArchiveThread records threadID as archived and locked.
func (p *Platform) ArchiveThread(ctx context.Context, threadID string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.fail("archive", threadID); err != nil {
		return err
	}
	if p.Archived == nil {
		p.Archived = map[string]bool{}
	}
	p.Archived[threadID] = true
	return nil
}

func (p *Platform) RemoveThreadMember(ctx context.Context, threadID, userID string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	ms := p.Members[threadID]
	for i, m := range ms {
		if m == userID {
			p.Members[threadID] = append(ms[:i:i], ms[i+1:]...)
			break
		}
	}
	return nil
}

func (p *Platform) Download(ctx context.Context, url string, maxBytes int64) ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b, ok := p.Files[url]
	if !ok {
		return nil, fmt.Errorf("GET %s: 404 Not Found", url)
	}
	if int64(len(b)) > maxBytes {
		return nil, commands.ErrTooLarge
	}
	return b, nil
}

func (p *Platform) DM(ctx context.Context, userID string, m commands.Message) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.Closed[userID] {
		return "", commands.ErrDMClosed
	}
	if err := p.fail("dm", userID); err != nil {
		return "", err
	}
	p.DMs[userID] = append(p.DMs[userID], m)
	return p.id(), nil
}

// NewApp is an App on an in-memory store and a fake platform, its clock at
// T0, with the games register adds (e.g. survival.Register). Turn reminders
// are off (Settings.RemindAt 0): a test of them turns them on.
func NewApp(t testing.TB, register ...func(*commands.App)) (*commands.App, *Platform, storage.Store) {
	t.Helper()
	p := NewPlatform()
	store := storage.NewMemory()
	a := commands.New(store, p, commands.Settings{BoardSize: 320, MoveTime: 24 * time.Hour, ChallengeTTL: time.Hour, LobbyTTL: 24 * time.Hour},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	a.Now = func() time.Time { return T0 }
	a.AnswerCopies = false  // nobody shows the answers here
	a.DeliverInline = false // effects wait for Deliver, which tests call
	a.SetSelf(Computer.ID)
	t.Cleanup(a.StopComputers)
	t.Cleanup(a.StopAnalyses)
	for _, r := range register {
		r(a)
	}
	return a, p, store
}

// Deliver delivers every effect due at now, replays included (drawn off
// the delivery path: it waits for them), and fails the test on error.
func Deliver(t testing.TB, a *commands.App, now time.Time) int {
	t.Helper()
	n, err := a.Deliver(context.Background(), now)
	require.NoError(t, err)
	for a.WaitReplays() {
		m, err := a.Deliver(context.Background(), now)
		require.NoError(t, err)
		n += m
	}
	return n
}

var seq int
var seqMu sync.Mutex

func nextID() string {
	seqMu.Lock()
	defer seqMu.Unlock()
	seq++
	return fmt.Sprint("i", seq)
}

// Cmd is the slash command /command sub by u in channel "th1" at T0, with
// string options.
func Cmd(u commands.User, command, sub string, opts map[string]string) *commands.Request {
	r := &commands.Request{Type: commands.CommandRequest, InteractionID: nextID(), GuildID: "g", ChannelID: "th1",
		User: u, Command: command, Sub: sub, Options: map[string]commands.Option{}, Now: T0}
	for k, v := range opts {
		r.Options[k] = commands.Option{String: v}
	}
	return r
}

// Click is a click by u on the component customID of message messageID.
func Click(u commands.User, customID, messageID string) *commands.Request {
	return &commands.Request{Type: commands.ComponentRequest, InteractionID: nextID(), GuildID: "g", ChannelID: "general",
		User: u, CustomID: customID, MessageID: messageID, Now: T0}
}

// UserMsg is the text of err, which must be a *commands.UserError.
func UserMsg(t testing.TB, err error) string {
	t.Helper()
	require.Error(t, err)
	ue, ok := err.(*commands.UserError)
	require.True(t, ok, "want a message for the user, got %T: %v", err, err)
	return ue.Msg
}

// Game reads the stored game id.
func Game(t testing.TB, s storage.Store, id string) *storage.Game {
	t.Helper()
	var g *storage.Game
	require.NoError(t, s.View(t.Context(), func(tx storage.Tx) error {
		var err error
		g, err = tx.Games().Get(id)
		return err
	}))
	return g
}

// ButtonOf returns the route (custom ID) of m's button labelled label, and
// fails the test when m has none.
func ButtonOf(t testing.TB, m commands.Message, label string) string {
	t.Helper()
	for _, row := range m.Rows {
		for _, c := range row {
			if b, ok := c.(ui.Button); ok && b.Label == label {
				return b.Route
			}
		}
	}
	t.Fatalf("no %q button in %+v", label, m)
	return ""
}

// Confirm handles req, an action that asks its user first (Turn.Ask), and
// clicks the prompt's Confirm button as that user at req.Now: it returns
// the confirmed action's answer. An error refusing req itself is returned
// as it is (nothing was asked); any other answer than a prompt fails the
// test.
func Confirm(t testing.TB, a *commands.App, req *commands.Request) (*commands.Response, error) {
	t.Helper()
	resp, err := a.Handle(req)
	if err != nil {
		return nil, err
	}
	require.True(t, resp.Ephemeral, "a confirmation prompt is private: %+v", resp.Message)
	click := Click(req.User, ButtonOf(t, resp.Message, "Confirm"), "")
	click.ChannelID, click.Now = req.ChannelID, req.Now
	return a.Handle(click)
}

// GIFs are the animated GIF files posted so far (replays), oldest first,
// with the posts carrying them.
func (p *Platform) GIFs() (files []*ui.File, posts []Sent) {
	all, _ := p.Snapshot()
	for _, s := range all {
		for _, f := range s.Msg.Files {
			if f.ContentType == "image/gif" {
				files, posts = append(files, f), append(posts, s)
			}
		}
	}
	return files, posts
}

// GIFFrames decodes data as a GIF and returns what a viewer sees at each
// of its frames: each frame drawn over the one before (a frame may hold
// only the part that changed).
func GIFFrames(t testing.TB, data []byte) []*image.RGBA {
	t.Helper()
	g, err := gif.DecodeAll(bytes.NewReader(data))
	require.NoError(t, err, "a valid GIF")
	canvas := image.NewRGBA(image.Rect(0, 0, g.Config.Width, g.Config.Height))
	var out []*image.RGBA
	for _, fr := range g.Image {
		draw.Draw(canvas, fr.Bounds(), fr, fr.Bounds().Min, draw.Over)
		c := image.NewRGBA(canvas.Bounds())
		copy(c.Pix, canvas.Pix)
		out = append(out, c)
	}
	return out
}
