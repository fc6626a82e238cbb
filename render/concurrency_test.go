package render

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentRendering renders many boards of both kinds, several sizes
// and views from many goroutines with one fresh Renderer (so sprites are
// drawn concurrently too) and checks every result against a serial render.
// Run under -race in CI.
func TestConcurrentRendering(t *testing.T) {
	t.Parallel()
	type job struct {
		name   string
		render func(r *Renderer) ([]byte, error)
	}
	var jobs []job
	chessBoards := []ChessBoard{
		placement(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
		placement(t, "8/PpPpPpPp/pPpPpPpP/PpPpPpPp/pPpPpPpP/PpPpPpPp/pPpPpPpP/8"),
	}
	chessBoards[1].Flipped = true
	chessBoards[1].CaptureMarks = []Square{9, 10}
	for i := range chessBoards {
		for _, size := range []int{200, 320} {
			b := chessBoards[i]
			jobs = append(jobs, job{fmt.Sprintf("chess%d/%d", i, size), func(r *Renderer) ([]byte, error) {
				var buf bytes.Buffer
				err := r.ChessPNG(&buf, &b, size)
				return buf.Bytes(), err
			}})
		}
	}
	mg := midgame(t)
	for _, v := range []View{ViewPublic, ViewSouth, ViewNorth} {
		for _, size := range []int{400, 480} {
			jobs = append(jobs, job{fmt.Sprintf("sand/%s/%d", v, size), func(r *Renderer) ([]byte, error) {
				var buf bytes.Buffer
				err := r.SandTablePNG(&buf, &mg, v, size)
				return buf.Bytes(), err
			}})
		}
	}
	// Replays share the LZW encoders' pool.
	game := randomGame(t, 12, 4)
	sandGame := []SandTableBoard{fullBoard(false), mg}
	jobs = append(jobs, job{"chess replay", func(r *Renderer) ([]byte, error) {
		var buf bytes.Buffer
		err := r.ChessReplay(&buf, game, ReplayOptions{Size: 200})
		return buf.Bytes(), err
	}}, job{"sand replay", func(r *Renderer) ([]byte, error) {
		var buf bytes.Buffer
		err := r.SandTableReplay(&buf, sandGame, ReplayOptions{Size: 400})
		return buf.Bytes(), err
	}})
	serial := New()
	want := make([][]byte, len(jobs))
	for i, j := range jobs {
		b, err := j.render(serial)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = b
	}
	shared := New()
	const workers = 8
	var wg sync.WaitGroup
	errs := make(chan string, workers*len(jobs))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for k := range jobs {
				i := (k + w) % len(jobs)
				got, err := jobs[i].render(shared)
				if err != nil {
					errs <- jobs[i].name + ": " + err.Error()
				} else if !bytes.Equal(got, want[i]) {
					errs <- jobs[i].name + ": concurrent render differs from serial render"
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
