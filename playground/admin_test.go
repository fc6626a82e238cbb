package playground

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
)

// TestPlaygroundAliceManagesTheServer: the first person (alice) has
// Manage Server, bob does not, so both sides of /admin can be tried.
func TestPlaygroundAliceManagesTheServer(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	fake := tp.p.Fake()
	g := fake.Guild()
	alice, bob := fake.User("alice"), fake.User("bob")
	require.NotZero(t, fake.MemberPermissions(g.ID, alice)&discordsim.PermManageGuild)
	require.Zero(t, fake.MemberPermissions(g.ID, bob)&discordsim.PermManageGuild)
	general := tp.channelID("general")
	for _, c := range []struct {
		u    *discordsim.User
		want string
	}{{alice, "This server's settings"}, {bob, "needs the Manage Server permission"}} {
		in, err := fake.Slash(c.u, general, "admin settings")
		require.NoError(t, err)
		m, err := in.WaitMessage(wait, nil)
		require.NoError(t, err)
		require.True(t, m.Ephemeral())
		require.Contains(t, m.Text(), c.want)
	}
}
