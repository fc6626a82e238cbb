package bot_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
)

// TestTeamThreadRenamedOnTagOut: through Discord, White's team thread is
// named after its active commander, and a tag-out renames it after the
// next one.
func TestTeamThreadRenamedOnTagOut(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob, carol := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol")
	tb := h.tcStart("", []*discordsim.User{alice, carol}, []*discordsim.User{bob})
	require.Contains(t, h.srv.ChannelByID(tb.team[tcWhite].ID).Name, "alice commands")
	tb.do(alice, tb.pub, "tagout")
	h.drained()
	name := h.srv.ChannelByID(tb.team[tcWhite].ID).Name
	require.True(t, strings.Contains(name, "carol commands"), "White's thread is named %q", name)
	require.Contains(t, h.srv.ChannelByID(tb.team[tcBlack].ID).Name, "bob commands", "Black's is unchanged")
}
