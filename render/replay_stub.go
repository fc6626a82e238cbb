package render

// TEMPORARY STUB (branch archive): the replay helper writes the real
// ReplayOptions, ChessReplay and SandTableReplay (fixed palette, frames
// holding only the changed squares). This file only gives the callers in
// commands their signatures, writing one full paletted frame per board;
// the lead deletes it when merging the real implementation.

import (
	"errors"
	"image"
	"image/gif"
	"io"
	"time"
)

// ReplayOptions are the size of a replay's frames (edge in pixels), the
// delay between frames and the delay on the last one.
type ReplayOptions struct {
	Size                  int
	FrameDelay, LastDelay time.Duration
}

// ChessReplay writes frames as an animated GIF (TEMPORARY STUB).
func (r *Renderer) ChessReplay(w io.Writer, frames []ChessBoard, opt ReplayOptions) error {
	imgs := make([]*image.Paletted, len(frames))
	for i := range frames {
		img, err := r.ChessImage(&frames[i], opt.Size)
		if err != nil {
			return err
		}
		imgs[i] = img
	}
	return stubGIF(w, imgs, opt)
}

// SandTableReplay writes frames (public view) as an animated GIF
// (TEMPORARY STUB).
func (r *Renderer) SandTableReplay(w io.Writer, frames []SandTableBoard, opt ReplayOptions) error {
	imgs := make([]*image.Paletted, len(frames))
	for i := range frames {
		img, err := r.SandTableImage(&frames[i], ViewPublic, opt.Size)
		if err != nil {
			return err
		}
		imgs[i] = img
	}
	return stubGIF(w, imgs, opt)
}

func stubGIF(w io.Writer, imgs []*image.Paletted, opt ReplayOptions) error {
	if len(imgs) == 0 {
		return errors.New("render: a replay needs at least one frame")
	}
	cs := func(d time.Duration) int { return int(d / (10 * time.Millisecond)) }
	g := &gif.GIF{LoopCount: 0}
	for i, img := range imgs {
		d := cs(opt.FrameDelay)
		if i == len(imgs)-1 {
			d = cs(opt.LastDelay)
		}
		g.Image, g.Delay = append(g.Image, img), append(g.Delay, d)
	}
	return gif.EncodeAll(w, g)
}
