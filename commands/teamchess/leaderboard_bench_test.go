package teamchess

import (
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	tc "sandtable/games/teamchess"
	"sandtable/storage"
)

// cpuTime is the process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkTeamChessLeaderboard is /teamchess leaderboard and /teamchess
// stats in a server of 10,000 players with records and ratings, on a
// bbolt file, reporting the CPU time per command (cpu-ns/op).
func BenchmarkTeamChessLeaderboard(b *testing.B) {
	const players = 10000
	s, err := storage.Open(filepath.Join(b.TempDir(), "bench.db"), time.Second)
	require.NoError(b, err)
	defer s.Close()
	rng := rand.New(rand.NewPCG(26, 6))
	for start := 0; start < players; start += 1000 {
		require.NoError(b, s.Update(b.Context(), func(tx storage.Tx) error {
			for i := start; i < start+1000; i++ {
				id := fmt.Sprint(100000 + i)
				ps := tc.PlayerStats{ID: id, Name: fmt.Sprint("player ", i), Games: 20, TeamWins: rng.IntN(12), PersonalWins: rng.IntN(10),
					PersonalLosses: rng.IntN(10), WinsBy: map[string]int{"checkmate": 2}, LossesBy: map[string]int{"siege": 1}}
				ps.TeamLosses = ps.Games - ps.TeamWins
				if err := tx.Records().Put(Kind, "g", id, &ps); err != nil {
					return err
				}
				r := &storage.PlayerRating{Rating: 1000 + 1000*rng.Float64(), Deviation: 45 + 100*rng.Float64(), Volatility: 0.06,
					Last: commandstest.T0.Add(-time.Duration(rng.IntN(400*24)) * time.Hour), Games: 20}
				if err := tx.Ratings().Put(Kind, "g", id, r); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	a := commands.New(s, commandstest.NewPlatform(), commands.Settings{BoardSize: 320, MoveTime: time.Hour, ChallengeTTL: time.Hour, LobbyTTL: time.Hour},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	a.Now = func() time.Time { return commandstest.T0 }
	Register(a)
	me := commands.User{ID: "105000", Name: "me"}
	for _, sub := range []string{"leaderboard", "stats"} {
		b.Run(sub, func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuTime(b)
			for b.Loop() {
				resp, err := a.Handle(commandstest.Cmd(me, "teamchess", sub, nil))
				if err != nil || len(resp.Cards) == 0 {
					b.Fatal(err, resp)
				}
			}
			b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
