package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ErrMergeConflict is returned by Merge when sources disagree on a record.
var ErrMergeConflict = errors.New("storage: the sources hold conflicting records")

// ErrNotEmpty is returned by Merge when the destination holds bot data.
var ErrNotEmpty = errors.New("storage: the destination is not empty")

// Source is one store Merge reads, named for its report (a file's path, an
// etcd endpoint list).
type Source struct {
	Name  string
	Store Store
}

// Conflict is one key the sources disagree on.
type Conflict struct {
	Bucket, Key string
	// Sources names the sources holding the key, in the order given.
	Sources []string
}

// MergeReport says what Merge copied.
type MergeReport struct {
	// Read counts the keys read from each source, by source name.
	Read map[string]int
	// Written counts the keys written, by bucket.
	Written map[string]int
	// Conflicts lists the keys the sources disagree on (then nothing is
	// written).
	Conflicts []Conflict
	// Heartbeat is the latest of the sources' heartbeats; ClockOffset the
	// largest of their clock offsets, which the destination gets.
	Heartbeat   time.Time
	ClockOffset time.Duration
	// Batches is how many transactions the copy took.
	Batches int
}

// mergeBatchOps and mergeBatchBytes bound one transaction of the copy,
// under etcd's default limits.
const (
	mergeBatchOps   = 100
	mergeBatchBytes = 1 << 20
)

// Merge copies every record of the sources (each opened, so migrated to
// the current schema) into dst, which must hold no bot data (a schema
// version alone). It reads everything first and writes nothing when two
// sources hold one key with different values (the report lists them);
// identical records are copied once. Bookkeeping is merged, not compared:
//
//   - meta: the heartbeat is the latest; the clock offset the largest, and
//     every deadline, expiry and outbox due time of a source with a smaller
//     offset is re-expressed in it (the same wall time); the old global
//     outbox counter the largest.
//   - outbox_seq (per-stream counters): the largest per stream, so IDs
//     stay unique and increasing.
//   - interactions (dedupe marks): the latest time per interaction.
//
// The outbox's due index and the ratings' ranking index are not copied but
// rebuilt over the merged outbox and ratings.
// The copy is made in transactions of at most 100 writes and 1 MiB, then
// verified by counting the destination's keys per bucket. Stop every bot
// using the sources or the destination first: the copy is not atomic (if
// it fails half-way, empty the destination and run it again).
func Merge(ctx context.Context, dst Store, srcs []Source) (*MergeReport, error) {
	rep := &MergeReport{Read: map[string]int{}, Written: map[string]int{}}
	dumps := make([]map[string]map[string][]byte, len(srcs))
	offsets := make([]time.Duration, len(srcs))
	for i, src := range srcs {
		d, err := dump(ctx, src.Store)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", src.Name, err)
		}
		dumps[i] = d
		for _, kvs := range d {
			rep.Read[src.Name] += len(kvs)
		}
		if raw := d[bMeta]["clock_offset"]; raw != nil {
			n, err := strconv.ParseInt(string(raw), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s: bad clock offset %q", src.Name, raw)
			}
			offsets[i] = time.Duration(n)
		}
		rep.ClockOffset = max(rep.ClockOffset, offsets[i])
	}
	// Re-express each source's bot-clock times in the merged offset.
	for i := range dumps {
		if shift := offsets[i] - rep.ClockOffset; shift != 0 {
			if err := shiftClock(dumps[i], shift); err != nil {
				return nil, fmt.Errorf("%s: %w", srcs[i].Name, err)
			}
		}
	}
	merged := map[string]map[string][]byte{}
	owners := map[string][]string{} // bucket "\x00" key → source names
	var globalSeq uint64
	for i, d := range dumps {
		for b, kvs := range d {
			if b == bOutboxDue || b == bRatingRank {
				continue // rebuilt over the merged outbox and ratings
			}
			if b == bOutboxClaims || b == bProcs || b == bAnalysisClaims {
				// The source's processes' claims and leases: nothing of
				// them lives in the destination, whose processes take the
				// effects over (reconciled: the envelopes count the claims).
				continue
			}
			if merged[b] == nil {
				merged[b] = map[string][]byte{}
			}
			for k, v := range kvs {
				id := b + "\x00" + k
				owners[id] = append(owners[id], srcs[i].Name)
				old, seen := merged[b][k]
				switch {
				case b == bMeta:
					switch k {
					case "heartbeat":
						t, err := time.Parse(time.RFC3339Nano, string(v))
						if err != nil {
							return nil, fmt.Errorf("%s: bad heartbeat %q", srcs[i].Name, v)
						}
						if t.After(rep.Heartbeat) {
							rep.Heartbeat = t
						}
					case "outbox_seq":
						n, err := seqValue(v)
						if err != nil {
							return nil, fmt.Errorf("%s: %w", srcs[i].Name, err)
						}
						globalSeq = max(globalSeq, n)
					}
					// schema is the destination's; clock_offset set below.
				case b == bOutboxSeq:
					n, err := seqValue(v)
					if err != nil {
						return nil, fmt.Errorf("%s: %w", srcs[i].Name, err)
					}
					m, _ := seqValue(old)
					merged[b][k] = []byte(strconv.FormatUint(max(n, m), 10))
				case b == bInteractions:
					if !seen || unixValue(v) > unixValue(old) {
						merged[b][k] = v
					}
				case !seen:
					merged[b][k] = v
				case !bytes.Equal(old, v):
					rep.Conflicts = append(rep.Conflicts, Conflict{Bucket: b, Key: k})
				}
			}
		}
	}
	if len(rep.Conflicts) > 0 {
		sort.Slice(rep.Conflicts, func(i, j int) bool {
			a, b := rep.Conflicts[i], rep.Conflicts[j]
			return a.Bucket < b.Bucket || a.Bucket == b.Bucket && a.Key < b.Key
		})
		rep.Conflicts = compactConflicts(rep.Conflicts)
		for i := range rep.Conflicts {
			c := &rep.Conflicts[i]
			c.Sources = owners[c.Bucket+"\x00"+c.Key]
		}
		return rep, fmt.Errorf("%w: %d keys", ErrMergeConflict, len(rep.Conflicts))
	}
	if merged[bMeta] == nil {
		merged[bMeta] = map[string][]byte{}
	}
	meta := merged[bMeta]
	if !rep.Heartbeat.IsZero() {
		meta["heartbeat"] = []byte(rep.Heartbeat.UTC().Format(time.RFC3339Nano))
	}
	if rep.ClockOffset != 0 {
		meta["clock_offset"] = []byte(strconv.FormatInt(int64(rep.ClockOffset), 10))
	}
	if globalSeq > 0 {
		meta["outbox_seq"] = []byte(strconv.FormatUint(globalSeq, 10))
	}

	// The destination must hold nothing but its schema version.
	have, err := dump(ctx, dst)
	if err != nil {
		return rep, fmt.Errorf("reading the destination: %w", err)
	}
	for b, kvs := range have {
		for k := range kvs {
			if b == bMeta && k == "schema" {
				continue
			}
			return rep, fmt.Errorf("%w: it holds %s/%s (and maybe more): migrate only into a new store", ErrNotEmpty, b, k)
		}
	}

	// Copy, bucket by bucket in key order, in bounded transactions.
	type kv struct {
		b, k string
		v    []byte
	}
	var all []kv
	for _, b := range buckets {
		kvs := merged[b]
		keys := make([]string, 0, len(kvs))
		for k := range kvs {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			all = append(all, kv{b, k, kvs[k]})
		}
	}
	for start := 0; start < len(all); {
		end, size := start, 0
		for end < len(all) && end-start < mergeBatchOps && (end == start || size+len(all[end].k)+len(all[end].v) <= mergeBatchBytes) {
			size += len(all[end].b) + len(all[end].k) + len(all[end].v)
			end++
		}
		batch := all[start:end]
		if err := dst.Update(ctx, func(tx Tx) error {
			k := tx.(*txImpl).kv
			for _, e := range batch {
				if err := k.put(e.b, e.k, e.v); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return rep, fmt.Errorf("writing %s/%s and the %d keys after it (%d of %d written before): %w", batch[0].b, batch[0].k, len(batch)-1, start, len(all), err)
		}
		for _, e := range batch {
			rep.Written[e.b]++
		}
		rep.Batches++
		start = end
	}

	// The outbox's due index, over the merged outbox.
	n, batches, err := rebuildDueIndex(ctx, dst)
	if err != nil {
		return rep, fmt.Errorf("indexing the outbox's due times: %w", err)
	}
	rep.Written[bOutboxDue] = n
	rep.Batches += batches

	// The ratings' ranking index, over the merged ratings.
	n, batches, err = rebuildRatingIndex(ctx, dst)
	if err != nil {
		return rep, fmt.Errorf("indexing the ratings' ranking: %w", err)
	}
	rep.Written[bRatingRank] = n
	rep.Batches += batches

	// Verify by counting.
	got, err := dump(ctx, dst)
	if err != nil {
		return rep, fmt.Errorf("verifying the destination: %w", err)
	}
	for _, b := range buckets {
		want := rep.Written[b]
		n := len(got[b])
		if b == bMeta {
			n-- // its schema version
		}
		if n != want {
			return rep, fmt.Errorf("verifying the destination: bucket %s holds %d keys, %d were written", b, n, want)
		}
	}
	return rep, nil
}

// compactConflicts drops repeated entries of a sorted list.
func compactConflicts(cs []Conflict) []Conflict {
	out := cs[:0]
	for i, c := range cs {
		if i == 0 || c.Bucket != cs[i-1].Bucket || c.Key != cs[i-1].Key {
			out = append(out, c)
		}
	}
	return out
}

// unixValue reads an interaction mark's time (0 when unreadable).
func unixValue(v []byte) int64 {
	n, _ := strconv.ParseInt(string(v), 10, 64)
	return n
}

// dump reads every key of every bucket of the current schema, in one View.
func dump(ctx context.Context, s Store) (map[string]map[string][]byte, error) {
	out := map[string]map[string][]byte{}
	err := s.View(ctx, func(tx Tx) error {
		k := tx.(*txImpl).kv
		for _, b := range buckets {
			m := map[string][]byte{}
			if err := k.scan(b, "", "", func(key string, v []byte) error {
				m[key] = append([]byte{}, v...)
				return nil
			}); err != nil {
				return err
			}
			if len(m) > 0 {
				out[b] = m
			}
		}
		return nil
	})
	return out, err
}

// shiftClock moves every time a source stored in its bot's clock by shift
// (its offset less the merged one), so each keeps its wall time: game
// deadlines and reminders and the timer index, invitation expiries and their index,
// outbox due times.
func shiftClock(d map[string]map[string][]byte, shift time.Duration) error {
	move := func(t time.Time) time.Time {
		if t.IsZero() {
			return t
		}
		return t.Add(shift).UTC()
	}
	for id, raw := range d[bGames] {
		var g Game
		if err := json.Unmarshal(raw, &g); err != nil {
			return fmt.Errorf("game %s: corrupt record: %w", id, err)
		}
		if g.Deadline.IsZero() && g.Remind.IsZero() && g.ComputerMove.IsZero() {
			continue
		}
		g.Deadline, g.Remind, g.ComputerMove = move(g.Deadline), move(g.Remind), move(g.ComputerMove)
		v, err := json.Marshal(&g)
		if err != nil {
			return err
		}
		d[bGames][id] = v
	}
	for _, b := range []string{bChallenges, bLobbies} {
		for id, raw := range d[b] {
			var e envelope
			if err := json.Unmarshal(raw, &e); err != nil {
				return fmt.Errorf("%s %s: corrupt record: %w", b, id, err)
			}
			if e.Expires.IsZero() {
				continue
			}
			e.Expires = move(e.Expires)
			v, err := json.Marshal(e)
			if err != nil {
				return err
			}
			d[b][id] = v
		}
	}
	for id, raw := range d[bOutbox] {
		var e outboxEnvelope
		if err := json.Unmarshal(raw, &e); err != nil {
			return fmt.Errorf("outbox %s: corrupt record: %w", id, err)
		}
		if e.Due.IsZero() {
			continue
		}
		e.Due = move(e.Due)
		v, err := json.Marshal(e)
		if err != nil {
			return err
		}
		d[bOutbox][id] = v
	}
	// The indexes lead with the time: timers "time/game", expiry
	// "time/bucket/id".
	for _, b := range []string{bTimers, bExpiry} {
		moved := map[string][]byte{}
		for k, v := range d[b] {
			ts, rest, ok := strings.Cut(k, "/")
			t, err := time.Parse(timeLayout, ts)
			if !ok || err != nil {
				return fmt.Errorf("bad %s key %q", b, k)
			}
			moved[timeKey(move(t))+"/"+rest] = v
		}
		if d[b] != nil {
			d[b] = moved
		}
	}
	return nil
}
