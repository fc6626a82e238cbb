// Package storage keeps every game, challenge, lobby, record and log of the
// bot behind one interface, Store: transactions over repositories. Three
// implementations share one schema and one contract test suite: Bolt (a
// bbolt file, what one bot process runs on), Etcd (an etcd cluster, shared
// by several bot processes) and Memory (maps, for unit tests).
//
// The schema is this package's alone: no caller names a bucket, a key
// layout or an index. Repositories keep their indexes in line with the
// records in the same transaction (see Games.Put), so an index never
// disagrees with what it indexes.
//
// Invariants:
//   - Update runs its function in one read-write transaction: everything it
//     wrote is saved, or (when it returns an error) nothing is. Its function
//     may run more than once (see Store.Update).
//   - View is read-only: a write in it fails with ErrReadOnly.
//   - Records are JSON with explicit field names; a database written by an
//     earlier schema is migrated when it is opened (migrate.go), never
//     rewritten at run time.
//
// # The etcd backend
//
// Etcd implements the same kv layer (kv.go) as Bolt, so the repositories
// and the schema are shared: a bucket's key is the etcd key
// "<prefix><bucket>/<key>" (prefix "sandtable/" by default, so one
// cluster can hold other data or several bots). Why this shape:
//
//   - Optimistic transactions rather than locks (etcd's concurrency
//     mutexes with leases): the bot's transactions are short and mostly
//     touch one game, so conflicts are rare, and a lock would cost a lease
//     and extra round trips on every move and could be held by a process
//     that died. Update reads at one snapshot revision R (the first read
//     fixes it, later reads use WithRev(R), scans included, a page at a
//     time), buffers its writes (reads and scans see them, merged in key
//     order) and records what it read. It commits with one etcd Txn: if
//     every key read still has the mod revision it had at R (an absent key:
//     create revision 0) and no key of a scanned range has a mod revision
//     above R, then the puts and deletes. When the comparison fails,
//     something read changed: the function runs again on a fresh snapshot,
//     at most MaxAttempts times with jittered backoff, then ErrConflict. A
//     transaction that wrote nothing commits nothing. View reads at one
//     revision and compares nothing.
//   - Round trips: the reads of a transaction go out in batches, each one
//     etcd Txn of ranges at the snapshot revision: every batch also fetches
//     the clock offset while unread, the repositories read a record with
//     what it leads to (a stream's head with its body and claim), and
//     Tx.Prefetch lets a caller name what it is about to read, sent with
//     the next read that needs a request. A Carry makes the transactions
//     of one request a sequence: an Update starts from the snapshot the
//     transaction before it ended with (a View's, or a commit's: what it
//     read, compared at its commit, and what it wrote, at the commit's
//     revision) and asks the cluster only for what it lacks; its commit
//     compares everything it read as any commit does (a key of a carried
//     scanned range too, so a deletion since is noticed), and a run on a
//     carried snapshot that decides without writing is run again on a
//     fresh one. Views always read the cluster (linearizable).
//   - Isolation: serializable, except that a key deleted inside a scanned
//     range after R goes unnoticed (etcd compares only the keys a range
//     holds now; there is no comparison of a range's count). This is
//     harmless for this schema's callers. Two scans are made inside an
//     Update: Dedupe.Prune's (deleting an interaction mark another process
//     just deleted changes nothing) and the challenge rule's
//     Challenges().Each (one open challenge per pair of players: a
//     challenge added meanwhile is detected, which is what the rule needs;
//     one deleted meanwhile could only make it refuse a challenge that a
//     re-run would allow, once). The other scans (Games.Active, Due,
//     NextDeadline, Finished, Invitations.Expired and Each, Records.Each,
//     Logs.Each, the outbox's Heads, Len and NextDue, Playground's Each) are
//     made in Views, and each record they lead to is read again by key in
//     the Update that changes it, where its deletion is detected.
//   - Limits: etcd refuses a transaction of more than 128 operations (and
//     as many comparisons) or a request over 1.5 MiB by default. Update
//     counts and sizes its transaction before sending it and refuses it
//     with ErrTooLarge, naming the limit, writing nothing. Nothing in the
//     schema rewrites an unbounded set of keys in one transaction: a game's
//     log entries are their own keys, Dedupe.Prune forgets a bounded batch.
//   - The outbox numbers its effects per stream (bucket outbox_seq, schema
//     5): with one global counter every transaction queueing an effect
//     would conflict with every other.
//   - Transient failures (no leader, a member gone, a request timeout, a
//     compacted snapshot) are retried like conflicts, for at most RetryFor:
//     the function runs again on a fresh snapshot. A commit whose answer
//     was lost may have landed: Update first reads the keys it put, and
//     when each holds its value at one revision after the snapshot, the
//     commit landed and Update returns success without running the
//     function again. Only when that cannot be told (a transaction of
//     deletes only, or a key overwritten meanwhile) does the function run
//     again over its own writes (then the framework's interaction mark
//     tells it the change is applied).
package storage

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"
)

var (
	// ErrNotFound is returned when a record does not exist.
	ErrNotFound = errors.New("not found")
	// ErrLocked is returned by Open when another process holds the database.
	ErrLocked = errors.New("database is in use by another process")
	// ErrReadOnly is returned by a write inside View.
	ErrReadOnly = errors.New("storage: write in a read-only transaction")
	// ErrConflict is returned by Games.Put when the stored game changed
	// since the caller read it (its Version moved on).
	ErrConflict = errors.New("storage: the record changed meanwhile")
	// ErrUnavailable is returned when the store could not be reached for
	// longer than it retries (an etcd cluster without a majority): whether
	// the last attempt's change was saved is unknown.
	ErrUnavailable = errors.New("storage: the store is unavailable")
)

// Store is the bot's persistence. It is safe for concurrent use.
type Store interface {
	// Update runs fn in one read-write transaction; if fn returns an error,
	// nothing it wrote is saved and Update returns that error.
	//
	// fn may run more than once: the etcd backend runs it again, on a
	// fresh snapshot, when something it read changed before it could
	// commit. So fn must have no effect outside tx except idempotent ones:
	// it may compute and capture values (those of its last run are the
	// committed ones) but must not send a message, count, or append to a
	// caller's list. What a repository sets in the caller's values
	// (Games.Put's Version and times) is restored when a run does not
	// commit, so a re-run starts from the same values.
	Update(ctx context.Context, fn func(Tx) error) error
	// View runs fn in a read-only transaction.
	View(ctx context.Context, fn func(Tx) error) error
	// Close releases the store.
	Close() error
}

// Tx is one transaction: the repositories, all reading and writing the
// same snapshot. A Tx must not be used after its function returns.
type Tx interface {
	Games() Games
	Challenges() Invitations
	Lobbies() Invitations
	Records() Records
	// Ratings are the players' Glicko-2 ratings and records per game
	// kind and guild (schema 6).
	Ratings() Ratings
	// Notify holds the players' notification choices per guild (schema 8).
	Notify() Notify
	// Analyses are finished games' analyses (schema 9).
	Analyses() Analyses
	Logs() Logs
	Dedupe() Dedupe
	Outbox() Outbox
	Meta() Meta
	// Guilds are the servers' settings, their admins' audit log and the
	// per-minute limits' attempts (schema 11).
	Guilds() Guilds
	// Playground holds the local playground's own state (its Discord
	// stand-in), apart from the bot's.
	Playground() Blobs
	// Prefetch says what the transaction is about to read, so that a store
	// whose reads are round trips (etcd) reads it all in one request. A
	// hint only: what is read, and what the transaction depends on, is
	// what the repositories then read, as without it.
	Prefetch(hints ...Hint)
	// ReadAhead reads what the hints name now, as part of the transaction
	// (its commit depends on it, like any read), so that the next
	// transaction of a sequence (Carry), which will read it, need not ask
	// for it again.
	ReadAhead(hints ...Hint) error
}

// Carry hands what one transaction ends with to the next transaction of a
// sequence run with the same context (WithCarry), such as an action's
// read of its game, its commit and the deliveries of its effects: on etcd
// a transaction that starts from it reads at the revision its predecessor
// ended with and asks the cluster only for what that one did not read or
// write. Its commit still compares everything it read, so an Update is as
// serializable as without it; what an Update decides without writing (its
// own error, or nothing to write) is decided again on a fresh snapshot. A
// View never starts from it (a View reads the store as it is now) but
// leaves its snapshot to the next. Other stores ignore it. Safe for
// concurrent use: a transaction takes what it finds, and concurrent ones
// find nothing.
type Carry struct {
	mu sync.Mutex
	x  any
}

// NewCarry starts a sequence (see Carry).
func NewCarry() *Carry { return &Carry{} }

type carryKey struct{}

// WithCarry makes the transactions run with ctx a sequence through c.
func WithCarry(ctx context.Context, c *Carry) context.Context {
	return context.WithValue(ctx, carryKey{}, c)
}

func carryOf(ctx context.Context) *Carry {
	c, _ := ctx.Value(carryKey{}).(*Carry)
	return c
}

func (c *Carry) take() any {
	c.mu.Lock()
	defer c.mu.Unlock()
	x := c.x
	c.x = nil
	return x
}

func (c *Carry) put(x *carried) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if x == nil {
		c.x = nil
		return
	}
	c.x = x
}

// Hint is a read a transaction is about to make (Tx.Prefetch).
type Hint struct{ reads []prefetchRead }

// HintGame: Games().Get or Put of the game id.
func HintGame(id string) Hint { return Hint{[]prefetchRead{{b: bGames, key: id}}} }

// HintChannel: Games().ByChannel of the channel (its index only).
func HintChannel(channelID string) Hint { return Hint{[]prefetchRead{{b: bChannels, key: channelID}}} }

// HintInteraction: Dedupe().Mark of the interaction id.
func HintInteraction(id string) Hint { return Hint{[]prefetchRead{{b: bInteractions, key: id}}} }

// HintAdd: Outbox().Add to stream.
func HintAdd(stream string) Hint { return Hint{outbox{}.addReads(stream)} }

// HintDone: Outbox().Done of the effect id.
func HintDone(id string) Hint {
	stream, _, _ := strings.Cut(id, "/")
	return Hint{[]prefetchRead{outbox{}.headRead(stream, 2)}}
}

// HintStreamHead: Outbox().StreamHead of stream.
func HintStreamHead(stream string) Hint {
	o := outbox{}
	return Hint{[]prefetchRead{o.headRead(stream, 1), o.headRead(stream, 1, bOutboxBodies), o.headRead(stream, 1, bOutboxClaims)}}
}

// HintNextHead: Outbox().StreamHead of stream after its head is done in
// the same transaction (the head and the one after it, with their bodies
// and claims).
func HintNextHead(stream string) Hint {
	o := outbox{}
	return Hint{[]prefetchRead{o.headRead(stream, 2), o.headRead(stream, 2, bOutboxBodies), o.headRead(stream, 2, bOutboxClaims)}}
}

// HintNotify: Notify().Each of a user (their choices in every server).
func HintNotify(userID string) Hint {
	if _, err := notifyKey("", userID); err != nil {
		return Hint{} // the read itself says what is wrong
	}
	p := userID + "/"
	return Hint{[]prefetchRead{{b: bNotify, key: p, to: prefixEnd(p)}}}
}

// HintRating: Ratings().Get of a player.
func HintRating(kind, guildID, userID string) Hint {
	k, err := recordKey(kind, guildID, userID)
	if err != nil {
		return Hint{} // the read itself says what is wrong
	}
	return Hint{[]prefetchRead{{b: bRatings, key: k}}}
}

// Game is one stored game of any kind. State is the game's own JSON (its
// kind defines it).
type Game struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"` // "survival", "sandtable", "teamchess", ...
	GuildID   string `json:"guild_id"`
	ChannelID string `json:"channel_id"` // the channel the game was started in
	ThreadID  string `json:"thread_id"`  // the public game thread (indexed)
	// Players are the user IDs taking part (indexed: Games.Active and
	// Games.Finished list a user's games).
	Players []string `json:"players"`
	Active  bool     `json:"active"` // false once finished
	// Deadline is when the running clock runs out (wall time); zero: no
	// clock. The store keeps it in the bot's clock (see Meta.ClockOffset),
	// so crediting downtime moves every deadline without rewriting a game.
	Deadline time.Time `json:"deadline"`
	// Remind is when the reminder of the running clock is due (wall time),
	// a framework timer like Deadline: kept in the bot's clock, indexed
	// with the deadlines (Due, NextDeadline), cleared when the game ends.
	// Zero: no reminder pending (sent, turned off, or no clock).
	Remind  time.Time       `json:"remind,omitzero"`
	Version int64           `json:"version"` // incremented by every Games.Put
	Created time.Time       `json:"created"`
	Updated time.Time       `json:"updated"`
	Ended   time.Time       `json:"ended,omitempty"` // set by Games.Put when Active turns false
	State   json.RawMessage `json:"state"`
	// StateVersion is the version of the kind's codec that wrote State (0:
	// written before states carried a version).
	StateVersion int `json:"state_version,omitempty"`
	// Outcome is how the game ended, set when it ends (nil: on, or ended
	// before outcomes were stored: the kind's state then says it).
	Outcome *Outcome `json:"outcome,omitempty"`
	// FinalMessage is the message in ThreadID that shows the game's end (its
	// final board), once the framework learns its ID: the thread's closing
	// summary links to it. "" while on, and when it is not known.
	FinalMessage string `json:"final_message,omitempty"`
	// Boards are the game's live boards, one per channel that has one
	// (see commands.Turn.Board): the message showing the board now, and
	// what it becomes once a newer board replaces it. Written when a board
	// is posted.
	Boards []LiveBoard `json:"boards,omitempty"`
	// Pings are the game's "your move" messages still shown: posted in a
	// channel (Channel as the game names it) or sent by direct message to
	// User. Each turn's pings delete those before them (see commands'
	// turn pings). Written when a ping is delivered.
	Pings []Ping `json:"pings,omitempty"`
	// Unrated marks a game that changes no rating: a casual challenge, or a
	// game with a computer seat. An aborted game is unrated whatever this
	// says.
	Unrated bool `json:"unrated,omitempty"`
	// Computers are the seats the bot's computer player plays (nil: none,
	// and every game stored before computer players existed).
	Computers []ComputerSeat `json:"computers,omitempty"`
	// ComputerMove is when a computer seat must act (wall time): a
	// framework timer like Deadline and Remind, kept in the bot's clock,
	// indexed with them (Due, NextDeadline), set in the transaction of the
	// change that makes a computer seat one of those who must act, cleared
	// by the one that leaves none. Zero: no computer move pending.
	ComputerMove time.Time `json:"computer_move,omitzero"`
}

// ComputerSeat is one seat a computer player plays in a game: the user ID
// the game knows the seat by, and the engine's level name.
type ComputerSeat struct {
	User  string `json:"user"`
	Level string `json:"level"`
}

// Computer returns the seat of the computer playing as userID, if any.
func (g *Game) Computer(userID string) (ComputerSeat, bool) {
	for _, c := range g.Computers {
		if c.User == userID {
			return c, true
		}
	}
	return ComputerSeat{}, false
}

// LiveBoard is the message that shows a game's board now in one channel,
// and its compact form (a JSON ui.Message, opaque here) that the message
// is edited into, once, when the next board of that channel is posted.
type LiveBoard struct {
	Channel string          `json:"channel"`
	Message string          `json:"message"`
	Compact json.RawMessage `json:"compact,omitempty"`
}

// Ping is one "your move" message of a game: Message in Channel, or the
// direct message Message to User when User is set.
type Ping struct {
	Channel string `json:"channel,omitempty"`
	User    string `json:"user,omitempty"`
	Message string `json:"message"`
}

// Outcome is how a game ended, typed: who won, who lost, and how.
type Outcome struct {
	// Winners and Losers are user IDs; both empty for a draw or an aborted
	// game; both set when everybody loses (Losers only).
	Winners []string `json:"winners,omitempty"`
	Losers  []string `json:"losers,omitempty"`
	// Side is the winning side as the kind names it ("white", "black",
	// "team1"), "" when none won.
	Side   string `json:"side,omitempty"`
	Method Method `json:"method"`
	// Claimed marks a draw claimed by a player (repetition, fifty moves)
	// rather than reached on the board.
	Claimed bool `json:"claimed,omitempty"`
}

// Method is how a game ended, a stable lower-case name.
type Method string

// The methods every kind draws from.
const (
	Checkmate            Method = "checkmate"
	Stalemate            Method = "stalemate"
	Elimination          Method = "elimination" // a side has nothing left (Survival, SandTable)
	InsufficientMaterial Method = "insufficient_material"
	DeadPosition         Method = "dead_position"
	Repetition           Method = "repetition" // threefold, claimed
	FivefoldRepetition   Method = "fivefold_repetition"
	FiftyMoves           Method = "fifty_moves" // claimed
	SeventyFiveMoves     Method = "seventy_five_moves"
	Resignation          Method = "resignation"
	Agreement            Method = "agreement"
	Time                 Method = "time"
	Siege                Method = "siege"
	Fatigue              Method = "fatigue"
	MutualLoss           Method = "mutual_loss"
	DeploymentTimeout    Method = "deployment_timeout"
	BaseCaptured         Method = "base_captured"
	VehicleControl       Method = "vehicle_control" // every Tank or every Airplane controlled (SandTable)
	Simultaneous         Method = "simultaneous"    // a draw: one action met both sides' victory conditions (SandTable)
	Deadlock             Method = "deadlock"        // a draw: turns in a row in which nobody could act (SandTable)
	Aborted              Method = "aborted"
	// Adjudicated: a server manager declared the result (/admin game
	// adjudicate).
	Adjudicated Method = "adjudicated"
)

// Games is the repository of games and their indexes: thread and further
// channels → game, active and finished games per player, running clocks.
type Games interface {
	// Get reads one game, or ErrNotFound.
	Get(id string) (*Game, error)
	// ByChannel finds the game owning a thread or channel (its ThreadID or a
	// channel linked with LinkChannel), or ErrNotFound.
	ByChannel(channelID string) (*Game, error)
	// LinkChannel makes ByChannel(channelID) find the game gameID (for
	// example a Team Chess team's private thread).
	LinkChannel(channelID, gameID string) error
	// Put writes g and brings every index in line with it. g.Version must be
	// the stored version (zero for a new game), else ErrConflict; Put then
	// increments it, sets Updated (and Created, for a new game) to now, and
	// Ended to now when the game stops being active.
	Put(g *Game, now time.Time) error
	// Active lists the active games of a user, newest first.
	Active(userID string) ([]*Game, error)
	// Finished lists at most limit finished games of a user that ended
	// before before (zero: any), newest first: a page of their history.
	Finished(userID string, before time.Time, limit int) ([]*Game, error)
	// Due lists the IDs of active games whose deadline, reminder
	// (Game.Remind) or pending computer move (Game.ComputerMove) is at or
	// before now, each once, oldest timer first.
	Due(now time.Time) ([]string, error)
	// NextDeadline is the earliest running deadline, pending reminder or
	// computer move, or the zero time.
	NextDeadline() (time.Time, error)
}

// Invitations is the repository of open invitations, challenges or lobbies:
// the framework's JSON record under an ID, indexed by expiry.
type Invitations interface {
	// Get decodes the invitation id into v and returns its expiry (zero:
	// never), or returns ErrNotFound.
	Get(id string, v any) (expires time.Time, err error)
	// Put writes v as the invitation id, expiring at expires (zero: never).
	Put(id string, expires time.Time, v any) error
	// Delete removes the invitation (no error if absent).
	Delete(id string) error
	// Expired lists the IDs of invitations whose expiry is at or before now.
	Expired(now time.Time) ([]string, error)
	// NextExpiry is the earliest expiry of an invitation, or the zero time
	// when none expires.
	NextExpiry() (time.Time, error)
	// Each calls fn with every invitation's ID and JSON, in ID order; fn must
	// not keep raw.
	Each(fn func(id string, raw []byte) error) error
}

// Records is the repository of players' records: one JSON record per game
// kind, guild and user.
type Records interface {
	// Get decodes the record into v, or returns ErrNotFound.
	Get(kind, guildID, userID string, v any) error
	// Put writes v as the record.
	Put(kind, guildID, userID string, v any) error
	// Each calls fn with every record of a kind in a guild, by user ID.
	Each(kind, guildID string, fn func(userID string, raw []byte) error) error
}

// PlayerRating is one player's rating and record in one game kind and
// guild: the Glicko-2 rating (see internal/glicko2: rating, deviation,
// volatility, last rated game) and the player's rated results.
type PlayerRating struct {
	Rating     float64   `json:"r"`
	Deviation  float64   `json:"rd"`
	Volatility float64   `json:"vol"`
	Last       time.Time `json:"last,omitzero"`
	// Games counts the rated games, Wins, Losses and Draws their results.
	Games  int `json:"games"`
	Wins   int `json:"wins,omitempty"`
	Losses int `json:"losses,omitempty"`
	Draws  int `json:"draws,omitempty"`
	// Streak is the current run of results: n > 0 wins in a row, n < 0
	// losses in a row, 0 after a draw. BestStreak is the longest run of
	// wins.
	Streak     int `json:"streak,omitempty"`
	BestStreak int `json:"best_streak,omitempty"`
	// LastGame is the ID of the last game rated (so a game is never rated
	// twice: the framework checks it besides the game's own end).
	LastGame string `json:"last_game,omitempty"`
}

// Ratings is the repository of players' ratings: one PlayerRating per
// game kind, guild and user. One guild's ratings are never listed with
// another's.
type Ratings interface {
	// Get reads a player's rating, or ErrNotFound (never rated).
	Get(kind, guildID, userID string) (*PlayerRating, error)
	// Put writes a player's rating.
	Put(kind, guildID, userID string, r *PlayerRating) error
	// Each calls fn with every rating of a kind in a guild, by user ID.
	Each(kind, guildID string, fn func(userID string, r *PlayerRating) error) error
	// Standings is the ranking of a kind in a guild at now (established
	// ratings first, then the provisional ones, each group by rating,
	// deviation and user ID; see ratings.go): the counts, the first top
	// players and userID's place ("": none asked). It reads the ranking
	// index (schema 10): it decodes the top ratings and userID's only.
	Standings(kind, guildID string, now time.Time, top int, userID string) (*Standings, error)
}

// Analyses is the repository of finished games' analyses: one JSON
// document per game (its kind's, opaque here), written once computed. It
// is a cache: an analysis missing (never asked for, or lost with a process
// that stopped while computing it) is computed again.
type Analyses interface {
	// Get returns the analysis of the game gameID, or ErrNotFound.
	Get(gameID string) (json.RawMessage, error)
	// Put writes v (JSON) as the analysis of the game gameID, replacing
	// any.
	Put(gameID string, v any) error
	// Claim records that owner (a process) computes the analysis of the
	// game gameID while its lease lives (lease.go: the store deletes the
	// claim when the lease ends) and returns "", unless another owner's
	// claim lives: then it writes nothing and returns that owner. Only a
	// store shared by processes needs claims; lease 0 binds nothing.
	Claim(gameID, owner string, lease int64) (other string, err error)
	// Release ends owner's claim on the game's analysis (no error when it
	// holds none).
	Release(gameID, owner string) error
}

// Logs is the repository of games' archived log entries (for example a
// SandTable game's finished turns), in sequence order per game.
type Logs interface {
	// Put writes v as entry seq (1 or more) of game gameID.
	Put(gameID string, seq int, v any) error
	// Each calls fn with every entry of the game, in sequence order.
	Each(gameID string, fn func(seq int, raw []byte) error) error
}

// Dedupe remembers which interactions were applied, so none is applied
// twice.
type Dedupe interface {
	// Mark records that the interaction id is applied at now and reports
	// whether it had been before (then the caller must not apply it again).
	// Call it in the transaction of the change it guards.
	Mark(id string, now time.Time) (seen bool, err error)
	// Prune forgets at most limit interactions applied before cutoff and
	// returns how many it forgot: call it again (in a new transaction)
	// while it returns limit, so no transaction grows without bound.
	Prune(cutoff time.Time, limit int) (n int, err error)
}

// Outbox is the repository of effects (posts, edits, direct messages,
// threads...) waiting to be delivered: the framework adds them in the
// transaction of the state change that makes them, a dispatcher delivers
// them and removes each once done. Effects of one stream (a game's or a
// challenge's ID) are delivered in the order they were added: Heads only
// ever offers a stream's first pending effect.
type Outbox interface {
	// Add queues the effect v (JSON) at the end of stream, due at once, and
	// returns its ID, unique in the store for ever (never reused, even
	// after Done). stream must be non-empty and contain no "/".
	Add(stream string, v any) (id string, err error)
	// Heads lists the first pending effect of each stream whose due time is
	// at or before now, at most limit, the earliest due first. It reads the
	// due index (schema 7): its cost grows with the effects due, not with
	// the outbox.
	Heads(now time.Time, limit int) ([]Pending, error)
	// Get reads the pending effect id, or ErrNotFound (done or unknown).
	Get(id string) (*Pending, error)
	// StreamHead reads the first pending effect of stream, whatever its
	// due time and claim, or nil when the stream has none.
	StreamHead(stream string) (*Pending, error)
	// StreamHeads is StreamHead of each stream (nil where a stream has
	// none), read together (on etcd, in one request).
	StreamHeads(streams ...string) ([]*Pending, error)
	// Retry records a failed attempt: attempts is the new count of failed
	// attempts and due (wall time) when to try again. ErrNotFound if done.
	Retry(id string, attempts int, due time.Time) error
	// Done removes the effect id (no error if absent).
	Done(id string) error
	// Len counts the pending effects.
	Len() (int, error)
	// NextDue is the earliest due time of a stream's first pending effect,
	// or the zero time when the outbox is empty.
	NextDue() (time.Time, error)
	// Claim records that owner (a process) delivers the effect id while
	// its lease lives (see outbox_claim.go; lease 0: no lease, on a store
	// one process uses); ErrClaimed when another owner's claim lives,
	// ErrNotFound when the effect is done, and the transaction fails with
	// ErrLeaseLost when the store no longer holds lease. Claiming again
	// under the same lease writes nothing; under another lease it is a
	// new claim (counted).
	Claim(id, owner string, lease int64) error
	// HeadsFor is Heads without the heads another owner than owner has a
	// live claim on: what owner's dispatcher may deliver.
	HeadsFor(owner string, now time.Time, limit int) ([]Pending, error)
	// Release ends every claim of owner (a process stopping without a
	// lease hands its effects over) and returns how many it ended. Owner
	// AnyOwner ends every process's claims: only for a store no other
	// process can be using (a bbolt file, which one process opens), whose
	// claims are all a dead run's.
	Release(owner string) (int, error)
}

// AnyOwner as Outbox.Release's owner means every owner.
const AnyOwner = ""

// Pending is one effect in the outbox.
type Pending struct {
	ID       string
	Stream   string
	Attempts int       // failed attempts so far
	Due      time.Time // wall time (downtime credited like deadlines)
	Effect   json.RawMessage
	// Owner is the process holding a live claim on the effect ("": none)
	// and Lease the lease that claim is bound to (0: none); Claims counts
	// the claims ever taken (a claim taken again under the same lease
	// counts once).
	Owner  string
	Lease  int64
	Claims int
}

// Meta holds the bot's own bookkeeping.
type Meta interface {
	// Heartbeat is the last time the running bot recorded (zero: never).
	Heartbeat() (time.Time, error)
	SetHeartbeat(t time.Time) error
	// ClockOffset is the downtime credited so far. Deadlines and expiries
	// are stored in the bot's clock, wall time minus this offset, and read
	// back in wall time: growing the offset moves every running deadline and
	// expiry later at once, rewriting nothing.
	ClockOffset() (time.Duration, error)
	SetClockOffset(d time.Duration) error
}

// Blobs is a small key → bytes repository.
type Blobs interface {
	// Get returns the bytes under key, or ErrNotFound.
	Get(key string) ([]byte, error)
	Put(key string, data []byte) error
	Delete(key string) error
	// Each calls fn with every key starting with prefix, in key order; fn
	// must not keep data.
	Each(prefix string, fn func(key string, data []byte) error) error
}

// The notification choices: where a player's turn pings go (/notify).
const (
	NotifyThread = "thread" // a message in the game's thread mentions them (the default)
	NotifyDM     = "dm"     // a direct message names the game and links its thread
	NotifyOff    = "off"    // no ping: the live board alone shows whose turn it is
)

// Notify is the repository of notification choices: one per user and
// guild, and one per user for every server (guild ""), which a guild's own
// choice overrides.
type Notify interface {
	// Get reads a user's choice in guildID ("" for every server), or
	// ErrNotFound.
	Get(guildID, userID string) (string, error)
	// Put writes a user's choice in guildID ("" for every server).
	Put(guildID, userID, where string) error
	// Delete forgets a user's choice in guildID (no error when none).
	Delete(guildID, userID string) error
	// Each calls fn with every choice of userID, by guild ("" first).
	Each(userID string, fn func(guildID, where string) error) error
}
