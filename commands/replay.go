package commands

import (
	"bytes"
	"fmt"
	"time"

	"sandtable/commands/ui"
	"sandtable/render"
	"sandtable/storage"
)

// Replays (issue 17 item 3): an animated GIF of a finished game, drawn
// from what the game stores. A game builds its frames (Spec.Replay, from
// the history viewer's frame builders); the framework encodes them within
// Discord's upload limit, posts the replay in the game's thread right
// after the end, and sends it on request (the 🎞 Replay button of a final
// board and of the /history archive). Nothing of a game is drawn before it
// is over: the button refuses a running game, and the follow-up is queued
// only by the action that ends it. The GIF is never stored: the outbox
// holds the follow-up's text and a flag (Effect.Replay), and the file is
// rendered when the effect is delivered, from the game as stored then.

// ReplayAction is the custom ID action of the 🎞 Replay button.
const ReplayAction = "replay"

// ReplayDelay is how long after the end of a game its replay follows: the
// ending action's own posts and answer come first.
const ReplayDelay = 5 * time.Second

// MaxReplayBytes bounds a replay file: Discord's 10 MiB upload limit, less
// room for the message around it.
const MaxReplayBytes = 9 << 20

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

func (r *Replay) frames() int { return len(r.Chess) + len(r.SandTable) }

// ReplayButton is the 🎞 Replay button of game g's final board: it sends
// the game's replay privately.
func ReplayButton(g *storage.Game) ui.Button {
	b := GameButton(g, ReplayAction, "Replay", ui.Secondary)
	b.Emoji = "🎞"
	return b
}

// replaySize is the size a replay is drawn at: 800 px for SandTable, the
// board's size up to 480 px for the 8x8 games. The renderer makes a file
// that would pass the limit smaller, then with fewer boards (the first and
// the last kept).
func replaySize(r *Replay, boardSize int) int {
	if len(r.SandTable) > 0 {
		return 800
	}
	return min(max(boardSize, render.MinChessSize), 480)
}

// replayFile encodes r as an animated GIF within max bytes (see
// render.ReplayOptions.MaxBytes). Errors: no frame, a frame the renderer
// refuses, or no way to fit (wrapping render.ErrReplayTooLarge).
func replayFile(rd *render.Renderer, r *Replay, boardSize, max int) (*ui.File, error) {
	if r == nil || r.frames() == 0 {
		return nil, fmt.Errorf("replay: no frames")
	}
	opt := render.ReplayOptions{Size: replaySize(r, boardSize), FrameDelay: time.Second, LastDelay: 5 * time.Second, MaxBytes: max}
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

// errNoReplay: the game has nothing to replay (Spec.Replay gave no frames).
var errNoReplay = Errorf("This game has nothing to replay.")

// replayOf draws the replay of the finished game rec: nil, nil when its
// kind has no replays or the game has none.
func (a *App) replayOf(rec *storage.Game) (*ui.File, string, error) {
	k := a.kinds[rec.Kind]
	if k == nil || k.replay == nil || rec.Active {
		return nil, "", nil
	}
	r, err := k.replay(a, rec)
	if err != nil || r == nil || r.frames() < 2 {
		return nil, "", err // one position is no replay (a game aborted before its first move)
	}
	f, err := replayFile(a.Render, r, a.Settings.BoardSize, MaxReplayBytes)
	return f, r.Caption, err
}

// replayFollowUp is the post that carries a finished game's replay in its
// thread (Effect.Replay: the file is drawn when it is delivered).
func replayFollowUp(rec *storage.Game) Effect {
	m := Message{Content: fmt.Sprintf("🎞 **Replay** of game %s", rec.ID)}
	return Effect{Op: OpPost, Channel: ChannelOfGame, Body: &m, Replay: true}
}

// replayAnswer answers the 🎞 Replay button of game rec: privately (so a
// click in a finished, archived thread or in someone's archive shows
// nobody else anything), the GIF of the whole game; refused while the game
// runs, so nothing secret is drawn before the end.
func (a *App) replayAnswer(rec *storage.Game) (*Response, error) {
	if rec.Active {
		return nil, Errorf("The replay is ready once the game is over.")
	}
	f, caption, err := a.replayOf(rec)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, errNoReplay
	}
	title := rec.Kind
	if k := a.kinds[rec.Kind]; k != nil {
		title = k.Title
	}
	text := fmt.Sprintf("🎞 Replay of %s game %s", title, rec.ID)
	if caption != "" {
		text += ": " + caption
	}
	text += "."
	if link := MessageLink(rec.GuildID, rec.ThreadID, rec.FinalMessage); link != "" {
		text += "\nFinal board: " + link
	}
	return &Response{Ephemeral: true, Message: Message{Content: text, Files: []*ui.File{f}}}, nil
}
