package bot_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"sandtable/bot"
	"sandtable/commands"
	"sandtable/internal/discordsim"
	"sandtable/internal/etcdtest"
	"sandtable/storage"
)

// adminHarness is a harness whose alice manages the server (Manage
// Server) and whose bob does not.
func adminHarness(t *testing.T) (*harness, *discordsim.User, *discordsim.User) {
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	g := h.srv.Guild()
	h.srv.SetMemberPermissions(g.ID, alice, h.srv.MemberPermissions(g.ID, alice)|discordsim.PermManageGuild)
	return h, alice, bob
}

// admin runs /admin sub as u and returns its private answer's text.
func (h *harness) admin(u *discordsim.User, sub string, opts ...discordsim.Option) string {
	h.t.Helper()
	m := h.reply(u, h.gen.ID, "admin "+sub, opts...)
	return mustBeEphemeral(h.t, m, u)
}

// refusedChallenge is u's challenge to opp in channelID, which must be
// refused privately; it returns the refusal.
func (h *harness) refusedChallenge(u, opp *discordsim.User, channelID string, opts ...discordsim.Option) string {
	h.t.Helper()
	m := h.reply(u, channelID, "survival challenge", append([]discordsim.Option{discordsim.Opt("opponent", opp)}, opts...)...)
	return mustBeEphemeral(h.t, m, u)
}

// TestAdminNeedsManageServer: /admin is registered for managers only and
// for servers only, and the bot checks the member's permissions again: bob,
// without Manage Server, invoking it anyway (as a server owner's
// Integrations override allows) is refused and changes nothing.
func TestAdminNeedsManageServer(t *testing.T) {
	t.Parallel()
	h, alice, bob := adminHarness(t)
	var def *discordgo.ApplicationCommand
	for _, c := range h.srv.CommandsIn(h.gen.ID) {
		if c.Name == "admin" {
			def = c
		}
	}
	require.NotNil(t, def, "/admin is registered")
	require.NotNil(t, def.DefaultMemberPermissions)
	require.Equal(t, int64(discordgo.PermissionManageGuild), *def.DefaultMemberPermissions)
	require.NotNil(t, def.Contexts)
	require.Equal(t, []discordgo.InteractionContextType{discordgo.InteractionContextGuild}, *def.Contexts)

	refused := h.admin(bob, "settings", discordsim.Opt("rated", false))
	require.Contains(t, refused, "Manage Server")
	require.Contains(t, h.admin(bob, "log"), "Manage Server")
	shown := h.admin(alice, "settings")
	require.Contains(t, shown, "rated**: yes", "bob's change was not made")
	require.Contains(t, h.admin(alice, "log"), "No admin action")

	// A role granting Manage Server is as good.
	mods, err := h.srv.AddRole(h.srv.Guild().ID, "mods", discordsim.PermManageGuild)
	require.NoError(t, err)
	require.NoError(t, h.srv.SetMemberRoles(h.srv.Guild().ID, bob, mods.ID))
	require.Contains(t, h.admin(bob, "settings", discordsim.Opt("rated", false)), "Saved")
}

// TestAdminSettingsTakeEffect: a manager changes each setting and members
// meet it; every refusal is private and names the setting.
func TestAdminSettingsTakeEffect(t *testing.T) {
	t.Parallel()
	h, alice, bob := adminHarness(t)
	carol := h.srv.User("carol")
	games := h.srv.Channel("games")

	// Game channels: elsewhere a challenge is refused with a pointer.
	require.Contains(t, h.admin(alice, "settings", discordsim.Opt("add_channel", games)), "Saved")
	refusal := h.refusedChallenge(bob, carol, h.gen.ID)
	require.Contains(t, refusal, "<#"+games.ID+">")
	require.Contains(t, refusal, "game channels")
	lobby := h.reply(bob, h.gen.ID, "teamchess new")
	require.Contains(t, mustBeEphemeral(t, lobby, bob), "<#"+games.ID+">", "a lobby too")
	ch := h.reply(bob, games.ID, "survival challenge", discordsim.Opt("opponent", carol))
	require.False(t, ch.Ephemeral(), "a challenge in a game channel is posted")
	h.click(bob, ch, buttonID(t, ch, "Cancel"))
	require.Contains(t, h.admin(alice, "settings", discordsim.Opt("clear", "channels")), "Saved")

	// Default move time, and rated by default.
	require.Contains(t, h.admin(alice, "settings", discordsim.Opt("move_time", "2h"), discordsim.Opt("rated", false)), "Saved")
	ch = h.reply(bob, h.gen.ID, "survival challenge", discordsim.Opt("opponent", carol))
	require.Contains(t, ch.Text(), "Time for each move: 2h")
	require.Contains(t, ch.Text(), "Casual")
	h.click(bob, ch, buttonID(t, ch, "Cancel"))
	ch = h.reply(bob, h.gen.ID, "survival challenge", discordsim.Opt("opponent", carol), discordsim.Opt("casual", false))
	require.Contains(t, ch.Text(), "Rated", "casual:false still asks a rated game")
	h.click(bob, ch, buttonID(t, ch, "Cancel"))

	// Computers.
	require.Contains(t, h.admin(alice, "settings", discordsim.Opt("computers", false)), "Saved")
	require.Contains(t, h.refusedChallenge(bob, h.srv.Bot(), h.gen.ID), "setting: computers")

	// A role to start games.
	players, err := h.srv.AddRole(h.srv.Guild().ID, "players", 0)
	require.NoError(t, err)
	require.Contains(t, h.admin(alice, "settings", discordsim.Opt("role", players)), "Saved")
	refusal = h.refusedChallenge(bob, carol, h.gen.ID)
	require.Contains(t, refusal, "<@&"+players.ID+">")
	require.Contains(t, refusal, "setting: role")
	require.NoError(t, h.srv.SetMemberRoles(h.srv.Guild().ID, bob, players.ID))
	ch = h.reply(bob, h.gen.ID, "survival challenge", discordsim.Opt("opponent", carol))
	require.False(t, ch.Ephemeral(), "bob has the role now")
	h.click(bob, ch, buttonID(t, ch, "Cancel"))
	require.NoError(t, h.srv.DeleteRole(h.srv.Guild().ID, players.ID))
	require.Contains(t, h.refusedChallenge(bob, carol, h.gen.ID), "no longer exists", "a deleted role is said so")
	require.Contains(t, h.admin(alice, "settings", discordsim.Opt("clear", "role")), "Saved")

	// The settings are shown, and every change is in the log.
	shown := h.admin(alice, "settings")
	require.Contains(t, shown, "move time**: 2h")
	require.Contains(t, shown, "computers**: off")
	log := h.admin(alice, "log")
	require.Equal(t, 6, strings.Count(log, alice.Mention()), log)
	require.Contains(t, log, "role <@&"+players.ID+">")
	require.Contains(t, log, "move time 2h")
}

// TestAdminLimits: the most open challenges, active games and challenges a
// minute per member, each refusal naming the limit and its setting; the
// per-minute one says when to try again, and counts in the store.
func TestAdminLimits(t *testing.T) {
	t.Parallel()
	h, alice, bob := adminHarness(t)
	carol, dave := h.srv.User("carol"), h.srv.User("dave")

	require.Contains(t, h.admin(alice, "settings", discordsim.Opt("max_challenges", 1), discordsim.Opt("max_games", 1)), "Saved")
	first := h.reply(bob, h.gen.ID, "survival challenge", discordsim.Opt("opponent", carol))
	require.False(t, first.Ephemeral())
	refusal := h.refusedChallenge(bob, dave, h.gen.ID)
	require.Contains(t, refusal, "max challenges 1")
	// Accepted, it is an active game: bob may challenge again no more
	// (max games), and carol, at her limit, may not accept dave's.
	h.click(carol, first, buttonID(t, first, "Accept"))
	h.drained()
	refusal = h.refusedChallenge(bob, dave, h.gen.ID)
	require.Contains(t, refusal, "max games 1")
	ch := h.reply(dave, h.gen.ID, "survival challenge", discordsim.Opt("opponent", carol))
	in := h.click(carol, ch, buttonID(t, ch, "Accept"))
	m, err := in.WaitMessage(wait, func(m *discordsim.Message) bool { return m.Ephemeral() })
	require.NoError(t, err)
	require.Contains(t, m.Text(), "max games 1")
	h.click(dave, ch, buttonID(t, ch, "Cancel"))
	// Nor join a lobby.
	lobby := h.tcOpen(dave)
	require.Contains(t, mustBeEphemeral(t, h.tcPress(carol, lobby, "Join White"), carol), "max games 1")
	h.tcPress(dave, lobby, "Cancel")

	require.Contains(t, h.admin(alice, "settings", discordsim.Opt("clear", "max_games"), discordsim.Opt("per_minute", 2)), "Saved")
	for range 2 {
		ch := h.reply(dave, h.gen.ID, "survival challenge", discordsim.Opt("opponent", alice))
		require.False(t, ch.Ephemeral())
		h.click(dave, ch, buttonID(t, ch, "Cancel"))
	}
	refusal = h.refusedChallenge(dave, alice, h.gen.ID)
	require.Contains(t, refusal, "per minute 2")
	retry := fmt.Sprintf("<t:%d:R>", h.clock.Now().Add(time.Minute).Unix())
	require.Contains(t, refusal, retry, "the refusal says when to try again")
	h.clock.Advance(time.Minute)
	ch = h.reply(dave, h.gen.ID, "survival challenge", discordsim.Opt("opponent", alice))
	require.False(t, ch.Ephemeral(), "a minute later dave may challenge again")

	// A challenge refused for another reason (dave and alice already have
	// one open) starts nothing and uses up nothing: at a limit of 2, dave's
	// second challenge of the minute is still allowed.
	require.Contains(t, h.admin(alice, "settings", discordsim.Opt("clear", "max_challenges")), "Saved")
	require.NotContains(t, h.refusedChallenge(dave, alice, h.gen.ID), "per minute")
	second := h.reply(dave, h.gen.ID, "survival challenge", discordsim.Opt("opponent", bob))
	require.False(t, second.Ephemeral(), "a refused challenge did not count: %s", second.Text())
	refusal = h.refusedChallenge(dave, carol, h.gen.ID)
	require.Contains(t, refusal, "started 2 games or challenges in the last minute")
}

// TestAdminSettingsBadInput: each bad value is answered specifically and
// changes nothing.
func TestAdminSettingsBadInput(t *testing.T) {
	t.Parallel()
	h, alice, bob := adminHarness(t)
	before := h.admin(alice, "settings")
	thread := h.survivalGame(alice, bob)
	for _, c := range []struct {
		opts []discordsim.Option
		want string
	}{
		{[]discordsim.Option{discordsim.Opt("max_games", 0)}, "between 1 and 100"},
		{[]discordsim.Option{discordsim.Opt("per_minute", 100000)}, "between 1 and 60"},
		{[]discordsim.Option{discordsim.Opt("max_challenges", -3)}, "between 1 and 100"},
		{[]discordsim.Option{discordsim.Opt("move_time", "soon")}, "between 1m and 30d"},
		{[]discordsim.Option{discordsim.Opt("remove_channel", h.gen)}, "is not a game channel"},
		{[]discordsim.Option{discordsim.Opt("add_channel", thread)}, "not a text channel"},
		{[]discordsim.Option{discordsim.Opt("rated", false), discordsim.Opt("max_games", 0)}, "between 1 and 100"},
		{[]discordsim.Option{discordsim.Opt("add_channel", h.gen), discordsim.Opt("remove_channel", h.gen)}, "name the same channel"},
		{[]discordsim.Option{discordsim.Opt("max_games", 2), discordsim.Opt("clear", "max_games")}, "contradict each other"},
		{[]discordsim.Option{discordsim.Opt("add_channel", h.gen), discordsim.Opt("clear", "channels")}, "contradict each other"},
	} {
		got := h.admin(alice, "settings", c.opts...)
		require.Contains(t, got, c.want)
		require.Contains(t, got, "Nothing changed")
	}
	require.Equal(t, before, h.admin(alice, "settings"), "nothing changed")
}

// TestAdminSettingsCachedAcrossEtcdProcesses: a bot on etcd reads a
// server's settings from the store once (the next challenges read them
// from its cache: no extra round trip), and a change saved by another
// process reaches it through its watch: the next challenge obeys it.
func TestAdminSettingsCachedAcrossEtcdProcesses(t *testing.T) {
	t.Parallel()
	c := etcdtest.Start(t)
	srv := discordsim.Start(t, discordsim.Options{})
	gen := srv.Channel("general")
	games := srv.Channel("games")
	a := startEtcdBot(t, srv, c, gen, 1, []int{0}, nil, bot.Options{})
	require.NoError(t, srv.WaitCommands(wait, gen.ID, "survival", "admin"))
	alice, bob := srv.User("alice"), srv.User("bob")
	settingsReads := func() int { return a.rpcs.readsOf("guild_settings") }

	for range 3 {
		ch := a.h.reply(alice, gen.ID, "survival challenge", discordsim.Opt("opponent", bob))
		require.False(t, ch.Ephemeral())
		a.h.click(alice, ch, buttonID(t, ch, "Cancel"))
	}
	require.Equal(t, 1, settingsReads(), "three challenges, one read of the settings")

	// Another process saves the settings.
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	other, err := storage.OpenEtcd(ctx, storage.EtcdOptions{Endpoints: c.Endpoints()})
	require.NoError(t, err)
	defer other.Close()
	require.NoError(t, other.Update(ctx, func(tx storage.Tx) error {
		return tx.Guilds().PutSettings(srv.Guild().ID, commands.GuildSettings{Channels: []string{games.ID}})
	}))
	require.Eventually(t, func() bool { return strings.Contains(a.logs.String(), "change=settings_changed") },
		wait, 10*time.Millisecond, "the bot's watch reports the change")
	m := a.h.reply(alice, gen.ID, "survival challenge", discordsim.Opt("opponent", bob))
	require.Contains(t, mustBeEphemeral(t, m, alice), "<#"+games.ID+">", "the change is obeyed")
	require.Equal(t, 2, settingsReads(), "read again once, after the change")
}

// TestAdminRoleOverHTTPInteractions: with HTTP interactions the bot has no
// gateway cache of the server's roles: it asks Discord (GET
// /guilds/{id}/roles) whether the role set exists, and a role deleted
// since is said to be gone.
func TestAdminRoleOverHTTPInteractions(t *testing.T) {
	t.Parallel()
	h := startHTTPBot(t, bot.Options{})
	alice, bob, carol := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol")
	g := h.srv.Guild()
	h.srv.SetMemberPermissions(g.ID, alice, h.srv.MemberPermissions(g.ID, alice)|discordsim.PermManageGuild)
	players, err := h.srv.AddRole(g.ID, "players", 0)
	require.NoError(t, err)
	require.Contains(t, h.admin(alice, "settings", discordsim.Opt("role", players)), "Saved")
	rolesAsked := func() int {
		n := 0
		for _, c := range h.srv.Calls() {
			if c.Is("GET /guilds/*/roles") {
				n++
			}
		}
		return n
	}
	require.Equal(t, 1, rolesAsked(), "the role was checked over REST when set")
	require.NoError(t, h.srv.DeleteRole(g.ID, players.ID))
	require.Contains(t, h.refusedChallenge(bob, carol, h.gen.ID), "no longer exists")
	require.Equal(t, 2, rolesAsked())
}
