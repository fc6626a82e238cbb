package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
)

// The records' ranking index (schema 10): Team Chess records (the only
// kind with records) ranked by rule 6.1 as games/teamchess.Rank ranks
// them: most team wins first, then the higher personal win/loss ratio
// (wins over losses, the wins alone with no loss), then fewer personal
// losses, then the name (case-insensitive), then the user ID. The order is
// fixed when a record is written, so bRecordRank holds one key per record
// in that order (value empty), written by Records.Put in the record's
// transaction: a leaderboard reads keys and decodes the records it shows.
//
// The ratio is keyed as a float64 quotient: two different ratios of
// counts below 2^25 give different quotients in the same order, and equal
// ones the same quotient, as the exact comparison does.

// errCorrupt is a stored record that does not decode.
var errCorrupt = errors.New("corrupt record")

// rankedRecordKinds are the kinds whose records are ranked.
var rankedRecordKinds = map[string]bool{"teamchess": true}

func ranked(kind string) bool { return rankedRecordKinds[kind] }

// recordRankFields are the fields of a ranked record its key is made of
// (games/teamchess.PlayerStats).
type recordRankFields struct {
	Name           string `json:"name"`
	TeamWins       int    `json:"team_wins"`
	PersonalWins   int    `json:"personal_wins"`
	PersonalLosses int    `json:"personal_losses"`
}

// recordRankKey is a ranked record's key: kind "/" guild "/" team wins
// desc, ratio desc, personal losses asc (hex, rankKeyWidth+16 wide), the
// name in lower case, "\x00/" user.
func recordRankKey(kind, guildID, userID string, raw []byte) (string, error) {
	var f recordRankFields
	if err := json.Unmarshal(raw, &f); err != nil {
		return "", fmt.Errorf("record %s/%s/%s: %w: %w", kind, guildID, userID, errCorrupt, err)
	}
	ratio := float64(f.PersonalWins) / float64(max(f.PersonalLosses, 1))
	name := strings.ReplaceAll(strings.ToLower(f.Name), "\x00", "")
	return fmt.Sprintf("%s/%s/%016x%016x%016x%s\x00/%s", kind, guildID, ^sortableInt(f.TeamWins), ^sortableFloat(ratio),
		sortableInt(f.PersonalLosses), name, userID), nil
}

// sortableInt maps n to bits that sort as n does.
func sortableInt(n int) uint64 { return uint64(int64(n)) ^ 1<<63 }

// index writes (put) or deletes the ranking key of a record of kind
// (ok false: a kind not ranked).
func (r records) index(kind, guildID, userID string, raw []byte, put bool) (ok bool, err error) {
	if !ranked(kind) {
		return false, nil
	}
	k, err := recordRankKey(kind, guildID, userID, raw)
	if err != nil {
		return false, err
	}
	if put {
		return true, r.kv.put(bRecordRank, k, nil)
	}
	return true, r.kv.del(bRecordRank, k)
}

// RecordStanding is one record's place in its kind's ranking in a guild.
type RecordStanding struct {
	User string
	Rank int // from 1
	Raw  []byte
}

// RecordStandings is a ranking of records (Records.Ranked).
type RecordStandings struct {
	Total int
	// Top are the first records, best first.
	Top []RecordStanding
	// User is the record asked about, nil when absent (or not asked).
	User *RecordStanding
}

func (r records) Ranked(kind, guildID string, top int, userID string) (*RecordStandings, error) {
	if _, err := recordKey(kind, guildID, "x"); err != nil {
		return nil, err
	}
	if !ranked(kind) {
		return nil, fmt.Errorf("storage: the records of %s are not ranked", kind)
	}
	st := &RecordStandings{}
	var mine string
	if userID != "" {
		k, err := recordKey(kind, guildID, userID)
		if err != nil {
			return nil, err
		}
		if raw := r.kv.get(bRecords, k); raw != nil {
			if mine, err = recordRankKey(kind, guildID, userID, raw); err != nil {
				return nil, err
			}
			st.User = &RecordStanding{User: userID, Rank: 1, Raw: append([]byte(nil), raw...)}
		}
	}
	var users []string
	if err := scanPrefix(r.kv, bRecordRank, kind+"/"+guildID+"/", func(k string, _ []byte) error {
		st.Total++
		if len(users) < top {
			users = append(users, k[strings.LastIndexByte(k, '/')+1:])
		}
		if mine != "" && k < mine {
			st.User.Rank++
		}
		return nil
	}); err != nil {
		return nil, err
	}
	for i, u := range users {
		raw := r.kv.get(bRecords, kind+"/"+guildID+"/"+u)
		if raw == nil {
			return nil, fmt.Errorf("storage: the record index names %s/%s/%s: %w", kind, guildID, u, ErrNotFound)
		}
		st.Top = append(st.Top, RecordStanding{User: u, Rank: i + 1, Raw: append([]byte(nil), raw...)})
	}
	return st, nil
}

// buildIndex writes the ranking keys of the ranked records after the
// record key after ("": from the first), at most limit records looked at
// (-1: all), and returns the last record key looked at ("" when none
// remain) and how many keys it wrote. The index must hold no key of those
// records yet (a migration, or a copy: schema 10).
func (r records) buildIndex(after string, limit int) (last string, n int, err error) {
	from := ""
	if after != "" {
		from = after + "\x00"
	}
	type entry struct {
		key string
		raw []byte
	}
	var todo []entry
	more := false
	if err := r.kv.scan(bRecords, from, "", func(k string, v []byte) error {
		if limit >= 0 && len(todo) == limit {
			more = true
			return errStop
		}
		todo = append(todo, entry{k, append([]byte(nil), v...)})
		return nil
	}); err != nil {
		return "", 0, err
	}
	for _, e := range todo {
		parts := strings.Split(e.key, "/")
		if len(parts) != 3 {
			return "", 0, fmt.Errorf("storage: bad record key %q", e.key)
		}
		ok, err := r.index(parts[0], parts[1], parts[2], e.raw, true)
		if errors.Is(err, errCorrupt) {
			slog.Warn("storage: a record that does not decode is left out of the ranking", "record", e.key, "error", err)
			continue
		}
		if err != nil {
			return "", 0, err
		}
		if ok {
			n++
		}
	}
	if more {
		last = todo[len(todo)-1].key
	}
	return last, n, nil
}
