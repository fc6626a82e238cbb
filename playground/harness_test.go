package playground

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"sandtable/bot"
	"sandtable/internal/discordsim"
	"sandtable/internal/testkit"
	"sandtable/storage"
)

// wait is the deadline of every wait for a condition in this package's tests.
const wait = testkit.Wait

// testPlayground is a playground on a free loopback port with its own database.
type testPlayground struct {
	t       testing.TB
	p       *Playground
	store   *storage.Bolt
	dbPath  string
	stdout  *testkit.SyncBuffer
	stderr  *testkit.SyncBuffer
	stopped bool
}

func testConfig() bot.Config {
	cfg := bot.DefaultConfig()
	cfg.Playground.Port = 0
	return cfg
}

// startPlayground starts a playground on dbPath ("" for a new one) and waits for the bot.
func startPlayground(t testing.TB, dbPath string, cfg bot.Config, set ...func(*Options)) *testPlayground {
	t.Helper()
	tp := startPlaygroundNoWait(t, dbPath, cfg, nil, set...)
	require.NoError(t, tp.p.WaitReady(wait), "stderr:\n%s", tp.stderr)
	return tp
}

// startPlaygroundNoWait starts a playground without waiting for the bot; set changes the
// options first.
func startPlaygroundNoWait(t testing.TB, dbPath string, cfg bot.Config, hold <-chan struct{}, set ...func(*Options)) *testPlayground {
	t.Helper()
	if dbPath == "" {
		dbPath = filepath.Join(t.TempDir(), "playground.db")
	}
	store, err := storage.Open(dbPath, time.Second)
	require.NoError(t, err)
	tp := &testPlayground{t: t, store: store, dbPath: dbPath, stdout: &testkit.SyncBuffer{}, stderr: &testkit.SyncBuffer{}}
	// A slow answer on a busy machine is still an answer: actions wait for it as long as any wait.
	opts := Options{Config: cfg, Store: store, Stdout: tp.stdout, Stderr: tp.stderr, HoldBot: hold,
		SaveDelay: 20 * time.Millisecond, AnswerWait: wait, Logger: bot.NewLogger(bot.LogConfig{Level: "warn", Format: "text"}, tp.stderr)}
	for _, f := range set {
		f(&opts)
	}
	p, err := Start(opts)
	require.NoError(t, err)
	tp.p = p
	t.Cleanup(tp.stop)
	return tp
}

// stop shuts the playground down and closes its database.
func (tp *testPlayground) stop() {
	if tp.stopped {
		return
	}
	tp.stopped = true
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	require.NoError(tp.t, tp.p.Shutdown(ctx))
	require.NoError(tp.t, tp.store.Close())
}

// base is the page's URL without the trailing slash.
func (tp *testPlayground) base() string { return strings.TrimSuffix(tp.p.URL(), "/") }

// resp is an API answer.
type resp struct {
	status int
	body   []byte
	header http.Header
}

func (r resp) json(t testing.TB) map[string]any {
	t.Helper()
	var v map[string]any
	require.NoError(t, json.Unmarshal(r.body, &v), "body %s", r.body)
	return v
}

func (r resp) errorText(t testing.TB) string {
	t.Helper()
	v := r.json(t)
	msg, ok := v["error"].(string)
	require.True(t, ok, "no error message in %s", r.body)
	require.EqualValues(t, r.status, v["status"])
	return msg
}

func (tp *testPlayground) request(method, path, contentType string, body io.Reader, header map[string]string) resp {
	tp.t.Helper()
	req, err := http.NewRequest(method, tp.base()+path, body)
	require.NoError(tp.t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(tp.t, err)
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	require.NoError(tp.t, err)
	return resp{res.StatusCode, data, res.Header}
}

func (tp *testPlayground) get(path string) resp {
	tp.t.Helper()
	return tp.request("GET", path, "", nil, nil)
}

func (tp *testPlayground) post(path string, body any) resp {
	tp.t.Helper()
	data, err := json.Marshal(body)
	require.NoError(tp.t, err)
	return tp.request("POST", path, "application/json", bytes.NewReader(data), nil)
}

// ok posts and requires 200, returning the decoded answer.
func (tp *testPlayground) ok(path string, body any) map[string]any {
	tp.t.Helper()
	r := tp.post(path, body)
	require.Equal(tp.t, 200, r.status, "POST %s: %s", path, r.body)
	return r.json(tp.t)
}

// view is /api/view decoded.
type view struct {
	Version  uint64        `json:"version"`
	Status   BotStatus     `json:"status"`
	Me       userOut       `json:"me"`
	Users    []userOut     `json:"users"`
	Guild    userOut       `json:"guild"`
	Channels []channelOut  `json:"channels"`
	DM       *channelOut   `json:"dm"`
	Channel  channelOut    `json:"channel"`
	Messages []messageView `json:"messages"`
	Commands []struct {
		Name    string `json:"name"`
		Options []struct {
			Name         string `json:"name"`
			Type         int    `json:"type"`
			Autocomplete bool   `json:"autocomplete"`
			Options      []struct {
				Name         string `json:"name"`
				Type         int    `json:"type"`
				Autocomplete bool   `json:"autocomplete"`
				Choices      []struct {
					Name  string `json:"name"`
					Value any    `json:"value"`
				} `json:"choices"`
			} `json:"options"`
		} `json:"options"`
	} `json:"commands"`
	Modal *modalOut `json:"modal"`
	// EphemeralAfter is the horizon of the ephemeral messages shown ("" for all).
	EphemeralAfter string `json:"ephemeral_after"`
}

type messageView struct {
	ID      string  `json:"id"`
	Author  userOut `json:"author"`
	Content string  `json:"content"`
	Embeds  []struct {
		Title       string `json:"title"`
		Description string `json:"description"`
		Fields      []struct {
			Name  string `json:"name"`
			Value string `json:"value"`
		} `json:"fields"`
		Image *struct {
			URL string `json:"url"`
		} `json:"image"`
	} `json:"embeds"`
	Components []struct {
		Components []struct {
			Type     int    `json:"type"`
			Label    string `json:"label"`
			CustomID string `json:"custom_id"`
		} `json:"components"`
	} `json:"components"`
	Attachments []attachmentOut `json:"attachments"`
	Ephemeral   bool            `json:"ephemeral"`
	Loading     bool            `json:"loading"`
	Interaction *interactionOut `json:"interaction"`
}

// text is everything a reader sees as text in the message.
func (m messageView) text() string {
	parts := []string{m.Content}
	for _, e := range m.Embeds {
		parts = append(parts, e.Title, e.Description)
		for _, f := range e.Fields {
			parts = append(parts, f.Name, f.Value)
		}
	}
	return strings.Join(parts, "\n")
}

func (m messageView) button(label string) string {
	for _, r := range m.Components {
		for _, c := range r.Components {
			if c.Label == label {
				return c.CustomID
			}
		}
	}
	return ""
}

func (tp *testPlayground) view(as, channel string) view {
	tp.t.Helper()
	r := tp.get("/api/view?as=" + as + "&channel=" + channel)
	require.Equal(tp.t, 200, r.status, "view: %s", r.body)
	var v view
	require.NoError(tp.t, json.Unmarshal(r.body, &v))
	return v
}

func (tp *testPlayground) userID(name string) string {
	tp.t.Helper()
	for _, u := range tp.p.Fake().Users() {
		if u.Name == name {
			return u.ID
		}
	}
	tp.t.Fatalf("no user %q", name)
	return ""
}

func (tp *testPlayground) channelID(name string) string {
	tp.t.Helper()
	return tp.p.Fake().Channel(name).ID
}

// waitView waits until as's view of channel satisfies cond and returns that view. Between
// looks it long-polls /api/poll, as the page does, so it looks again as soon as anything changes.
func (tp *testPlayground) waitView(as, channel string, what string, cond func(view) bool) view {
	tp.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		v := tp.view(as, channel)
		if cond(v) {
			return v
		}
		if !tp.waitChange(v.Version, deadline) {
			tp.t.Fatalf("timed out after %v waiting for %s; last view has %d messages: %s", wait, what, len(v.Messages), lastText(v))
		}
	}
}

// waitChange long-polls /api/poll until the playground's version is no longer since, or the
// poll's own limit passes. It reports false if the deadline came first.
func (tp *testPlayground) waitChange(since uint64, deadline time.Time) bool {
	tp.t.Helper()
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("%s/api/poll?since=%d", tp.base(), since), nil)
	require.NoError(tp.t, err)
	res, err := http.DefaultClient.Do(req)
	if ctx.Err() != nil {
		return false
	}
	require.NoError(tp.t, err)
	defer res.Body.Close()
	_, err = io.Copy(io.Discard, res.Body)
	require.NoError(tp.t, err)
	require.Equal(tp.t, 200, res.StatusCode, "poll")
	return true
}

// answered waits until the bot has finished its answer to the interaction: a deferred
// ("thinking") answer is filled in, or replaced by a private follow-up. A slow answer is
// deferred, and a view taken in between shows the empty "thinking" message.
func (tp *testPlayground) answered(interactionID, what string) {
	tp.t.Helper()
	fake := tp.p.Fake()
	var in *discordsim.Interaction
	for _, x := range fake.Interactions() {
		if x.ID == interactionID {
			in = x
		}
	}
	require.NotNil(tp.t, in, "no interaction %s (%s)", interactionID, what)
	err := fake.WaitFor(wait, func() bool {
		r := in.Response()
		if r == nil {
			return false
		}
		if r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
			return true
		}
		m := in.Message()
		return m != nil && !m.Loading() || len(in.Followups()) > 0
	})
	require.NoError(tp.t, err, "the answer to %s", what)
}

func lastText(v view) string {
	if len(v.Messages) == 0 {
		return "(none)"
	}
	return fmt.Sprintf("%q", v.Messages[len(v.Messages)-1].text())
}

func opt(name string, value any) map[string]any { return map[string]any{"name": name, "value": value} }

// command runs a slash command through the API, requires that the bot answered and waits
// until the answer is complete.
func (tp *testPlayground) command(as, channel, path string, opts ...map[string]any) map[string]any {
	tp.t.Helper()
	if opts == nil {
		opts = []map[string]any{}
	}
	out := tp.ok("/api/commands", map[string]any{"as": as, "channel_id": channel, "command": path, "options": opts})
	require.Equal(tp.t, true, out["responded"], "/%s: %v", path, out)
	tp.answered(out["interaction_id"].(string), "/"+path)
	return out
}

// survivalThread plays a challenge from alice (White) to bob and bob's accept through the
// API, and returns the game thread's ID.
func (tp *testPlayground) survivalThread() string {
	tp.t.Helper()
	alice, bob, general := tp.userID("alice"), tp.userID("bob"), tp.channelID("general")
	tp.command(alice, general, "survival challenge", opt("opponent", bob), opt("color", "white"))
	v := tp.waitView(bob, general, "the challenge", func(v view) bool {
		return len(v.Messages) > 0 && v.Messages[len(v.Messages)-1].button("Accept") != ""
	})
	ch := v.Messages[len(v.Messages)-1]
	out := tp.ok("/api/click", map[string]any{"as": bob, "message_id": ch.ID, "custom_id": ch.button("Accept")})
	require.Equal(tp.t, true, out["responded"])
	v = tp.waitView(alice, general, "the game thread", func(v view) bool {
		for _, c := range v.Channels {
			if c.Kind == "public_thread" && c.MessageCount > 0 {
				return true
			}
		}
		return false
	})
	for _, c := range v.Channels {
		if c.Kind == "public_thread" {
			return c.ID
		}
	}
	return ""
}
