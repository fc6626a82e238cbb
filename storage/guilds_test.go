package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/internal/testkit"
)

type testSettings struct {
	Channels []string `json:"channels"`
	Max      int      `json:"max"`
}

// TestGuilds: a server's settings, its audit log (newest first, kept to
// KeptLog) and the attempts of a per-minute limit, on every backend.
func TestGuilds(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s Store) {
		view(t, s, func(tx Tx) {
			var v testSettings
			require.ErrorIs(t, tx.Guilds().Settings("g1", &v), ErrNotFound, "a server with no settings")
		})
		update(t, s, func(tx Tx) error {
			require.NoError(t, tx.Guilds().PutSettings("g1", testSettings{Channels: []string{"c1"}, Max: 3}))
			require.NoError(t, tx.Guilds().PutSettings("g2", testSettings{Max: 9}))
			require.Error(t, tx.Guilds().PutSettings("g/1", testSettings{}))
			require.Error(t, tx.Guilds().PutSettings("", testSettings{}))
			return nil
		})
		require.Error(t, s.Update(ctx, func(tx Tx) error {
			require.NoError(t, tx.Guilds().PutSettings("g1", testSettings{Max: 100}))
			return errors.New("abandoned")
		}))
		view(t, s, func(tx Tx) {
			var v testSettings
			require.NoError(t, tx.Guilds().Settings("g1", &v))
			require.Equal(t, testSettings{Channels: []string{"c1"}, Max: 3}, v, "the failed transaction wrote nothing")
		})

		// The log: newest first, a limit, per guild; two entries of one
		// instant are both kept.
		update(t, s, func(tx Tx) error {
			for i := range 3 {
				require.NoError(t, tx.Guilds().AddLog("g1", t0.Add(time.Duration(i)*time.Minute), map[string]int{"n": i}))
			}
			require.NoError(t, tx.Guilds().AddLog("g1", t0.Add(2*time.Minute), map[string]int{"n": 3}))
			return tx.Guilds().AddLog("g2", t0, map[string]int{"n": 9})
		})
		log := func(guild string, limit int) (out []string) {
			view(t, s, func(tx Tx) {
				require.NoError(t, tx.Guilds().Log(guild, limit, func(at time.Time, raw []byte) error {
					var e map[string]int
					require.NoError(t, json.Unmarshal(raw, &e))
					out = append(out, fmt.Sprintf("%d@%s", e["n"], at.Sub(t0).Truncate(time.Second)))
					return nil
				}))
			})
			return out
		}
		require.Equal(t, []string{"3@2m0s", "2@2m0s", "1@1m0s"}, log("g1", 3))
		require.Equal(t, []string{"9@0s"}, log("g2", 50))

		// Attempts: limit 2 a minute; the third waits for the first to
		// leave the window; another member or server counts apart.
		attempt := func(guild, user string, at time.Time) (bool, time.Time) {
			var ok bool
			var retry time.Time
			update(t, s, func(tx Tx) error {
				var err error
				ok, retry, err = tx.Guilds().Attempt(guild, user, at, time.Minute, 2)
				return err
			})
			return ok, retry
		}
		ok, _ := attempt("g1", "alice", t0)
		require.True(t, ok)
		ok, _ = attempt("g1", "alice", t0.Add(20*time.Second))
		require.True(t, ok)
		ok, retry := attempt("g1", "alice", t0.Add(30*time.Second))
		require.False(t, ok)
		require.True(t, retry.Equal(t0.Add(time.Minute)), "retry at %s", retry)
		ok, _ = attempt("g1", "bob", t0.Add(30*time.Second))
		require.True(t, ok)
		ok, _ = attempt("g2", "alice", t0.Add(30*time.Second))
		require.True(t, ok)
		ok, _ = attempt("g1", "alice", t0.Add(time.Minute+time.Second))
		require.True(t, ok, "the first attempt left the window")
	})
}

// TestGuildsLogKept: the log forgets its oldest entries past KeptLog.
func TestGuildsLogKept(t *testing.T) {
	t.Parallel()
	s := NewMemory()
	for i := range KeptLog + 10 {
		update(t, s, func(tx Tx) error { return tx.Guilds().AddLog("g", t0.Add(time.Duration(i)*time.Second), i) })
	}
	n, oldest := 0, -1
	view(t, s, func(tx Tx) {
		require.NoError(t, tx.Guilds().Log("g", 1000, func(_ time.Time, raw []byte) error {
			n++
			return json.Unmarshal(raw, &oldest)
		}))
	})
	require.Equal(t, KeptLog, n)
	require.Equal(t, 10, oldest)
}

// TestSettingsWatch: a put of a server's settings is reported by the
// store's watch with its guild, on etcd (to another process) and memory.
func TestSettingsWatch(t *testing.T) {
	t.Parallel()
	for name, s := range map[string]Store{"memory": NewMemory(), "etcd": openEtcd(t)} {
		t.Run(name, func(t *testing.T) {
			wctx, cancel := context.WithCancel(ctx)
			defer cancel()
			got := make(chan string, 16)
			go s.(Watcher).Watch(wctx, func(e Event) {
				if e.Change == SettingsChanged {
					got <- e.Guild
				}
			})
			// The watch starts asynchronously: put until it is seen.
			require.Eventually(t, func() bool {
				update(t, s, func(tx Tx) error { return tx.Guilds().PutSettings("g7", testSettings{Max: 1}) })
				select {
				case g := <-got:
					return g == "g7"
				case <-time.After(50 * time.Millisecond):
					return false
				}
			}, testkit.Wait, time.Millisecond)
		})
	}
}
