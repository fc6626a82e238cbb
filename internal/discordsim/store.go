package discordsim

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

// store is the in-memory model. Every access holds Server.mu.
type store struct {
	users      map[string]*User
	userByName map[string]*User
	userOrder  []string

	guilds     map[string]*Guild
	guildOrder []string

	channels     map[string]*Channel
	channelOrder []string
	dmByUser     map[string]string // user ID -> DM channel ID

	messages    map[string]*Message // current version by ID
	channelMsgs map[string][]string // channel ID -> message IDs in creation order

	// commands by scope: "" global, else guild ID.
	commands map[string][]*discordgo.ApplicationCommand
	cmdIDs   map[string]string // scope + "/" + name -> stable command ID

	dmsClosed map[string]bool

	interactions map[string]*Interaction // by ID
	byToken      map[string]*Interaction
	modals       map[string]*Modal // user ID -> open modal
	// uploads are files attached to command options (not part of any message, not exported).
	uploads map[string]*Attachment
	// nonces are the message creates with enforce_nonce, by author ID + "/" + nonce (not
	// exported: they matter for minutes).
	nonces map[string]nonceUse

	// roles by guild ID; members by guild ID "/" user ID (members.go).
	roles   map[string][]*Role
	members map[string]*member
}

// nonceUse is a message created with enforce_nonce: a repeat of its nonce within the window
// is answered with it.
type nonceUse struct {
	messageID string
	at        time.Time // the server's clock (Options.Now)
}

func newStore() *store {
	return &store{
		users: map[string]*User{}, userByName: map[string]*User{},
		guilds: map[string]*Guild{}, channels: map[string]*Channel{}, dmByUser: map[string]string{},
		messages: map[string]*Message{}, channelMsgs: map[string][]string{},
		commands: map[string][]*discordgo.ApplicationCommand{}, cmdIDs: map[string]string{},
		dmsClosed: map[string]bool{}, interactions: map[string]*Interaction{}, byToken: map[string]*Interaction{},
		modals: map[string]*Modal{}, uploads: map[string]*Attachment{}, nonces: map[string]nonceUse{},
		roles: map[string][]*Role{}, members: map[string]*member{},
	}
}

func (st *store) addUser(id, name string, bot bool) *User {
	u := &User{ID: id, Name: name, Bot: bot}
	st.users[id] = u
	st.userByName[name] = u
	st.userOrder = append(st.userOrder, id)
	return u
}

func (st *store) addGuild(id, name string) *Guild {
	g := &Guild{ID: id, Name: name}
	st.guilds[id] = g
	st.guildOrder = append(st.guildOrder, id)
	return g
}

func (st *store) addChannel(c *Channel) *Channel {
	st.channels[c.ID] = c
	st.channelOrder = append(st.channelOrder, c.ID)
	if c.Type == discordgo.ChannelTypeDM {
		st.dmByUser[c.RecipientID] = c.ID
	}
	return c
}

func (st *store) putMessage(m *Message) {
	if _, ok := st.messages[m.ID]; !ok {
		st.channelMsgs[m.ChannelID] = append(st.channelMsgs[m.ChannelID], m.ID)
	}
	st.messages[m.ID] = m
}

func (st *store) deleteMessage(id string) {
	m := st.messages[id]
	if m == nil {
		return
	}
	delete(st.messages, id)
	ids := st.channelMsgs[m.ChannelID]
	for i, x := range ids {
		if x == id {
			st.channelMsgs[m.ChannelID] = append(ids[:i:i], ids[i+1:]...)
			break
		}
	}
}

// canSee reports whether user u can see channel c: every guild text channel and public thread,
// private threads it is a member of, and its own DM channel. The bot sees all but other DMs
// are its own too.
func (st *store) canSee(u *User, c *Channel) bool {
	switch c.Type {
	case discordgo.ChannelTypeDM:
		return u.Bot || c.RecipientID == u.ID
	case discordgo.ChannelTypeGuildPrivateThread:
		return c.HasMember(u.ID)
	}
	return true
}

// ---- public state API ----

// User returns the human user with this name, creating it on first use.
func (s *Server) User(name string) *User {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u := s.st.userByName[name]; u != nil {
		return u
	}
	u := s.st.addUser(s.newID(), name, false)
	s.notifyLocked()
	return u
}

// AddBot adds another bot account (not the bot under test), for tests that a bot cannot be
// challenged. It returns the existing user if the name is taken.
func (s *Server) AddBot(name string) *User {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u := s.st.userByName[name]; u != nil {
		return u
	}
	u := s.st.addUser(s.newID(), name, true)
	s.notifyLocked()
	return u
}

// UserByID returns the user with this ID, or nil.
func (s *Server) UserByID(id string) *User {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.users[id]
}

// Users returns every user in creation order, the bot under test first.
func (s *Server) Users() []*User {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*User, 0, len(s.st.userOrder))
	for _, id := range s.st.userOrder {
		out = append(out, s.st.users[id])
	}
	return out
}

// Guild returns the default (first) guild.
func (s *Server) Guild() *Guild {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.guilds[s.st.guildOrder[0]]
}

// Guilds returns every guild in creation order.
func (s *Server) Guilds() []*Guild {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Guild, 0, len(s.st.guildOrder))
	for _, id := range s.st.guildOrder {
		out = append(out, s.st.guilds[id])
	}
	return out
}

// AddGuild creates a guild with the given text channels. A bot that is already connected gets
// a GUILD_CREATE event, as when it is added to a server.
func (s *Server) AddGuild(name string, channels ...string) *Guild {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.st.addGuild(s.newID(), name)
	for _, c := range channels {
		s.st.addChannel(&Channel{ID: s.newID(), Type: discordgo.ChannelTypeGuildText, GuildID: g.ID, Name: c, CreatedAt: time.Now().UTC()})
	}
	s.dispatchLocked("GUILD_CREATE", s.guildCreateLocked(g), g.ID, discordgo.IntentGuilds)
	s.notifyLocked()
	return g
}

// Channel returns the text channel with this name in the default guild, creating it on first
// use. It is the usual way to get a channel ID for Slash.
func (s *Server) Channel(name string) *Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	gid := s.st.guildOrder[0]
	for _, id := range s.st.channelOrder {
		c := s.st.channels[id]
		if c.GuildID == gid && c.Type == discordgo.ChannelTypeGuildText && c.Name == name {
			return c.clone()
		}
	}
	c := s.addTextChannelLocked(gid, name)
	return c.clone()
}

// AddChannel creates a text channel in guild guildID. It returns an error for an unknown guild.
func (s *Server) AddChannel(guildID, name string) (*Channel, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.guilds[guildID] == nil {
		return nil, fmt.Errorf("discordsim: unknown guild %s", guildID)
	}
	return s.addTextChannelLocked(guildID, name).clone(), nil
}

func (s *Server) addTextChannelLocked(guildID, name string) *Channel {
	c := s.st.addChannel(&Channel{ID: s.newID(), Type: discordgo.ChannelTypeGuildText, GuildID: guildID, Name: name, CreatedAt: time.Now().UTC()})
	s.dispatchLocked("CHANNEL_CREATE", channelJSON(c, s.bot.ID), guildID, discordgo.IntentGuilds)
	s.notifyLocked()
	return c
}

// ChannelByID returns a snapshot of any channel (text, thread or DM), or nil.
func (s *Server) ChannelByID(id string) *Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.st.channels[id]; c != nil {
		return c.clone()
	}
	return nil
}

// Channels returns every channel of guildID (text channels and threads) in creation order.
func (s *Server) Channels(guildID string) []*Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Channel
	for _, id := range s.st.channelOrder {
		if c := s.st.channels[id]; c.GuildID == guildID {
			out = append(out, c.clone())
		}
	}
	return out
}

// Threads returns the threads whose parent is channelID, in creation order.
func (s *Server) Threads(channelID string) []*Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Channel
	for _, id := range s.st.channelOrder {
		if c := s.st.channels[id]; c.ParentID == channelID && c.IsThread() {
			out = append(out, c.clone())
		}
	}
	return out
}

// WaitThread waits for a thread matching pred (nil: any thread) and returns it.
func (s *Server) WaitThread(timeout time.Duration, pred func(*Channel) bool) (*Channel, error) {
	return waitValue(s, timeout, func() (*Channel, bool) {
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, id := range s.st.channelOrder {
			if c := s.st.channels[id]; c.IsThread() && (pred == nil || pred(c.clone())) {
				return c.clone(), true
			}
		}
		return nil, false
	}, func() string { return "no thread matched" })
}

// DM returns the DM channel between the bot and u, creating it if needed (as a user opening
// the bot's DMs would).
func (s *Server) DM(u *User) *Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dmLocked(u).clone()
}

func (s *Server) dmLocked(u *User) *Channel {
	if id, ok := s.st.dmByUser[u.ID]; ok {
		return s.st.channels[id]
	}
	c := s.st.addChannel(&Channel{ID: s.newID(), Type: discordgo.ChannelTypeDM, RecipientID: u.ID, CreatedAt: time.Now().UTC()})
	s.notifyLocked()
	return c
}

// JoinThread makes u a member of thread threadID, as a user clicking "Join" would (only public
// threads can be joined this way).
func (s *Server) JoinThread(u *User, threadID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.st.channels[threadID]
	if c == nil || !c.IsThread() {
		return fmt.Errorf("discordsim: %s is not a thread", threadID)
	}
	if c.Type == discordgo.ChannelTypeGuildPrivateThread && !c.HasMember(u.ID) {
		return fmt.Errorf("discordsim: %s cannot join private thread %q without an invitation", u.Name, c.Name)
	}
	s.addThreadMemberLocked(c, u.ID)
	return nil
}

func (s *Server) addThreadMemberLocked(c *Channel, userID string) {
	if !c.HasMember(userID) {
		c.Members = append(c.Members, userID)
		s.notifyLocked()
	}
}

// CanSee reports whether u can see channel channelID (see VisibleChannels).
func (s *Server) CanSee(u *User, channelID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.st.channels[channelID]
	return c != nil && s.st.canSee(u, c)
}

// VisibleChannels lists what u's client would show, in creation order: every guild text
// channel, public threads, private threads u is a member of, and u's DM channel with the bot.
func (s *Server) VisibleChannels(u *User) []*Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Channel
	for _, id := range s.st.channelOrder {
		if c := s.st.channels[id]; s.st.canSee(u, c) {
			out = append(out, c.clone())
		}
	}
	return out
}

// VisibleMessages returns the current version of every message in channelID that u can see,
// oldest first: nothing if u cannot see the channel, and ephemeral messages only if they are
// u's.
func (s *Server) VisibleMessages(u *User, channelID string) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.st.channels[channelID]
	if c == nil || !s.st.canSee(u, c) {
		return nil
	}
	var out []*Message
	for _, id := range s.st.channelMsgs[channelID] {
		if m := s.st.messages[id]; m.VisibleFor(u.ID) {
			out = append(out, m)
		}
	}
	return out
}

// Messages returns the current version of every message in channelID, ephemeral ones
// included, oldest first.
func (s *Server) Messages(channelID string) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Message, 0, len(s.st.channelMsgs[channelID]))
	for _, id := range s.st.channelMsgs[channelID] {
		out = append(out, s.st.messages[id])
	}
	return out
}

// Message returns the current version of message id, or nil.
func (s *Server) Message(id string) *Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.messages[id]
}

// LastMessage returns the newest message in channelID, or nil.
func (s *Server) LastMessage(channelID string) *Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := s.st.channelMsgs[channelID]
	if len(ids) == 0 {
		return nil
	}
	return s.st.messages[ids[len(ids)-1]]
}

// WaitMessage waits until some message (current version, any channel, oldest first) satisfies
// pred and returns it.
func (s *Server) WaitMessage(timeout time.Duration, pred func(*Message) bool) (*Message, error) {
	return waitValue(s, timeout, func() (*Message, bool) {
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, cid := range s.st.channelOrder {
			for _, id := range s.st.channelMsgs[cid] {
				if m := s.st.messages[id]; pred(m) {
					return m, true
				}
			}
		}
		return nil, false
	}, func() string { return "no message matched" })
}

// Post sends a plain message as user u in channelID, as typing in the client would. The bot
// gets MESSAGE_CREATE if its intents ask for it (content only with the MessageContent intent).
// As in Discord, nobody (without Manage Threads, which the people here lack) posts in a locked
// thread, and a message in an archived thread that is not locked unarchives it.
func (s *Server) Post(u *User, channelID, content string) (*Message, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.st.channels[channelID]
	if c == nil || !s.st.canSee(u, c) {
		return nil, fmt.Errorf("discordsim: %s cannot see channel %s", u.Name, channelID)
	}
	if content == "" || len([]rune(content)) > 2000 {
		return nil, fmt.Errorf("discordsim: message content must be 1 to 2000 characters")
	}
	if c.IsThread() && c.Locked {
		return nil, fmt.Errorf("discordsim: %s cannot send messages in the locked thread %q", u.Name, c.Name)
	}
	if c.IsThread() && c.Archived {
		c.Archived = false
		s.dispatchLocked("THREAD_UPDATE", channelJSON(c, s.bot.ID), c.GuildID, discordgo.IntentGuilds)
	}
	m := &Message{ID: s.newID(), ChannelID: c.ID, GuildID: c.GuildID, Author: u, Content: content,
		Timestamp: time.Now().UTC(), Version: 1}
	s.st.putMessage(m)
	s.dispatchMessageLocked("MESSAGE_CREATE", m)
	s.notifyLocked()
	return m, nil
}

// DeleteMessage deletes message id as a moderator would (the bot gets
// MESSAGE_DELETE); a later delete or edit of it is Discord's 404 Unknown
// Message.
func (s *Server) DeleteMessage(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.st.messages[id]
	if m == nil {
		return fmt.Errorf("discordsim: no message %s", id)
	}
	c := s.st.channels[m.ChannelID]
	s.st.deleteMessage(id)
	if c != nil {
		s.dispatchLocked("MESSAGE_DELETE", map[string]any{"id": id, "channel_id": c.ID, "guild_id": c.GuildID},
			c.GuildID, messageIntent(c))
	}
	s.notifyLocked()
	return nil
}

// SetDMsClosed makes the bot's messages to u's DM channel fail with 403 "Cannot send messages
// to this user" (code 50007), as when u disabled DMs from server members, or opens them again.
func (s *Server) SetDMsClosed(u *User, closed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.dmsClosed[u.ID] = closed
	s.notifyLocked()
}

// ---- state export ----

// State is the persistent part of the model, as ExportState writes it: everything except
// interactions, gateway sessions, recorded calls and faults.
type State struct {
	Bot      *User                                      `json:"bot"`
	Users    []*User                                    `json:"users"`
	Guilds   []*Guild                                   `json:"guilds"`
	Channels []*Channel                                 `json:"channels"`
	Messages []*Message                                 `json:"messages"` // per channel, oldest first
	Commands map[string][]*discordgo.ApplicationCommand `json:"commands"` // "" = global, else guild ID
	CmdIDs   map[string]string                          `json:"command_ids"`
	Closed   []string                                   `json:"dms_closed"`
	LastID   string                                     `json:"last_id"`
	// Roles by guild ID and Members (permissions and roles) by guild ID "/" user ID.
	Roles   map[string][]*Role `json:"roles,omitempty"`
	Members map[string]*member `json:"members,omitempty"`
}

// ExportState returns the model as JSON, for Options.State (a playground that survives a
// restart).
func (s *Server) ExportState() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return json.Marshal(s.stateLocked())
}

// ExportStateSplit is ExportState with the attachments' bytes apart: state lists every
// attachment without its data, and files maps each attachment ID to its bytes (shared, treat as
// read-only). Attachments never change, so a caller saving often writes each file once and only
// the small state each time. Restore with Options.State and Options.Files.
func (s *Server) ExportStateSplit() (state []byte, files map[string][]byte, err error) {
	s.mu.Lock()
	st := s.stateLocked()
	s.mu.Unlock()
	files = map[string][]byte{}
	for i, m := range st.Messages {
		if len(m.Attachments) == 0 {
			continue
		}
		cp := *m
		cp.Attachments = make([]*Attachment, len(m.Attachments))
		for j, a := range m.Attachments {
			files[a.ID] = a.Data
			ac := *a
			ac.Data = nil
			cp.Attachments[j] = &ac
		}
		st.Messages[i] = &cp
	}
	state, err = json.Marshal(st)
	return state, files, err
}

// stateLocked collects the persistent state. Messages are immutable, so sharing them is safe.
func (s *Server) stateLocked() State {
	st := State{Bot: s.bot, Commands: s.st.commands, CmdIDs: s.st.cmdIDs, LastID: strconv.FormatUint(s.lastID, 10)}
	for _, id := range s.st.userOrder {
		if id != s.bot.ID {
			st.Users = append(st.Users, s.st.users[id])
		}
	}
	for _, id := range s.st.guildOrder {
		st.Guilds = append(st.Guilds, s.st.guilds[id])
	}
	for _, id := range s.st.channelOrder {
		st.Channels = append(st.Channels, s.st.channels[id])
		for _, mid := range s.st.channelMsgs[id] {
			st.Messages = append(st.Messages, s.st.messages[mid])
		}
	}
	for id, closed := range s.st.dmsClosed {
		if closed {
			st.Closed = append(st.Closed, id)
		}
	}
	sort.Strings(st.Closed)
	// Copy what later changes under the lock (command lists, ID map, channels).
	st.Commands = make(map[string][]*discordgo.ApplicationCommand, len(s.st.commands))
	for k, v := range s.st.commands {
		st.Commands[k] = append([]*discordgo.ApplicationCommand(nil), v...)
	}
	st.CmdIDs = make(map[string]string, len(s.st.cmdIDs))
	for k, v := range s.st.cmdIDs {
		st.CmdIDs[k] = v
	}
	for i, c := range st.Channels {
		st.Channels[i] = c.clone()
	}
	st.Roles = map[string][]*Role{}
	for g, rs := range s.st.roles {
		for _, r := range rs {
			cp := *r
			st.Roles[g] = append(st.Roles[g], &cp)
		}
	}
	st.Members = map[string]*member{}
	for k, m := range s.st.members {
		cp := *m
		cp.Roles = append([]string(nil), m.Roles...)
		st.Members[k] = &cp
	}
	return st
}

func (s *Server) importState(data []byte, files map[string][]byte) error {
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		return err
	}
	if st.Bot == nil || len(st.Guilds) == 0 {
		return fmt.Errorf("state has no bot user or no guild")
	}
	s.bot = s.st.addUser(st.Bot.ID, st.Bot.Name, true)
	for _, u := range st.Users {
		s.st.addUser(u.ID, u.Name, u.Bot)
	}
	for _, g := range st.Guilds {
		s.st.addGuild(g.ID, g.Name)
	}
	for _, c := range st.Channels {
		s.st.addChannel(c)
	}
	for _, m := range st.Messages {
		for _, a := range m.Attachments {
			if a.Data == nil {
				d, ok := files[a.ID]
				if !ok {
					return fmt.Errorf("attachment %s (%s) of message %s has no data", a.ID, a.Filename, m.ID)
				}
				a.Data = d
			}
		}
		if m.Author != nil {
			if u := s.st.users[m.Author.ID]; u != nil {
				m.Author = u
			}
		}
		s.st.putMessage(m)
	}
	if st.Commands != nil {
		s.st.commands = st.Commands
	}
	if st.CmdIDs != nil {
		s.st.cmdIDs = st.CmdIDs
	}
	for _, id := range st.Closed {
		s.st.dmsClosed[id] = true
	}
	for g, rs := range st.Roles {
		s.st.roles[g] = rs
	}
	for k, m := range st.Members {
		s.st.members[k] = m
	}
	s.lastID, _ = strconv.ParseUint(st.LastID, 10, 64)
	return nil
}
