// Package storage keeps every game, challenge, lobby and record of the bot in
// one bbolt file, so a restart loses nothing.
//
// Layout (bucket: key -> value):
//
//	meta:          "schema" -> decimal schema version
//	games:         game ID -> JSON Game (position, full move history, deadline)
//	channel_games: thread/channel ID -> game ID
//	user_games:    user ID "/" game ID -> "" (prefix scan lists a user's games)
//	timers:        deadline (sortable UTC) "/" game ID -> "" (due games, oldest first)
//	interactions:  interaction ID -> unix seconds it was applied (dedupe)
//	docs:          named JSON documents in sub-namespaces (challenges, lobbies, records)
//
// Invariant: the indexes always agree with the games bucket, because every
// change of a game goes through Tx.PutGame inside one bbolt read-modify-write
// transaction: either the whole transition (state, history, deadline and
// indexes) is saved or none of it.
package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

var (
	bucketMeta         = []byte("meta")
	bucketGames        = []byte("games")
	bucketChannelGames = []byte("channel_games")
	bucketUserGames    = []byte("user_games")
	bucketTimers       = []byte("timers")
	bucketInteractions = []byte("interactions")
	bucketDocs         = []byte("docs")
	keySchema          = []byte("schema")
)

// ErrNotFound is returned when a game or document does not exist.
var ErrNotFound = errors.New("not found")

// ErrLocked is returned by Open when another process holds the database.
var ErrLocked = errors.New("database is in use by another process")

// SchemaVersion is the layout version this code writes.
const SchemaVersion = 1

// Migration upgrades a database from version From to From+1 inside one
// transaction.
type Migration struct {
	From  int
	Apply func(tx *bolt.Tx) error
}

// migrations lists the upgrades in order; Open runs those a database needs.
// Version 0 is a new, empty file.
var migrations = []Migration{
	{From: 0, Apply: func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketGames, bucketChannelGames, bucketUserGames, bucketTimers, bucketInteractions, bucketDocs} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	}},
}

// Game is one stored game of any kind. State is the game's own JSON (its
// package defines it), holding the start position and the full move history
// so any position can be replayed.
type Game struct {
	ID        string          `json:"id"`
	Kind      string          `json:"kind"` // "survival", "sandtable" or "teamchess"
	GuildID   string          `json:"guild_id"`
	ChannelID string          `json:"channel_id"` // the channel the game was started in
	ThreadID  string          `json:"thread_id"`  // the public game thread
	Players   []string        `json:"players"`    // user IDs taking part (indexed)
	Active    bool            `json:"active"`     // false once finished
	Deadline  time.Time       `json:"deadline"`   // zero: no timer running
	Version   int64           `json:"version"`    // incremented by every PutGame
	Created   time.Time       `json:"created"`
	Updated   time.Time       `json:"updated"`
	State     json.RawMessage `json:"state"`
}

// Store is an open database. It is safe for concurrent use.
type Store struct {
	db   *bolt.DB
	path string
}

// Open opens (creating if needed) the database at path, waiting at most
// timeout for another process's file lock; then it fails with ErrLocked.
func Open(path string, timeout time.Duration) (*Store, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout})
	if err != nil {
		if errors.Is(err, bolt.ErrTimeout) {
			return nil, fmt.Errorf("open %s: %w (waited %s; stop the other bot or use another storage.path)", path, ErrLocked, timeout)
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	s := &Store{db: db, path: path}
	if err := s.migrate(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return s, nil
}

// Close closes the database file.
func (s *Store) Close() error { return s.db.Close() }

// Path is the database file's path.
func (s *Store) Path() string { return s.path }

func (s *Store) migrate() error {
	return s.db.Update(func(tx *bolt.Tx) error {
		meta, err := tx.CreateBucketIfNotExists(bucketMeta)
		if err != nil {
			return err
		}
		v := 0
		if raw := meta.Get(keySchema); raw != nil {
			if v, err = strconv.Atoi(string(raw)); err != nil {
				return fmt.Errorf("bad schema version %q", raw)
			}
		}
		if v > SchemaVersion {
			return fmt.Errorf("database schema version %d is newer than this program's %d", v, SchemaVersion)
		}
		for _, m := range migrations {
			if m.From < v {
				continue
			}
			if m.From != v {
				return fmt.Errorf("no migration from schema version %d", v)
			}
			if err := m.Apply(tx); err != nil {
				return fmt.Errorf("migrating schema %d to %d: %w", v, v+1, err)
			}
			v++
		}
		return meta.Put(keySchema, []byte(strconv.Itoa(v)))
	})
}

// SchemaVersion reads the stored schema version.
func (s *Store) SchemaVersion() (int, error) {
	var v int
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		v, err = strconv.Atoi(string(tx.Bucket(bucketMeta).Get(keySchema)))
		return err
	})
	return v, err
}

// Update runs fn in one read-write transaction. If fn returns an error,
// nothing fn did is saved.
func (s *Store) Update(fn func(tx *Tx) error) error {
	return s.db.Update(func(btx *bolt.Tx) error { return fn(&Tx{tx: btx}) })
}

// View runs fn in a read-only transaction.
func (s *Store) View(fn func(tx *Tx) error) error {
	return s.db.View(func(btx *bolt.Tx) error { return fn(&Tx{tx: btx}) })
}

// Tx is a transaction. Writes fail in a View.
type Tx struct{ tx *bolt.Tx }

// Game reads one game, or ErrNotFound.
func (t *Tx) Game(id string) (*Game, error) {
	raw := t.tx.Bucket(bucketGames).Get([]byte(id))
	if raw == nil {
		return nil, fmt.Errorf("game %s: %w", id, ErrNotFound)
	}
	var g Game
	if err := json.Unmarshal(raw, &g); err != nil {
		return nil, fmt.Errorf("game %s: corrupt record: %w", id, err)
	}
	return &g, nil
}

// GameByChannel finds the game owning a thread or channel, or ErrNotFound.
func (t *Tx) GameByChannel(channelID string) (*Game, error) {
	id := t.tx.Bucket(bucketChannelGames).Get([]byte(channelID))
	if id == nil {
		return nil, fmt.Errorf("channel %s: %w", channelID, ErrNotFound)
	}
	return t.Game(string(id))
}

// GamesByUser lists the games a user takes part in, newest first.
func (t *Tx) GamesByUser(userID string) ([]*Game, error) {
	prefix := []byte(userID + "/")
	var out []*Game
	c := t.tx.Bucket(bucketUserGames).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		g, err := t.Game(string(k[len(prefix):]))
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.After(out[j].Created) })
	return out, nil
}

// DueGames lists the IDs of games whose deadline is at or before now, oldest
// deadline first.
func (t *Tx) DueGames(now time.Time) []string {
	var out []string
	limit := []byte(timerKey(now, "\xff"))
	c := t.tx.Bucket(bucketTimers).Cursor()
	for k, _ := c.First(); k != nil && bytes.Compare(k, limit) <= 0; k, _ = c.Next() {
		if i := bytes.LastIndexByte(k, '/'); i >= 0 {
			out = append(out, string(k[i+1:]))
		}
	}
	return out
}

// NextDeadline is the earliest running deadline, or the zero time.
func (t *Tx) NextDeadline() time.Time {
	k, _ := t.tx.Bucket(bucketTimers).Cursor().First()
	if k == nil {
		return time.Time{}
	}
	i := bytes.LastIndexByte(k, '/')
	ts, err := time.Parse(timerLayout, string(k[:i]))
	if err != nil {
		return time.Time{}
	}
	return ts
}

// PutGame writes g and brings every index in line with it: the channel index
// (ChannelID is not indexed, only ThreadID), the user index and the timer.
// It increments g.Version and sets g.Updated to now.
func (t *Tx) PutGame(g *Game, now time.Time) error {
	if g.ID == "" || g.Kind == "" {
		return errors.New("storage: game needs an ID and a kind")
	}
	var old *Game
	if prev, err := t.Game(g.ID); err == nil {
		old = prev
	} else if !errors.Is(err, ErrNotFound) {
		return err
	}
	if old != nil && old.Version != g.Version {
		return fmt.Errorf("storage: game %s changed meanwhile (version %d, writing over %d)", g.ID, old.Version, g.Version)
	}
	g.Version++
	g.Updated = now
	if g.Created.IsZero() {
		g.Created = now
	}
	raw, err := json.Marshal(g)
	if err != nil {
		return err
	}
	chans := t.tx.Bucket(bucketChannelGames)
	users := t.tx.Bucket(bucketUserGames)
	timers := t.tx.Bucket(bucketTimers)
	if old != nil {
		if old.ThreadID != "" && old.ThreadID != g.ThreadID {
			if err := chans.Delete([]byte(old.ThreadID)); err != nil {
				return err
			}
		}
		for _, u := range old.Players {
			if err := users.Delete([]byte(u + "/" + old.ID)); err != nil {
				return err
			}
		}
		if !old.Deadline.IsZero() {
			if err := timers.Delete([]byte(timerKey(old.Deadline, old.ID))); err != nil {
				return err
			}
		}
	}
	if g.ThreadID != "" {
		if err := chans.Put([]byte(g.ThreadID), []byte(g.ID)); err != nil {
			return err
		}
	}
	for _, u := range g.Players {
		if err := users.Put([]byte(u+"/"+g.ID), nil); err != nil {
			return err
		}
	}
	if !g.Deadline.IsZero() && g.Active {
		if err := timers.Put([]byte(timerKey(g.Deadline, g.ID)), nil); err != nil {
			return err
		}
	}
	return t.tx.Bucket(bucketGames).Put([]byte(g.ID), raw)
}

// ShiftDeadlines moves the deadline of every game with a running timer
// later by d (the bot's downtime), keeping the timer index in line, and
// returns how many moved.
func (t *Tx) ShiftDeadlines(d time.Duration, now time.Time) (int, error) {
	var ids []string
	c := t.tx.Bucket(bucketTimers).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if i := bytes.LastIndexByte(k, '/'); i >= 0 {
			ids = append(ids, string(k[i+1:]))
		}
	}
	for _, id := range ids {
		g, err := t.Game(id)
		if err != nil {
			return 0, err
		}
		g.Deadline = g.Deadline.Add(d)
		if err := t.PutGame(g, now); err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}

// MarkInteraction records that the interaction id has been applied and
// reports whether it had been applied before (then the caller must not apply
// it again). Call it in the same transaction as the change it guards.
func (t *Tx) MarkInteraction(id string, now time.Time) (seen bool, err error) {
	b := t.tx.Bucket(bucketInteractions)
	if b.Get([]byte(id)) != nil {
		return true, nil
	}
	return false, b.Put([]byte(id), []byte(strconv.FormatInt(now.Unix(), 10)))
}

// PruneInteractions forgets interaction IDs applied before cutoff (Discord
// never redelivers an interaction after its 15-minute token lifetime).
func (t *Tx) PruneInteractions(cutoff time.Time) error {
	c := t.tx.Bucket(bucketInteractions).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if ts, err := strconv.ParseInt(string(v), 10, 64); err != nil || ts < cutoff.Unix() {
			if err := c.Delete(); err != nil {
				return err
			}
		}
	}
	return nil
}

// GetDoc reads the JSON document ns/key into v, or returns ErrNotFound.
func (t *Tx) GetDoc(ns, key string, v any) error {
	raw := t.tx.Bucket(bucketDocs).Get(docKey(ns, key))
	if raw == nil {
		return fmt.Errorf("%s %s: %w", ns, key, ErrNotFound)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%s %s: corrupt record: %w", ns, key, err)
	}
	return nil
}

// PutDoc writes v as the JSON document ns/key.
func (t *Tx) PutDoc(ns, key string, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return t.tx.Bucket(bucketDocs).Put(docKey(ns, key), raw)
}

// DeleteDoc removes the document ns/key (no error if absent).
func (t *Tx) DeleteDoc(ns, key string) error {
	return t.tx.Bucket(bucketDocs).Delete(docKey(ns, key))
}

// Docs calls fn for every document in namespace ns whose key starts with
// prefix, in key order, with the key (without ns) and raw JSON. fn must not
// keep raw after it returns.
func (t *Tx) Docs(ns, prefix string, fn func(key string, raw []byte) error) error {
	p := docKey(ns, prefix)
	nsLen := len(ns) + 1
	c := t.tx.Bucket(bucketDocs).Cursor()
	for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
		if err := fn(string(k[nsLen:]), v); err != nil {
			return err
		}
	}
	return nil
}

func docKey(ns, key string) []byte {
	if strings.ContainsRune(ns, 0) {
		panic("storage: namespace with NUL")
	}
	return []byte(ns + "\x00" + key)
}

const timerLayout = "2006-01-02T15:04:05.000000000Z"

func timerKey(t time.Time, id string) string {
	return t.UTC().Format(timerLayout) + "/" + id
}
