package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// tx implements Tx over any kv backend.
type txImpl struct {
	kv     kv
	offset *time.Duration // the clock offset, read once per transaction
	// undo restores what the repositories changed in the caller's values
	// (Games.Put's fields of its game) when the transaction does not
	// commit, so a re-run of the function starts from the same values.
	undo []func()
	// adds are the outbox effects this transaction added (Outbox.Add).
	adds map[string]bool
}

// added notes that the transaction added the effect id.
func (t *txImpl) added(id string) {
	if t.adds == nil {
		t.adds = map[string]bool{}
	}
	t.adds[id] = true
}

// isAdded reports whether the transaction added the effect id and wrote
// no claim of it since.
func (t *txImpl) isAdded(id string) bool { return t.adds[id] }

// rollback runs the undo functions, latest first.
func (t *txImpl) rollback() {
	for i := len(t.undo) - 1; i >= 0; i-- {
		t.undo[i]()
	}
	t.undo = nil
}

func newTx(k kv) *txImpl { return &txImpl{kv: k} }

func (t *txImpl) Games() Games            { return games{t} }
func (t *txImpl) Challenges() Invitations { return invitations{t, bChallenges} }
func (t *txImpl) Lobbies() Invitations    { return invitations{t, bLobbies} }
func (t *txImpl) Records() Records        { return records{t.kv} }
func (t *txImpl) Ratings() Ratings        { return ratings{t.kv} }
func (t *txImpl) Notify() Notify          { return notify{t.kv} }
func (t *txImpl) Logs() Logs              { return logs{t.kv} }
func (t *txImpl) Dedupe() Dedupe          { return dedupe{t.kv} }
func (t *txImpl) Outbox() Outbox          { return outbox{t} }
func (t *txImpl) Meta() Meta              { return meta{t} }
func (t *txImpl) Playground() Blobs       { return blobs{t.kv, bPlayground} }
func (t *txImpl) Analyses() Analyses      { return analyses{t.kv} }

func (t *txImpl) ReadAhead(hints ...Hint) error {
	t.Prefetch(hints...)
	for _, h := range hints {
		for _, r := range h.reads {
			if r.to == "" && !r.toEnd {
				t.kv.get(r.b, r.key)
				continue
			}
			to := r.to
			if r.toEnd {
				to = ""
			}
			n := 0
			if err := t.kv.scan(r.b, r.key, to, func(string, []byte) error {
				if n++; r.limit > 0 && n >= r.limit {
					return errStop
				}
				return nil
			}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (t *txImpl) Prefetch(hints ...Hint) {
	var reads []prefetchRead
	for _, h := range hints {
		reads = append(reads, h.reads...)
	}
	prefetch(t.kv, reads...)
}

// clockOffset is Meta.ClockOffset, cached for the transaction.
func (t *txImpl) clockOffset() (time.Duration, error) {
	if t.offset == nil {
		d := time.Duration(0)
		if raw := t.kv.get(bMeta, "clock_offset"); raw != nil {
			n, err := strconv.ParseInt(string(raw), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("storage: bad clock offset %q", raw)
			}
			d = time.Duration(n)
		}
		t.offset = &d
	}
	return *t.offset, nil
}

// toBot converts a wall time into the bot's clock (zero stays zero).
func (t *txImpl) toBot(w time.Time) (time.Time, error) {
	if w.IsZero() {
		return w, nil
	}
	off, err := t.clockOffset()
	return w.Add(-off).UTC(), err
}

// toWall converts a time of the bot's clock into wall time.
func (t *txImpl) toWall(b time.Time) (time.Time, error) {
	if b.IsZero() {
		return b, nil
	}
	off, err := t.clockOffset()
	return b.Add(off).UTC(), err
}

func putJSON(k kv, b, key string, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return k.put(b, key, raw)
}

func getJSON(k kv, b, key, what string, v any) error {
	raw := k.get(b, key)
	if raw == nil {
		return fmt.Errorf("%s %s: %w", what, key, ErrNotFound)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%s %s: corrupt record: %w", what, key, err)
	}
	return nil
}

const timeLayout = "2006-01-02T15:04:05.000000000Z"

// timeKey is a sortable key for t (UTC, fixed width).
func timeKey(t time.Time) string { return t.UTC().Format(timeLayout) }

// invertedKey sorts later times first: the nanoseconds before the end of
// the int64 range, fixed width.
func invertedKey(t time.Time) string {
	return fmt.Sprintf("%019d", uint64(math.MaxInt64-t.UnixNano()))
}

// games implements Games.
type games struct{ t *txImpl }

func (r games) get(id string) (*Game, error) {
	var g Game
	if err := getJSON(r.t.kv, bGames, id, "game", &g); err != nil {
		return nil, err
	}
	return &g, nil
}

func (r games) Get(id string) (*Game, error) {
	g, err := r.get(id)
	if err != nil {
		return nil, err
	}
	if g.Deadline, err = r.t.toWall(g.Deadline); err != nil {
		return nil, err
	}
	if g.Remind, err = r.t.toWall(g.Remind); err != nil {
		return nil, err
	}
	if g.ComputerMove, err = r.t.toWall(g.ComputerMove); err != nil {
		return nil, err
	}
	return g, nil
}

func (r games) ByChannel(channelID string) (*Game, error) {
	g, guessing := r.t.kv.(guesser)
	if guessing {
		if id, ok := g.guess(bChannels, channelID); ok {
			prefetch(r.t.kv, prefetchRead{b: bChannels, key: channelID}, prefetchRead{b: bGames, key: id})
		}
	}
	id := r.t.kv.get(bChannels, channelID)
	if id == nil {
		return nil, fmt.Errorf("channel %s: %w", channelID, ErrNotFound)
	}
	if guessing {
		g.learn(bChannels, channelID, string(id))
	}
	return r.Get(string(id))
}

func (r games) LinkChannel(channelID, gameID string) error {
	if channelID == "" || gameID == "" {
		return errors.New("storage: a channel link needs a channel and a game")
	}
	return r.t.kv.put(bChannels, channelID, []byte(gameID))
}

func (r games) Put(g *Game, now time.Time) error {
	if g.ID == "" || g.Kind == "" {
		return errors.New("storage: game needs an ID and a kind")
	}
	k := r.t.kv
	old, err := r.get(g.ID)
	if errors.Is(err, ErrNotFound) {
		old = nil
	} else if err != nil {
		return err
	}
	stored := old
	if old == nil {
		stored = &Game{}
	}
	if stored.Version != g.Version {
		return fmt.Errorf("game %s: %w (version %d, writing over %d)", g.ID, ErrConflict, stored.Version, g.Version)
	}
	rec := *g
	prev := *g
	r.t.undo = append(r.t.undo, func() {
		g.Version, g.Updated, g.Created, g.Ended, g.Deadline = prev.Version, prev.Updated, prev.Created, prev.Ended, prev.Deadline
		g.Remind, g.ComputerMove = prev.Remind, prev.ComputerMove
	})
	rec.Version++
	rec.Updated = now.UTC()
	if rec.Created.IsZero() {
		rec.Created = now.UTC()
	}
	if !rec.Active && rec.Ended.IsZero() {
		rec.Ended = now.UTC()
	}
	if rec.Deadline, err = r.t.toBot(g.Deadline); err != nil {
		return err
	}
	if rec.Remind, err = r.t.toBot(g.Remind); err != nil {
		return err
	}
	if rec.ComputerMove, err = r.t.toBot(g.ComputerMove); err != nil {
		return err
	}
	if old != nil {
		if old.ThreadID != "" && old.ThreadID != rec.ThreadID {
			if err := k.del(bChannels, old.ThreadID); err != nil {
				return err
			}
		}
		for _, u := range old.Players {
			if err := k.del(bUserActive, u+"/"+old.ID); err != nil {
				return err
			}
			if !old.Ended.IsZero() {
				if err := k.del(bUserFinished, u+"/"+invertedKey(old.Ended)+"/"+old.ID); err != nil {
					return err
				}
			}
		}
		for _, at := range []time.Time{old.Deadline, old.Remind, old.ComputerMove} {
			if !at.IsZero() {
				if err := k.del(bTimers, timeKey(at)+"/"+old.ID); err != nil {
					return err
				}
			}
		}
	}
	if rec.ThreadID != "" {
		if err := k.put(bChannels, rec.ThreadID, []byte(rec.ID)); err != nil {
			return err
		}
	}
	for _, u := range rec.Players {
		var err error
		if rec.Active {
			err = k.put(bUserActive, u+"/"+rec.ID, nil)
		} else {
			err = k.put(bUserFinished, u+"/"+invertedKey(rec.Ended)+"/"+rec.ID, nil)
		}
		if err != nil {
			return err
		}
	}
	if !rec.Active {
		rec.Deadline, rec.Remind, rec.ComputerMove = time.Time{}, time.Time{}, time.Time{}
	}
	for _, at := range []time.Time{rec.Deadline, rec.Remind, rec.ComputerMove} {
		if !at.IsZero() {
			if err := k.put(bTimers, timeKey(at)+"/"+rec.ID, nil); err != nil {
				return err
			}
		}
	}
	if err := putJSON(k, bGames, rec.ID, &rec); err != nil {
		return err
	}
	g.Version, g.Updated, g.Created, g.Ended = rec.Version, rec.Updated, rec.Created, rec.Ended
	if !rec.Active {
		g.Deadline, g.Remind, g.ComputerMove = time.Time{}, time.Time{}, time.Time{}
	}
	return nil
}

func (r games) Active(userID string) ([]*Game, error) {
	var ids []string
	p := userID + "/"
	if err := scanPrefix(r.t.kv, bUserActive, p, func(k string, _ []byte) error {
		ids = append(ids, k[len(p):])
		return nil
	}); err != nil {
		return nil, err
	}
	out, err := r.getAll(ids)
	sort.Slice(out, func(i, j int) bool { return out[i].Created.After(out[j].Created) })
	return out, err
}

// getAll reads the games ids, in that order.
func (r games) getAll(ids []string) ([]*Game, error) {
	out := make([]*Game, 0, len(ids))
	for _, id := range ids {
		g, err := r.Get(id)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

func (r games) Finished(userID string, before time.Time, limit int) ([]*Game, error) {
	p := userID + "/"
	from := p
	if !before.IsZero() {
		from = p + invertedKey(before) + "\xff"
	}
	var ids []string
	err := r.t.kv.scan(bUserFinished, from, prefixEnd(p), func(k string, _ []byte) error {
		if limit > 0 && len(ids) >= limit {
			return errStop
		}
		ids = append(ids, k[strings.LastIndexByte(k, '/')+1:])
		return nil
	})
	if err != nil {
		return nil, err
	}
	return r.getAll(ids)
}

func (r games) Due(now time.Time) ([]string, error) {
	b, err := r.t.toBot(now)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{} // a game's deadline, reminder and computer move may all be due
	err = r.t.kv.scan(bTimers, "", timeKey(b)+"/\xff", func(k string, _ []byte) error {
		if id := k[strings.LastIndexByte(k, '/')+1:]; !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
		return nil
	})
	return out, err
}

func (r games) NextDeadline() (time.Time, error) {
	var first string
	if err := r.t.kv.scan(bTimers, "", "", func(k string, _ []byte) error {
		first = k
		return errStop
	}); err != nil {
		return time.Time{}, err
	}
	if first == "" {
		return time.Time{}, nil
	}
	ts, err := time.Parse(timeLayout, first[:strings.LastIndexByte(first, '/')])
	if err != nil {
		return time.Time{}, fmt.Errorf("storage: bad timer key %q", first)
	}
	return r.t.toWall(ts)
}

// envelope is how an invitation is stored: its expiry (bot's clock) beside
// the caller's document.
type envelope struct {
	Expires time.Time       `json:"expires"`
	Doc     json.RawMessage `json:"doc"`
}

// invitations implements Invitations for one bucket.
type invitations struct {
	t *txImpl
	b string
}

func (r invitations) env(id string) (*envelope, error) {
	var e envelope
	if err := getJSON(r.t.kv, r.b, id, strings.TrimSuffix(r.b, "s"), &e); err != nil {
		return nil, err
	}
	return &e, nil
}

func (r invitations) Get(id string, v any) (time.Time, error) {
	e, err := r.env(id)
	if err != nil {
		return time.Time{}, err
	}
	if err := json.Unmarshal(e.Doc, v); err != nil {
		return time.Time{}, fmt.Errorf("%s %s: corrupt record: %w", r.b, id, err)
	}
	return r.t.toWall(e.Expires)
}

func (r invitations) expiryKey(exp time.Time, id string) string {
	return timeKey(exp) + "/" + r.b + "/" + id
}

func (r invitations) Put(id string, expires time.Time, v any) error {
	if id == "" || strings.ContainsRune(id, '/') {
		return fmt.Errorf("storage: bad invitation ID %q", id)
	}
	if err := r.Delete(id); err != nil {
		return err
	}
	doc, err := json.Marshal(v)
	if err != nil {
		return err
	}
	exp, err := r.t.toBot(expires)
	if err != nil {
		return err
	}
	if !exp.IsZero() {
		if err := r.t.kv.put(bExpiry, r.expiryKey(exp, id), nil); err != nil {
			return err
		}
	}
	return putJSON(r.t.kv, r.b, id, envelope{Expires: exp, Doc: doc})
}

func (r invitations) Delete(id string) error {
	e, err := r.env(id)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if !e.Expires.IsZero() {
		if err := r.t.kv.del(bExpiry, r.expiryKey(e.Expires, id)); err != nil {
			return err
		}
	}
	return r.t.kv.del(r.b, id)
}

func (r invitations) Expired(now time.Time) ([]string, error) {
	b, err := r.t.toBot(now)
	if err != nil {
		return nil, err
	}
	var out []string
	mid := "/" + r.b + "/"
	err = r.t.kv.scan(bExpiry, "", timeKey(b)+"/\xff", func(k string, _ []byte) error {
		if i := strings.Index(k, mid); i >= 0 {
			out = append(out, k[i+len(mid):])
		}
		return nil
	})
	return out, err
}

func (r invitations) NextExpiry() (time.Time, error) {
	var at time.Time
	mid := "/" + r.b + "/"
	err := r.t.kv.scan(bExpiry, "", "", func(k string, _ []byte) error {
		ts, _, _ := strings.Cut(k, "/")
		if !strings.Contains(k, mid) {
			return nil // the other repository's
		}
		var err error
		if at, err = time.Parse(timeLayout, ts); err != nil {
			return fmt.Errorf("bad expiry key %q", k)
		}
		return errStop
	})
	if err != nil || at.IsZero() {
		return time.Time{}, err
	}
	return r.t.toWall(at)
}

func (r invitations) Each(fn func(id string, raw []byte) error) error {
	return r.t.kv.scan(r.b, "", "", func(k string, v []byte) error {
		var e envelope
		if err := json.Unmarshal(v, &e); err != nil {
			return fmt.Errorf("%s %s: corrupt record: %w", r.b, k, err)
		}
		return fn(k, e.Doc)
	})
}

// records implements Records.
type records struct{ kv kv }

func recordKey(kind, guildID, userID string) (string, error) {
	for _, s := range []string{kind, guildID, userID} {
		if s == "" || strings.ContainsRune(s, '/') {
			return "", fmt.Errorf("storage: bad record key %q/%q/%q", kind, guildID, userID)
		}
	}
	return kind + "/" + guildID + "/" + userID, nil
}

func (r records) Get(kind, guildID, userID string, v any) error {
	k, err := recordKey(kind, guildID, userID)
	if err != nil {
		return err
	}
	return getJSON(r.kv, bRecords, k, "record", v)
}

func (r records) Put(kind, guildID, userID string, v any) error {
	k, err := recordKey(kind, guildID, userID)
	if err != nil {
		return err
	}
	return putJSON(r.kv, bRecords, k, v)
}

func (r records) Each(kind, guildID string, fn func(userID string, raw []byte) error) error {
	p := kind + "/" + guildID + "/"
	return scanPrefix(r.kv, bRecords, p, func(k string, v []byte) error { return fn(k[len(p):], v) })
}

// notify implements Notify.
type notify struct{ kv kv }

func notifyKey(guildID, userID string) (string, error) {
	if userID == "" || strings.ContainsRune(userID, '/') || strings.ContainsRune(guildID, '/') {
		return "", fmt.Errorf("storage: bad notification key %q/%q", userID, guildID)
	}
	return userID + "/" + guildID, nil
}

func (n notify) Get(guildID, userID string) (string, error) {
	k, err := notifyKey(guildID, userID)
	if err != nil {
		return "", err
	}
	v := n.kv.get(bNotify, k)
	if v == nil {
		return "", ErrNotFound
	}
	return string(v), nil
}

func (n notify) Put(guildID, userID, where string) error {
	k, err := notifyKey(guildID, userID)
	if err != nil {
		return err
	}
	switch where {
	case NotifyThread, NotifyDM, NotifyOff:
	default:
		return fmt.Errorf("storage: bad notification choice %q", where)
	}
	return n.kv.put(bNotify, k, []byte(where))
}

func (n notify) Delete(guildID, userID string) error {
	k, err := notifyKey(guildID, userID)
	if err != nil {
		return err
	}
	return n.kv.del(bNotify, k)
}

func (n notify) Each(userID string, fn func(guildID, where string) error) error {
	if _, err := notifyKey("", userID); err != nil {
		return err
	}
	p := userID + "/"
	return scanPrefix(n.kv, bNotify, p, func(k string, v []byte) error { return fn(k[len(p):], string(v)) })
}

// logs implements Logs.
type logs struct{ kv kv }

func logKey(gameID string, seq int) string { return fmt.Sprintf("%s/%09d", gameID, seq) }

func (r logs) Put(gameID string, seq int, v any) error {
	if gameID == "" || strings.ContainsRune(gameID, '/') || seq < 1 || seq > 999999999 {
		return fmt.Errorf("storage: bad log key %q #%d", gameID, seq)
	}
	return putJSON(r.kv, bLogs, logKey(gameID, seq), v)
}

func (r logs) Each(gameID string, fn func(seq int, raw []byte) error) error {
	p := gameID + "/"
	return scanPrefix(r.kv, bLogs, p, func(k string, v []byte) error {
		n, err := strconv.Atoi(k[len(p):])
		if err != nil {
			return fmt.Errorf("storage: bad log key %q", k)
		}
		return fn(n, v)
	})
}

// dedupe implements Dedupe.
type dedupe struct{ kv kv }

func (r dedupe) Mark(id string, now time.Time) (bool, error) {
	if r.kv.get(bInteractions, id) != nil {
		return true, nil
	}
	return false, r.kv.put(bInteractions, id, []byte(strconv.FormatInt(now.Unix(), 10)))
}

func (r dedupe) Prune(cutoff time.Time, limit int) (int, error) {
	if limit < 1 {
		return 0, fmt.Errorf("storage: prune limit %d, want 1 or more", limit)
	}
	var old []string
	if err := r.kv.scan(bInteractions, "", "", func(k string, v []byte) error {
		if ts, err := strconv.ParseInt(string(v), 10, 64); err != nil || ts < cutoff.Unix() {
			if len(old) == limit {
				return errStop
			}
			old = append(old, k)
		}
		return nil
	}); err != nil {
		return 0, err
	}
	for _, k := range old {
		if err := r.kv.del(bInteractions, k); err != nil {
			return 0, err
		}
	}
	return len(old), nil
}

// meta implements Meta.
type meta struct{ t *txImpl }

func (r meta) Heartbeat() (time.Time, error) {
	raw := r.t.kv.get(bMeta, "heartbeat")
	if raw == nil {
		return time.Time{}, nil
	}
	return time.Parse(time.RFC3339Nano, string(raw))
}

func (r meta) SetHeartbeat(t time.Time) error {
	return r.t.kv.put(bMeta, "heartbeat", []byte(t.UTC().Format(time.RFC3339Nano)))
}

func (r meta) ClockOffset() (time.Duration, error) { return r.t.clockOffset() }

func (r meta) SetClockOffset(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("storage: negative clock offset %s", d)
	}
	if err := r.t.kv.put(bMeta, "clock_offset", []byte(strconv.FormatInt(int64(d), 10))); err != nil {
		return err
	}
	r.t.offset = &d
	return nil
}

// blobs implements Blobs for one bucket.
type blobs struct {
	kv kv
	b  string
}

func (r blobs) Get(key string) ([]byte, error) {
	v := r.kv.get(r.b, key)
	if v == nil {
		return nil, fmt.Errorf("%s %s: %w", r.b, key, ErrNotFound)
	}
	return append([]byte(nil), v...), nil
}

func (r blobs) Put(key string, data []byte) error {
	if data == nil {
		data = []byte{}
	}
	return r.kv.put(r.b, key, data)
}

func (r blobs) Delete(key string) error { return r.kv.del(r.b, key) }

func (r blobs) Each(prefix string, fn func(key string, data []byte) error) error {
	return scanPrefix(r.kv, r.b, prefix, fn)
}

// analyses implements Analyses.
type analyses struct{ kv kv }

func analysisKey(gameID string) error {
	if gameID == "" || strings.ContainsRune(gameID, '/') {
		return fmt.Errorf("storage: bad analysis key %q", gameID)
	}
	return nil
}

func (r analyses) Get(gameID string) (json.RawMessage, error) {
	if err := analysisKey(gameID); err != nil {
		return nil, err
	}
	v := r.kv.get(bAnalyses, gameID)
	if v == nil {
		return nil, fmt.Errorf("analysis %s: %w", gameID, ErrNotFound)
	}
	return append(json.RawMessage(nil), v...), nil
}

func (r analyses) Put(gameID string, v any) error {
	if err := analysisKey(gameID); err != nil {
		return err
	}
	return putJSON(r.kv, bAnalyses, gameID, v)
}

func (r analyses) claimOf(gameID string) (claimRecord, error) {
	var c claimRecord
	v := r.kv.get(bAnalysisClaims, gameID)
	if v == nil {
		return c, nil
	}
	if err := json.Unmarshal(v, &c); err != nil {
		return c, fmt.Errorf("analysis %s: corrupt claim: %w", gameID, err)
	}
	return c, nil
}

func (r analyses) Claim(gameID, owner string, lease int64) (string, error) {
	if err := analysisKey(gameID); err != nil {
		return "", err
	}
	if owner == "" {
		return "", fmt.Errorf("analysis %s: a claim needs an owner", gameID)
	}
	c, err := r.claimOf(gameID)
	if err != nil {
		return "", err
	}
	switch {
	case c.Owner != "" && c.Owner != owner:
		return c.Owner, nil
	case c.Owner == owner && c.Lease == lease:
		return "", nil // held already
	}
	raw, err := json.Marshal(claimRecord{Owner: owner, Lease: lease})
	if err != nil {
		return "", err
	}
	return "", r.kv.putBound(bAnalysisClaims, gameID, raw, lease)
}

func (r analyses) Release(gameID, owner string) error {
	if err := analysisKey(gameID); err != nil {
		return err
	}
	c, err := r.claimOf(gameID)
	if err != nil || c.Owner != owner {
		return err
	}
	return r.kv.del(bAnalysisClaims, gameID)
}
