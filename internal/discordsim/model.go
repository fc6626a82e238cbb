package discordsim

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// User is a Discord user known to the fake server: one of the named people a test plays, another
// bot, or the bot under test itself. A User value is never changed after creation, so it can be
// shared freely between goroutines.
type User struct {
	ID   string `json:"id"`
	Name string `json:"name"` // username; unique within a Server
	Bot  bool   `json:"bot"`
}

// Mention returns the user mention as Discord writes it, "<@ID>".
func (u *User) Mention() string { return "<@" + u.ID + ">" }

// Discord returns the user in discordgo's shape, as the bot would see it.
func (u *User) Discord() *discordgo.User {
	return &discordgo.User{ID: u.ID, Username: u.Name, GlobalName: u.Name, Discriminator: "0", Bot: u.Bot}
}

// Guild is a Discord server. Every user of the fake is a member of every guild.
type Guild struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Channel is a snapshot of a guild text channel, a thread or a DM channel. Methods of Server
// return copies; changing one changes nothing in the server.
type Channel struct {
	ID      string                `json:"id"`
	Type    discordgo.ChannelType `json:"type"`     // 0 text, 1 DM, 11 public thread, 12 private thread
	GuildID string                `json:"guild_id"` // "" for DMs
	Name    string                `json:"name"`     // "" for DMs
	// ParentID is the text channel a thread belongs to.
	ParentID string `json:"parent_id,omitempty"`
	// OwnerID is the user who created a thread.
	OwnerID string `json:"owner_id,omitempty"`
	// RecipientID is the (human) user of a DM channel; the other side is always the bot.
	RecipientID string `json:"recipient_id,omitempty"`
	// Members are the user IDs that joined a thread, in join order (the bot included).
	Members             []string  `json:"members,omitempty"`
	Archived            bool      `json:"archived,omitempty"`
	Locked              bool      `json:"locked,omitempty"`
	Invitable           bool      `json:"invitable,omitempty"`
	AutoArchiveDuration int       `json:"auto_archive_duration,omitempty"` // minutes
	CreatedAt           time.Time `json:"created_at"`
}

// IsThread reports whether the channel is a public or private thread.
func (c *Channel) IsThread() bool {
	return c.Type == discordgo.ChannelTypeGuildPublicThread || c.Type == discordgo.ChannelTypeGuildPrivateThread
}

// IsDM reports whether the channel is a direct-message channel with the bot.
func (c *Channel) IsDM() bool { return c.Type == discordgo.ChannelTypeDM }

// HasMember reports whether userID joined the thread.
func (c *Channel) HasMember(userID string) bool {
	for _, m := range c.Members {
		if m == userID {
			return true
		}
	}
	return false
}

func (c *Channel) clone() *Channel {
	cp := *c
	cp.Members = append([]string(nil), c.Members...)
	return &cp
}

// Attachment is a file attached to a message, with its bytes. Treat Data as read-only.
type Attachment struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	ContentType string `json:"content_type"`
	Data        []byte `json:"data"`
	// URL serves the bytes from the fake server (GET, no authorization needed).
	URL string `json:"url"`
}

// Message is one version of a message. Messages are immutable: an edit stores a new Message with
// a higher Version under the same ID, so a *Message obtained earlier still shows the old content.
// Treat the slices (Embeds, Components, Attachments) as read-only.
type Message struct {
	ID        string                    `json:"id"`
	ChannelID string                    `json:"channel_id"`
	GuildID   string                    `json:"guild_id,omitempty"`
	Author    *User                     `json:"author"`
	Type      discordgo.MessageType     `json:"type"`
	Content   string                    `json:"content"`
	Embeds    []*discordgo.MessageEmbed `json:"embeds"`
	// Components are decoded as discordgo decodes them: pointers (*discordgo.ActionsRow, *discordgo.Button, ...).
	Components  []discordgo.MessageComponent `json:"components"`
	Attachments []*Attachment                `json:"attachments"`
	Flags       discordgo.MessageFlags       `json:"flags"`
	// VisibleTo is the only user who can see an ephemeral message ("" for a normal message).
	VisibleTo string `json:"visible_to,omitempty"`
	// InteractionID is the interaction this message answers (original response or follow-up), if any.
	InteractionID string `json:"interaction_id,omitempty"`
	// Interaction describes that interaction (who used which command), as a client shows it
	// above the answer ("alice used /move"). Unlike the Interaction handles, it is kept by
	// ExportState.
	Interaction *MessageInteraction `json:"interaction,omitempty"`
	// ThreadID is the thread started from this message, if any (it has the message's ID).
	ThreadID string `json:"thread_id,omitempty"`
	// Nonce is the nonce the bot's create carried, if any (see Options.NonceWindow).
	Nonce     string     `json:"nonce,omitempty"`
	Timestamp time.Time  `json:"timestamp"`
	EditedAt  *time.Time `json:"edited_at,omitempty"`
	// Version counts edits: 1 when created.
	Version int `json:"version"`
}

// MessageInteraction is what a message says of the interaction it answers.
type MessageInteraction struct {
	ID     string                    `json:"id"`
	Type   discordgo.InteractionType `json:"type"`
	UserID string                    `json:"user_id"`
	// Command is the command path for a chat command ("survival challenge"), else "".
	Command string `json:"command,omitempty"`
}

// Ephemeral reports whether only one user (VisibleTo) can see the message.
func (m *Message) Ephemeral() bool { return m.Flags&discordgo.MessageFlagsEphemeral != 0 }

// Loading reports whether the message is a deferred response still "thinking".
func (m *Message) Loading() bool { return m.Flags&discordgo.MessageFlagsLoading != 0 }

// VisibleFor reports whether userID can see this message, assuming it can see the channel.
func (m *Message) VisibleFor(userID string) bool { return m.VisibleTo == "" || m.VisibleTo == userID }

// Attachment returns the attachment named filename, or nil.
func (m *Message) Attachment(filename string) *Attachment {
	for _, a := range m.Attachments {
		if a.Filename == filename {
			return a
		}
	}
	return nil
}

// Buttons returns every button of the message in display order (rows, then left to right).
func (m *Message) Buttons() []*discordgo.Button {
	var out []*discordgo.Button
	walkComponents(m.Components, func(c discordgo.MessageComponent) {
		if b := asButton(c); b != nil {
			out = append(out, b)
		}
	})
	return out
}

// Button returns the button with the given custom ID, or nil.
func (m *Message) Button(customID string) *discordgo.Button {
	for _, b := range m.Buttons() {
		if b.CustomID == customID {
			return b
		}
	}
	return nil
}

// SelectMenus returns the message's select menus, in order.
func (m *Message) SelectMenus() []*discordgo.SelectMenu {
	var out []*discordgo.SelectMenu
	walkComponents(m.Components, func(c discordgo.MessageComponent) {
		if s := asSelect(c); s != nil {
			out = append(out, s)
		}
	})
	return out
}

// SelectMenu returns the select menu with the given custom ID, or nil.
func (m *Message) SelectMenu(customID string) *discordgo.SelectMenu {
	var found *discordgo.SelectMenu
	walkComponents(m.Components, func(c discordgo.MessageComponent) {
		if s := asSelect(c); s != nil && s.CustomID == customID && found == nil {
			found = s
		}
	})
	return found
}

// Text returns everything a reader sees as text: the content, then each embed's title,
// description, field names and values, and footer, then the text displays of a Components V2
// layout, one per line. Handy for assertions.
func (m *Message) Text() string {
	var b strings.Builder
	add := func(s string) {
		if s == "" {
			return
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	add(m.Content)
	for _, e := range m.Embeds {
		if e == nil {
			continue
		}
		if e.Author != nil {
			add(e.Author.Name)
		}
		add(e.Title)
		add(e.Description)
		for _, f := range e.Fields {
			if f != nil {
				add(f.Name)
				add(f.Value)
			}
		}
		if e.Footer != nil {
			add(e.Footer.Text)
		}
	}
	walkComponents(m.Components, func(c discordgo.MessageComponent) {
		if t, ok := c.(*discordgo.TextDisplay); ok {
			add(t.Content)
		}
	})
	return b.String()
}

// UnmarshalJSON decodes a Message as encoding/json encodes it, components included.
func (m *Message) UnmarshalJSON(data []byte) error {
	type plain Message
	var v struct {
		*plain
		Components json.RawMessage `json:"components"`
	}
	v.plain = (*plain)(m)
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	comps, err := decodeComponents(v.Components)
	if err != nil {
		return err
	}
	m.Components = comps
	return nil
}

// decodeComponents decodes a JSON array of components the way discordgo does.
func decodeComponents(raw json.RawMessage) ([]discordgo.MessageComponent, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, err
	}
	out := make([]discordgo.MessageComponent, 0, len(items))
	for _, it := range items {
		c, err := discordgo.MessageComponentFromJSON(it)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// walkComponents calls fn for every component, depth first, including the containers.
func walkComponents(cs []discordgo.MessageComponent, fn func(discordgo.MessageComponent)) {
	for _, c := range cs {
		fn(c)
		switch v := c.(type) {
		case *discordgo.ActionsRow:
			walkComponents(v.Components, fn)
		case discordgo.ActionsRow:
			walkComponents(v.Components, fn)
		case *discordgo.Section:
			walkComponents(v.Components, fn)
			if v.Accessory != nil {
				walkComponents([]discordgo.MessageComponent{v.Accessory}, fn)
			}
		case *discordgo.Container:
			walkComponents(v.Components, fn)
		}
	}
}

func asButton(c discordgo.MessageComponent) *discordgo.Button {
	switch v := c.(type) {
	case *discordgo.Button:
		return v
	case discordgo.Button:
		return &v
	}
	return nil
}

func asSelect(c discordgo.MessageComponent) *discordgo.SelectMenu {
	switch v := c.(type) {
	case *discordgo.SelectMenu:
		return v
	case discordgo.SelectMenu:
		return &v
	}
	return nil
}

func asTextInput(c discordgo.MessageComponent) *discordgo.TextInput {
	switch v := c.(type) {
	case *discordgo.TextInput:
		return v
	case discordgo.TextInput:
		return &v
	}
	return nil
}
