package commands

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/storage"
)

// benchApp is an App on a bbolt file holding n Survival games of alice's:
// active ones running a clock, the rest finished. (BenchmarkGamesList, which
// needs the Survival kind, is in commands/survival.)
func benchApp(b *testing.B, finished, active int) (*App, string) {
	b.Helper()
	path := filepath.Join(b.TempDir(), "bench.db")
	store, err := storage.Open(path, time.Second)
	require.NoError(b, err)
	b.Cleanup(func() { store.Close() })
	a := New(store, newFakePlatform(), Settings{BoardSize: 320, MoveTime: 24 * time.Hour, ChallengeTTL: time.Hour}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	a.Now = func() time.Time { return t0 }
	// A Survival state (the kind is not registered here: crediting downtime
	// reads no state).
	raw, err := json.Marshal(map[string]any{"start_fen": "7k/8/8/8/8/8/8/K7 w - - 0 1", "moves": []string{},
		"white": alice, "black": bob, "move_time": time.Hour, "started": t0})
	require.NoError(b, err)
	for start := 0; start < finished+active; start += 1000 {
		require.NoError(b, a.update(func(tx storage.Tx) error {
			for i := start; i < start+1000 && i < finished+active; i++ {
				g := &storage.Game{ID: fmt.Sprintf("g%05d", i), Kind: "survival", GuildID: "g", ChannelID: "general",
					ThreadID: fmt.Sprintf("th%05d", i), Players: []string{alice.ID, bob.ID}, Active: i >= finished,
					Deadline: t0.Add(time.Hour), State: raw}
				if err := tx.Games().Put(g, t0.Add(time.Duration(i)*time.Second)); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	return a, path
}

// BenchmarkStartAfterDowntime measures crediting 10 minutes of downtime
// to 10,000 running games (issue 13's target: at most 70 ms, and no growth
// of the database file), reported with the file's growth in bytes.
func BenchmarkStartAfterDowntime(b *testing.B) {
	a, path := benchApp(b, 0, 10000)
	st, err := os.Stat(path)
	require.NoError(b, err)
	before := st.Size()
	now := t0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		require.NoError(b, a.Heartbeat(now))
		now = now.Add(10 * time.Minute)
		down, err := a.CreditDowntime(now)
		if err != nil || down != 10*time.Minute {
			b.Fatal(down, err)
		}
	}
	b.StopTimer()
	st, err = os.Stat(path)
	require.NoError(b, err)
	b.ReportMetric(float64(st.Size()-before), "file-growth-bytes")
}
