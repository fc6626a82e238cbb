package bot_test

import (
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"sandtable/bot"
	"sandtable/internal/discordsim"
)

// boardVersion names one version of a thread's live board: the message and
// its edit count.
type boardVersion struct {
	id      string
	version int
}

// liveBoard is the board image the bot shows in a thread now (zero before
// the first).
func liveBoard(h *harness, threadID string) boardVersion {
	msgs := h.srv.Messages(threadID)
	for i := len(msgs) - 1; i >= 0; i-- {
		if m := msgs[i]; !m.Ephemeral() && m.Attachment("board.png") != nil {
			return boardVersion{m.ID, m.Version}
		}
	}
	return boardVersion{}
}

// waitNewBoard waits until the thread shows a board other than before: a
// new board message, or the live one edited (SandTable's moves within a
// turn).
func waitNewBoard(h *harness, threadID string, before boardVersion) error {
	_, err := h.srv.WaitMessage(wait, func(m *discordsim.Message) bool {
		return m.ChannelID == threadID && !m.Ephemeral() && m.Attachment("board.png") != nil &&
			(m.ID != before.id || m.Version > before.version)
	})
	return err
}

// moveLatencies plays n moves (starting new games as games end) in the game
// threads of players, all concurrently when len(games) > 1, and returns,
// for each injected /move, the time to the bot's answer (answer) and to the
// new board's arrival in the game thread (board): what the players wait for.
func moveLatencies(b *testing.B, h *harness, games int, n int) (answer, board []time.Duration) {
	type table struct {
		white, black *discordsim.User
		thread       *discordsim.Channel
		ply          int
	}
	tables := make([]*table, games)
	for i := range tables {
		w, bl := h.srv.User(fmt.Sprintf("w%d", i)), h.srv.User(fmt.Sprintf("b%d", i))
		tables[i] = &table{white: w, black: bl, thread: h.survivalGame(w, bl)}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	per := (n + games - 1) / games
	b.ResetTimer()
	for _, tb := range tables {
		wg.Add(1)
		go func(tb *table) {
			defer wg.Done()
			for i := 0; i < per; i++ {
				if tb.ply == len(eliminationGame) {
					b.StopTimer()
					mu.Lock()
					tb.thread = h.survivalGame(tb.white, tb.black)
					mu.Unlock()
					tb.ply = 0
					b.StartTimer()
				}
				u := tb.white
				if tb.ply%2 == 1 {
					u = tb.black
				}
				before := liveBoard(h, tb.thread.ID)
				start := time.Now()
				in, err := h.srv.Slash(u, tb.thread.ID, "move", discordsim.Opt("move", eliminationGame[tb.ply]))
				if err != nil {
					b.Error(err)
					return
				}
				r, err := in.WaitResponse(wait)
				if err != nil {
					b.Error(err)
					return
				}
				if err := waitNewBoard(h, tb.thread.ID, before); err != nil {
					b.Errorf("move %d: no new board in the thread: %v", tb.ply, err)
					return
				}
				arrived := time.Since(start)
				tb.ply++
				mu.Lock()
				answer = append(answer, r.Latency)
				board = append(board, arrived)
				mu.Unlock()
			}
		}(tb)
	}
	wg.Wait()
	b.StopTimer()
	return answer, board
}

// reportPercentiles reports the answer's and the board's p50, p99 and max
// in milliseconds, and the moves per second.
func reportPercentiles(b *testing.B, answer, board []time.Duration) {
	report := func(lat []time.Duration, name string) {
		if len(lat) == 0 {
			return
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		pct := func(p float64) float64 {
			return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000
		}
		b.ReportMetric(pct(0.50), name+"-p50-ms")
		b.ReportMetric(pct(0.99), name+"-p99-ms")
		b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, name+"-max-ms")
	}
	report(answer, "answer")
	report(board, "board")
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(len(board))/s, "moves/s")
	}
}

// BenchmarkSurvivalMove measures, through the fake Discord, the time from an
// injected /move interaction to the bot's answer and to the new board image
// in the game thread, one game at a time.
func BenchmarkSurvivalMove(b *testing.B) {
	h := newHarness(b)
	answer, board := moveLatencies(b, h, 1, b.N)
	reportPercentiles(b, answer, board)
}

// BenchmarkSurvivalMove100Games is the same with 100 games moving
// concurrently.
func BenchmarkSurvivalMove100Games(b *testing.B) {
	h := newHarness(b)
	n := b.N
	if n < 100 {
		n = 100
	}
	answer, board := moveLatencies(b, h, 100, n)
	reportPercentiles(b, answer, board)
}

// BenchmarkSurvivalMoveHTTP is BenchmarkSurvivalMove with the interactions
// delivered to the bot's HTTP endpoint (signed POSTs, the answer as the
// HTTP response) instead of the gateway.
func BenchmarkSurvivalMoveHTTP(b *testing.B) {
	h := startHTTPBot(b, bot.Options{})
	answer, board := moveLatencies(b, h, 1, b.N)
	reportPercentiles(b, answer, board)
}
