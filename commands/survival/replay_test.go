package survival

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/games/chess"
	"sandtable/storage"
)

// TestSurvivalReplay: a finished game's replay follows its end in the
// thread, an animated GIF with one frame per position (the start and every
// ply), drawn when delivered: the outbox holds no image. The final board's
// 🎞 Replay button sends the same privately; before the end it is refused.
func TestSurvivalReplay(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	moves := []string{"a1a2", "h8g8", "a2a1"}
	id := putGame(t, store, kingsShuffle, moves...)

	_, err := a.Handle(click(carol, "g:"+id+":replay"))
	require.Contains(t, userMsg(t, err), "once the game is over", "no replay of a running game")

	_, err = commandstest.Confirm(t, a, cmd(bob, "resign", "", nil))
	require.NoError(t, err)
	final := liveBoard(t, a, p) // delivers what is due at t0
	require.Equal(t, "g:"+id+":replay", commandstest.ButtonOf(t, final, "Replay"), "the final board offers the replay")
	gifs, _ := p.GIFs()
	require.Empty(t, gifs, "the replay follows the final board, a moment later")

	// What waits in the outbox is a flag, not an image.
	var queued []storage.Pending
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		var err error
		queued, err = tx.Outbox().HeadsFor("nobody", t0.Add(time.Hour), 100)
		return err
	}))
	require.Len(t, queued, 1)
	require.Contains(t, string(queued[0].Effect), `"replay":true`)
	require.Less(t, len(queued[0].Effect), 2000, "no file in the outbox")

	commandstest.Deliver(t, a, t0.Add(commands.ReplayDelay))
	gifs, posts := p.GIFs()
	require.Len(t, gifs, 1, "one replay")
	require.Equal(t, "th1", posts[0].Channel, "in the game's thread")
	require.Contains(t, posts[0].Msg.Content, "Replay")
	require.Contains(t, posts[0].Msg.Content, "4 positions")
	if dir := os.Getenv("SANDTABLE_DUMP"); dir != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "survival-replay.gif"), gifs[0].Data, 0o600))
	}
	frames := commandstest.GIFFrames(t, gifs[0].Data)
	require.Len(t, frames, len(moves)+1, "the start and every ply")
	for i := 1; i < len(frames); i++ {
		require.False(t, bytes.Equal(frames[i-1].Pix, frames[i].Pix), "frame %d shows ply %d", i, i)
	}

	r, err := a.Handle(click(carol, "g:"+id+":replay"))
	require.NoError(t, err)
	require.True(t, r.Ephemeral, "on request, only the asker sees it")
	require.Len(t, r.Files, 1)
	require.Equal(t, "image/gif", r.Files[0].ContentType)
	require.True(t, strings.HasSuffix(r.Files[0].Name, ".gif"))
	require.Len(t, commandstest.GIFFrames(t, r.Files[0].Data), len(moves)+1)
	require.Contains(t, r.Content, "Survival Chess")

	// Nothing else posted: the closing comes after ArchiveDelay.
	commandstest.Deliver(t, a, t0.Add(commands.ArchiveDelay))
	gifs, _ = p.GIFs()
	require.Len(t, gifs, 1, "the replay is posted once")
}

// TestSurvivalReplayFrames: the frames are the positions of the game, each
// with its move highlighted, from White's side.
func TestSurvivalReplayFrames(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	id := putGame(t, store, "8/8/8/8/8/8/1p6/K7 w - - 0 1")
	_, err := a.Handle(cmd(alice, "move", "", map[string]string{"move": "Kxb2"}))
	require.NoError(t, err)
	g, st := load(t, store, id)
	require.False(t, g.Active)
	rp, err := replay(&commands.Turn[*State]{Game: g, State: st})
	require.NoError(t, err)
	require.Len(t, rp.Chess, 2)
	require.NotZero(t, rp.Chess[0].Squares[9].Kind, "the start: Black's pawn on b2")
	require.Zero(t, rp.Chess[1].Squares[0].Kind, "after Kxb2: a1 empty")
	require.Len(t, rp.Chess[1].LastMove, 2, "the move highlighted")
	require.False(t, rp.Chess[1].Flipped)
}

// longGame is a legal Survival game of plies plies from the Tartan Grid
// start (random moves, the first seed that lasts).
func longGame(t testing.TB, plies int) []string {
	t.Helper()
	for seed := uint64(1); seed < 200; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		g := chess.NewGame(chess.Survival)
		var moves []string
		for len(moves) < plies && !g.Status().Over() {
			legal := g.Position().LegalMoves()
			m := legal[rng.IntN(len(legal))]
			require.NoError(t, g.Play(m))
			moves = append(moves, m.UCI())
		}
		if len(moves) == plies {
			return moves
		}
	}
	t.Fatalf("no random game of %d plies", plies)
	return nil
}

// BenchmarkSurvivalReplay: the 🎞 Replay button of a finished 100-ply game
// at the bot's board size (640 px: frames of 480 px): the stored game
// decoded, replayed, every frame drawn and the GIF encoded.
func BenchmarkSurvivalReplay(b *testing.B) {
	a, _, store := newApp(b)
	a.Settings.BoardSize = 640
	moves := longGame(b, 100)
	id := putGame(b, store, chess.Survival.StartFEN(), moves...)
	_, err := commandstest.Confirm(b, a, cmd(alice, "resign", "", nil))
	require.NoError(b, err)
	req := click(carol, "g:"+id+":replay")
	var size int
	for b.Loop() {
		r, err := a.Handle(req)
		if err != nil {
			b.Fatal(err)
		}
		size = len(r.Files[0].Data)
	}
	b.ReportMetric(float64(size), "bytes")
}
