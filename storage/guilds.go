package storage

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Guilds is what a server's admins keep (schema 11): the server's
// settings (one JSON document per guild, defined by the caller), the
// audit log of their actions, and the members' recent attempts counted by
// a per-minute limit, kept here so every process sharing the store counts
// the same ones.
type Guilds interface {
	// Settings reads guildID's settings into v; ErrNotFound when none were
	// ever saved.
	Settings(guildID string, v any) error
	// PutSettings saves guildID's settings. On etcd a put is reported to
	// every process by its Watch (SettingsChanged).
	PutSettings(guildID string, v any) error
	// AddLog adds v to guildID's audit log at time at. The log keeps the
	// latest KeptLog entries; older ones are forgotten as new ones come.
	AddLog(guildID string, at time.Time, v any) error
	// Log calls fn with guildID's latest log entries, newest first, at
	// most limit.
	Log(guildID string, limit int, fn func(at time.Time, raw []byte) error) error
	// Attempt counts an attempt of userID in guildID at now against a
	// limit of limit attempts in any window: when limit attempts were
	// already counted in (now-window, now], it counts nothing and returns
	// false and when the next attempt will be allowed; otherwise it counts
	// this one and returns true.
	Attempt(guildID, userID string, now time.Time, window time.Duration, limit int) (ok bool, retryAt time.Time, err error)
}

// KeptLog is how many audit log entries a guild keeps.
const KeptLog = 200

func (t *txImpl) Guilds() Guilds { return guilds{t.kv} }

type guilds struct{ kv kv }

func guildKey(guildID string) (string, error) {
	if guildID == "" || strings.ContainsRune(guildID, '/') {
		return "", fmt.Errorf("storage: bad guild ID %q", guildID)
	}
	return guildID, nil
}

func (r guilds) Settings(guildID string, v any) error {
	k, err := guildKey(guildID)
	if err != nil {
		return err
	}
	return getJSON(r.kv, bGuildSettings, k, "guild settings", v)
}

func (r guilds) PutSettings(guildID string, v any) error {
	k, err := guildKey(guildID)
	if err != nil {
		return err
	}
	return putJSON(r.kv, bGuildSettings, k, v)
}

func (r guilds) AddLog(guildID string, at time.Time, v any) error {
	g, err := guildKey(guildID)
	if err != nil {
		return err
	}
	p := g + "/"
	// Two entries of one nanosecond: the later one a nanosecond later.
	for r.kv.get(bAdminLog, p+invertedKey(at)) != nil {
		at = at.Add(time.Nanosecond)
	}
	if err := putJSON(r.kv, bAdminLog, p+invertedKey(at), v); err != nil {
		return err
	}
	// Forget what falls off the end: a few keys a call, so the log stays
	// about KeptLog long without an unbounded delete.
	var old []string
	n := 0
	if err := scanPrefix(r.kv, bAdminLog, p, func(k string, _ []byte) error {
		if n++; n > KeptLog {
			old = append(old, k)
			if len(old) == 4 {
				return errStop
			}
		}
		return nil
	}); err != nil {
		return err
	}
	for _, k := range old {
		if err := r.kv.del(bAdminLog, k); err != nil {
			return err
		}
	}
	return nil
}

func (r guilds) Log(guildID string, limit int, fn func(at time.Time, raw []byte) error) error {
	g, err := guildKey(guildID)
	if err != nil {
		return err
	}
	p := g + "/"
	n := 0
	return scanPrefix(r.kv, bAdminLog, p, func(k string, v []byte) error {
		if n >= limit {
			return errStop
		}
		n++
		var inv uint64
		if _, err := fmt.Sscanf(k[len(p):], "%d", &inv); err != nil {
			return fmt.Errorf("admin log key %q: %w", k, err)
		}
		return fn(time.Unix(0, int64(uint64(1<<63-1)-inv)).UTC(), v)
	})
}

func (r guilds) Attempt(guildID, userID string, now time.Time, window time.Duration, limit int) (bool, time.Time, error) {
	g, err := guildKey(guildID)
	if err != nil {
		return false, time.Time{}, err
	}
	if userID == "" || strings.ContainsRune(userID, '/') || limit < 1 {
		return false, time.Time{}, fmt.Errorf("storage: bad attempt %q/%q limit %d", guildID, userID, limit)
	}
	k := g + "/" + userID
	var times []time.Time
	if raw := r.kv.get(bAttempts, k); raw != nil {
		if err := json.Unmarshal(raw, &times); err != nil {
			return false, time.Time{}, fmt.Errorf("attempts %s: corrupt record: %w", k, err)
		}
	}
	kept := times[:0]
	for _, t := range times {
		if t.After(now.Add(-window)) && !t.After(now) {
			kept = append(kept, t)
		}
	}
	if len(kept) >= limit {
		return false, kept[len(kept)-limit].Add(window), nil
	}
	kept = append(kept, now)
	return true, time.Time{}, putJSON(r.kv, bAttempts, k, kept)
}
