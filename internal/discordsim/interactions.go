package discordsim

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Interaction is one injected INTERACTION_CREATE and, as the bot answers, its response, the
// message it produced and its follow-ups. The exported fields never change; the methods read
// the live state.
type Interaction struct {
	srv *Server

	ID        string
	Token     string
	Type      discordgo.InteractionType
	User      *User
	ChannelID string
	GuildID   string // "" in DMs
	// Command is the command path for commands and autocomplete, e.g. "survival challenge".
	Command string
	// CustomID is the component's or modal's custom ID.
	CustomID string
	// MessageID is the message whose component was used (components, and modal submits opened
	// from a component).
	MessageID string
	// Values are the chosen select menu values.
	Values []string
	// Payload is the INTERACTION_CREATE data exactly as sent on the gateway.
	Payload   []byte
	CreatedAt time.Time

	// guarded by srv.mu
	resp       *Response
	originalID string
	followups  []string
	filled     bool // a deferred original was filled by the first follow-up
	// answerEdited: the original message was edited through this
	// interaction's token (PATCH .../messages/@original), as the answer to
	// a deferred update (6) is; an edit by anyone else is not the answer.
	answerEdited bool
	choices      []*discordgo.ApplicationCommandOptionChoice
	modal        *Modal
	expired      bool
	// delivering is open while the fake posts the interaction to the bot's endpoint and reads
	// the answer (nil with gateway delivery); deliveryErr says why that failed.
	delivering  chan struct{}
	deliveryErr error
}

// Response is the bot's initial answer to an interaction (POST .../callback).
type Response struct {
	Type discordgo.InteractionResponseType
	// Data is the callback's data decoded (components included); nil if there was none.
	Data    *discordgo.InteractionResponseData
	Files   []File
	At      time.Time
	Latency time.Duration // from the injection to the callback
}

// Modal is a modal the bot opened (response type 9) for a user, until it is submitted or
// dismissed.
type Modal struct {
	CustomID  string
	Title     string
	Inputs    []discordgo.TextInput
	UserID    string
	ChannelID string
	From      *Interaction // the interaction answered with this modal
}

// Response returns the initial response, or nil if the bot has not answered yet.
func (in *Interaction) Response() *Response {
	in.srv.mu.Lock()
	defer in.srv.mu.Unlock()
	return in.resp
}

// WaitResponse waits for the initial response.
func (in *Interaction) WaitResponse(timeout time.Duration) (*Response, error) {
	return waitValue(in.srv, timeout, func() (*Response, bool) {
		r := in.Response()
		return r, r != nil
	}, in.describe)
}

// Message returns the current version of the interaction's original message: the message
// created by response type 4 or 5, or the component's message for types 6 and 7. It is nil
// before the response, for autocomplete and modal responses, and after deletion.
func (in *Interaction) Message() *Message {
	in.srv.mu.Lock()
	defer in.srv.mu.Unlock()
	if in.originalID == "" {
		return nil
	}
	return in.srv.st.messages[in.originalID]
}

// WaitMessage waits until the original message exists, is not loading (a deferred response
// that was filled in) and satisfies pred (nil: any), and returns it.
func (in *Interaction) WaitMessage(timeout time.Duration, pred func(*Message) bool) (*Message, error) {
	return waitValue(in.srv, timeout, func() (*Message, bool) {
		m := in.Message()
		return m, m != nil && !m.Loading() && (pred == nil || pred(m))
	}, in.describe)
}

// WaitAnswer waits until the original message (not loading) or a follow-up
// satisfies pred (nil: any) and returns the first that does. A component
// click whose answer was deferred as an update keeps the clicked message as
// its original; its answer is then a follow-up: pred tells them apart.
func (in *Interaction) WaitAnswer(timeout time.Duration, pred func(*Message) bool) (*Message, error) {
	return waitValue(in.srv, timeout, func() (*Message, bool) {
		for _, m := range in.Messages() {
			if !m.Loading() && (pred == nil || pred(m)) {
				return m, true
			}
		}
		return nil, false
	}, in.describe)
}

// WaitReply waits for the answer the user sees and returns the first that
// satisfies pred (nil: any): the original message once filled (responses 4,
// 5 and 7), or, after a deferred update (6), the clicked message once edited
// through the interaction (not by another edit of a live message) or a
// follow-up. Unlike WaitMessage and WaitAnswer it never returns a clicked
// message that the answer has not changed: a bot may defer any click whose
// handler is slow, so a test that reads the answer of a click reads it here.
func (in *Interaction) WaitReply(timeout time.Duration, pred func(*Message) bool) (*Message, error) {
	return waitValue(in.srv, timeout, func() (*Message, bool) {
		in.srv.mu.Lock()
		resp, edited, original := in.resp, in.answerEdited, in.originalID
		in.srv.mu.Unlock()
		if resp == nil {
			return nil, false
		}
		for _, m := range in.Messages() {
			if m.Loading() || resp.Type == discordgo.InteractionResponseDeferredMessageUpdate && m.ID == original && !edited {
				continue
			}
			if pred == nil || pred(m) {
				return m, true
			}
		}
		return nil, false
	}, in.describe)
}

// Followups returns the current version of each follow-up message, in order. A deferred
// response's first follow-up fills the original message instead (as on Discord) and is not
// listed here; see Message.
func (in *Interaction) Followups() []*Message {
	in.srv.mu.Lock()
	defer in.srv.mu.Unlock()
	var out []*Message
	for _, id := range in.followups {
		if m := in.srv.st.messages[id]; m != nil {
			out = append(out, m)
		}
	}
	return out
}

// WaitFollowup waits for a follow-up message satisfying pred (nil: any) and returns it.
func (in *Interaction) WaitFollowup(timeout time.Duration, pred func(*Message) bool) (*Message, error) {
	return waitValue(in.srv, timeout, func() (*Message, bool) {
		for _, m := range in.Followups() {
			if pred == nil || pred(m) {
				return m, true
			}
		}
		return nil, false
	}, in.describe)
}

// Messages returns the original message (if any) followed by the follow-ups.
func (in *Interaction) Messages() []*Message {
	var out []*Message
	if m := in.Message(); m != nil {
		out = append(out, m)
	}
	return append(out, in.Followups()...)
}

// Choices returns the autocomplete choices the bot answered (response type 8), or nil.
func (in *Interaction) Choices() []*discordgo.ApplicationCommandOptionChoice {
	in.srv.mu.Lock()
	defer in.srv.mu.Unlock()
	return in.choices
}

// WaitChoices waits for the autocomplete answer and returns its choices (possibly empty).
func (in *Interaction) WaitChoices(timeout time.Duration) ([]*discordgo.ApplicationCommandOptionChoice, error) {
	r, err := in.WaitResponse(timeout)
	if err != nil {
		return nil, err
	}
	if r.Type != discordgo.InteractionApplicationCommandAutocompleteResult {
		return nil, fmt.Errorf("discordsim: interaction answered with type %d, not autocomplete", r.Type)
	}
	return in.Choices(), nil
}

// Modal returns the modal the bot answered with (response type 9), or nil.
func (in *Interaction) Modal() *Modal {
	in.srv.mu.Lock()
	defer in.srv.mu.Unlock()
	return in.modal
}

// Expire makes the interaction token invalid now, as 15 minutes after the interaction:
// follow-ups and @original edits then fail with 401 "Invalid Webhook Token" (50027).
func (in *Interaction) Expire() {
	in.srv.mu.Lock()
	defer in.srv.mu.Unlock()
	in.expired = true
	in.srv.notifyLocked()
}

func (in *Interaction) describe() string {
	in.srv.mu.Lock()
	r, derr, delivering := in.resp, in.deliveryErr, in.delivering != nil
	in.srv.mu.Unlock()
	what := fmt.Sprintf("interaction %s (%v", in.ID, in.Type)
	if in.Command != "" {
		what += " /" + in.Command
	}
	if in.CustomID != "" {
		what += " " + in.CustomID
	}
	what += ")"
	if r == nil {
		if derr != nil {
			return what + " got no response: " + derr.Error() + "; " + in.srv.describeCalls()
		}
		if delivering {
			return what + " was posted to the bot's endpoint, which has not answered; " + in.srv.describeCalls()
		}
		connected := false
		for _, g := range in.srv.GatewaySessions() {
			connected = connected || g.Connected
		}
		if !connected {
			what += " got no response and no bot is connected to the gateway"
			return what + "; " + in.srv.describeCalls()
		}
		return what + " got no response; " + in.srv.describeCalls()
	}
	return fmt.Sprintf("%s answered with type %d; %s", what, r.Type, in.srv.describeCalls())
}

func (in *Interaction) metadata() *MessageInteraction {
	return &MessageInteraction{ID: in.ID, Type: in.Type, UserID: in.User.ID, Command: in.Command}
}

// Interactions returns every injected interaction in order.
func (s *Server) Interactions() []*Interaction {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Interaction, 0, len(s.st.interactions))
	for _, in := range s.st.interactions {
		out = append(out, in)
	}
	// Interaction IDs are increasing snowflakes.
	sort.Slice(out, func(i, j int) bool { return idLess(out[i].ID, out[j].ID) })
	return out
}

// ---- injection ----

func (s *Server) actorLocked(u *User, channelID string) (*Channel, error) {
	if s.closed {
		return nil, ErrClosed
	}
	if u == nil || s.st.users[u.ID] == nil {
		return nil, fmt.Errorf("discordsim: unknown user")
	}
	if u.ID == s.bot.ID {
		return nil, fmt.Errorf("discordsim: the bot cannot interact with itself")
	}
	c := s.st.channels[channelID]
	if c == nil {
		return nil, fmt.Errorf("discordsim: unknown channel %s", channelID)
	}
	if !s.st.canSee(u, c) {
		return nil, fmt.Errorf("discordsim: %s cannot see channel %s (%q)", u.Name, c.ID, c.Name)
	}
	return c, nil
}

// Slash injects a chat command from u in channelID. command is the path as typed, with
// subcommand group and subcommand: "move", "survival challenge". The command must be registered
// (in the channel's guild or globally) and the options must match its definition, as Discord's
// client enforces; otherwise Slash returns an error and sends nothing.
//
//	in, err := srv.Slash(alice, ch.ID, "survival challenge", discordsim.Opt("opponent", bob))
func (s *Server) Slash(u *User, channelID, command string, opts ...Option) (*Interaction, error) {
	return s.command(u, channelID, command, opts, false)
}

// Autocomplete injects an autocomplete interaction: the user is typing option Focused(name,
// text) of command (registered with autocomplete). Read the answer with WaitChoices.
//
//	in, _ := srv.Autocomplete(alice, thread.ID, "move", discordsim.Focused("move", "e2"))
func (s *Server) Autocomplete(u *User, channelID, command string, opts ...Option) (*Interaction, error) {
	return s.command(u, channelID, command, opts, true)
}

func (s *Server) command(u *User, channelID, command string, opts []Option, auto bool) (*Interaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.actorLocked(u, channelID)
	if err != nil {
		return nil, err
	}
	if c.IsThread() && c.Locked {
		// Discord's client has no message box in a locked thread for a
		// member without Manage Threads: no slash command either.
		return nil, fmt.Errorf("discordsim: %s cannot use commands in the locked thread %s (%q)", u.Name, c.ID, c.Name)
	}
	cmd, options, res, err := s.buildOptionsLocked(c, command, opts, auto)
	if err != nil {
		return nil, fmt.Errorf("discordsim: %v", err)
	}
	data := map[string]any{"id": cmd.ID, "name": cmd.Name, "type": int(discordgo.ChatApplicationCommand), "options": options}
	if cmd.GuildID != "" {
		data["guild_id"] = cmd.GuildID
	}
	if len(res.users) > 0 || len(res.channels) > 0 || len(res.attachments) > 0 || len(res.roles) > 0 {
		r := map[string]any{}
		if len(res.roles) > 0 {
			roles := map[string]any{}
			for id, rr := range res.roles {
				roles[id] = roleJSON(rr)
			}
			r["roles"] = roles
		}
		if len(res.attachments) > 0 {
			atts := map[string]any{}
			for id, a := range res.attachments {
				atts[id] = attachmentJSON(a)
			}
			r["attachments"] = atts
		}
		if len(res.users) > 0 {
			users, members := map[string]any{}, map[string]any{}
			for id, ru := range res.users {
				users[id] = userJSON(ru)
				members[id] = s.memberJSONLocked(c.GuildID, ru, false)
			}
			r["users"] = users
			if c.GuildID != "" {
				r["members"] = members
			}
		}
		if len(res.channels) > 0 {
			chans := map[string]any{}
			for id, rc := range res.channels {
				chans[id] = map[string]any{"id": rc.ID, "name": rc.Name, "type": int(rc.Type), "parent_id": rc.ParentID, "permissions": allPermissions}
			}
			r["channels"] = chans
		}
		data["resolved"] = r
	}
	typ := discordgo.InteractionApplicationCommand
	if auto {
		typ = discordgo.InteractionApplicationCommandAutocomplete
	}
	in := &Interaction{Type: typ, User: u, Command: strings.Join(strings.Fields(strings.TrimPrefix(command, "/")), " ")}
	s.injectLocked(in, c, data, nil)
	return in, nil
}

// Click injects a button click by u on message m (its current version is used).
func (s *Server) Click(u *User, m *Message, customID string) (*Interaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, cur, err := s.componentTargetLocked(u, m)
	if err != nil {
		return nil, err
	}
	b := cur.Button(customID)
	if b == nil {
		return nil, fmt.Errorf("discordsim: message %s has no button %q (buttons: %s)", cur.ID, customID, buttonIDs(cur))
	}
	if b.Disabled {
		return nil, fmt.Errorf("discordsim: button %q is disabled", customID)
	}
	if b.Style == discordgo.LinkButton || b.Style == discordgo.PremiumButton {
		return nil, fmt.Errorf("discordsim: button %q does not send an interaction", customID)
	}
	in := &Interaction{Type: discordgo.InteractionMessageComponent, User: u, CustomID: customID, MessageID: cur.ID}
	s.injectLocked(in, c, map[string]any{"custom_id": customID, "component_type": int(discordgo.ButtonComponent)}, cur)
	return in, nil
}

func buttonIDs(m *Message) string {
	var ids []string
	for _, b := range m.Buttons() {
		ids = append(ids, fmt.Sprintf("%q", b.CustomID))
	}
	if ids == nil {
		return "none"
	}
	return strings.Join(ids, ", ")
}

// Select injects a select menu choice by u on message m: values of the menu customID. For a
// string select the values must be among its options; for a user select they are user IDs.
func (s *Server) Select(u *User, m *Message, customID string, values ...string) (*Interaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, cur, err := s.componentTargetLocked(u, m)
	if err != nil {
		return nil, err
	}
	sm := cur.SelectMenu(customID)
	if sm == nil {
		return nil, fmt.Errorf("discordsim: message %s has no select menu %q", cur.ID, customID)
	}
	if sm.Disabled {
		return nil, fmt.Errorf("discordsim: select menu %q is disabled", customID)
	}
	minV, maxV := 1, 1
	if sm.MinValues != nil {
		minV = *sm.MinValues
	}
	if sm.MaxValues > 0 {
		maxV = sm.MaxValues
	}
	if len(values) < minV || len(values) > maxV {
		return nil, fmt.Errorf("discordsim: select menu %q takes %d to %d values, got %d", customID, minV, maxV, len(values))
	}
	typ := sm.Type()
	data := map[string]any{"custom_id": customID, "component_type": int(typ), "values": append([]string{}, values...)}
	switch typ {
	case discordgo.SelectMenuComponent:
		allowed := map[string]bool{}
		for _, o := range sm.Options {
			allowed[o.Value] = true
		}
		for _, v := range values {
			if !allowed[v] {
				return nil, fmt.Errorf("discordsim: %q is not an option of select menu %q", v, customID)
			}
		}
	case discordgo.UserSelectMenuComponent:
		users, members := map[string]any{}, map[string]any{}
		for _, v := range values {
			ru := s.st.users[v]
			if ru == nil {
				return nil, fmt.Errorf("discordsim: unknown user %s in user select", v)
			}
			users[v], members[v] = userJSON(ru), s.memberJSONLocked(c.GuildID, ru, false)
		}
		r := map[string]any{"users": users}
		if c.GuildID != "" {
			r["members"] = members
		}
		data["resolved"] = r
	default:
		return nil, fmt.Errorf("discordsim: select menu type %d is not supported by the fake", typ)
	}
	in := &Interaction{Type: discordgo.InteractionMessageComponent, User: u, CustomID: customID, MessageID: cur.ID,
		Values: append([]string(nil), values...)}
	s.injectLocked(in, c, data, cur)
	return in, nil
}

func (s *Server) componentTargetLocked(u *User, m *Message) (*Channel, *Message, error) {
	if m == nil {
		return nil, nil, fmt.Errorf("discordsim: nil message")
	}
	cur := s.st.messages[m.ID]
	if cur == nil {
		return nil, nil, fmt.Errorf("discordsim: message %s no longer exists", m.ID)
	}
	c, err := s.actorLocked(u, cur.ChannelID)
	if err != nil {
		return nil, nil, err
	}
	if !cur.VisibleFor(u.ID) {
		return nil, nil, fmt.Errorf("discordsim: %s cannot see ephemeral message %s", u.Name, cur.ID)
	}
	if cur.Author.ID != s.bot.ID {
		return nil, nil, fmt.Errorf("discordsim: message %s was not sent by the bot", cur.ID)
	}
	return c, cur, nil
}

// OpenModal returns the modal currently open for u, or nil.
func (s *Server) OpenModal(u *User) *Modal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.modals[u.ID]
}

// DismissModal closes u's open modal without submitting it (nothing is sent to the bot).
func (s *Server) DismissModal(u *User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.st.modals, u.ID)
	s.notifyLocked()
}

// SubmitModal submits u's open modal with values by text input custom ID. Inputs left out are
// sent empty; a required input left empty, a value outside the input's length limits or an
// unknown custom ID is an error and sends nothing.
func (s *Server) SubmitModal(u *User, values map[string]string) (*Interaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	md := s.st.modals[u.ID]
	if md == nil {
		return nil, fmt.Errorf("discordsim: %s has no open modal", u.Name)
	}
	c, err := s.actorLocked(u, md.ChannelID)
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	var rows []any
	for _, ti := range md.Inputs {
		known[ti.CustomID] = true
		v := values[ti.CustomID]
		n := utf8.RuneCountInString(v)
		if ti.Required && n == 0 {
			return nil, fmt.Errorf("discordsim: modal input %q is required", ti.CustomID)
		}
		if n > 0 && (n < ti.MinLength || ti.MaxLength > 0 && n > ti.MaxLength || n > 4000) {
			return nil, fmt.Errorf("discordsim: modal input %q: length %d outside its limits", ti.CustomID, n)
		}
		rows = append(rows, map[string]any{"type": int(discordgo.ActionsRowComponent), "components": []any{
			map[string]any{"type": int(discordgo.TextInputComponent), "custom_id": ti.CustomID, "value": v},
		}})
	}
	for k := range values {
		if !known[k] {
			return nil, fmt.Errorf("discordsim: modal %q has no input %q", md.CustomID, k)
		}
	}
	var msg *Message
	if md.From != nil && md.From.MessageID != "" {
		msg = s.st.messages[md.From.MessageID]
	}
	delete(s.st.modals, u.ID)
	in := &Interaction{Type: discordgo.InteractionModalSubmit, User: u, CustomID: md.CustomID}
	if msg != nil {
		in.MessageID = msg.ID
	}
	s.injectLocked(in, c, map[string]any{"custom_id": md.CustomID, "components": rows}, msg)
	return in, nil
}

// injectLocked completes in (IDs, payload), stores it and dispatches INTERACTION_CREATE.
func (s *Server) injectLocked(in *Interaction, c *Channel, data map[string]any, msg *Message) {
	in.srv = s
	in.ID = s.newID()
	in.Token = "aW50ZXJhY3Rpb246" + in.ID + ":" + randomToken(24)
	in.ChannelID, in.GuildID = c.ID, c.GuildID
	in.CreatedAt = time.Now()
	p := map[string]any{
		"id": in.ID, "application_id": s.bot.ID, "type": int(in.Type), "data": data, "channel_id": c.ID,
		"token": in.Token, "version": 1, "locale": "en-US", "app_permissions": allPermissions,
		"entitlements": []any{}, "attachment_size_limit": 10 << 20,
	}
	if c.GuildID != "" {
		p["guild_id"] = c.GuildID
		p["guild_locale"] = "en-US"
		p["member"] = s.memberJSONLocked(c.GuildID, in.User, true)
		p["context"] = int(discordgo.InteractionContextGuild)
		p["authorizing_integration_owners"] = map[string]any{"0": c.GuildID}
		ch := map[string]any{"id": c.ID, "type": int(c.Type), "guild_id": c.GuildID, "name": c.Name, "permissions": allPermissions}
		if c.ParentID != "" {
			ch["parent_id"] = c.ParentID
		}
		p["channel"] = ch
	} else {
		p["user"] = userJSON(in.User)
		p["context"] = int(discordgo.InteractionContextBotDM)
		p["authorizing_integration_owners"] = map[string]any{"0": "0"}
		p["channel"] = map[string]any{"id": c.ID, "type": int(c.Type), "recipients": []any{userJSON(in.User)}}
	}
	if msg != nil {
		p["message"] = s.messageJSONLocked(msg)
	}
	in.Payload = mustJSON(p)
	s.st.interactions[in.ID] = in
	s.st.byToken[in.Token] = in
	if s.endpoint != "" {
		in.delivering = make(chan struct{})
		go s.deliverHTTP(in, s.endpoint)
	} else {
		s.dispatchLocked("INTERACTION_CREATE", json.RawMessage(in.Payload), c.GuildID, 0)
	}
	s.notifyLocked()
}

// ---- responses ----

// callbackLocked handles POST /interactions/{id}/{token}/callback.
func (s *Server) callbackLocked(id, token string, req *request) reply {
	in := s.st.interactions[id]
	if in == nil || in.Token != token {
		return fail(errUnknownInteraction())
	}
	if in.resp != nil {
		return fail(&apiError{400, discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged, "Interaction has already been acknowledged."})
	}
	now := time.Now()
	if d := s.opts.CallbackDeadline; d > 0 && now.Sub(in.CreatedAt) > d {
		return fail(errUnknownInteraction())
	}
	var body struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data json.RawMessage                   `json:"data"`
	}
	if req.body == nil || json.Unmarshal(req.body, &body) != nil {
		return fail(errInvalidForm("body must be an interaction response object"))
	}
	p, aerr := parseMessagePayload(body.Data, req.files)
	if aerr != nil {
		return fail(aerr)
	}
	typ := body.Type
	badType := func() reply {
		return fail(errInvalidForm(fmt.Sprintf("type: response type %d is not valid for a %v interaction", typ, in.Type)))
	}
	if in.Type == discordgo.InteractionApplicationCommandAutocomplete && typ != discordgo.InteractionApplicationCommandAutocompleteResult {
		return badType()
	}
	c := s.st.channels[in.ChannelID]
	if c == nil {
		return fail(errUnknownChannel())
	}
	switch typ {
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseDeferredChannelMessageWithSource:
		flags := p.flags & (discordgo.MessageFlagsEphemeral | discordgo.MessageFlagsSuppressEmbeds |
			discordgo.MessageFlagsSuppressNotifications | discordgo.MessageFlagsIsComponentsV2)
		msgType := discordgo.MessageTypeDefault
		if in.Type == discordgo.InteractionApplicationCommand {
			msgType = discordgo.MessageTypeChatInputCommand
		}
		if typ == discordgo.InteractionResponseDeferredChannelMessageWithSource {
			flags &= discordgo.MessageFlagsEphemeral
			flags |= discordgo.MessageFlagsLoading
			p = &msgPatch{has: map[string]bool{}}
		}
		m := s.newMessageLocked(c, s.bot, p, msgType, flags)
		m.InteractionID = in.ID
		m.Interaction = in.metadata()
		if m.Ephemeral() {
			m.VisibleTo = in.User.ID
		}
		if aerr := validateMessage(m); aerr != nil {
			return fail(aerr)
		}
		s.st.putMessage(m)
		in.originalID = m.ID
		s.dispatchMessageLocked("MESSAGE_CREATE", m)
	case discordgo.InteractionResponseDeferredMessageUpdate, discordgo.InteractionResponseUpdateMessage:
		if in.MessageID == "" {
			return badType()
		}
		old := s.st.messages[in.MessageID]
		if old == nil {
			return fail(errUnknownMessage())
		}
		in.originalID = old.ID
		if typ == discordgo.InteractionResponseUpdateMessage {
			nm := s.editedLocked(old, p)
			if aerr := validateMessage(nm); aerr != nil {
				return fail(aerr)
			}
			s.st.putMessage(nm)
			s.dispatchMessageLocked("MESSAGE_UPDATE", nm)
		}
	case discordgo.InteractionApplicationCommandAutocompleteResult:
		if in.Type != discordgo.InteractionApplicationCommandAutocomplete {
			return badType()
		}
		if len(p.choices) > 25 {
			return fail(errInvalidForm(fmt.Sprintf("data.choices: must be 25 or fewer in length (got %d)", len(p.choices))))
		}
		for i, ch := range p.choices {
			if ch == nil || ch.Name == "" || utf8.RuneCountInString(ch.Name) > 100 {
				return fail(errInvalidForm(fmt.Sprintf("data.choices[%d].name: must be 1 to 100 characters", i)))
			}
			switch v := ch.Value.(type) {
			case string:
				if utf8.RuneCountInString(v) > 100 {
					return fail(errInvalidForm(fmt.Sprintf("data.choices[%d].value: must be 100 or fewer in length", i)))
				}
			case float64:
			default:
				return fail(errInvalidForm(fmt.Sprintf("data.choices[%d].value: must be a string or a number", i)))
			}
		}
		in.choices = p.choices
		if in.choices == nil {
			in.choices = []*discordgo.ApplicationCommandOptionChoice{}
		}
	case discordgo.InteractionResponseModal:
		if in.Type == discordgo.InteractionModalSubmit {
			return badType()
		}
		if aerr := validateModal(p); aerr != nil {
			return fail(aerr)
		}
		md := &Modal{CustomID: p.customID, Title: p.title, UserID: in.User.ID, ChannelID: in.ChannelID, From: in}
		for _, row := range p.components {
			md.Inputs = append(md.Inputs, *asTextInput(row.(*discordgo.ActionsRow).Components[0]))
		}
		in.modal = md
		s.st.modals[in.User.ID] = md
	default:
		return badType()
	}
	in.resp = &Response{Type: typ, Data: decodeResponseData(body.Data), Files: req.files, At: now, Latency: now.Sub(in.CreatedAt)}
	return noContent()
}

func decodeResponseData(raw json.RawMessage) *discordgo.InteractionResponseData {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var d struct {
		discordgo.InteractionResponseData
		Components json.RawMessage `json:"components"`
	}
	if json.Unmarshal(raw, &d) != nil {
		return nil
	}
	out := d.InteractionResponseData
	out.Components, _ = decodeComponents(d.Components)
	return &out
}

// webhookLocked handles the interaction webhook routes: POST /webhooks/{app}/{token} (follow-up)
// and GET, PATCH, DELETE /webhooks/{app}/{token}/messages/{id or @original}.
func (s *Server) webhookLocked(req *request) reply {
	segs := req.segs
	if segs[1] != s.bot.ID {
		return fail(errUnknownWebhook())
	}
	in := s.st.byToken[segs[2]]
	if in == nil || in.expired || time.Since(in.CreatedAt) > s.opts.TokenLifetime {
		return fail(&apiError{401, discordgo.ErrCodeInvalidWebhookTokenProvided, "Invalid Webhook Token"})
	}
	if len(segs) == 3 && req.method == "POST" {
		return s.followupLocked(in, req)
	}
	if len(segs) != 5 || segs[3] != "messages" {
		return fail(errNotFound())
	}
	id := segs[4]
	if id == "@original" {
		id = in.originalID
	} else if id != in.originalID {
		found := false
		for _, f := range in.followups {
			found = found || f == id
		}
		if !found {
			id = ""
		}
	}
	m := s.st.messages[id]
	if id == "" || m == nil {
		return fail(errUnknownMessage())
	}
	switch req.method {
	case "GET":
		return ok(s.messageJSONLocked(m))
	case "PATCH":
		r := s.editMessageLocked(m, req, "MESSAGE_UPDATE")
		if m.ID == in.originalID && r.err == nil {
			in.answerEdited = true
		}
		return r
	case "DELETE":
		s.st.deleteMessage(m.ID)
		if !m.Ephemeral() {
			c := s.st.channels[m.ChannelID]
			s.dispatchLocked("MESSAGE_DELETE", map[string]any{"id": m.ID, "channel_id": m.ChannelID, "guild_id": m.GuildID},
				m.GuildID, messageIntent(c))
		}
		return noContent()
	}
	return fail(errNotFound())
}

func (s *Server) followupLocked(in *Interaction, req *request) reply {
	if in.resp == nil || in.Type == discordgo.InteractionApplicationCommandAutocomplete {
		return fail(errUnknownWebhook())
	}
	p, aerr := parseMessagePayload(req.body, req.files)
	if aerr != nil {
		return fail(aerr)
	}
	var m *Message
	if orig := s.st.messages[in.originalID]; in.resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource &&
		!in.filled && orig != nil && orig.Loading() {
		// The first follow-up after a deferred response fills the "thinking" message; its
		// visibility is the one chosen when deferring.
		m = s.editedLocked(orig, p)
		if aerr := validateMessage(m); aerr != nil {
			return fail(aerr)
		}
		in.filled = true
		s.st.putMessage(m)
		s.dispatchMessageLocked("MESSAGE_UPDATE", m)
	} else {
		c := s.st.channels[in.ChannelID]
		if c == nil {
			return fail(errUnknownChannel())
		}
		flags := p.flags & (discordgo.MessageFlagsEphemeral | discordgo.MessageFlagsSuppressEmbeds |
			discordgo.MessageFlagsSuppressNotifications | discordgo.MessageFlagsIsComponentsV2)
		m = s.newMessageLocked(c, s.bot, p, discordgo.MessageTypeDefault, flags)
		m.InteractionID = in.ID
		m.Interaction = in.metadata()
		if m.Ephemeral() {
			m.VisibleTo = in.User.ID
		}
		if aerr := validateMessage(m); aerr != nil {
			return fail(aerr)
		}
		s.st.putMessage(m)
		in.followups = append(in.followups, m.ID)
		s.dispatchMessageLocked("MESSAGE_CREATE", m)
	}
	if req.query.Get("wait") != "true" {
		return noContent()
	}
	return ok(s.messageJSONLocked(m))
}
