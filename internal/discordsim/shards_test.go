package discordsim

import (
	"strconv"
	"testing"
)

// TestAddGuildOnShard: the guild lands on the shard asked for (Discord's
// formula, which routes its events and interactions), with its channels,
// and snowflakes keep growing after it.
func TestAddGuildOnShard(t *testing.T) {
	srv := Start(t, Options{})
	last := uint64(0)
	for _, want := range []int{1, 1, 0, 2, 1} {
		g, err := srv.AddGuildOnShard("far", want, 3, "war", "peace")
		if err != nil {
			t.Fatal(err)
		}
		if got := shardOf(g.ID, 3); got != want {
			t.Errorf("guild %s is on shard %d, want %d", g.ID, got, want)
		}
		id, _ := strconv.ParseUint(g.ID, 10, 64)
		if id <= last {
			t.Errorf("guild ID %d not after %d", id, last)
		}
		last = id
		chs := srv.Channels(g.ID)
		if len(chs) != 2 || chs[0].Name != "war" || chs[1].Name != "peace" {
			t.Errorf("channels of the guild: %+v", chs)
		}
		c, err := srv.AddChannel(g.ID, "later")
		if err != nil {
			t.Fatal(err)
		}
		if cid, _ := strconv.ParseUint(c.ID, 10, 64); cid <= id {
			t.Errorf("a later snowflake %d is not after the guild's %d", cid, id)
		}
	}
	if _, err := srv.AddGuildOnShard("none", 2, 2); err == nil {
		t.Error("shard 2 of 2 accepted")
	}
}
