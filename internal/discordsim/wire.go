package discordsim

import (
	"time"

	"github.com/bwmarrin/discordgo"
)

// Wire shapes: what Discord sends, in the JSON types discordgo decodes. Numbers that Discord
// sends as strings (permissions) are strings here, and no timestamp is ever "".

// allPermissions is the permission string sent for members and the app (administrator aside,
// everything a game bot could need).
const allPermissions = "2248473465835073"

var joinedAt = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Format(time.RFC3339)

func userJSON(u *User) map[string]any {
	return map[string]any{
		"id": u.ID, "username": u.Name, "global_name": u.Name, "discriminator": "0",
		"avatar": nil, "bot": u.Bot, "public_flags": 0,
	}
}

// memberJSON is a guild member; withUser false gives the shape used in resolved.members.
func memberJSON(u *User, withUser bool) map[string]any {
	m := map[string]any{
		"roles": []string{}, "joined_at": joinedAt, "permissions": allPermissions, "nick": nil,
		"deaf": false, "mute": false, "flags": 0, "pending": false,
	}
	if withUser {
		m["user"] = userJSON(u)
	}
	return m
}

func channelJSON(c *Channel, botID string) *discordgo.Channel {
	out := &discordgo.Channel{
		ID: c.ID, GuildID: c.GuildID, Name: c.Name, Type: c.Type, ParentID: c.ParentID, OwnerID: c.OwnerID,
		PermissionOverwrites: []*discordgo.PermissionOverwrite{},
	}
	if c.IsThread() {
		out.ThreadMetadata = &discordgo.ThreadMetadata{
			Archived: c.Archived, Locked: c.Locked, Invitable: c.Invitable,
			AutoArchiveDuration: c.AutoArchiveDuration, ArchiveTimestamp: c.CreatedAt,
		}
		out.MemberCount = len(c.Members)
		if c.HasMember(botID) {
			out.Member = &discordgo.ThreadMember{ID: c.ID, UserID: botID, JoinTimestamp: c.CreatedAt}
		}
	}
	return out
}

func dmChannelJSON(c *Channel, recipient *User) map[string]any {
	return map[string]any{
		"id": c.ID, "type": int(discordgo.ChannelTypeDM), "last_message_id": nil, "flags": 0,
		"recipients": []any{userJSON(recipient)},
	}
}

func attachmentJSON(a *Attachment) map[string]any {
	return map[string]any{
		"id": a.ID, "filename": a.Filename, "size": len(a.Data), "url": a.URL, "proxy_url": a.URL,
		"content_type": a.ContentType,
	}
}

// messageJSON is a message as the bot would receive it from REST or the gateway.
func (s *Server) messageJSONLocked(m *Message) map[string]any {
	atts := make([]any, 0, len(m.Attachments))
	for _, a := range m.Attachments {
		atts = append(atts, attachmentJSON(a))
	}
	embeds := m.Embeds
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	comps := m.Components
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	out := map[string]any{
		"id": m.ID, "channel_id": m.ChannelID, "author": userJSON(m.Author), "content": m.Content,
		"timestamp": m.Timestamp.Format(time.RFC3339Nano), "edited_timestamp": nil, "tts": false,
		"mention_everyone": false, "mentions": []any{}, "mention_roles": []string{}, "attachments": atts,
		"embeds": embeds, "components": comps, "pinned": false, "type": int(m.Type), "flags": int(m.Flags),
	}
	if m.GuildID != "" {
		out["guild_id"] = m.GuildID
	}
	if m.Nonce != "" {
		out["nonce"] = m.Nonce
	}
	if m.EditedAt != nil {
		out["edited_timestamp"] = m.EditedAt.Format(time.RFC3339Nano)
	}
	if m.InteractionID != "" {
		out["webhook_id"] = s.bot.ID
		out["application_id"] = s.bot.ID
		if in := s.st.interactions[m.InteractionID]; in != nil {
			out["interaction_metadata"] = map[string]any{"id": in.ID, "type": int(in.Type), "user": userJSON(in.User)}
			if in.Type == discordgo.InteractionApplicationCommand {
				out["interaction"] = map[string]any{"id": in.ID, "type": int(in.Type), "name": in.Command, "user": userJSON(in.User)}
			}
		}
	}
	if m.ThreadID != "" {
		if t := s.st.channels[m.ThreadID]; t != nil {
			out["thread"] = channelJSON(t, s.bot.ID)
		}
	}
	return out
}

// guildCreateLocked is the GUILD_CREATE payload for g: channels, active threads, the bot as a
// member and the @everyone role.
func (s *Server) guildCreateLocked(g *Guild) map[string]any {
	channels, threads := []any{}, []any{}
	for _, id := range s.st.channelOrder {
		c := s.st.channels[id]
		if c.GuildID != g.ID {
			continue
		}
		if c.IsThread() {
			if !c.Archived {
				threads = append(threads, channelJSON(c, s.bot.ID))
			}
		} else {
			channels = append(channels, channelJSON(c, s.bot.ID))
		}
	}
	return map[string]any{
		"id": g.ID, "name": g.Name, "owner_id": s.bot.ID, "unavailable": false, "large": false,
		"member_count": len(s.st.users), "joined_at": joinedAt,
		"roles":    s.rolesJSONLocked(g.ID),
		"members":  []any{memberJSON(s.bot, true)},
		"channels": channels, "threads": threads, "emojis": []any{}, "stickers": []any{},
		"voice_states": []any{}, "presences": []any{},
	}
}

// apiError is Discord's error body.
type apiError struct {
	Status  int    `json:"-"`
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *apiError) Error() string { return e.Message }

func errNotFound() *apiError { return &apiError{404, 0, "404: Not Found"} }
func errUnknownChannel() *apiError {
	return &apiError{404, discordgo.ErrCodeUnknownChannel, "Unknown Channel"}
}
func errUnknownMessage() *apiError {
	return &apiError{404, discordgo.ErrCodeUnknownMessage, "Unknown Message"}
}
func errUnknownUser() *apiError { return &apiError{404, discordgo.ErrCodeUnknownUser, "Unknown User"} }
func errUnknownInteraction() *apiError {
	return &apiError{404, discordgo.ErrCodeUnknownInteraction, "Unknown interaction"}
}
func errUnknownWebhook() *apiError {
	return &apiError{404, discordgo.ErrCodeUnknownWebhook, "Unknown Webhook"}
}
func errMissingAccess() *apiError {
	return &apiError{403, discordgo.ErrCodeMissingAccess, "Missing Access"}
}
func errInvalidForm(detail string) *apiError {
	return &apiError{400, discordgo.ErrCodeInvalidFormBody, "Invalid Form Body: " + detail}
}
