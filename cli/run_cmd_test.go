package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/internal/testkit"
)

var urlLine = regexp.MustCompile(`http://127\.0\.0\.1:(\d+)/`)

// readURL reads lines from r until one holds the playground's URL.
func readURL(t *testing.T, r io.Reader, timeout time.Duration) string {
	t.Helper()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if m := urlLine.FindString(sc.Text()); m != "" {
				found <- m
				io.Copy(io.Discard, r)
				return
			}
		}
		close(found)
	}()
	select {
	case u, ok := <-found:
		require.True(t, ok, "standard output ended without a URL")
		return u
	case <-time.After(timeout):
		t.Fatalf("no URL on standard output after %v", timeout)
		return ""
	}
}

// botState returns the playground's bot state and the version a long poll compares.
func botState(t *testing.T, base string) (string, uint64) {
	t.Helper()
	resp, err := http.Get(base + "api/status")
	require.NoError(t, err)
	defer resp.Body.Close()
	var st struct {
		Bot     struct{ State string } `json:"bot"`
		Version uint64                 `json:"version"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&st))
	return st.Bot.State, st.Version
}

// waitBotState waits until the bot's state is want, long-polling the playground for each
// change as the page does.
func waitBotState(t *testing.T, base, want string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	for {
		state, version := botState(t, base)
		if state == want {
			return
		}
		req, err := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("%sapi/poll?since=%d", base, version), nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		if ctx.Err() != nil {
			t.Fatalf("bot state is still %q after %v, want %q", state, wait, want)
		}
		require.NoError(t, err)
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
	}
}

func TestRunWithoutTokenStartsThePlayground(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.toml")
	require.NoError(t, os.WriteFile(cfg, []byte(fmt.Sprintf("[storage]\npath = %q\n[playground]\nport = 0\ndatabase = %q\n",
		filepath.Join(dir, "bot.db"), filepath.Join(dir, "pg.db"))), 0o600))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hold := make(chan struct{})
	errOut := &testkit.SyncBuffer{}
	outR, code := startRun(ctx, []string{"-config", cfg}, errOut, hold)
	base := readURL(t, outR, wait)

	// The page is served while the bot has not even started connecting.
	resp, err := http.Get(base)
	require.NoError(t, err)
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	require.Contains(t, string(page), "<title>SandTable Playground</title>")
	state, _ := botState(t, base)
	require.Equal(t, "connecting", state)
	require.Contains(t, errOut.String(), "no Discord token configured")
	require.Contains(t, errOut.String(), "starting the local playground")

	close(hold)
	waitBotState(t, base, "ready")

	cancel()
	select {
	case c := <-code:
		require.Equal(t, 0, c, "stderr:\n%s", errOut)
	case <-time.After(wait):
		t.Fatal("the playground did not stop")
	}
	_, err = os.Stat(filepath.Join(dir, "pg.db"))
	require.NoError(t, err, "the playground database is created")
	_, err = os.Stat(filepath.Join(dir, "bot.db"))
	require.True(t, os.IsNotExist(err), "the playground never opens storage.path, the database of the bot on Discord")
}

func TestPlaygroundFlagForcesThePlayground(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.toml")
	require.NoError(t, os.WriteFile(cfg, []byte(fmt.Sprintf("[discord]\ntoken = \"real-token\"\n[playground]\nport = 0\ndatabase = %q\n",
		filepath.Join(dir, "pg.db"))), 0o600))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errOut := &testkit.SyncBuffer{}
	outR, code := startRun(ctx, []string{"-config", cfg, "-playground"}, errOut, nil)
	base := readURL(t, outR, wait)
	waitBotState(t, base, "ready")
	require.NotContains(t, errOut.String(), "no Discord token", "with -playground there is nothing to explain")
	cancel()
	require.Equal(t, 0, <-code, "stderr:\n%s", errOut)
}

// TestRunWritesACPUProfile: -cpuprofile writes a profile that is complete
// when the bot stops.
func TestRunWritesACPUProfile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.toml")
	require.NoError(t, os.WriteFile(cfg, []byte(fmt.Sprintf("[playground]\nport = 0\ndatabase = %q\n", filepath.Join(dir, "pg.db"))), 0o600))
	prof := filepath.Join(dir, "cpu.prof")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errOut := &testkit.SyncBuffer{}
	outR, code := startRun(ctx, []string{"-config", cfg, "-cpuprofile", prof}, errOut, nil)
	waitBotState(t, readURL(t, outR, wait), "ready")
	cancel()
	require.Equal(t, 0, <-code, "stderr:\n%s", errOut)
	data, err := os.ReadFile(prof)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(data, []byte{0x1f, 0x8b}), "a gzipped pprof profile")

	require.Equal(t, 2, runWith(context.Background(), []string{"-config", cfg, "-cpuprofile", filepath.Join(dir, "no", "such", "dir")}, io.Discard, errOut, nil))
	require.Contains(t, errOut.String(), "-cpuprofile")
}

// TestPlaygroundOverHTTPInteractions: -http-interactions runs the playground's bot without a
// gateway, behind its HTTP endpoint; without the playground it is refused.
func TestPlaygroundOverHTTPInteractions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.toml")
	require.NoError(t, os.WriteFile(cfg, []byte(fmt.Sprintf("[discord]\ntoken = \"real-token\"\n[playground]\nport = 0\ndatabase = %q\n",
		filepath.Join(dir, "pg.db"))), 0o600))
	errOut := &testkit.SyncBuffer{}
	require.Equal(t, 2, runWith(context.Background(), []string{"-config", cfg, "-http-interactions"}, io.Discard, errOut, nil))
	require.Contains(t, errOut.String(), "-http-interactions is for the playground")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, code := startRun(ctx, []string{"-config", cfg, "-playground", "-http-interactions"}, errOut, nil)
	base := readURL(t, outR, wait)
	go io.Copy(io.Discard, outR)
	waitBotState(t, base, "ready")
	cancel()
	require.Equal(t, 0, <-code, "stderr:\n%s", errOut)
}

// TestGoRunStartsThePlayground runs the real entry point as `go run .` does, in a directory
// with no config file and no token: it prints the URL, serves the page, picks another port
// when the default one is taken, and stops cleanly on Ctrl-C (SIGINT).
func TestGoRunStartsThePlayground(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// Hold the default port, so the playground must pick another and say so.
	if ln, err := net.Listen("tcp", "127.0.0.1:8765"); err == nil {
		defer ln.Close()
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Dir = dir
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISCORD_TOKEN=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "SANDTABLE_MAIN_ARGS=run")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	stderr := &testkit.SyncBuffer{}
	cmd.Stderr = stderr
	start := time.Now()
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	base := readURL(t, stdout, wait)
	t.Logf("URL printed %v after the process started", time.Since(start).Round(time.Millisecond))
	resp, err := http.Get(base)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	require.NotEqual(t, "http://127.0.0.1:8765/", base, "the default port is taken")
	require.Contains(t, stderr.String(), "Port 8765 is in use; the playground uses port")
	waitBotState(t, base, "ready")

	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		require.NoError(t, err, "a clean exit on Ctrl-C; stderr:\n%s", stderr)
	case <-time.After(wait):
		t.Fatalf("no exit %v after SIGINT; stderr:\n%s", wait, stderr)
	}
	require.Contains(t, stderr.String(), "the playground is saved")
	_, err = os.Stat(filepath.Join(dir, "playground.db"))
	require.NoError(t, err, "the default playground database is in the working directory")
}

func TestASecondPlaygroundOnTheSameDatabaseSaysSo(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.toml")
	require.NoError(t, os.WriteFile(cfg, []byte(fmt.Sprintf("[playground]\nport = 0\ndatabase = %q\n", filepath.Join(dir, "pg.db"))), 0o600))
	t.Setenv("DISCORD_TOKEN", "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, code := startRun(ctx, []string{"-config", cfg}, io.Discard, nil)
	readURL(t, outR, wait)

	// The second one runs in another process (bbolt locks the file per process).
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SANDTABLE_MAIN_ARGS=run -config "+cfg)
	out, err := cmd.CombinedOutput()
	require.Error(t, err)
	require.Equal(t, 1, cmd.ProcessState.ExitCode())
	require.Contains(t, string(out), "another playground is running on "+filepath.Join(dir, "pg.db"))
	cancel()
	require.Equal(t, 0, <-code)
}

// TestRunOnAnUnreachableEtcd: with storage.backend = "etcd" and no cluster
// at the endpoints, the bot stops at once, naming them.
func TestRunOnAnUnreachableEtcd(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "bot.toml")
	require.NoError(t, os.WriteFile(cfg, []byte(`[discord]
token = "x"
[storage]
backend = "etcd"
endpoints = ["http://127.0.0.1:1"]
dial_timeout = "300ms"
`), 0o600))
	var out, errOut bytes.Buffer
	code := runWith(context.Background(), []string{"-config", cfg}, &out, &errOut, nil)
	require.Equal(t, 1, code)
	require.Contains(t, errOut.String(), "etcd http://127.0.0.1:1 does not answer")
}

// TestPlaygroundSaysItIgnoresEtcd: with storage.backend = "etcd" in the config, the playground
// still runs on its own bbolt file (its games never reach the bot on Discord) and says so,
// instead of silently leaving the cluster untouched.
func TestPlaygroundSaysItIgnoresEtcd(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.toml")
	require.NoError(t, os.WriteFile(cfg, []byte(fmt.Sprintf("[storage]\nbackend = \"etcd\"\nendpoints = [\"http://127.0.0.1:1\"]\n[playground]\nport = 0\ndatabase = %q\n",
		filepath.Join(dir, "pg.db"))), 0o600))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errOut := &testkit.SyncBuffer{}
	outR, code := startRun(ctx, []string{"-config", cfg}, errOut, nil)
	base := readURL(t, outR, wait)
	go io.Copy(io.Discard, outR)
	waitBotState(t, base, "ready")
	require.Contains(t, errOut.String(), "storage.backend = \"etcd\" is for the bot on Discord and is not used here")
	cancel()
	require.Equal(t, 0, <-code, "stderr:\n%s", errOut)
	_, err := os.Stat(filepath.Join(dir, "pg.db"))
	require.NoError(t, err, "the playground runs on its own file")
}

// TestRunOnAnUnopenableDatabase: a storage.path that cannot be opened stops
// the bot with an error naming the key and the file once.
func TestRunOnAnUnopenableDatabase(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "bot.toml")
	db := filepath.Join(dir, "no-such-dir", "bot.db")
	require.NoError(t, os.WriteFile(cfg, []byte(fmt.Sprintf("[discord]\ntoken = \"x\"\n[storage]\npath = %q\n", db)), 0o600))
	var out, errOut bytes.Buffer
	code := runWith(context.Background(), []string{"-config", cfg}, &out, &errOut, nil)
	require.Equal(t, 1, code)
	require.Contains(t, errOut.String(), "storage.path: ")
	require.Equal(t, 1, strings.Count(errOut.String(), db), errOut.String())
}

// startRun runs `sandtable run` with args in this process until ctx ends:
// its standard output is outR (read it, or the run blocks), its exit code
// arrives on code.
func startRun(ctx context.Context, args []string, stderr io.Writer, hold chan struct{}) (outR *io.PipeReader, code chan int) {
	outR, outW := io.Pipe()
	code = make(chan int, 1)
	go func() {
		code <- runWith(ctx, args, outW, stderr, hold)
		outW.Close()
	}()
	return outR, code
}
