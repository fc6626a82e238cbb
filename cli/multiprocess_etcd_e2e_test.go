package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	sandflow "sandtable/commands/sandtable"
	"sandtable/games/sandtable"
	"sandtable/internal/discordsim"
	"sandtable/internal/etcdtest"
	"sandtable/internal/testkit"
	"sandtable/storage"
)

// Several bot processes on one etcd store (docs/architecture.md, "Many
// processes"): each a real `sandtable run` in a child process, with its own
// shards, against one fake Discord and a real etcd cluster in this process.

// testLeaseTTL is the processes' outbox.lease_ttl: the effects of a killed
// process are taken over once its lease ends (etcdtest's slow elections
// make etcd grant at least 6 s).
const testLeaseTTL = 5 * time.Second

// proc is one bot process serving shards.
type proc struct {
	name   string
	shards []int
	config string
	cmd    *exec.Cmd
	logs   *testkit.SyncBuffer
	dead   bool
}

// kill ends p with SIGKILL (no shutdown, no hand-over).
func (p *proc) kill() {
	if !p.dead {
		p.dead = true
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
	}
}

// handled reports whether p handled the interaction in (its log names it).
func (p *proc) handled(in *discordsim.Interaction) bool {
	return strings.Contains(p.logs.String(), "interaction="+in.ID+" ")
}

// procRig is a fake Discord with shard_count count and a server on one of
// its shards, an etcd cluster, and the bot processes of a test.
type procRig struct {
	t     testing.TB
	srv   *discordsim.Server
	etcd  *etcdtest.Cluster // nil: the processes' store is a bbolt file (one process)
	store *storage.Etcd     // the test's own view of the bots' store
	count int
	gen   *discordsim.Channel // the text channel of the server on the game's shard
	dir   string
	procs []*proc
	// logLevel is the processes' log.level ("debug": the tests read which
	// process handled what).
	logLevel string
	// args, when set, gives more `sandtable run` arguments for the
	// process name.
	args func(name string) string
}

// newProcRig starts a fake Discord whose server "Far Server" is on shard
// gameShard of count, and an etcd cluster of members members.
// With members 0, the processes use a bbolt file (one process only).
func newProcRig(t testing.TB, count, gameShard, members int) *procRig {
	t.Helper()
	testkit.SkipUnlessLong(t, "bot processes on an etcd cluster")
	srv := discordsim.Start(t, discordsim.Options{})
	g, err := srv.AddGuildOnShard("Far Server", gameShard, count, "war")
	require.NoError(t, err)
	r := &procRig{t: t, srv: srv, count: count, gen: srv.Channels(g.ID)[0], dir: t.TempDir(), logLevel: "debug"}
	if members > 0 {
		r.etcd = etcdtest.StartCluster(t, members)
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		r.store, err = storage.OpenEtcd(ctx, storage.EtcdOptions{Endpoints: r.etcd.Endpoints()})
		require.NoError(t, err)
	}
	t.Cleanup(func() {
		for _, p := range r.procs {
			p.kill()
		}
		if r.store != nil {
			_ = r.store.Close()
		}
	})
	return r
}

// start starts the bot process name serving shards and waits until each of
// its shards has a connected gateway session.
func (r *procRig) start(name string, shards ...int) *proc {
	r.t.Helper()
	ids := make([]string, len(shards))
	for i, s := range shards {
		ids[i] = fmt.Sprint(s)
	}
	store := fmt.Sprintf("backend = \"bbolt\"\npath = %q", filepath.Join(r.dir, "bot.db"))
	if r.etcd != nil {
		eps := make([]string, len(r.etcd.Endpoints()))
		for i, e := range r.etcd.Endpoints() {
			eps[i] = fmt.Sprintf("%q", e)
		}
		store = fmt.Sprintf("backend = \"etcd\"\nendpoints = [%s]", strings.Join(eps, ", "))
	}
	config := filepath.Join(r.dir, name+".toml")
	require.NoError(r.t, os.WriteFile(config, []byte(fmt.Sprintf(`
[discord]
token = %q
api_base = %q
shard_count = %d
shard_ids = [%s]
[storage]
%s
[outbox]
lease_ttl = %q
[log]
level = %q
[bot]
process_name = %q
`, r.srv.Token(), r.srv.URL(), r.count, strings.Join(ids, ", "), store, testLeaseTTL.String(), r.logLevel, name)), 0o600))
	before := len(r.srv.GatewaySessions())
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	args := "run -config " + config
	if r.args != nil {
		args += " " + r.args(name)
	}
	cmd.Env = append(os.Environ(), "SANDTABLE_MAIN_ARGS="+args)
	p := &proc{name: name, shards: shards, config: config, cmd: cmd, logs: &testkit.SyncBuffer{}}
	cmd.Stdout, cmd.Stderr = p.logs, p.logs
	require.NoError(r.t, cmd.Start())
	r.procs = append(r.procs, p)
	require.NoError(r.t, r.srv.WaitFor(wait, func() bool {
		ss := r.srv.GatewaySessions()
		for _, s := range shards {
			found := false
			for _, gs := range ss[before:] {
				if gs.Shard == [2]int{s, r.count} && gs.Connected {
					found = true
				}
			}
			if !found {
				return false
			}
		}
		return true
	}), "%s did not connect; its log:\n%s", name, p.logs)
	require.NoError(r.t, r.srv.WaitCommands(wait, r.gen.ID, "sandtable", "move"), "log:\n%s", r.allLogs())
	return p
}

// restart starts p again (after a kill), with its shards and name.
func (r *procRig) restart(p *proc) *proc {
	r.t.Helper()
	return r.start(p.name, p.shards...)
}

// allLogs is every process's log, for failure messages.
func (r *procRig) allLogs() string {
	var b strings.Builder
	for _, p := range r.procs {
		fmt.Fprintf(&b, "=== %s (dead: %v)\n%s\n", p.name, p.dead, p.logs)
	}
	return b.String()
}

// handler waits for the process whose log names the interaction in (it
// logs the outcome after answering) and returns it; nil if none does.
func (r *procRig) handler(in *discordsim.Interaction) *proc {
	var by *proc
	_ = r.srv.WaitFor(wait, func() bool {
		for _, p := range r.procs {
			if p.handled(in) {
				by = p
			}
		}
		return by != nil
	})
	return by
}

// answer runs a slash command and waits for its answer.
func (r *procRig) answer(u *discordsim.User, channelID, command string, opts ...discordsim.Option) (*discordsim.Interaction, *discordsim.Message) {
	r.t.Helper()
	in, err := r.srv.Slash(u, channelID, command, opts...)
	require.NoError(r.t, err)
	m, err := in.WaitMessage(wait, nil)
	require.NoError(r.t, err, "%s", r.allLogs())
	return in, m
}

// press clicks the button labelled label on m (as it is now) and waits for
// an answer satisfying pred (nil: any).
func (r *procRig) press(u *discordsim.User, m *discordsim.Message, label string, pred func(*discordsim.Message) bool) (*discordsim.Interaction, *discordsim.Message) {
	r.t.Helper()
	m = r.srv.Message(m.ID)
	in, err := r.srv.Click(u, m, button(r.t, m, label))
	require.NoError(r.t, err)
	got, err := in.WaitAnswer(wait, pred)
	require.NoError(r.t, err, "%s", r.allLogs())
	return in, got
}

// public returns the public messages of channelID containing substr.
func (r *procRig) public(channelID, substr string) []*discordsim.Message {
	var out []*discordsim.Message
	for _, m := range r.srv.Messages(channelID) {
		if !m.Ephemeral() && strings.Contains(m.Text(), substr) {
			out = append(out, m)
		}
	}
	return out
}

// waitPublic waits until channelID holds a public message containing substr.
func (r *procRig) waitPublic(channelID, substr string) {
	r.t.Helper()
	require.NoError(r.t, r.srv.WaitFor(wait, func() bool { return len(r.public(channelID, substr)) > 0 }),
		"no %q in the channel\n%s", substr, r.allLogs())
}

// lastDM waits for the newest message u sees in their DMs containing substr.
func (r *procRig) lastDM(u *discordsim.User, substr string) *discordsim.Message {
	r.t.Helper()
	var found *discordsim.Message
	require.NoError(r.t, r.srv.WaitFor(wait, func() bool {
		found = nil
		for _, m := range r.srv.VisibleMessages(u, r.srv.DM(u).ID) {
			if strings.Contains(m.Text(), substr) {
				found = m
			}
		}
		return found != nil
	}), "no DM to %s with %q\n%s", u.Name, substr, r.allLogs())
	return found
}

// game reads the stored game of the thread channelID.
func (r *procRig) game(channelID string) *storage.Game {
	r.t.Helper()
	var g *storage.Game
	require.NoError(r.t, r.store.View(context.Background(), func(tx storage.Tx) error {
		var err error
		g, err = tx.Games().ByChannel(channelID)
		return err
	}))
	return g
}

// sandPos reads the SandTable position and recent log of the thread's game.
func (r *procRig) sandPos(channelID string) (*sandtable.Position, []sandtable.Entry) {
	r.t.Helper()
	pos, log, err := sandflow.Load(r.game(channelID))
	require.NoError(r.t, err)
	return pos, log
}

// delivered waits until the outbox holds nothing but copies of answers
// (which the processes that answered drop when due, without posting
// them): every effect of the games is performed.
func (r *procRig) delivered() {
	r.t.Helper()
	require.NoError(r.t, r.srv.WaitFor(wait, func() bool {
		var heads []storage.Pending
		if err := r.store.View(context.Background(), func(tx storage.Tx) error {
			var err error
			heads, err = tx.Outbox().Heads(time.Now().Add(24*time.Hour), 1<<20)
			return err
		}); err != nil {
			return false
		}
		for _, h := range heads {
			if !strings.HasPrefix(h.Stream, "answer-") {
				return false
			}
		}
		return true
	}), "effects left in the outbox\n%s", r.allLogs())
}

// drained waits until the outbox is empty: answer copies too, which a
// process that died leaves to be reconciled by another once their claims
// run out (30 s after the answer, plus the claim).
func (r *procRig) drained() {
	r.t.Helper()
	require.NoError(r.t, r.srv.WaitFor(wait, func() bool {
		n := -1
		_ = r.store.View(context.Background(), func(tx storage.Tx) error {
			var err error
			n, err = tx.Outbox().Len()
			return err
		})
		return n == 0
	}), "the outbox is not empty\n%s", r.allLogs())
}

// postedOnce fails the test when the bot shows the same public message
// twice in channelID (answers and posts alike; messages with buttons
// compared by text too).
func (r *procRig) postedOnce(channelID string) {
	r.t.Helper()
	seen := map[string]string{}
	for _, m := range r.srv.Messages(channelID) {
		if m.Author == nil || m.Author.ID != r.srv.Bot().ID || m.Ephemeral() {
			continue
		}
		other, dup := seen[m.Text()]
		require.False(r.t, dup, "shown twice (messages %s and %s): %q", other, m.ID, m.Text())
		seen[m.Text()] = m.ID
	}
}

// sandStart challenges north as south in the rig's channel and accepts:
// the game thread, once its deployment status is posted.
func (r *procRig) sandStart(south, north *discordsim.User, opts ...discordsim.Option) (thread *discordsim.Channel, challenge, accept *discordsim.Interaction) {
	r.t.Helper()
	opts = append([]discordsim.Option{discordsim.Opt("opponent", north)}, opts...)
	challenge, ch := r.answer(south, r.gen.ID, "sandtable challenge", opts...)
	require.False(r.t, ch.Ephemeral(), ch.Text())
	accept, acc := r.press(north, ch, "Accept", func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "accepted") })
	link := regexp.MustCompile(`<#(\d+)>`).FindStringSubmatch(acc.Text())
	require.NotNil(r.t, link, acc.Text())
	thread = r.srv.ChannelByID(link[1])
	r.waitPublic(thread.ID, "SandTable Chess: Deployment")
	return thread, challenge, accept
}

// sandDeploy loads the phalanx preset in u's deployment panel (a direct
// message) and confirms it: the interactions, select and Confirm.
func (r *procRig) sandDeploy(u *discordsim.User) []*discordsim.Interaction {
	r.t.Helper()
	p := r.lastDM(u, "Your secret deployment")
	sel, err := r.srv.Select(u, p, selectID(r.t, p), "phalanx")
	require.NoError(r.t, err)
	_, err = sel.WaitResponse(wait)
	require.NoError(r.t, err)
	require.NoError(r.t, r.srv.WaitFor(wait, func() bool { return strings.Contains(r.srv.Message(p.ID).Text(), "Preset **phalanx** loaded") }))
	conf, _ := r.press(u, p, "Confirm", func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "onfirmed") })
	return []*discordsim.Interaction{sel, conf}
}

// sandPlayer is the user playing side.
func sandPlayer(side sandtable.Side, south, north *discordsim.User) *discordsim.User {
	if side == sandtable.North {
		return north
	}
	return south
}

// sandMain plays the first legal one-step Main action of the side to move
// with /move: the interaction.
func (r *procRig) sandMain(thread *discordsim.Channel, south, north *discordsim.User) *discordsim.Interaction {
	r.t.Helper()
	p, _ := r.sandPos(thread.ID)
	require.Equal(r.t, sandtable.PhaseMain, p.Phase())
	steps, err := p.LegalNextSteps(nil)
	require.NoError(r.t, err)
	require.NotEmpty(r.t, steps)
	in, m := r.answer(sandPlayer(p.ToMove(), south, north), thread.ID, "move", discordsim.Opt("move", steps[0].String()))
	require.True(r.t, isPlayed(m), "/move %s refused: %s", steps[0], m.Text())
	return in
}

// sandDrone orders a Drone for the side to move in its PostTurn (an empty
// target next to one of its Infantry): the board's button, the form in the
// thread, and the Confirm in the direct message it gets. It returns the
// Confirm's interaction.
func (r *procRig) sandDrone(thread *discordsim.Channel, south, north *discordsim.User) *discordsim.Interaction {
	r.t.Helper()
	p, _ := r.sandPos(thread.ID)
	require.Equal(r.t, sandtable.PhasePostTurn, p.Phase())
	u := sandPlayer(p.ToMove(), south, north)
	uses, err := p.LegalHazardUses()
	require.NoError(r.t, err)
	var order *sandtable.Action
	for i := range uses {
		if _, taken := p.At(uses[i].To); uses[i].Kind == sandtable.ActDrone && !taken {
			order = &uses[i]
			break
		}
	}
	require.NotNil(r.t, order, "no Drone order for %s", p.ToMove())
	var board *discordsim.Message
	require.NoError(r.t, r.srv.WaitFor(wait, func() bool {
		board = nil
		for _, m := range r.srv.Messages(thread.ID) {
			for _, b := range m.Buttons() {
				if !m.Ephemeral() && b.Label == "Order a Drone (private)" && strings.HasSuffix(b.CustomID, fmt.Sprintf(":%d", p.Turn())) {
					board = m
				}
			}
		}
		return board != nil
	}), "no board offering a Drone\n%s", r.allLogs())
	in, err := r.srv.Click(u, board, button(r.t, board, "Order a Drone (private)"))
	require.NoError(r.t, err)
	_, err = in.WaitResponse(wait)
	require.NoError(r.t, err)
	require.NotNil(r.t, r.srv.OpenModal(u), "the Drone order form")
	in, err = r.srv.SubmitModal(u, map[string]string{"spotter": order.From.String(), "target": order.To.String()})
	require.NoError(r.t, err)
	ans, err := in.WaitMessage(wait, nil)
	require.NoError(r.t, err)
	require.True(r.t, ans.Ephemeral(), ans.Text())
	preview := r.lastDM(u, "target **"+order.To.String()+"**")
	conf, done := r.press(u, preview, "Confirm Drone", func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "Drone ordered") })
	require.Contains(r.t, done.Text(), "Drone ordered")
	return conf
}

// sandHazards places Mines for the side to move until its PostTurn ends.
func (r *procRig) sandHazards(thread *discordsim.Channel, south, north *discordsim.User) {
	r.t.Helper()
	for {
		p, _ := r.sandPos(thread.ID)
		if p.Phase() != sandtable.PhasePostTurn {
			return
		}
		side := p.ToMove()
		uses, err := p.LegalHazardUses()
		require.NoError(r.t, err)
		var mine *sandtable.Action
		for i := range uses {
			if uses[i].Kind == sandtable.ActMine {
				mine = &uses[i]
				break
			}
		}
		require.NotNil(r.t, mine, "no Mine square for %s", side)
		_, m := r.answer(sandPlayer(side, south, north), thread.ID, "move", discordsim.Opt("move", mine.String()))
		require.True(r.t, isPlayed(m), "/move %s refused: %s", mine, m.Text())
	}
}

// sandPlayToDrone plays from the reveal until a Drone has resolved: the
// first mover's Main action, a Drone and Mines; the other side's turn;
// the Drone strikes at the start of the first mover's next turn. It
// returns the Drone's Confirm (a DM click) and the moves' interactions.
func (r *procRig) sandPlayToDrone(thread *discordsim.Channel, south, north *discordsim.User) (confirm *discordsim.Interaction, moves []*discordsim.Interaction) {
	r.t.Helper()
	r.waitPublic(thread.ID, "The coin is flipped")
	// The live board says the reveal until the first move edits it: once.
	r.delivered()
	require.Len(r.t, r.public(thread.ID, "The coin is flipped"), 1, "the reveal once")
	moves = append(moves, r.sandMain(thread, south, north))
	confirm = r.sandDrone(thread, south, north)
	r.sandHazards(thread, south, north)
	moves = append(moves, r.sandMain(thread, south, north))
	r.sandHazards(thread, south, north)
	_, log := r.sandPos(thread.ID)
	resolved := 0
	for _, e := range log {
		if e.Kind == sandtable.EntryDroneResolved {
			resolved++
		}
	}
	require.Equal(r.t, 1, resolved, "the Drone resolved at the start of its side's next turn")
	return confirm, moves
}

// TestProcessesPlaySandTableOnEtcd: two bot processes, on shards 0 and 1
// of two, share a one-member etcd. A SandTable game in a server on shard 1
// is challenged and accepted there (the shard-1 process), deployed and
// given a Drone order in direct messages (the shard-0 process, which gets
// every DM), played with /move (shard 1) until the Drone resolves, and
// resigned. Every public message is shown once. Then the same with three
// processes on shards 0, 1 and 2 of three.
func TestProcessesPlaySandTableOnEtcd(t *testing.T) {
	t.Parallel()
	for _, count := range []int{2, 3} {
		t.Run(fmt.Sprintf("%d processes", count), func(t *testing.T) {
			r := newProcRig(t, count, 1, 1)
			var ps []*proc
			for s := 0; s < count; s++ {
				ps = append(ps, r.start(fmt.Sprintf("p%d", s), s))
			}
			alice, bob := r.srv.User("alice"), r.srv.User("bob")
			thread, challenge, accept := r.sandStart(alice, bob)
			require.Same(t, ps[1], r.handler(challenge), "the challenge reached the shard-1 process")
			require.Same(t, ps[1], r.handler(accept))

			for _, u := range []*discordsim.User{alice, bob} {
				for _, in := range r.sandDeploy(u) {
					require.Same(t, ps[0], r.handler(in), "a DM interaction reaches the shard-0 process")
				}
			}
			confirm, moves := r.sandPlayToDrone(thread, alice, bob)
			require.Same(t, ps[0], r.handler(confirm), "the Drone's Confirm (a DM click) reached the shard-0 process")
			for _, in := range moves {
				require.Same(t, ps[1], r.handler(in))
			}
			_, prompt := r.answer(alice, thread.ID, "resign")
			_, res := r.press(alice, prompt, "Confirm", func(m *discordsim.Message) bool { return !strings.Contains(m.Text(), "Confirm within") })
			require.Contains(t, res.Text(), "resigned", "the resigner is answered privately, in place of the prompt")

			r.delivered()
			notices := 0
			for _, m := range r.public(thread.ID, "declared a Drone") {
				if strings.HasPrefix(m.Text(), alice.Mention()+" declared a Drone") || strings.HasPrefix(m.Text(), bob.Mention()+" declared a Drone") {
					notices++ // later boards' turn logs repeat it
				}
			}
			require.Equal(t, 1, notices, "the Drone's notice once")
			require.Len(t, r.public(thread.ID, "has confirmed their deployment"), 1, "the first Confirm's notice once")
			require.Len(t, r.public(thread.ID, "wins: South resigned"), 1)
			r.postedOnce(thread.ID)
			r.postedOnce(r.gen.ID)
			r.postedOnce(r.srv.DM(alice).ID)
			r.postedOnce(r.srv.DM(bob).ID)
			g := r.game(thread.ID)
			require.NotNil(t, g.Outcome)
			require.Equal(t, storage.Resignation, g.Outcome.Method)
		})
	}
}

// survivalGame challenges black as white in the rig's channel, accepts,
// and returns the game thread once its first board is posted.
func (r *procRig) survivalGame(white, black *discordsim.User, opts ...discordsim.Option) *discordsim.Channel {
	r.t.Helper()
	opts = append([]discordsim.Option{discordsim.Opt("opponent", black), discordsim.Opt("color", "white")}, opts...)
	_, ch := r.answer(white, r.gen.ID, "survival challenge", opts...)
	_, acc := r.press(black, ch, "Accept", func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "accepted") })
	link := regexp.MustCompile(`<#(\d+)>`).FindStringSubmatch(acc.Text())
	require.NotNil(r.t, link, acc.Text())
	th := r.srv.ChannelByID(link[1])
	r.waitPublic(th.ID, "first move must be a promotion")
	return th
}

// TestKillAProcessMidMoveOnEtcd: two bot processes on shards 0 and 1 of
// two share a one-member etcd; a Survival game in a server on shard 1.
//
// The game's first board fails to post (a 500) and the shard-1 process,
// which accepted the challenge and holds the board's claim, is killed
// (SIGKILL): once the claim runs out (its lease, outbox.lease_ttl, ends) the
// shard-0 process takes the board over and posts it, once. The shard-1
// process is restarted; it is killed again as soon as a /move is sent
// (before its commit, or anywhere in it), and restarted: the move is
// applied once, whether it was lost (sent again, it is played) or
// committed (sent again, it is refused). It is killed a third time right
// after a move's answer. The game goes on to its sixth ply, each applied
// once, and nothing is shown twice.
func TestKillAProcessMidMoveOnEtcd(t *testing.T) {
	t.Parallel()
	r := newProcRig(t, 2, 1, 1)
	p0 := r.start("p0", 0)
	p1 := r.start("p1", 1)
	alice, bob := r.srv.User("alice"), r.srv.User("bob")

	_, ch := r.answer(alice, r.gen.ID, "survival challenge", discordsim.Opt("opponent", bob), discordsim.Opt("color", "white"))
	r.srv.ServerErrorNext("POST /channels/*/messages", 1)
	_, acc := r.press(bob, ch, "Accept", func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "accepted") })
	link := regexp.MustCompile(`<#(\d+)>`).FindStringSubmatch(acc.Text())
	require.NotNil(t, link, acc.Text())
	thread := r.srv.ChannelByID(link[1])
	posts := func(status int) int {
		n := 0
		for _, c := range r.srv.CallsTo("POST /channels/" + thread.ID + "/messages") {
			if c.Status == status {
				n++
			}
		}
		return n
	}
	require.NoError(t, r.srv.WaitFor(wait, func() bool { return posts(500) > 0 }))
	p1.kill()
	postedBeforeKill := posts(200) > 0 // a retry of the shard-1 process beat the kill
	r.waitPublic(thread.ID, "first move must be a promotion")
	if !postedBeforeKill {
		require.Contains(t, p0.logs.String(), "took over an effect claimed before", "the shard-0 process delivered the dead one's board")
	}
	require.Len(t, r.public(thread.ID, "first move must be a promotion"), 1, "the first board once")
	p1 = r.restart(p1)

	move := func(u *discordsim.User, mv string) *discordsim.Message {
		t.Helper()
		_, m := r.answer(u, thread.ID, "move", discordsim.Opt("move", mv))
		return m
	}
	require.True(t, isPlayed(move(alice, "g7g8q")))
	require.True(t, isPlayed(move(bob, "e2e1k")))

	// Killed as soon as the move is sent.
	in, err := r.srv.Slash(alice, thread.ID, "move", discordsim.Opt("move", "g8g6"))
	require.NoError(t, err)
	p1.kill()
	if in.Response() != nil {
		t.Log("the move was answered before the kill")
	}
	p1 = r.restart(p1)
	if m := move(alice, "g8g6"); !isPlayed(m) {
		t.Log("the move was committed before the kill")
		require.Contains(t, m.Text(), "not your turn", "applied before the kill: refused now, saying why")
	} else {
		t.Log("the move was lost in the kill")
	}

	// Killed right after the answer (its saved copy, if the process had no
	// delivery pass to drop it, is taken over and reconciled).
	played := move(bob, "f7g6")
	require.True(t, isPlayed(played), played.Text())
	p1.kill()
	p1 = r.restart(p1)
	again := move(bob, "f7g6")
	require.False(t, isPlayed(again), "the move is not applied twice: %s", again.Text())

	require.True(t, isPlayed(move(alice, "c7c8q")))
	require.True(t, isPlayed(move(bob, "e1f2")))
	_, board := r.answer(alice, thread.ID, "board")
	require.Contains(t, board.Text(), "3... Kxf2")
	require.Contains(t, board.Text(), "move 4", "White to play move 4: six plies applied once each")

	r.drained()
	r.postedOnce(thread.ID)
	// Each turn pinged its player once, the turns of the moves killed
	// included: alice after the start, g8=Q's answer, fxg6 and Kxf2; bob
	// after g8=Q, g6 and c8=Q.
	notified := func(u *discordsim.User) int {
		n := 0
		for _, no := range r.srv.Notifications(u.ID) {
			if no.ChannelID == thread.ID {
				n++
			}
		}
		return n
	}
	require.Equal(t, 4, notified(alice), "alice is notified once a turn")
	require.Equal(t, 3, notified(bob), "bob is notified once a turn")
	boards := 0
	for _, m := range r.srv.Messages(thread.ID) {
		if !m.Ephemeral() && m.Attachment("board.png") != nil {
			boards++
		}
	}
	require.Equal(t, 1, boards, "one board in the thread, edited in place")
}

// TestTimerOfADeadProcessFiresOnceOnEtcd (real time, over a minute: the
// shortest move time the commands accept): three bot processes on shards
// 0, 1 and 2 of three share a one-member etcd. A Survival game with a
// one-minute limit starts in a server on shard 1; the shard-1 process,
// which started it, is killed (SIGKILL) at once. The limit runs out while
// it is dead: one of the two live processes announces the end (an abort:
// no move was played), once, and the game ends once. The killed process, restarted, does not
// announce it again.
func TestTimerOfADeadProcessFiresOnceOnEtcd(t *testing.T) {
	t.Parallel()
	r := newProcRig(t, 3, 1, 1)
	r.start("p0", 0)
	p1 := r.start("p1", 1)
	r.start("p2", 2)
	alice, bob := r.srv.User("alice"), r.srv.User("bob")
	thread := r.survivalGame(alice, bob, discordsim.Opt("move_time", "1m"))
	p1.kill()
	started := time.Now()

	// No move was played: the game is aborted on time (Survival ruling 28).
	losses := func() []*discordsim.Message { return r.public(thread.ID, "never made the first move") }
	require.NoError(t, r.srv.WaitFor(2*wait, func() bool { return len(losses()) > 0 }), "%s", r.allLogs())
	require.GreaterOrEqual(t, time.Since(started), 50*time.Second, "not before the limit")
	r.restart(p1)
	_, games := r.answer(alice, r.gen.ID, "games")
	require.NotContains(t, games.Text(), "<#"+thread.ID+">", "the game is over")
	r.delivered()
	require.Len(t, losses(), 1, "the time loss is announced once")
	r.postedOnce(thread.ID)
	g := r.game(thread.ID)
	require.NotNil(t, g.Outcome)
	require.Equal(t, storage.Aborted, g.Outcome.Method)
	require.Empty(t, g.Outcome.Winners)
}

// legalMove asks the /move autocomplete for u's legal moves in thread and
// returns the first.
func (r *procRig) legalMove(u *discordsim.User, thread *discordsim.Channel) string {
	r.t.Helper()
	in, err := r.srv.Autocomplete(u, thread.ID, "move", discordsim.Focused("move", ""))
	require.NoError(r.t, err)
	choices, err := in.WaitChoices(wait)
	require.NoError(r.t, err, "%s", r.allLogs())
	require.NotEmpty(r.t, choices)
	return fmt.Sprint(choices[0].Value)
}

// TestEtcdMemberStopsMidGame: two bot processes on shards 0 and 1 of two
// share a three-member etcd cluster. A Survival game in a server on shard
// 1 goes on while the cluster's leader is killed in the middle of a move
// (no hand-over of its leadership: the move is answered once the others
// have elected a new leader), after it is restarted, while a follower is
// stopped, and after that one is restarted: every ply is applied once, and
// everything is shown once.
func TestEtcdMemberStopsMidGame(t *testing.T) {
	t.Parallel()
	r := newProcRig(t, 2, 1, 3)
	r.start("p0", 0)
	r.start("p1", 1)
	alice, bob := r.srv.User("alice"), r.srv.User("bob")
	thread := r.survivalGame(alice, bob)
	players := []*discordsim.User{alice, bob}
	plies := 0
	play := func(n int) {
		t.Helper()
		for range n {
			u := players[plies%2]
			_, m := r.answer(u, thread.ID, "move", discordsim.Opt("move", r.legalMove(u, thread)))
			require.True(t, isPlayed(m), m.Text())
			plies++
		}
	}
	play(2)

	// The leader dies (no hand-over of its leadership) while a move is in
	// flight.
	lead := r.etcd.Leader()
	require.GreaterOrEqual(t, lead, 0)
	u := players[plies%2]
	mv := r.legalMove(u, thread)
	in, err := r.srv.Slash(u, thread.ID, "move", discordsim.Opt("move", mv))
	require.NoError(t, err)
	r.etcd.Kill(lead)
	m, err := in.WaitMessage(wait, nil)
	require.NoError(t, err, "%s", r.allLogs())
	require.True(t, isPlayed(m), m.Text())
	plies++
	play(2)
	require.NotEqual(t, lead, r.etcd.Leader(), "a new leader")

	r.etcd.Restart(lead)
	play(2)

	follower := (r.etcd.Leader() + 1) % 3
	r.etcd.Stop(follower)
	play(2)
	r.etcd.Restart(follower)
	play(1)

	_, board := r.answer(alice, thread.ID, "board")
	require.Contains(t, board.Text(), fmt.Sprintf("move %d", plies/2+1), "%d plies applied once each: %s", plies, board.Text())
	_, prompt := r.answer(bob, thread.ID, "resign")
	_, res := r.press(bob, prompt, "Confirm", func(m *discordsim.Message) bool { return !strings.Contains(m.Text(), "Confirm within") })
	require.Contains(t, res.Text(), "You resigned", "the resigner is answered privately, in place of the prompt")
	r.delivered()
	r.postedOnce(thread.ID)
	g := r.game(thread.ID)
	require.NotNil(t, g.Outcome)
	require.Equal(t, storage.Resignation, g.Outcome.Method)
}

// isPlayed reports whether m is the private answer to an applied move
// (its board is in the thread).
func isPlayed(m *discordsim.Message) bool { return strings.HasPrefix(m.Text(), "You played") }
