package bot_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"sandtable/bot"
	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/internal/discordsim"
	"sandtable/internal/testkit"
	"sandtable/storage"
)

// startHTTPBot starts the bot without a gateway connection: the simulator
// delivers every interaction as a signed POST to the bot's endpoint, and
// signs with the bot's clock (the bot checks timestamps against it).
func startHTTPBot(t testing.TB, opts bot.Options, extra ...commandstest.Toy) *harness {
	t.Helper()
	c := testkit.NewClock(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC))
	srv := discordsim.Start(t, discordsim.Options{Now: c.Now})
	store, err := storage.Open(filepath.Join(t.TempDir(), "bot.db"), time.Second)
	require.NoError(t, err)
	cfg := bot.DefaultConfig()
	cfg.Discord.Token = bot.NewSecret(srv.Token())
	cfg.Discord.PublicKey = srv.PublicKey()
	cfg.Discord.Gateway = false
	cfg.Bot.ProcessName = "http-test"
	logs := &testkit.SyncBuffer{}
	opts.HTTPListen = "127.0.0.1:0"
	opts.HTTPClient = srv.HTTPClient()
	opts.Now = c.Now
	opts.SweepEvery = 20 * time.Millisecond
	sweeps := newSweepLog()
	opts.AfterSweep = sweeps.note
	opts.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	b, err := bot.New(cfg, store, opts)
	require.NoError(t, err)
	for _, k := range extra {
		commands.Register(b.App(), k)
	}
	srv.Connect(b.Session())
	require.NoError(t, b.Start())
	h := &harness{t: t, srv: srv, bot: b, store: store, clock: c, logs: logs, gen: srv.Channel("general"), sweep: sweeps}
	t.Cleanup(h.stop)
	srv.DeliverTo(h.endpoint())
	require.NoError(t, srv.WaitCommands(wait, h.gen.ID, "survival", "move"))
	return h
}

func (h *harness) endpoint() string { return "http://" + h.bot.HTTPAddr() + "/interactions" }

// restCallbacks counts the initial responses the bot sent to the REST
// callback instead of answering its endpoint's requests.
func restCallbacks(srv *discordsim.Server) int {
	n := 0
	for _, c := range srv.Calls() {
		if c.Is("POST /interactions/*/*/callback") && !c.Endpoint {
			n++
		}
	}
	return n
}

// TestHTTPInteractionsPlay: with discord.gateway = false the bot never
// connects to the gateway; interactions come to POST /interactions, signed,
// and a Survival game is played from /challenge through moves. Every
// initial response is the HTTP answer (a move's answer, with its board
// image, as multipart/form-data); follow-ups and posts go over REST as
// with the gateway; /readyz is ready; the metrics count the interactions,
// the renders and the active game; every log line names the process and
// the shard.
func TestHTTPInteractionsPlay(t *testing.T) {
	t.Parallel()
	h := startHTTPBot(t, bot.Options{})
	require.NoError(t, h.srv.PingEndpoint(h.endpoint()), "Discord's check of the endpoint URL")
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)
	ac, err := h.srv.Autocomplete(alice, thread.ID, "move", discordsim.Focused("move", "g7g8"))
	require.NoError(t, err)
	choices, err := ac.WaitChoices(wait)
	require.NoError(t, err)
	require.NotEmpty(t, choices, "autocomplete answered over HTTP")
	first := h.move(alice, thread, "g7g8q")
	require.NotNil(t, first.Attachment("board.png"), "the move's answer shows the board")
	second := h.move(bob, thread, "e2e1k")
	require.Contains(t, second.Text(), "e1=K")
	for _, u := range []*discordsim.User{alice, bob} {
		b := h.reply(u, thread.ID, "board")
		mustBeEphemeral(t, b, u)
		require.NotNil(t, b.Attachment("board.png"), "/board answers with the board, privately")
	}
	for _, m := range h.srv.VisibleMessages(alice, thread.ID) {
		t.Logf("%s: %s", m.Author.Name, strings.ReplaceAll(m.Text(), "\n", " / "))
	}

	require.Empty(t, h.srv.GatewaySessions(), "the bot never opened the gateway")
	require.Zero(t, restCallbacks(h.srv), "every initial response was the HTTP answer")
	var multipart, answers int
	for _, c := range h.srv.Calls() {
		if c.Endpoint {
			answers++
			require.Equal(t, 204, c.Status, "the fake accepted the answer %s", c)
		}
		// A slow handler's answer is deferred, then filled over REST.
		if (c.Endpoint || strings.HasPrefix(c.Path, "/webhooks/")) && len(c.Files) > 0 {
			multipart++
			require.Equal(t, "board.png", c.Files[0].Name)
		}
	}
	require.GreaterOrEqual(t, answers, 7, "the challenge, its Accept, autocomplete, two moves and two /board")
	require.GreaterOrEqual(t, multipart, 2, "both /board answers carried their board as a file")

	addr := h.bot.HTTPAddr()
	resp, err := http.Get("http://" + addr + "/readyz")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "ready without a gateway: the endpoint serves")
	require.Equal(t, 5.0, metric(t, addr, `sandtable_interactions_total{outcome="ok",type="command"}`), "the challenge, two moves and two /board")
	require.Equal(t, 1.0, metric(t, addr, `sandtable_interactions_total{outcome="ok",type="component"}`), "the Accept")
	require.Equal(t, 1.0, metric(t, addr, `sandtable_interactions_total{outcome="ok",type="autocomplete"}`))
	require.Equal(t, 1.0, metric(t, addr, `sandtable_games_active{kind="survival"}`))
	require.Equal(t, 0.0, metric(t, addr, `sandtable_games_active{kind="sandtable"}`))
	require.GreaterOrEqual(t, metric(t, addr, `sandtable_render_seconds_count{what="chess"}`), 3.0, "the first board and two moves")
	require.Equal(t, 0.0, metric(t, addr, `sandtable_analyses_computed_total`), "no game analysed")
	require.Equal(t, 0.0, metric(t, addr, `sandtable_analyses_waiting`))
	require.Equal(t, 0.0, metric(t, addr, `sandtable_outbox_retries_total`))
	require.Equal(t, 0.0, metric(t, addr, `sandtable_outbox_oldest_seconds`), "everything delivered")

	for _, line := range strings.Split(strings.TrimSpace(h.logs.String()), "\n") {
		require.Contains(t, line, "process=http-test shard=0", "a log line without its process and shard")
		if !strings.Contains(line, "reason=bad_signature") { // PingEndpoint's badly signed probe
			require.NotRegexp(t, `level=(WARN|ERROR)`, line)
		}
	}
}

// TestHTTPInteractionsRefused: a request with a bad signature, without
// one, with a stale or a future timestamp, or signed for another body gets
// 401 and changes nothing (no answer, no message, the store unchanged); a
// body over the limit gets 413; a PING gets a PONG.
func TestHTTPInteractionsRefused(t *testing.T) {
	t.Parallel()
	h := startHTTPBot(t, bot.Options{})
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	// A real interaction, captured by delivering it nowhere else: the
	// simulator's own delivery is switched off while it is made.
	h.srv.DeliverTo("http://127.0.0.1:1/nowhere")
	in := h.slash(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", bob))
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return in.DeliveryError() != nil }))
	require.Nil(t, in.Response(), "not delivered")
	h.srv.DeliverTo(h.endpoint())
	before := storeDump(t, h.store)
	callsBefore := len(h.srv.Calls())

	var body []byte
	post := func(mutate func(r *http.Request)) int {
		t.Helper()
		r, err := h.srv.SignedRequest(h.endpoint(), in.Payload, h.clock.Now())
		require.NoError(t, err)
		mutate(r)
		resp, err := http.DefaultClient.Do(r)
		require.NoError(t, err)
		body, err = io.ReadAll(resp.Body)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	sign := func(r *http.Request, at time.Time) {
		ts := strconv.FormatInt(at.Unix(), 10)
		r.Header.Set("X-Signature-Timestamp", ts)
		r.Header.Set("X-Signature-Ed25519", h.srv.Sign(ts, in.Payload))
	}
	cases := map[string]func(r *http.Request){
		"missing signature": func(r *http.Request) { r.Header.Del("X-Signature-Ed25519") },
		"missing timestamp": func(r *http.Request) { r.Header.Del("X-Signature-Timestamp") },
		"bad signature": func(r *http.Request) {
			sig := []byte(r.Header.Get("X-Signature-Ed25519"))
			if sig[0] == '0' {
				sig[0] = '1'
			} else {
				sig[0] = '0'
			}
			r.Header.Set("X-Signature-Ed25519", string(sig))
		},
		"not hex":          func(r *http.Request) { r.Header.Set("X-Signature-Ed25519", "zz") },
		"stale timestamp":  func(r *http.Request) { sign(r, h.clock.Now().Add(-6*time.Second)) },
		"future timestamp": func(r *http.Request) { sign(r, h.clock.Now().Add(6*time.Second)) },
		"another body's signature": func(r *http.Request) {
			ts := r.Header.Get("X-Signature-Timestamp")
			r.Header.Set("X-Signature-Ed25519", h.srv.Sign(ts, []byte(`{"type":1}`)))
		},
	}
	for name, mutate := range cases {
		require.Equal(t, http.StatusUnauthorized, post(mutate), name)
	}
	require.Equal(t, before, storeDump(t, h.store), "refused requests changed the store")
	require.Len(t, h.srv.Calls(), callsBefore, "refused requests made the bot call Discord")
	require.Empty(t, h.srv.VisibleMessages(bob, h.gen.ID), "no challenge was posted")
	addr := h.bot.HTTPAddr()
	require.Equal(t, 3.0, metric(t, addr, `sandtable_endpoint_refused_total{reason="bad_signature"}`))
	require.Equal(t, 2.0, metric(t, addr, `sandtable_endpoint_refused_total{reason="missing_signature"}`))
	require.Equal(t, 2.0, metric(t, addr, `sandtable_endpoint_refused_total{reason="stale_timestamp"}`))

	// Within the window, either way, a request is taken, and its answer is
	// the HTTP response (here /games, a private answer: the fake never
	// sees it, so it must not be a public one the bot reads back).
	h.srv.DeliverTo("http://127.0.0.1:1/nowhere")
	in = h.slash(alice, h.gen.ID, "games")
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return in.DeliveryError() != nil }))
	h.srv.DeliverTo(h.endpoint())
	for _, skew := range []time.Duration{-4 * time.Second, 4 * time.Second} {
		require.Equal(t, http.StatusOK, post(func(r *http.Request) { sign(r, h.clock.Now().Add(skew)) }))
		var answer struct {
			Type discordgo.InteractionResponseType
			Data struct{ Flags discordgo.MessageFlags }
		}
		require.NoError(t, json.Unmarshal(body, &answer))
		require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, answer.Type)
		require.Equal(t, discordgo.MessageFlagsEphemeral, answer.Data.Flags)
	}

	big := make([]byte, 2<<20)
	r, err := h.srv.SignedRequest(h.endpoint(), big, h.clock.Now())
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(r)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)

	ping := []byte(`{"id":"1","application_id":"` + h.srv.AppID() + `","type":1,"token":"x","version":1}`)
	r, err = h.srv.SignedRequest(h.endpoint(), ping, h.clock.Now())
	require.NoError(t, err)
	resp, err = http.DefaultClient.Do(r)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	var pong map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&pong))
	require.Equal(t, map[string]any{"type": 1.0}, pong)
}

// TestHTTPInteractionFromAnotherGuild: a game's /move, replayed to the
// endpoint signed but with another server's guild_id, is answered with a
// private refusal and changes nothing (no state, no effect, no call to
// Discord); from the game's server the same move is played.
func TestHTTPInteractionFromAnotherGuild(t *testing.T) {
	t.Parallel()
	h := startHTTPBot(t, bot.Options{})
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)
	h.srv.DeliverTo("http://127.0.0.1:1/nowhere")
	in := h.slash(alice, thread.ID, "move", discordsim.Opt("move", "g7g8q"))
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return in.DeliveryError() != nil }))
	h.srv.DeliverTo(h.endpoint())
	var payload map[string]any
	require.NoError(t, json.Unmarshal(in.Payload, &payload))
	require.Equal(t, h.srv.Guild().ID, payload["guild_id"])
	payload["guild_id"] = "1111111111111111111"
	forged, err := json.Marshal(payload)
	require.NoError(t, err)
	h.drained()
	version := func() int64 {
		var g *storage.Game
		require.NoError(t, h.store.View(t.Context(), func(tx storage.Tx) (err error) { g, err = tx.Games().ByChannel(thread.ID); return err }))
		return g.Version
	}
	before, v0, callsBefore := storeDump(t, h.store), version(), len(h.srv.Calls())

	r, err := h.srv.SignedRequest(h.endpoint(), forged, h.clock.Now())
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(r)
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var answer struct {
		Type discordgo.InteractionResponseType
		Data struct {
			Content string
			Flags   discordgo.MessageFlags
		}
	}
	require.NoError(t, json.Unmarshal(body, &answer), string(body))
	require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, answer.Type)
	require.Equal(t, discordgo.MessageFlagsEphemeral, answer.Data.Flags)
	require.Contains(t, answer.Data.Content, "another server")
	h.drained()
	require.Equal(t, before, storeDump(t, h.store), "the refused move changed the store")
	require.Equal(t, v0, version(), "the refused move changed the game")
	require.Len(t, h.srv.Calls(), callsBefore, "the refused move made the bot call Discord")
	require.Equal(t, 1.0, metric(t, h.bot.HTTPAddr(), `sandtable_interactions_total{outcome="refused",type="command"}`))

	h.move(alice, thread, "g7g8q")
	require.Greater(t, version(), v0, "the move from the game's server was played")
}

// storeDump reads every game, challenge and pending effect of the store.
func storeDump(t *testing.T, s storage.Store) string {
	t.Helper()
	var b strings.Builder
	require.NoError(t, s.View(context.Background(), func(tx storage.Tx) error {
		for _, inv := range []storage.Invitations{tx.Challenges(), tx.Lobbies()} {
			if err := inv.Each(func(id string, raw []byte) error {
				b.WriteString(id + " " + string(raw) + "\n")
				return nil
			}); err != nil {
				return err
			}
		}
		ids, err := tx.Games().Due(time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC))
		b.WriteString(strings.Join(ids, ",") + "\n")
		if err != nil {
			return err
		}
		n, err := tx.Outbox().Len()
		b.WriteString(strconv.Itoa(n))
		return err
	}))
	return b.String()
}

// slowKind answers /slow only when release delivers (or after wait).
func slowKind(release <-chan struct{}) commandstest.Toy {
	return commandstest.Toy{Routes: commands.Spec[commandstest.None]{
		Name: "slow", Title: "Slow",
		Definitions: []*ui.Command{{Name: "slow", Description: "A slow command"}},
		TopLevel: map[string]commands.Handler{"slow": func(a *commands.App, req *commands.Request) (*commands.Response, error) {
			select {
			case <-release:
			case <-time.After(wait):
			}
			return &commands.Response{Message: commands.Message{Content: "slow answer"}}, nil
		}},
	}}
}

// TestHTTPInteractionsDeferral: a handler slower than the deferral delay
// is answered in time by the deferral, written as the HTTP answer; its
// answer then fills the "thinking" message over REST.
func TestHTTPInteractionsDeferral(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	h := startHTTPBot(t, bot.Options{DeferAfter: 200 * time.Millisecond}, slowKind(release))
	alice := h.srv.User("alice")
	in := h.slash(alice, h.gen.ID, "slow")
	r, err := in.WaitResponse(wait)
	require.NoError(t, err, "the deferral answers while the handler runs")
	require.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, r.Type)
	close(release)
	m, err := in.WaitMessage(wait, nil)
	require.NoError(t, err)
	require.Equal(t, "slow answer", m.Content)
	require.Zero(t, restCallbacks(h.srv))
	require.Equal(t, 1.0, metric(t, h.bot.HTTPAddr(), `sandtable_deferrals_total`))
}

// TestHTTPInteractionsDraining: once Shutdown has begun, the endpoint
// answers 503 while it drains the interactions in flight, whose answers
// still arrive; then the listener closes.
func TestHTTPInteractionsDraining(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	draining := make(chan int, 1)
	h := startHTTPBot(t, bot.Options{DeferAfter: -1, Draining: func(n int) { draining <- n }}, slowKind(release))
	alice := h.srv.User("alice")
	in := h.slash(alice, h.gen.ID, "slow")
	_, err := in.WaitResponse(wait)
	require.NoError(t, err)
	stopped := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		stopped <- h.bot.Shutdown(ctx)
	}()
	select {
	case n := <-draining:
		require.Equal(t, 1, n, "the slow interaction is in flight")
	case <-time.After(wait):
		t.Fatal("Shutdown did not wait for the interaction in flight")
	}
	second := h.slash(alice, h.gen.ID, "slow")
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return second.DeliveryError() != nil }))
	require.Contains(t, second.DeliveryError().Error(), "503")
	resp, err := http.Get("http://" + h.bot.HTTPAddr() + "/readyz")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, "not ready while draining")
	close(release)
	m, err := in.WaitMessage(wait, nil)
	require.NoError(t, err)
	require.Equal(t, "slow answer", m.Content, "the interaction in flight is answered")
	select {
	case err := <-stopped:
		require.NoError(t, err)
	case <-time.After(wait):
		t.Fatal("Shutdown did not return")
	}
	_, err = http.Get("http://" + h.bot.HTTPAddr() + "/readyz")
	require.Error(t, err, "the listener is closed")
}

// TestOutboxMetrics: a failed post counts a retry, and while it waits the
// outbox reports the age of its oldest effect; once delivered, the age is
// back to zero, and the wait histogram counts it (and the effects behind
// it in its game) waiting over a second since due. The pool's size shows,
// no stream in delivery at rest.
func TestOutboxMetrics(t *testing.T) {
	t.Parallel()
	srv := discordsim.Start(t, discordsim.Options{})
	h := startBotWith(t, srv, filepath.Join(t.TempDir(), "bot.db"), bot.Options{HTTPListen: "127.0.0.1:0"})
	addr := h.bot.HTTPAddr()
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	ch := h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", bob), discordsim.Opt("color", "white"))
	h.srv.ServerErrorNext("POST /channels/*/messages", 1)
	h.click(bob, ch, buttonID(t, ch, "Accept"))
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return metric(t, addr, `sandtable_outbox_retries_total`) == 1 }))
	// The retry is due at most 1 s after the failure (the policy's full
	// jitter): half way there the effect still waits.
	half := h.bot.App().NextDelivery().Sub(h.clock.Now()) / 2
	require.Positive(t, half, "the retry is due later")
	h.clock.Advance(half)
	require.InDelta(t, half.Seconds(), metric(t, addr, `sandtable_outbox_oldest_seconds`), 0.001)
	require.Equal(t, 2.0, metric(t, addr, `sandtable_outbox_pending`), "the first board, the turn's ping behind it")
	require.Equal(t, 0.0, metric(t, addr, `sandtable_outbox_wait_seconds_count`)-metric(t, addr, `sandtable_outbox_wait_seconds_bucket{le="1.28"}`),
		"nothing waited long yet")
	h.clock.Advance(2 * time.Second)
	h.swept()
	require.Equal(t, 0.0, metric(t, addr, `sandtable_outbox_oldest_seconds`))
	require.Equal(t, 1.0, metric(t, addr, `sandtable_outbox_retries_total`))
	// The retried post waited 2 s less half its delay (at most 1 s) since
	// its retry was due, on the bot's clock.
	require.GreaterOrEqual(t, metric(t, addr, `sandtable_outbox_wait_seconds_count`)-metric(t, addr, `sandtable_outbox_wait_seconds_bucket{le="1.28"}`), 1.0)
	require.Equal(t, float64(commands.DefaultWorkers), metric(t, addr, `sandtable_outbox_workers`))
	require.Equal(t, 0.0, metric(t, addr, `sandtable_outbox_delivering`))
	require.Equal(t, 0.0, metric(t, addr, `sandtable_outbox_parked`))
}

// TestHTTPInteractionsForms: a button answered with a form, and the form's
// submission answered by updating the clicked message, both as HTTP
// answers.
func TestHTTPInteractionsForms(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	close(release)
	h := startHTTPBot(t, bot.Options{}, slowFormKind(release))
	alice := h.srv.User("alice")
	panel := h.reply(alice, h.gen.ID, "slowform")
	in := h.click(alice, panel, buttonID(t, panel, "Form"))
	require.Equal(t, discordgo.InteractionResponseModal, respType(t, in))
	sub, err := h.srv.SubmitModal(alice, map[string]string{"how": "update"})
	require.NoError(t, err)
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, respType(t, sub))
	require.Equal(t, "panel v2", h.srv.Message(panel.ID).Content)
	require.Zero(t, restCallbacks(h.srv))
}
