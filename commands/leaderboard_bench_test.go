package commands_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/storage"
)

// cpuTime is the process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLeaderboard is /leaderboard and /stats of one game in a server
// of 10,000 rated players on a bbolt file (a third of them provisional: a
// deviation above 110, or grown past it since their last game), reporting
// the CPU time per command (cpu-ns/op).
func BenchmarkLeaderboard(b *testing.B) {
	const players = 10000
	s, err := storage.Open(filepath.Join(b.TempDir(), "bench.db"), time.Second)
	require.NoError(b, err)
	defer s.Close()
	rng := rand.New(rand.NewPCG(26, 5))
	for start := 0; start < players; start += 1000 {
		require.NoError(b, s.Update(b.Context(), func(tx storage.Tx) error {
			for i := start; i < start+1000; i++ {
				r := &storage.PlayerRating{Rating: 1000 + 1000*rng.Float64(), Deviation: 45 + 100*rng.Float64(), Volatility: 0.06,
					Last: commandstest.T0.Add(-time.Duration(rng.IntN(400*24)) * time.Hour), Games: 1 + rng.IntN(50)}
				if err := tx.Ratings().Put("ttt", "g", fmt.Sprintf("%d", 100000+i), r); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	a := commands.New(s, commandstest.NewPlatform(), commands.Settings{BoardSize: 320, MoveTime: time.Hour, ChallengeTTL: time.Hour, LobbyTTL: time.Hour,
		RemindAt: 0.75}, slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)))
	a.Now = fixed(commandstest.T0)
	commands.Register[*tttState](a, ticTacToe{})
	me := commands.User{ID: "105000", Name: "me"}
	for _, c := range []struct{ name, command string }{{"leaderboard", "leaderboard"}, {"stats", "stats"}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuTime(b)
			for b.Loop() {
				resp, err := a.Handle(commandstest.Cmd(me, c.command, "", map[string]string{"game": "ttt"}))
				if err != nil || len(resp.Cards) == 0 {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
