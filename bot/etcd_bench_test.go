package bot_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/bot"
	"sandtable/games/chess"
	"sandtable/internal/discordsim"
	"sandtable/internal/etcdtest"
	"sandtable/storage"
)

// BenchmarkEtcdRPCsPerMove counts the etcd requests a bot on etcd (one
// in-process member) sends for one /move, from the interaction to its
// last effect done: the move's transaction, its effects' deliveries and
// their records, and the answer copy's drop (made by the next move's
// delivery pass: steady state). Only unary requests are counted (ranges,
// transactions, puts; the lease's keep-alives and the watch are streams).
// A move's effects are done when its game's outbox streams are empty, read
// through the test's own, uncounted, client. It reports rpcs/move (the
// mean), p50 and max, and each method's share.
func BenchmarkEtcdRPCsPerMove(b *testing.B) {
	c := etcdtest.Start(b)
	srv := discordsim.Start(b, discordsim.Options{})
	gen := srv.Channel("general")
	e := startEtcdBot(b, srv, c, gen, 1, []int{0}, nil, bot.Options{})
	require.NoError(b, srv.WaitCommands(wait, gen.ID, "survival", "move"))
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	probe, err := storage.OpenEtcd(ctx, storage.EtcdOptions{Endpoints: c.Endpoints()})
	require.NoError(b, err)
	defer probe.Close()
	line := chessLine(b, 120)

	var thread *discordsim.Channel
	var gameID string
	var white, blk *discordsim.User
	ply, games := len(line), 0
	newGame := func() {
		games++
		white, blk = srv.User(fmt.Sprintf("w%d", games)), srv.User(fmt.Sprintf("b%d", games))
		thread = survivalOnEtcd(b, e, white, blk)
		require.NoError(b, probe.View(ctx, func(tx storage.Tx) error {
			g, err := tx.Games().ByChannel(thread.ID)
			if err == nil {
				gameID = g.ID
			}
			return err
		}))
		ply = 0
	}
	done := func() bool {
		empty := true
		require.NoError(b, probe.View(ctx, func(tx storage.Tx) error {
			for _, s := range []string{gameID, gameID + "-boards"} {
				p, err := tx.Outbox().StreamHead(s)
				if err != nil {
					return err
				}
				empty = empty && p == nil
			}
			return nil
		}))
		return empty
	}
	var answered int64 // requests sent before each move's answer arrived
	move := func() int64 {
		u := white
		if ply%2 == 1 {
			u = blk
		}
		before := e.rpcs.n.Load()
		in, err := srv.Slash(u, thread.ID, "move", discordsim.Opt("move", line[ply]))
		require.NoError(b, err)
		m, err := in.WaitMessage(wait, nil)
		require.NoError(b, err)
		require.True(b, strings.HasPrefix(m.Text(), "You played"), m.Text())
		answered += e.rpcs.n.Load() - before
		require.Eventually(b, done, wait, time.Millisecond)
		ply++
		return e.rpcs.n.Load() - before
	}
	newGame()
	for range 4 { // warm up: the first moves' answer copies, the caches
		move()
	}
	methods0 := e.rpcs.methods()
	e.rpcs.mu.Lock()
	e.rpcs.sites = map[string]int{}
	e.rpcs.mu.Unlock()
	answered = 0
	var counts []int64
	b.ResetTimer()
	for range b.N {
		if ply >= len(line) {
			b.StopTimer()
			newGame()
			for range 2 {
				move()
			}
			b.StartTimer()
		}
		counts = append(counts, move())
	}
	b.StopTimer()
	methods := e.rpcs.methods()
	var total int64
	for _, n := range counts {
		total += n
	}
	slices.Sort(counts)
	b.ReportMetric(float64(total)/float64(len(counts)), "rpcs/move")
	b.ReportMetric(float64(counts[len(counts)/2]), "p50-rpcs")
	b.ReportMetric(float64(answered)/float64(len(counts)), "rpcs-before-answer/move")
	b.ReportMetric(float64(counts[len(counts)-1]), "max-rpcs")
	var names []string
	for k := range methods {
		names = append(names, k)
	}
	sort.Strings(names)
	var parts []string
	for _, k := range names {
		parts = append(parts, fmt.Sprintf("%s %.1f", k, float64(methods[k]-methods0[k])/float64(len(counts))))
	}
	b.Logf("per move over %d moves (games %d, background included): %s", len(counts), games, strings.Join(parts, ", "))
	sites := e.rpcs.sitesCopy()
	names = names[:0]
	for k := range sites {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		return sites[names[i]] > sites[names[j]] || sites[names[i]] == sites[names[j]] && names[i] < names[j]
	})
	parts = parts[:0]
	for _, k := range names {
		parts = append(parts, fmt.Sprintf("%.2f %s", float64(sites[k])/float64(len(counts)), k))
	}
	b.Logf("by call site, per move (warm-up and new games' moves included):\n%s", strings.Join(parts, "\n"))
}

// chessLine is a line of Survival Chess from the start: at each ply the
// legal move in the middle of the sorted list, stopping before the game
// ends or at max plies.
func chessLine(tb testing.TB, max int) []string {
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
			break
		}
		line = append(line, pick)
	}
	return line
}

// survivalOnEtcd starts a Survival game between white and black and waits
// for its first board.
func survivalOnEtcd(tb testing.TB, e *etcdBot, white, black *discordsim.User) *discordsim.Channel {
	tb.Helper()
	srv := e.h.srv
	ch := e.h.reply(white, e.h.gen.ID, "survival challenge", discordsim.Opt("opponent", black), discordsim.Opt("color", "white"))
	in, err := srv.Click(black, ch, buttonID(tb, ch, "Accept"))
	require.NoError(tb, err)
	acc, err := in.WaitReply(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "accepted") })
	require.NoError(tb, err)
	link := regexp.MustCompile(`<#(\d+)>`).FindStringSubmatch(acc.Text())
	require.NotNil(tb, link, acc.Text())
	thread := srv.ChannelByID(link[1])
	_, err = srv.WaitMessage(wait, func(m *discordsim.Message) bool {
		return m.ChannelID == thread.ID && strings.Contains(m.Text(), "first move must be a promotion")
	})
	require.NoError(tb, err)
	return thread
}
