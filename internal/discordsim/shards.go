package discordsim

import (
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"
)

// AddGuildOnShard is AddGuild for a guild whose events and interactions go to shard shard of
// count ((guild_id >> 22) % count = shard, Discord's formula): its ID is the next snowflake
// that falls on that shard, so that a test can place a server on the shard it needs.
func (s *Server) AddGuildOnShard(name string, shard, count int, channels ...string) (*Guild, error) {
	if count < 1 || shard < 0 || shard >= count {
		return nil, fmt.Errorf("discordsim: shard %d of %d does not exist", shard, count)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var id uint64
	fmt.Sscan(s.newID(), &id)
	for (id>>22)%uint64(count) != uint64(shard) {
		id = (id>>22 + 1) << 22 // the next millisecond's first snowflake
	}
	s.lastID = id
	g := s.st.addGuild(fmt.Sprint(id), name)
	for _, c := range channels {
		s.st.addChannel(&Channel{ID: s.newID(), Type: discordgo.ChannelTypeGuildText, GuildID: g.ID, Name: c, CreatedAt: time.Now().UTC()})
	}
	s.dispatchLocked("GUILD_CREATE", s.guildCreateLocked(g), g.ID, discordgo.IntentGuilds)
	s.notifyLocked()
	return g, nil
}
