package commands

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"sandtable/commands/ui"
	"sandtable/render"
	"sandtable/storage"
)

// Platform is what the framework does on Discord besides answering an
// interaction; every call carries the context of the interaction or the
// delivery that makes it (its cancellation abandons the request). The bot package implements it with discordgo; every method
// returns Discord's refusal as a *PlatformError except DM, which wraps a
// closed DM channel (Discord error 50007) in ErrDMClosed, and StartThread,
// which wraps a channel that cannot hold threads (50024) in ErrNoThreads.
type Platform interface {
	// Send posts a message in a channel or thread and returns its ID.
	Send(ctx context.Context, channelID string, m Message) (string, error)
	// Edit replaces a message's content, embeds, files and components.
	Edit(ctx context.Context, channelID, messageID string, m Message) error
	// StartThread creates a thread under channelID: public (anyone in the
	// channel can see it) or private (members only). It returns its ID.
	StartThread(ctx context.Context, channelID, name string, private bool) (string, error)
	// ChannelType is the type of the channel, thread or DM channelID (an
	// interaction does not say it).
	ChannelType(ctx context.Context, channelID string) (ui.ChannelType, error)
	// AddThreadMember and RemoveThreadMember change a thread's membership.
	AddThreadMember(ctx context.Context, threadID, userID string) error
	RemoveThreadMember(ctx context.Context, threadID, userID string) error
	// ArchiveThread archives and locks the thread threadID: it leaves the
	// active list and only moderators (and the bot, which locked it) can
	// reopen it. Archiving an archived thread again is no error.
	ArchiveThread(ctx context.Context, threadID string) error
	// DM sends a direct message to a user and returns its ID.
	DM(ctx context.Context, userID string, m Message) (string, error)
	// EditDM replaces the direct message messageID (an ID DM returned)
	// the bot sent to userID with m, as Edit does, and its attachments
	// too: an edited direct message keeps no file that m does not carry
	// (a panel or an order turned into a short text drops its image).
	EditDM(ctx context.Context, userID, messageID string, m Message) error
	// StartThreadFrom starts the public thread of the message messageID in
	// channelID, named name, and returns its ID, which is the message's ID.
	// Starting it again (Discord's 160004, "a thread has already been
	// created for this message") is no error: it returns the same ID, so a
	// retried start never makes a second thread.
	StartThreadFrom(ctx context.Context, channelID, messageID, name string) (string, error)
	// FindThreads lists the IDs of the active threads named name under
	// the channel parentID of guild guildID, newest first: how a retried
	// thread start finds the thread an earlier attempt made.
	FindThreads(ctx context.Context, guildID, parentID, name string) ([]string, error)
	// Recent lists the bot's own messages among the latest limit messages
	// of channelID (newest first), as far as reconciliation needs them.
	Recent(ctx context.Context, channelID string, limit int) ([]Posted, error)
	// RecentDM is Recent for the direct messages with userID.
	RecentDM(ctx context.Context, userID string, limit int) ([]Posted, error)
	// Download fetches a file a user attached to a command (an attachment
	// option's URL) and returns its bytes. A file larger than maxBytes is
	// an error (ErrTooLarge), and so is any answer but 200 OK.
	Download(ctx context.Context, url string, maxBytes int64) ([]byte, error)
}

// Posted is a message the bot posted, as Platform.Recent reads it back:
// enough to recognise a message an earlier delivery attempt already posted.
type Posted struct {
	ID      string
	Content string
	// Cards are the titles, descriptions and footers of its embeds.
	Cards []ui.Card
}

// ErrTooLarge means a downloaded file is larger than the caller allows.
var ErrTooLarge = errors.New("the file is too large")

// ErrDMClosed means the user does not accept direct messages from the bot.
var ErrDMClosed = errors.New("the user's direct messages are closed")

// ErrNoThreads means a thread cannot be created in the channel, whatever
// the permissions: it is a thread itself, or a kind of channel that holds
// no threads.
var ErrNoThreads = errors.New("this channel cannot hold threads")

// Settings are the per-deployment knobs handlers need.
type Settings struct {
	BoardSize    int           // 8x8 image edge in pixels
	MoveTime     time.Duration // default per-move time limit
	ChallengeTTL time.Duration // how long a challenge stays open
	LobbyTTL     time.Duration // how long a lobby stays open after its last change
	// RemindAt is the share of a clock's period (a move's, a turn's, a
	// deployment's time) after which whoever must act is reminded, once,
	// in the game's thread (remind.go); 0 sends no reminders.
	RemindAt float64
	// DevGuildID, when set, is the only guild the commands are registered in.
	DevGuildID string
	// ClaimTTL is how long this process's claim on an outbox effect lasts
	// (0: DefaultClaimTTL): after a crash, its effects wait that long before
	// another process delivers them. Deliveries get a third of it.
	ClaimTTL time.Duration
	// ComputerWorkers is how many computer moves are computed at once
	// (0: DefaultComputerWorkers); ComputerBudget caps the search time of
	// one (0: DefaultComputerBudget). See computer.go.
	ComputerWorkers int
	ComputerBudget  time.Duration
}

// App holds what every handler needs. Create it with New.
type App struct {
	Store    storage.Store
	Platform Platform
	Settings Settings
	Log      *slog.Logger
	// Render draws board images; it is safe for concurrent use.
	Render *render.Renderer
	// Now is the clock; tests replace it.
	Now func() time.Time
	// AnswerCopies, on by default, saves a copy of every public answer to
	// a saved change with it (see AnswerSent): an adapter that shows
	// answers confirms them. Unit tests that answer nobody turn it off.
	AnswerCopies bool
	// DeliverInline, on by default, makes an action deliver its own effects
	// right after its commit, before its answer (see deliverNow); off, only
	// Deliver does (unit tests of the outbox turn it off).
	DeliverInline bool
	// OnRetry, when set, is called each time a failed effect is put back
	// in the outbox for another attempt (the bot counts retries).
	OnRetry func()
	// Process names this process among all those sharing the store: the
	// owner of its outbox claims (see enqueue). New sets a name unique to
	// this run (host, process ID and a random part); a restarted process
	// is another owner, so it reconciles what it finds.
	Process string

	locks keyedLocks // game or invitation ID -> its lock
	kinds map[string]*kindTable

	kicks     chan struct{} // see Kicks
	deliverMu sync.Mutex    // one Deliver at a time
	shownMu   sync.Mutex
	shown     map[string]bool // answer copies confirmed shown (AnswerSent)
	tried     map[string]bool // effects this process attempted, their outcome not recorded yet (see fresh)
	// lobbiesRead is what Lobby last read of each lobby (see lobbyCheck).
	lobbiesRead map[string]lobbyRead

	selfMu    sync.Mutex
	self      string       // the bot's own user ID (SetSelf)
	computers computerPool // the workers computing computer moves
}

// New builds an App with the standard game kinds registered.
func New(store storage.Store, p Platform, s Settings, log *slog.Logger) *App {
	if log == nil {
		log = slog.Default()
	}
	a := &App{Store: store, Platform: p, Settings: s, Log: log, Render: render.New(), Now: time.Now, AnswerCopies: true, DeliverInline: true, kinds: map[string]*kindTable{},
		kicks: make(chan struct{}, 1), Process: processName()}
	return a
}

// lock serializes every change of one game (or challenge): two simultaneous
// clicks on the same game run one after the other, and the second sees the
// first's result. It returns the unlock function.
func (a *App) lock(id string) func() { return a.locks.lock(id) }

// keyedLocks is a mutex per key, kept only while someone holds or waits
// for it: the map does not grow with every game ever played.
type keyedLocks struct {
	mu sync.Mutex
	m  map[string]*keyedLock
}

type keyedLock struct {
	sync.Mutex
	users int // holders and waiters
}

func (k *keyedLocks) lock(id string) func() {
	k.mu.Lock()
	if k.m == nil {
		k.m = map[string]*keyedLock{}
	}
	l := k.m[id]
	if l == nil {
		l = &keyedLock{}
		k.m[id] = l
	}
	l.users++
	k.mu.Unlock()
	l.Lock()
	return func() {
		l.Unlock()
		k.mu.Lock()
		if l.users--; l.users == 0 {
			delete(k.m, id)
		}
		k.mu.Unlock()
	}
}

// held counts the keys currently locked or waited for.
func (k *keyedLocks) held() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.m)
}

// processName is a name for this run of this process: host, process ID
// and a random part (process IDs are reused across restarts and
// containers).
func processName() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "host"
	}
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), newID()[:4])
}

// newID returns a random 10-character lower-case base32 identifier.
func newID() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on Linux
	}
	for i := range b {
		b[i] = alphabet[b[i]&31]
	}
	return string(b[:])
}

// CustomID is a component's custom ID: "<scope>:<id>:<action>[:<arg>]".
// Scope is "c" for challenges and lobbies, "g" for games, "a" for the
// game archive's pages (its ID is a user's).
type CustomID struct {
	Scope, ID, Action, Arg string
}

// String encodes the custom ID.
func (c CustomID) String() string {
	s := c.Scope + ":" + c.ID + ":" + c.Action
	if c.Arg != "" {
		s += ":" + c.Arg
	}
	return s
}

// ParseCustomID validates and decodes a custom ID.
func ParseCustomID(s string) (CustomID, error) {
	bad := fmt.Errorf("this button is not one of mine (custom ID %q)", s)
	if len(s) > 100 {
		return CustomID{}, bad
	}
	parts := strings.SplitN(s, ":", 4)
	if len(parts) < 3 {
		return CustomID{}, bad
	}
	c := CustomID{Scope: parts[0], ID: parts[1], Action: parts[2]}
	if len(parts) == 4 {
		c.Arg = parts[3]
	}
	if c.Scope != "c" && c.Scope != "g" && c.Scope != "a" {
		return CustomID{}, bad
	}
	if !isID(c.ID) || c.Action == "" {
		return CustomID{}, bad
	}
	for _, r := range c.Action {
		if (r < 'a' || r > 'z') && r != '-' {
			return CustomID{}, bad
		}
	}
	return c, nil
}

func isID(s string) bool {
	if len(s) < 4 || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// PlatformError is a request Discord refused, as the Platform reports it
// (the bot package wraps discordgo's REST errors in it): the HTTP status,
// and Discord's JSON error code and message when it sent one. Err is the
// original error, whose text Error returns.
type PlatformError struct {
	HTTPStatus int    // 403, 404, 500...
	Status     string // the status line, "403 Forbidden"
	Code       int    // Discord's error code (50001: missing access), 0 when none
	Message    string // Discord's error message, "" when none
	Err        error
}

func (e *PlatformError) Error() string { return e.Err.Error() }

// Unwrap returns the original error.
func (e *PlatformError) Unwrap() error { return e.Err }
