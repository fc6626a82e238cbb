package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/games/chess"
	"sandtable/internal/discordsim"
	"sandtable/storage"
)

// benchGames is how many Survival games the benchmark plays at once.
const benchGames = 20

// survivalLine is a line of play of Survival Chess from the Tartan Grid:
// at each ply the legal move in the middle of the sorted list (the first
// move would end games quickly), stopping before the game ends or at max
// plies.
func survivalLine(tb testing.TB, max int) []string {
	tb.Helper()
	p := chess.StartPosition(chess.Survival)
	var line []string
	for len(line) < max {
		ms := p.LegalMoves()
		if len(ms) == 0 || p.Status() != (chess.Status{}) {
			break
		}
		ucis := make([]string, len(ms))
		for i, m := range ms {
			ucis[i] = m.UCI()
		}
		slices.Sort(ucis)
		pick := ucis[len(ucis)/2]
		for _, m := range ms {
			if m.UCI() == pick {
				next, err := p.Play(m)
				require.NoError(tb, err)
				p = next
			}
		}
		if p.Status() != (chess.Status{}) {
			break // keep the game going: the benchmark plays only moves
		}
		line = append(line, pick)
	}
	return line
}

// procStat reads a process's CPU time (user + system) and peak resident
// memory (VmHWM) from /proc.
func procStat(tb testing.TB, pid string) (cpu time.Duration, hwmKB int) {
	tb.Helper()
	stat, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	require.NoError(tb, err)
	// The fields after the command name (in parentheses, which may hold
	// spaces): utime and stime are the 14th and 15th fields of the line.
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	ut, _ := strconv.Atoi(f[11])
	st, _ := strconv.Atoi(f[12])
	cpu = time.Duration(ut+st) * time.Second / 100 // USER_HZ is 100 on Linux
	status, err := os.ReadFile(filepath.Join("/proc", pid, "status"))
	require.NoError(tb, err)
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			hwmKB, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	return cpu, hwmKB
}

// BenchmarkProcesses measures /move throughput and latency (the slash
// command sent → its answer seen at the fake Discord) with benchGames
// Survival games played at once, each one move after the other, through
// bot processes (children running `sandtable run`): one on bbolt, and 1, 2
// and 3 on a one-member etcd (in this process, like the fake Discord), the
// games spread over servers on each process's shard (each player plays
// games of one line of play, one after the other, as many as the moves
// need). Run it with a fixed count of moves, e.g.
//
//	go test -run x -bench BenchmarkProcesses -benchtime 400x .
//
// Metrics: moves/s, p50-ms and p99-ms (latency), bot-cpu-ms/move (CPU time
// of all bot processes per move) and rig-cpu-ms/move (this process: the
// fake Discord, etcd and the players), MB-peak/proc (the largest VmHWM of
// a bot process), and on etcd outbox-depth (effects pending at the end).
//
// With SANDTABLE_CPUPROFILE_DIR set, each bot process writes a CPU profile
// there (sandtable run -cpuprofile), named after the case and the process.
func BenchmarkProcesses(b *testing.B) {
	line := survivalLine(b, 200)
	for _, c := range []struct {
		name    string
		members int // etcd members; 0: bbolt
		procs   int
	}{{"bbolt-1", 0, 1}, {"etcd-1", 1, 1}, {"etcd-2", 1, 2}, {"etcd-3", 1, 3}} {
		b.Run(c.name, func(b *testing.B) {
			benchProcesses(b, c.members, c.procs, line)
		})
	}
}

func benchProcesses(b *testing.B, members, procs int, line []string) {
	r := newProcRig(b, procs, 0, members)
	r.logLevel = "info"
	profiles := os.Getenv("SANDTABLE_CPUPROFILE_DIR")
	if profiles != "" {
		r.args = func(name string) string {
			return "-cpuprofile " + filepath.Join(profiles, strings.ReplaceAll(b.Name(), "/", "_")+"-"+name+".prof")
		}
	}
	chans := []*discordsim.Channel{r.gen}
	for s := 1; s < procs; s++ {
		g, err := r.srv.AddGuildOnShard(fmt.Sprintf("Server %d", s), s, procs, "war")
		require.NoError(b, err)
		chans = append(chans, r.srv.Channels(g.ID)[0])
	}
	for s := 0; s < procs; s++ {
		r.start(fmt.Sprintf("p%d", s), s)
	}
	type game struct {
		thread       *discordsim.Channel
		white, black *discordsim.User
		plies        int
	}
	// benchGames players at once, each playing its games one after the
	// other: as many games of the line as b.N moves need.
	perPlayer := make([][]game, benchGames)
	for pl := range perPlayer {
		left := b.N / benchGames
		if pl < b.N%benchGames {
			left++
		}
		r.gen = chans[pl%procs]
		for n := 0; left > 0; n++ {
			w, bl := r.srv.User(fmt.Sprintf("w%d-%d", pl, n)), r.srv.User(fmt.Sprintf("b%d-%d", pl, n))
			g := game{thread: r.survivalGame(w, bl), white: w, black: bl, plies: min(len(line), left)}
			perPlayer[pl] = append(perPlayer[pl], g)
			left -= g.plies
		}
	}
	cpu0 := map[string]time.Duration{}
	for _, p := range r.procs {
		cpu0[p.name], _ = procStat(b, strconv.Itoa(p.cmd.Process.Pid))
	}
	self0, _ := procStat(b, "self")

	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for pl, games := range perPlayer {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for gi, g := range games {
				for ply, mv := range line[:g.plies] {
					u := g.white
					if ply%2 == 1 {
						u = g.black
					}
					sent := time.Now()
					in, err := r.srv.Slash(u, g.thread.ID, "move", discordsim.Opt("move", mv))
					if err != nil {
						b.Error(err)
						return
					}
					m, err := in.WaitMessage(wait, nil)
					took := time.Since(sent)
					if err != nil || !isPlayed(m) {
						b.Errorf("move %s in game %d of player %d: %v %v", mv, gi, pl, err, m)
						return
					}
					mu.Lock()
					lat = append(lat, took)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if r.store != nil {
		// Pending effects: mostly the copies of answers, kept 30 s after
		// each answer, which every delivery pass scans.
		var depth int
		require.NoError(b, r.store.View(b.Context(), func(tx storage.Tx) error {
			var err error
			depth, err = tx.Outbox().Len()
			return err
		}))
		b.ReportMetric(float64(depth), "outbox-depth")
	}

	var botCPU time.Duration
	peak := 0
	for _, p := range r.procs {
		cpu, hwm := procStat(b, strconv.Itoa(p.cmd.Process.Pid))
		botCPU += cpu - cpu0[p.name]
		peak = max(peak, hwm)
	}
	self, _ := procStat(b, "self")
	slices.Sort(lat)
	q := func(f float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return float64(lat[min(len(lat)-1, int(f*float64(len(lat))))].Microseconds()) / 1000
	}
	moves := float64(len(lat))
	b.ReportMetric(moves/elapsed.Seconds(), "moves/s")
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(float64(botCPU.Milliseconds())/moves, "bot-cpu-ms/move")
	b.ReportMetric(float64((self-self0).Milliseconds())/moves, "rig-cpu-ms/move")
	b.ReportMetric(float64(peak)/1024, "MB-peak/proc")
	if profiles != "" {
		for _, p := range r.procs { // a graceful stop completes the profile
			require.NoError(b, p.cmd.Process.Signal(syscall.SIGTERM))
			_ = p.cmd.Wait()
			p.dead = true
		}
	}
}
