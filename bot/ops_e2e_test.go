package bot_test

import (
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/bot"
	"sandtable/internal/discordsim"
)

// metric reads one sample of the bot's /metrics ("name{labels}" exactly as
// the exposition writes it), -1 when absent.
func metric(t *testing.T, addr, sample string) float64 {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(sample) + ` (\S+)$`).FindSubmatch(body)
	if m == nil {
		return -1
	}
	v, err := strconv.ParseFloat(string(m[1]), 64)
	require.NoError(t, err)
	return v
}

// TestOperationsListener: with http.listen set, the bot serves /livez,
// /readyz and Prometheus metrics that count its interactions by outcome,
// Discord's refusals by status and code, and its outbox.
func TestOperationsListener(t *testing.T) {
	t.Parallel()
	srv := discordsim.Start(t, discordsim.Options{})
	h := startBotWith(t, srv, filepath.Join(t.TempDir(), "bot.db"), bot.Options{HTTPListen: "127.0.0.1:0"})
	addr := h.bot.HTTPAddr()
	require.NotEmpty(t, addr)
	for _, path := range []string{"/livez", "/readyz"} {
		resp, err := http.Get("http://" + addr + path)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, path)
	}
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	h.survivalGame(alice, bob)
	m := h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", alice))
	mustBeEphemeral(t, m, alice)
	require.Equal(t, 1.0, metric(t, addr, `sandtable_interactions_total{outcome="ok",type="command"}`), "the challenge")
	require.Equal(t, 1.0, metric(t, addr, `sandtable_interactions_total{outcome="ok",type="component"}`), "its Accept")
	require.Equal(t, 1.0, metric(t, addr, `sandtable_interactions_total{outcome="refused",type="command"}`), "challenging oneself")
	require.GreaterOrEqual(t, metric(t, addr, `sandtable_interaction_seconds_count{type="command"}`), 2.0)
	require.Equal(t, 0.0, metric(t, addr, `sandtable_outbox_due`))

	h.srv.FailNext("GET /channels/*", 1, discordsim.Fault{Status: 403, Code: 50001, Message: "Missing Access"})
	_, err := h.bot.App().Platform.ChannelType(t.Context(), "123456789012345678")
	require.Error(t, err)
	require.Equal(t, 1.0, metric(t, addr, `sandtable_discord_rest_errors_total{code="50001",status="403"}`))
}
