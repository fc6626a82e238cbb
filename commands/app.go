package commands

import (
	"crypto/rand"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"sandtable/render"
	"sandtable/storage"
)

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
	// DeliveryTimeout bounds one delivery of an effect (0:
	// DefaultDeliveryTimeout).
	DeliveryTimeout time.Duration
	// ComputerWorkers is how many computer moves are computed at once
	// (0: DefaultComputerWorkers); ComputerBudget caps the search time of
	// one (0: DefaultComputerBudget). See computer.go.
	ComputerWorkers int
	ComputerBudget  time.Duration
	// AnalysisMoveTime is the search time of each position of a finished
	// game's analysis (0: DefaultAnalysisMoveTime); AnalysisDepth, when
	// positive, also caps each search's depth. See analysis.go.
	AnalysisMoveTime time.Duration
	AnalysisDepth    int
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
	// OnDone, when set, is called each time this process records an
	// effect done (performed, or dropped as refused) with how long it
	// waited since it was due (queued, or its retry's time): the bot's
	// delivery delay histogram.
	OnDone func(waited time.Duration)
	// Process names this process among all those sharing the store: the
	// owner of its outbox claims (see enqueue). New sets a name unique to
	// this run (host, process ID and a random part); a restarted process
	// is another owner, so it reconciles what it finds.
	Process string
	// Workers is how many outbox streams (games) Deliver delivers at once
	// (0: DefaultWorkers).
	Workers int

	leases leases // the lease claims are bound to (SetLease)

	settings settingsCache // the servers' settings (guild.go)

	locks keyedLocks // game or invitation ID -> its lock
	kinds map[string]*kindTable

	kicks    chan struct{} // see Kicks
	streams  streamSet     // the outbox streams being delivered, or parked
	replays  replayDrawer  // replays drawn off the delivery path
	analyses analysisPool  // finished games' analyses (analysis.go)
	shownMu  sync.Mutex
	shown    map[string]bool // answer copies confirmed shown (AnswerSent)
	tried    map[string]bool // effects this process attempted, their outcome not recorded yet (see fresh)
	// done and doneOrder are the effects this process recorded done, the
	// last recentlyDone of them (wasDone).
	done      map[string]bool
	doneOrder []string
	// threads are games' threads as read (game ID -> thread ID, never
	// ""): a game's thread, once stored, stays (threadOf).
	threadsMu sync.Mutex
	threads   map[string]string
	// channels are the games channels led to (channel ID -> game ID), a
	// guess that gameInChannelLocked checks.
	channels map[string]channelGuess
	// lobbiesRead is what Lobby last read of each lobby (see lobbyCheck).
	lobbiesRead map[string]lobbyRead

	draftsMu sync.Mutex
	drafts   map[string]draft // refused forms' fields (drafts.go)

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
