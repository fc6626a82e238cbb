package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
)

// wait is the deadline of every wait for a condition in this package's end-to-end tests (a
// child process's URL or answer, the bot's state, an exit). It only costs time when a test
// fails, so it is generous: under -race on a loaded 2-core machine a child bot can take many
// seconds to start.
const wait = 90 * time.Second

// TestMain lets a test run the real `sandtable` entry point in a child
// process: with SANDTABLE_MAIN_ARGS set, the test binary is sandtable.
func TestMain(m *testing.M) {
	if args := os.Getenv("SANDTABLE_MAIN_ARGS"); args != "" {
		os.Exit(dispatch(strings.Fields(args), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// child is `sandtable run` in another process (bbolt's file lock forbids a
// second open in one process, and a kill must be a real kill).
type child struct {
	cmd  *exec.Cmd
	logs *strings.Builder
}

func startChild(t *testing.T, config string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SANDTABLE_MAIN_ARGS=run -config "+config)
	logs := &strings.Builder{}
	cmd.Stdout = logs
	cmd.Stderr = logs
	require.NoError(t, cmd.Start())
	c := &child{cmd: cmd, logs: logs}
	t.Cleanup(func() { c.kill() })
	return c
}

func (c *child) kill() {
	if c.cmd.ProcessState == nil {
		_ = c.cmd.Process.Kill()
		_ = c.cmd.Wait()
	}
}

// TestRestartMidGame kills the bot (SIGKILL, no graceful shutdown) in the
// middle of a Survival game, starts it again on the same database, and
// finishes the game: nothing is lost and no move is applied twice.
func TestRestartMidGame(t *testing.T) {
	t.Parallel()
	srv := discordsim.Start(t, discordsim.Options{})
	dir := t.TempDir()
	config := filepath.Join(dir, "bot.toml")
	require.NoError(t, os.WriteFile(config, []byte(fmt.Sprintf(`
[discord]
token = %q
api_base = %q
[storage]
path = %q
[log]
level = "debug"
`, srv.Token(), srv.URL(), filepath.Join(dir, "bot.db"))), 0o600))

	bot := startChild(t, config)
	gen := srv.Channel("general")
	require.NoError(t, srv.WaitCommands(wait, gen.ID, "survival", "move"), "child log:\n%s", bot.logs)
	_, err := srv.WaitConnected(wait)
	require.NoError(t, err)

	alice, bob := srv.User("alice"), srv.User("bob")
	answer := func(u *discordsim.User, channelID, command string, opts ...discordsim.Option) *discordsim.Message {
		t.Helper()
		in, err := srv.Slash(u, channelID, command, opts...)
		require.NoError(t, err)
		m, err := in.WaitMessage(wait, nil)
		require.NoError(t, err, "child log:\n%s", bot.logs)
		return m
	}
	ch := answer(alice, gen.ID, "survival challenge", discordsim.Opt("opponent", bob), discordsim.Opt("color", "white"))
	var accept string
	for _, b := range ch.Buttons() {
		if b.Label == "Accept" {
			accept = b.CustomID
		}
	}
	in, err := srv.Click(bob, ch, accept)
	require.NoError(t, err)
	_, err = in.WaitMessage(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "accepted") })
	require.NoError(t, err)
	threads := srv.Threads(gen.ID)
	require.Len(t, threads, 1)
	thread := threads[0]

	moves := []string{"g7g8q", "e2e1k", "g8g6", "f7g6", "c7c8q", "e1f2"}
	players := []*discordsim.User{alice, bob}
	for i, mv := range moves[:3] {
		m := answer(players[i%2], thread.ID, "move", discordsim.Opt("move", mv))
		require.Contains(t, m.Text(), "You played", "the mover is answered privately")
	}

	// Kill the bot while a move is in flight: it is either applied (and
	// answered or not) or not applied at all, but never twice.
	inFlight, err := srv.Slash(bob, thread.ID, "move", discordsim.Opt("move", moves[3]))
	require.NoError(t, err)
	bot.kill()

	// A command sent while the bot is down is lost: checked at the end,
	// once the restarted bot has answered the commands sent after it.
	down, err := srv.Slash(alice, thread.ID, "board")
	require.NoError(t, err)

	// Wait for the new process's own gateway session: the killed one's may
	// still look connected, and an interaction sent to it is lost.
	before := len(srv.GatewaySessions())
	bot = startChild(t, config)
	require.NoError(t, srv.WaitFor(wait, func() bool {
		ss := srv.GatewaySessions()
		return len(ss) > before && ss[len(ss)-1].Connected
	}), "child log:\n%s", bot.logs)
	if r := inFlight.Response(); r != nil {
		t.Logf("the in-flight move was answered before the kill")
	}

	// Resend the in-flight move: applied now if it was lost, refused
	// clearly if it had been applied before the kill.
	m := answer(bob, thread.ID, "move", discordsim.Opt("move", moves[3]))
	if !strings.HasPrefix(m.Text(), "You played") {
		require.Contains(t, m.Text(), "It is not your turn", "the refused resend must say why")
	}
	board := answer(alice, thread.ID, "board")
	require.Contains(t, board.Text(), "2... fxg6", "every move before the restart is still there, once")

	for i, mv := range moves[4:] {
		m := answer(players[i%2], thread.ID, "move", discordsim.Opt("move", mv))
		require.Contains(t, m.Text(), "You played", "the mover is answered privately")
	}
	board = answer(bob, thread.ID, "board")
	require.Contains(t, board.Text(), "3... Kxf2")
	require.Contains(t, board.Text(), "move 4", "White to play move 4: six plies applied exactly once")
	require.Nil(t, down.Response(), "the command sent while the bot was down got an answer")
	require.Empty(t, srv.CallsTo("/interactions/"+down.ID+"/**"), "the bot answered the command sent while it was down")
}

// TestKillBeforeTheFirstBoard kills the bot (SIGKILL) after it saved a new
// game whose first board Discord refused (a 500): the game, its thread and
// the board's delivery survive the kill; the restarted bot posts the board
// once, and there is still one game and one thread.
func TestKillBeforeTheFirstBoard(t *testing.T) {
	t.Parallel()
	// The bot runs in a child process, killed with SIGKILL (newKillRig).
	r := newKillRig(t)
	srv, gen := r.srv, r.gen

	alice, bob := srv.User("alice"), srv.User("bob")
	in, err := srv.Slash(alice, gen.ID, "survival challenge", discordsim.Opt("opponent", bob), discordsim.Opt("color", "white"))
	require.NoError(t, err)
	ch, err := in.WaitMessage(wait, nil)
	require.NoError(t, err)
	var accept string
	for _, b := range ch.Buttons() {
		if b.Label == "Accept" {
			accept = b.CustomID
		}
	}
	srv.ServerErrorNext("POST /channels/*/messages", 1)
	in, err = srv.Click(bob, ch, accept)
	require.NoError(t, err)
	_, err = in.WaitMessage(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "accepted") })
	require.NoError(t, err)
	require.NoError(t, srv.WaitFor(wait, func() bool { return len(srv.CallsTo("POST /channels/*/messages")) > 0 }))
	r.restart()

	threads := srv.Threads(gen.ID)
	require.Len(t, threads, 1)
	thread := threads[0]
	first := func() []*discordsim.Message {
		var out []*discordsim.Message
		for _, m := range srv.Messages(thread.ID) {
			if strings.Contains(m.Text(), "(White) vs") { // the first board, or its compact line
				out = append(out, m)
			}
		}
		return out
	}
	require.NoError(t, srv.WaitFor(wait, func() bool { return len(first()) > 0 }), "child log:\n%s", r.bot.logs)
	in, err = srv.Slash(alice, thread.ID, "move", discordsim.Opt("move", "g7g8q"))
	require.NoError(t, err)
	m, err := in.WaitMessage(wait, nil)
	require.NoError(t, err)
	require.Contains(t, m.Text(), "You played", "the move is applied")
	require.Len(t, first(), 1, "the board was posted once")
	require.Len(t, srv.Threads(gen.ID), 1, "one thread")
}
