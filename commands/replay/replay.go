package replay

import (
	"bytes"
	"fmt"
	"time"

	"sandtable/commands/ui"
	"sandtable/render"
)

// MaxBytes bounds a replay file: Discord's 10 MiB upload limit, less
// room for the message around it.
const MaxBytes = 9 << 20

// Replay is a finished game's replay: its whole-board frames, first to
// last, of one board kind (Chess or SandTable), and the file's name.
type Replay struct {
	Name      string // e.g. "survival-<game>-replay.gif"
	Chess     []render.ChessBoard
	SandTable []render.SandTableBoard
	// Caption says what the frames are ("every ply from the start"), for
	// the message carrying the file.
	Caption string
}

// Frames is how many frames r has.
func (r *Replay) Frames() int { return len(r.Chess) + len(r.SandTable) }

// Size is the size a replay is drawn at: 800 px for SandTable, the
// board's size up to 480 px for the 8x8 games. The renderer makes a file
// that would pass the limit smaller, then with fewer boards (the first and
// the last kept).
func Size(r *Replay, boardSize int) int {
	if len(r.SandTable) > 0 {
		return 800
	}
	return min(max(boardSize, render.MinChessSize), 480)
}

// File encodes r as an animated GIF within max bytes (see
// render.ReplayOptions.MaxBytes). Errors: no frame, a frame the renderer
// refuses, or no way to fit (wrapping render.ErrReplayTooLarge).
func File(rd *render.Renderer, r *Replay, boardSize, max int) (*ui.File, error) {
	if r == nil || r.Frames() == 0 {
		return nil, fmt.Errorf("replay: no frames")
	}
	opt := render.ReplayOptions{Size: Size(r, boardSize), FrameDelay: time.Second, LastDelay: 5 * time.Second, MaxBytes: max}
	if len(r.SandTable) > 0 {
		opt.FrameDelay = 2 * time.Second
	}
	var buf bytes.Buffer
	var err error
	if len(r.SandTable) > 0 {
		err = rd.SandTableReplay(&buf, r.SandTable, opt)
	} else {
		err = rd.ChessReplay(&buf, r.Chess, opt)
	}
	if err != nil {
		return nil, fmt.Errorf("replay %s: %w", r.Name, err)
	}
	return &ui.File{Name: r.Name, ContentType: "image/gif", Data: buf.Bytes()}, nil
}
