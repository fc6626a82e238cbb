package commands

import (
	"fmt"
	"time"

	"sandtable/commands/replay"
	"sandtable/commands/ui"
	"sandtable/storage"
)

// Replay is a finished game's replay (see package commands/replay).
type Replay = replay.Replay

// MaxReplayBytes bounds a replay file (replay.MaxBytes).
const MaxReplayBytes = replay.MaxBytes

// ReplayAction is the custom ID action of the 🎞 Replay button.
const ReplayAction = "replay"

// ReplayDelay is how long after the end of a game its replay follows: the
// ending action's own posts and answer come first.
const ReplayDelay = 5 * time.Second

// ReplayButton is the 🎞 Replay button of game g's final board: it sends
// the game's replay privately.
func ReplayButton(g *storage.Game) ui.Button {
	b := GameButton(g, ReplayAction, "Replay", ui.Secondary)
	b.Emoji = "🎞"
	return b
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
	if err != nil || r == nil || r.Frames() < 2 {
		return nil, "", err // one position is no replay (a game aborted before its first move)
	}
	f, err := replay.File(a.Render, r, a.Settings.BoardSize, MaxReplayBytes)
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
