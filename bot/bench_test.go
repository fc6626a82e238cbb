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

// moveLatencies plays n moves (starting new games as games end) in the game
// threads of players, all concurrently when len(games) > 1, and returns the
// time from each injected /move to the bot's callback carrying the board.
func moveLatencies(b *testing.B, h *harness, games int, n int) []time.Duration {
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
	var lat []time.Duration
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
				if len(r.Files) == 0 {
					b.Errorf("move %d answered without a board", tb.ply)
					return
				}
				tb.ply++
				mu.Lock()
				lat = append(lat, r.Latency)
				mu.Unlock()
			}
		}(tb)
	}
	wg.Wait()
	b.StopTimer()
	return lat
}

func reportPercentiles(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) float64 {
		return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ms")
}

// BenchmarkSurvivalMove measures, through the fake Discord, the time from an
// injected /move interaction to the bot's callback carrying the new board
// image, one game at a time.
func BenchmarkSurvivalMove(b *testing.B) {
	h := newHarness(b)
	reportPercentiles(b, moveLatencies(b, h, 1, b.N))
}

// BenchmarkSurvivalMove100Games is the same with 100 games moving
// concurrently.
func BenchmarkSurvivalMove100Games(b *testing.B) {
	h := newHarness(b)
	n := b.N
	if n < 100 {
		n = 100
	}
	reportPercentiles(b, moveLatencies(b, h, 100, n))
}

// BenchmarkSurvivalMoveHTTP is BenchmarkSurvivalMove with the interactions
// delivered to the bot's HTTP endpoint (signed POSTs, the answer as the
// HTTP response) instead of the gateway.
func BenchmarkSurvivalMoveHTTP(b *testing.B) {
	h := startHTTPBot(b, bot.Options{})
	reportPercentiles(b, moveLatencies(b, h, 1, b.N))
}
