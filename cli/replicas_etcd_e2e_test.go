package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands/survival"
	"sandtable/internal/discordsim"
	"sandtable/internal/testkit"
	"sandtable/storage"
)

// Replicas behind a load balancer (docs/architecture.md, "Many processes",
// item 6): bot processes without a gateway, each serving the HTTP
// interactions endpoint, all on one etcd store; the fake Discord posts each
// interaction to a small load balancer in the test, which sends it to the
// replicas in turn (skipping one that refuses connections, as a balancer's
// health check would).

// balancer spreads the interactions over the replicas' endpoints.
type balancer struct {
	mu       sync.Mutex
	backends []string
	down     map[int]bool
	next     int
	client   *http.Client
	srv      *http.Server
	url      string
}

func startBalancer(t testing.TB, backends []string) *balancer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	b := &balancer{backends: backends, down: map[int]bool{}, client: &http.Client{Timeout: 2 * time.Minute},
		url: "http://" + ln.Addr().String() + "/interactions"}
	b.srv = &http.Server{Handler: b}
	go func() { _ = b.srv.Serve(ln) }()
	t.Cleanup(func() { _ = b.srv.Close() })
	return b
}

func (b *balancer) pick() (int, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for range b.backends {
		i := b.next % len(b.backends)
		b.next++
		if !b.down[i] {
			return i, true
		}
	}
	return 0, false
}

func (b *balancer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	for {
		i, ok := b.pick()
		if !ok {
			http.Error(w, "no replica", http.StatusBadGateway)
			return
		}
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, b.backends[i], bytes.NewReader(body))
		req.Header = r.Header.Clone()
		resp, err := b.client.Do(req)
		if errors.Is(err, syscall.ECONNREFUSED) {
			b.mu.Lock()
			b.down[i] = true // nothing sent: another replica takes it
			b.mu.Unlock()
			continue
		}
		if err != nil {
			// Sent, and the replica died with it: the interaction fails,
			// as Discord shows it; the player sends it again.
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
		resp.Body.Close()
		return
	}
}

// freePort is a loopback port nobody listens on (now).
func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startReplica starts a bot process serving the HTTP interactions endpoint
// on port (no gateway) and waits until it is ready.
func (r *procRig) startReplica(name string, port int) *proc {
	r.t.Helper()
	eps := make([]string, len(r.etcd.Endpoints()))
	for i, e := range r.etcd.Endpoints() {
		eps[i] = fmt.Sprintf("%q", e)
	}
	config := filepath.Join(r.dir, name+".toml")
	require.NoError(r.t, os.WriteFile(config, []byte(fmt.Sprintf(`
[discord]
token = %q
api_base = %q
public_key = %q
gateway = false
[storage]
backend = "etcd"
endpoints = [%s]
[outbox]
lease_ttl = %q
[http]
listen = "127.0.0.1:%d"
[log]
level = %q
[bot]
process_name = %q
`, r.srv.Token(), r.srv.URL(), r.srv.PublicKey(), strings.Join(eps, ", "), testLeaseTTL.String(), port, r.logLevel, name)), 0o600))
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SANDTABLE_MAIN_ARGS=run -config "+config)
	p := &proc{name: name, config: config, cmd: cmd, logs: &testkit.SyncBuffer{}}
	cmd.Stdout, cmd.Stderr = p.logs, p.logs
	require.NoError(r.t, cmd.Start())
	r.procs = append(r.procs, p)
	ready := fmt.Sprintf("http://127.0.0.1:%d/readyz", port)
	require.Eventually(r.t, func() bool {
		resp, err := http.Get(ready)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}, wait, 20*time.Millisecond, "%s is not ready; its log:\n%s", name, p.logs)
	return p
}

// TestThreeReplicasOnEtcdKillOne (long tier): three replicas on a
// three-member etcd behind the balancer play 24 Survival games at once, to
// a resignation each; a third of the way through the moves, one replica is
// killed (SIGKILL). A move whose interaction died with it is sent again by
// its player (refused as "not your turn" when the dead replica had
// committed it). Nothing is lost or doubled: every game stores exactly its
// plies and its resignation, and no public message shows twice. It logs
// the boards' lag (from the /move sent to the new board in the thread):
// the killed replica's boards wait for its lease to end.
func TestThreeReplicasOnEtcdKillOne(t *testing.T) {
	t.Parallel()
	r := newProcRig(t, 1, 0, 3)
	r.logLevel = "info"
	const games = 24
	line := survivalLine(t, testkit.Size(8, 12))
	ports := []int{freePort(t), freePort(t), freePort(t)}
	var backends []string
	for _, p := range ports {
		backends = append(backends, fmt.Sprintf("http://127.0.0.1:%d/interactions", p))
	}
	var replicas []*proc
	for i, port := range ports {
		replicas = append(replicas, r.startReplica(fmt.Sprintf("r%d", i), port))
	}
	lb := startBalancer(t, backends)
	r.srv.DeliverTo(lb.url)
	require.NoError(t, r.srv.WaitCommands(wait, r.gen.ID, "survival", "move"))

	var (
		applied  atomic.Int64 // moves applied, all games
		setUp    atomic.Int64 // games started
		killAt   = int64(games * len(line) / 3)
		killOnce sync.Once
		killedAt time.Time
		mu       sync.Mutex
		lags     []time.Duration
		inKill   []time.Duration // lags of the moves in flight at the kill
		resent   atomic.Int64    // moves sent again after a failed delivery
		refused  atomic.Int64    // moves sent again that the dead replica had applied
	)
	start := time.Now()
	threads := make([]*discordsim.Channel, games)
	var wg sync.WaitGroup
	for gi := range games {
		wg.Go(func() {
			white, black := r.srv.User(fmt.Sprintf("w%d", gi)), r.srv.User(fmt.Sprintf("b%d", gi))
			th, err := r.replicaGame(white, black)
			if err != nil {
				t.Errorf("game %d: %v", gi, err)
				return
			}
			threads[gi] = th
			setUp.Add(1)
			for ply, mv := range line {
				u := white
				if ply%2 == 1 {
					u = black
				}
				sent, lag, again, wasApplied, err := r.replicaMove(u, th, mv)
				if err != nil {
					t.Errorf("game %d ply %d: %v", gi, ply, err)
					return
				}
				resent.Add(int64(again))
				if wasApplied {
					refused.Add(1)
				}
				mu.Lock()
				if !killedAt.IsZero() && sent.Before(killedAt) && sent.Add(lag).After(killedAt) {
					inKill = append(inKill, lag) // in flight when the replica died
				} else {
					lags = append(lags, lag)
				}
				mu.Unlock()
				if applied.Add(1) >= killAt && setUp.Load() == games {
					killOnce.Do(func() {
						mu.Lock()
						killedAt = time.Now()
						mu.Unlock()
						replicas[1].kill()
						t.Logf("killed replica r1 after %d moves", applied.Load())
					})
				}
			}
			if err := r.replicaResign(black, th); err != nil {
				t.Errorf("game %d: resigning: %v", gi, err)
			}
		})
	}
	wg.Wait()
	played := time.Since(start)
	require.False(t, t.Failed(), "%s", r.allLogs())
	require.False(t, killedAt.IsZero(), "the replica was killed")

	r.delivered()
	for gi, th := range threads {
		r.postedOnce(th.ID)
		g := r.game(th.ID)
		var st survival.State
		require.NoError(t, json.Unmarshal(g.State, &st))
		require.Equal(t, line, st.Moves, "game %d: every ply applied once", gi)
		require.NotNil(t, g.Outcome, "game %d ended", gi)
		require.Equal(t, storage.Resignation, g.Outcome.Method)
	}
	r.postedOnce(r.gen.ID)

	q := func(ds []time.Duration, f float64) time.Duration {
		if len(ds) == 0 {
			return 0
		}
		ds = slices.Clone(ds)
		slices.Sort(ds)
		return ds[min(len(ds)-1, int(f*float64(len(ds))))].Round(time.Millisecond)
	}
	moves := len(lags) + len(inKill)
	t.Logf("%d games, %d moves in %s (%.1f moves/s); moves sent again: %d (of which applied before the kill: %d)",
		games, moves, played.Round(time.Millisecond), float64(moves)/played.Seconds(), resent.Load(), refused.Load())
	t.Logf("board lag (the /move first sent to its board in the thread): p50 %s, p99 %s, max %s over the %d moves not in flight at the kill; the %d in flight: p50 %s, max %s (lease TTL %s asked, etcd grants at least 6 s here)",
		q(lags, 0.5), q(lags, 0.99), q(lags, 1), len(lags), len(inKill), q(inKill, 0.5), q(inKill, 1), testLeaseTTL)
}

// replicaGame starts a Survival game between white and black: the game
// thread, once its first board is shown.
func (r *procRig) replicaGame(white, black *discordsim.User) (*discordsim.Channel, error) {
	in, err := r.srv.Slash(white, r.gen.ID, "survival challenge", discordsim.Opt("opponent", black), discordsim.Opt("color", "white"))
	if err != nil {
		return nil, err
	}
	ch, err := in.WaitMessage(wait, nil)
	if err != nil {
		return nil, err
	}
	var accept string
	for _, b := range ch.Buttons() {
		if b.Label == "Accept" {
			accept = b.CustomID
		}
	}
	click, err := r.srv.Click(black, ch, accept)
	if err != nil {
		return nil, err
	}
	acc, err := click.WaitAnswer(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "accepted") })
	if err != nil {
		return nil, err
	}
	link := regexp.MustCompile(`<#(\d+)>`).FindStringSubmatch(acc.Text())
	if link == nil {
		return nil, fmt.Errorf("no thread in %q", acc.Text())
	}
	th := r.srv.ChannelByID(link[1])
	if err := r.srv.WaitFor(wait, func() bool { return len(r.public(th.ID, "first move must be a promotion")) > 0 }); err != nil {
		return nil, err
	}
	return th, nil
}

// replicaMove plays mv as u in th, sending it again while its delivery
// fails (a replica dead), and waits for its board: when it was first sent,
// how long its board took from then, how many times it was sent again, and
// whether a dead replica had applied it (the last sending was refused as
// "not your turn").
func (r *procRig) replicaMove(u *discordsim.User, th *discordsim.Channel, mv string) (sent time.Time, lag time.Duration, again int, wasApplied bool, err error) {
	// The board in the thread: the live board edited in place (a new
	// version of its message), or a board posted anew.
	boards := func() map[string]int {
		versions := map[string]int{}
		for _, m := range r.srv.Messages(th.ID) {
			if !m.Ephemeral() && m.Attachment("board.png") != nil {
				versions[m.ID] = m.Version
			}
		}
		return versions
	}
	before := boards()
	sent = time.Now() // the first sending: what the player waits from
	for ; ; again++ {
		if again > 5 {
			return sent, 0, again, false, fmt.Errorf("move %s: no delivery in %d sendings", mv, again)
		}
		in, err := r.srv.Slash(u, th.ID, "move", discordsim.Opt("move", mv))
		if err != nil {
			return sent, 0, again, false, err
		}
		if err := r.srv.WaitFor(wait, func() bool { return in.Response() != nil || in.DeliveryError() != nil }); err != nil {
			return sent, 0, again, false, err
		}
		if in.Response() == nil {
			continue // the replica died with it: send again
		}
		m, err := in.WaitMessage(wait, nil)
		if err != nil {
			return sent, 0, again, false, err
		}
		if isPlayed(m) {
			break
		}
		if again > 0 && strings.Contains(m.Text(), "not your turn") {
			wasApplied = true
			break
		}
		return sent, 0, again, false, fmt.Errorf("move %s refused: %s", mv, m.Text())
	}
	if err := r.srv.WaitFor(wait, func() bool {
		for id, v := range boards() {
			if v > before[id] {
				return true
			}
		}
		return false
	}); err != nil {
		return sent, 0, again, wasApplied, fmt.Errorf("move %s: no new board: %w", mv, err)
	}
	return sent, time.Since(sent), again, wasApplied, nil
}

// replicaResign resigns u's game in th (the prompt, then Confirm).
func (r *procRig) replicaResign(u *discordsim.User, th *discordsim.Channel) error {
	in, err := r.srv.Slash(u, th.ID, "resign")
	if err != nil {
		return err
	}
	prompt, err := in.WaitMessage(wait, nil)
	if err != nil {
		return err
	}
	var confirm string
	for _, b := range prompt.Buttons() {
		if b.Label == "Confirm" {
			confirm = b.CustomID
		}
	}
	click, err := r.srv.Click(u, prompt, confirm)
	if err != nil {
		return err
	}
	res, err := click.WaitAnswer(wait, func(m *discordsim.Message) bool { return !strings.Contains(m.Text(), "Confirm within") })
	if err != nil {
		return err
	}
	if !strings.Contains(res.Text(), "resigned") {
		return fmt.Errorf("resign answered %q", res.Text())
	}
	return nil
}
