package playground

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"sandtable/internal/discordsim"
)

// MaxBody is the largest request body the API reads; larger ones get 413.
const MaxBody = 128 << 10

// MaxUpload is the largest file a command's attachment option takes (layouts are far smaller).
const MaxUpload = 64 << 10

// answerWait is how long an action waits for the bot's first answer (Discord's window),
// unless Options.AnswerWait says otherwise.
const answerWait = 3 * time.Second

// pollWait is how long a long poll waits for a change before it answers unchanged.
const pollWait = 25 * time.Second

// apiError is an error answer: its status and a message for people.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func errorf(status int, format string, args ...any) *apiError {
	return &apiError{status, fmt.Sprintf(format, args...)}
}

type route struct {
	method string
	fn     func(w http.ResponseWriter, r *http.Request) error
}

// handler is the whole web server: the page, its assets and the JSON API under /api/.
func (p *Playground) handler() http.Handler {
	api := map[string]route{
		"/api/status":          {"GET", p.apiStatus},
		"/api/view":            {"GET", p.apiView},
		"/api/poll":            {"GET", p.apiPoll},
		"/api/messages":        {"POST", p.apiPost},
		"/api/commands":        {"POST", p.apiCommand},
		"/api/autocomplete":    {"POST", p.apiAutocomplete},
		"/api/click":           {"POST", p.apiClick},
		"/api/select":          {"POST", p.apiSelect},
		"/api/modal/submit":    {"POST", p.apiModalSubmit},
		"/api/modal/dismiss":   {"POST", p.apiModalDismiss},
		"/api/dm":              {"POST", p.apiDM},
		"/api/threads/join":    {"POST", p.apiJoinThread},
		"/api/attachments/...": {"GET", p.apiAttachment},
	}
	assets := assetHandler()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		// Everything comes from this server: no CDN, no inline script, no outside request.
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
		if err := p.checkOrigin(r); err != nil {
			writeError(w, err)
			return
		}
		if !strings.HasPrefix(r.URL.Path, "/api/") {
			assets.ServeHTTP(w, r)
			return
		}
		key := r.URL.Path
		if strings.HasPrefix(key, "/api/attachments/") {
			key = "/api/attachments/..."
		}
		rt, ok := api[key]
		if !ok {
			writeError(w, errorf(http.StatusNotFound, "no API endpoint %s", r.URL.Path))
			return
		}
		if r.Method != rt.method && !(rt.method == "GET" && r.Method == "HEAD") {
			w.Header().Set("Allow", rt.method)
			writeError(w, errorf(http.StatusMethodNotAllowed, "%s takes %s, not %s", r.URL.Path, rt.method, r.Method))
			return
		}
		h.Set("Cache-Control", "no-store")
		if err := rt.fn(w, r); err != nil {
			writeError(w, err)
		}
	})
}

// checkOrigin refuses requests that name another site: a Host header that is not this
// loopback server (DNS rebinding) or an Origin from elsewhere (another page posting here).
func (p *Playground) checkOrigin(r *http.Request) error {
	port := strconv.Itoa(p.ln.Addr().(*net.TCPAddr).Port)
	if p.opts.Config.Playground.IsLoopback() {
		switch r.Host {
		case "127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port:
		default:
			return errorf(http.StatusMisdirectedRequest, "this playground answers requests for 127.0.0.1:%s only, not for host %q", port, r.Host)
		}
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
		return errorf(http.StatusForbidden, "requests from other sites (origin %q) are refused", o)
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// writeError answers {"error": "..."} with the error's status (500 for unexpected errors).
func writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = &apiError{http.StatusInternalServerError, err.Error()}
	}
	writeJSON(w, ae.status, map[string]any{"error": ae.msg, "status": ae.status})
}

// decodeBody reads a JSON request body into v: application/json, at most MaxBody bytes, one
// object with known fields only.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) error {
	ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || ct != "application/json" {
		return errorf(http.StatusUnsupportedMediaType, "the request body must be JSON (Content-Type: application/json)")
	}
	body := http.MaxBytesReader(w, r.Body, MaxBody)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &mbe):
			return errorf(http.StatusRequestEntityTooLarge, "the request body is over %d KiB", MaxBody>>10)
		case errors.Is(err, io.EOF):
			return errorf(http.StatusBadRequest, "the request body is empty; send a JSON object")
		case errors.As(err, &se):
			return errorf(http.StatusBadRequest, "malformed JSON at byte %d: %v", se.Offset, err)
		case errors.As(err, &te):
			if te.Field == "" {
				return errorf(http.StatusBadRequest, "the request body must be a JSON object")
			}
			return errorf(http.StatusBadRequest, "field %q must be a %s, not a JSON %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
		case strings.HasPrefix(err.Error(), "json: unknown field"):
			return errorf(http.StatusBadRequest, "unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
		}
		return errorf(http.StatusBadRequest, "malformed JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return errorf(http.StatusRequestEntityTooLarge, "the request body is over %d KiB", MaxBody>>10)
		}
		return errorf(http.StatusBadRequest, "unexpected data after the JSON object")
	}
	return nil
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "string"
	case "slice", "array":
		return "list"
	case "map", "struct":
		return "object"
	case "bool":
		return "boolean"
	}
	return "number"
}

// decodeActing reads a JSON request body into in (decodeBody) and resolves
// the acting user whose ID it holds at as, its "as" field (user).
func (p *Playground) decodeActing(w http.ResponseWriter, r *http.Request, in any, as *string) (*discordsim.User, error) {
	if err := decodeBody(w, r, in); err != nil {
		return nil, err
	}
	return p.user(*as)
}

// user resolves the acting user by ID: a playground person, never the bot.
func (p *Playground) user(id string) (*discordsim.User, error) {
	if id == "" {
		return nil, errorf(http.StatusBadRequest, `say who acts: "as" must be a user ID`)
	}
	u := p.fake.UserByID(id)
	if u == nil {
		return nil, errorf(http.StatusNotFound, "unknown user %q", id)
	}
	if u.Bot {
		return nil, errorf(http.StatusBadRequest, "%s is a bot; act as one of the people", u.Name)
	}
	return u, nil
}

// firstPerson is the first user who is not a bot (the configuration names at least two).
func (p *Playground) firstPerson() *discordsim.User {
	for _, u := range p.fake.Users() {
		if !u.Bot {
			return u
		}
	}
	return p.fake.User("alice")
}

// channel resolves a channel that u can see.
func (p *Playground) channel(u *discordsim.User, id string) (*discordsim.Channel, error) {
	if id == "" {
		return nil, errorf(http.StatusBadRequest, "channel_id is missing")
	}
	c := p.fake.ChannelByID(id)
	if c == nil {
		return nil, errorf(http.StatusNotFound, "unknown channel %q", id)
	}
	if !p.fake.CanSee(u, id) {
		return nil, errorf(http.StatusForbidden, "%s cannot see this channel", u.Name)
	}
	return c, nil
}

// message resolves a message that u can see.
func (p *Playground) message(u *discordsim.User, id string) (*discordsim.Message, error) {
	m := p.fake.Message(id)
	if m == nil || !p.fake.CanSee(u, m.ChannelID) || !m.VisibleFor(u.ID) {
		return nil, errorf(http.StatusNotFound, "unknown message %q", id)
	}
	return m, nil
}

// requireBot refuses an action while the bot cannot answer it.
func (p *Playground) requireBot() error {
	switch st := p.Status(); st.State {
	case "connecting":
		return errorf(http.StatusServiceUnavailable, "%s is still connecting; try again in a moment", BotName)
	case "failed":
		return errorf(http.StatusServiceUnavailable, "%s failed to start: %s", BotName, st.Error)
	}
	if p.opts.HTTPInteractions {
		return nil // no gateway: interactions go to the bot's endpoint
	}
	for _, g := range p.fake.GatewaySessions() {
		if g.Connected {
			return nil
		}
	}
	return errorf(http.StatusServiceUnavailable, "%s is reconnecting; try again in a moment", BotName)
}

// fakeError turns an injection refusal of the stand-in into a 400 for people.
func fakeError(err error) error {
	if errors.Is(err, discordsim.ErrClosed) {
		return errorf(http.StatusServiceUnavailable, "the playground is shutting down")
	}
	return errorf(http.StatusBadRequest, "%s", strings.TrimPrefix(err.Error(), "discordsim: "))
}

// ---- reading ----

func (p *Playground) apiStatus(w http.ResponseWriter, r *http.Request) error {
	v, _, _ := p.version()
	writeJSON(w, 200, map[string]any{"bot": p.Status(), "version": v})
	return nil
}

func (p *Playground) apiPoll(w http.ResponseWriter, r *http.Request) error {
	since, err := strconv.ParseUint(r.URL.Query().Get("since"), 10, 64)
	if err != nil {
		return errorf(http.StatusBadRequest, "since must be the version a view returned (a whole number)")
	}
	timer := time.NewTimer(pollWait)
	defer timer.Stop()
	waiting := false
	defer func() {
		if waiting {
			p.waitingPolls.Add(-1)
		}
	}()
	for {
		v, fc, sc := p.version()
		if v != since {
			writeJSON(w, 200, map[string]any{"version": v, "changed": true})
			return nil
		}
		if !waiting {
			waiting = true
			p.waitingPolls.Add(1) // after version: a change from now on closes fc or sc
		}
		select {
		case <-fc:
		case <-sc:
		case <-timer.C:
			writeJSON(w, 200, map[string]any{"version": v, "changed": false})
			return nil
		case <-r.Context().Done():
			return nil
		case <-p.done:
			return errorf(http.StatusServiceUnavailable, "the playground is shutting down")
		}
	}
}

type userOut struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Bot  bool   `json:"bot,omitempty"`
}

func userJSON(u *discordsim.User) userOut { return userOut{u.ID, u.Name, u.Bot} }

type channelOut struct {
	ID       string   `json:"id"`
	Kind     string   `json:"kind"` // text, public_thread, private_thread, dm
	Name     string   `json:"name"`
	ParentID string   `json:"parent_id,omitempty"`
	OwnerID  string   `json:"owner_id,omitempty"`
	Members  []string `json:"members,omitempty"`
	Archived bool     `json:"archived,omitempty"`
	// Locked threads take no message nor command from people (Discord's client shows no box).
	Locked bool `json:"locked,omitempty"`
	// LastMessageID is the newest message this user can see ("" for none), for unread marks.
	LastMessageID string `json:"last_message_id"`
	MessageCount  int    `json:"message_count"`
}

func channelKind(c *discordsim.Channel) string {
	switch c.Type {
	case discordgo.ChannelTypeDM:
		return "dm"
	case discordgo.ChannelTypeGuildPublicThread:
		return "public_thread"
	case discordgo.ChannelTypeGuildPrivateThread:
		return "private_thread"
	}
	return "text"
}

// shown is what u's page shows of a channel's messages: those u can see, less the ephemeral
// messages older than the page (ephemeralAfter, see ephemeralHorizon; 0 keeps them all).
func (p *Playground) shown(u *discordsim.User, channelID string, ephemeralAfter uint64) []*discordsim.Message {
	msgs := p.fake.VisibleMessages(u, channelID)
	if ephemeralAfter == 0 {
		return msgs
	}
	kept := msgs[:0:0]
	for _, m := range msgs {
		if m.Ephemeral() {
			if id, err := strconv.ParseUint(m.ID, 10, 64); err != nil || id < ephemeralAfter {
				continue
			}
		}
		kept = append(kept, m)
	}
	return kept
}

// discordEpoch is the first millisecond of 2015 (UTC), where snowflake IDs start.
const discordEpoch = 1420070400000

// ephemeralHorizon reads the view's ephemeral_after parameter. Discord's client keeps an
// ephemeral message only in memory: it shows it to its person until the page is reloaded. The
// page does the same by asking for its first view with "now": the answer names the horizon
// (a snowflake of that moment), which the page sends with every later view of its life, and
// only ephemeral messages from then on are shown. A reload starts again from "now". No
// parameter (API clients) shows every ephemeral message.
func ephemeralHorizon(q string, now time.Time) (uint64, error) {
	switch q {
	case "":
		return 0, nil
	case "now":
		return uint64(now.UnixMilli()-discordEpoch) << 22, nil
	}
	h, err := strconv.ParseUint(q, 10, 64)
	if err != nil || h == 0 {
		return 0, errorf(http.StatusBadRequest, `ephemeral_after must be "now" or the horizon a view returned (a snowflake ID)`)
	}
	return h, nil
}

func (p *Playground) channelJSON(u *discordsim.User, c *discordsim.Channel, ephemeralAfter uint64) channelOut {
	out := channelOut{ID: c.ID, Kind: channelKind(c), Name: c.Name, ParentID: c.ParentID, OwnerID: c.OwnerID,
		Members: c.Members, Archived: c.Archived, Locked: c.Locked}
	if c.IsDM() {
		out.Name = BotName
	}
	msgs := p.shown(u, c.ID, ephemeralAfter)
	out.MessageCount = len(msgs)
	if n := len(msgs); n > 0 {
		out.LastMessageID = msgs[n-1].ID
	}
	return out
}

type attachmentOut struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	ContentType string `json:"content_type"`
	Size        int    `json:"size"`
	URL         string `json:"url"`
}

type interactionOut struct {
	User    userOut `json:"user"`
	Command string  `json:"command,omitempty"`
	Type    int     `json:"type"`
}

type messageOut struct {
	ID          string                       `json:"id"`
	ChannelID   string                       `json:"channel_id"`
	Version     int                          `json:"version"`
	Author      userOut                      `json:"author"`
	Content     string                       `json:"content"`
	Embeds      []*discordgo.MessageEmbed    `json:"embeds"`
	Components  []discordgo.MessageComponent `json:"components"`
	Attachments []attachmentOut              `json:"attachments"`
	Ephemeral   bool                         `json:"ephemeral,omitempty"`
	Loading     bool                         `json:"loading,omitempty"`
	// ComponentsV2 says the message is a Components V2 layout (flag IS_COMPONENTS_V2): no
	// content or embeds, its files shown only through its components.
	ComponentsV2 bool            `json:"components_v2,omitempty"`
	Edited       bool            `json:"edited,omitempty"`
	Timestamp    time.Time       `json:"timestamp"`
	Thread       *channelOut     `json:"thread,omitempty"`
	Interaction  *interactionOut `json:"interaction,omitempty"`
}

func (p *Playground) messageJSON(u *discordsim.User, m *discordsim.Message, ephemeralAfter uint64) messageOut {
	out := messageOut{ID: m.ID, ChannelID: m.ChannelID, Version: m.Version, Author: userJSON(m.Author),
		Content: m.Content, Embeds: m.Embeds, Components: m.Components, Ephemeral: m.Ephemeral(),
		Loading: m.Loading(), Edited: m.EditedAt != nil, Timestamp: m.Timestamp, Attachments: []attachmentOut{},
		ComponentsV2: m.Flags&discordgo.MessageFlagsIsComponentsV2 != 0}
	if out.Embeds == nil {
		out.Embeds = []*discordgo.MessageEmbed{}
	}
	if out.Components == nil {
		out.Components = []discordgo.MessageComponent{}
	}
	for _, a := range m.Attachments {
		out.Attachments = append(out.Attachments, attachmentOut{ID: a.ID, Filename: a.Filename, ContentType: a.ContentType,
			Size: len(a.Data), URL: attachmentURL(u, m, a)})
	}
	if m.ThreadID != "" && p.fake.CanSee(u, m.ThreadID) {
		if t := p.fake.ChannelByID(m.ThreadID); t != nil {
			tc := p.channelJSON(u, t, ephemeralAfter)
			out.Thread = &tc
		}
	}
	if mi := m.Interaction; mi != nil {
		if iu := p.fake.UserByID(mi.UserID); iu != nil {
			out.Interaction = &interactionOut{User: userJSON(iu), Command: mi.Command, Type: int(mi.Type)}
		}
	}
	return out
}

func attachmentURL(u *discordsim.User, m *discordsim.Message, a *discordsim.Attachment) string {
	return "/api/attachments/" + m.ID + "/" + a.ID + "/" + url.PathEscape(a.Filename) + "?as=" + u.ID
}

type modalOut struct {
	CustomID string     `json:"custom_id"`
	Title    string     `json:"title"`
	Inputs   []inputOut `json:"inputs"`
}

type inputOut struct {
	CustomID    string `json:"custom_id"`
	Label       string `json:"label"`
	Paragraph   bool   `json:"paragraph"`
	Placeholder string `json:"placeholder,omitempty"`
	Value       string `json:"value,omitempty"`
	Required    bool   `json:"required"`
	MinLength   int    `json:"min_length,omitempty"`
	MaxLength   int    `json:"max_length,omitempty"`
}

// viewOut is everything one user's client shows: the server and its channels as this user
// sees them, their DM with the bot, the open channel's messages and commands, and their open
// modal.
type viewOut struct {
	Version  uint64                          `json:"version"`
	Bot      userOut                         `json:"bot"`
	Status   BotStatus                       `json:"status"`
	Me       userOut                         `json:"me"`
	Users    []userOut                       `json:"users"`
	Guild    userOut                         `json:"guild"`
	Channels []channelOut                    `json:"channels"`
	DM       *channelOut                     `json:"dm"`
	Channel  channelOut                      `json:"channel"`
	Messages []messageOut                    `json:"messages"`
	Commands []*discordgo.ApplicationCommand `json:"commands"`
	Modal    *modalOut                       `json:"modal"`
	// DMs maps each person to their DM channel with the bot and its newest message, so the
	// page can say who has unread direct messages.
	DMs map[string]dmOut `json:"dms"`
	// EphemeralAfter is the horizon of ephemeral messages this view shows (see
	// ephemeralHorizon), "" for all of them.
	EphemeralAfter string `json:"ephemeral_after,omitempty"`
}

type dmOut struct {
	ChannelID     string `json:"channel_id"`
	LastMessageID string `json:"last_message_id"`
}

// apiView answers GET /api/view?as=USER&channel=CHANNEL. With no USER it shows the first
// person's view; a channel the user cannot see (or none) gives the server's first text channel.
func (p *Playground) apiView(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	var u *discordsim.User
	if q.Get("as") == "" {
		u = p.firstPerson()
	} else {
		var err error
		if u, err = p.user(q.Get("as")); err != nil {
			return err
		}
	}
	after, err := ephemeralHorizon(q.Get("ephemeral_after"), time.Now())
	if err != nil {
		return err
	}
	v, _, _ := p.version()
	g := p.fake.Guild()
	out := viewOut{Version: v, Bot: userJSON(p.fake.Bot()), Status: p.Status(), Me: userJSON(u),
		Guild: userOut{ID: g.ID, Name: g.Name}, Channels: []channelOut{}, Messages: []messageOut{}}
	out.DMs = map[string]dmOut{}
	if after != 0 {
		out.EphemeralAfter = strconv.FormatUint(after, 10)
	}
	for _, x := range p.fake.Users() {
		out.Users = append(out.Users, userJSON(x))
		if x.Bot {
			continue
		}
		for _, c := range p.fake.VisibleChannels(x) {
			if c.IsDM() {
				d := dmOut{ChannelID: c.ID}
				if msgs := p.shown(x, c.ID, after); len(msgs) > 0 {
					d.LastMessageID = msgs[len(msgs)-1].ID
				}
				out.DMs[x.ID] = d
			}
		}
	}
	var current, first *discordsim.Channel
	want := q.Get("channel")
	for _, c := range p.fake.VisibleChannels(u) {
		if c.ID == want {
			current = c
		}
		if c.IsDM() {
			dm := p.channelJSON(u, c, after)
			out.DM = &dm
			continue
		}
		if c.GuildID != g.ID {
			continue
		}
		if first == nil && c.Type == discordgo.ChannelTypeGuildText {
			first = c
		}
		out.Channels = append(out.Channels, p.channelJSON(u, c, after))
	}
	if current == nil {
		current = first
	}
	if current != nil {
		out.Channel = p.channelJSON(u, current, after)
		for _, m := range p.shown(u, current.ID, after) {
			out.Messages = append(out.Messages, p.messageJSON(u, m, after))
		}
		out.Commands = p.fake.CommandsIn(current.ID)
	}
	if out.Commands == nil {
		out.Commands = []*discordgo.ApplicationCommand{}
	}
	if md := p.fake.OpenModal(u); md != nil {
		mo := &modalOut{CustomID: md.CustomID, Title: md.Title, Inputs: []inputOut{}}
		for _, ti := range md.Inputs {
			mo.Inputs = append(mo.Inputs, inputOut{CustomID: ti.CustomID, Label: ti.Label, Paragraph: ti.Style == discordgo.TextInputParagraph,
				Placeholder: ti.Placeholder, Value: ti.Value, Required: ti.Required, MinLength: ti.MinLength, MaxLength: ti.MaxLength})
		}
		out.Modal = mo
	}
	writeJSON(w, 200, out)
	return nil
}

// apiAttachment serves an attachment's bytes to a user who can see its message:
// GET /api/attachments/MESSAGE/ATTACHMENT/NAME?as=USER.
func (p *Playground) apiAttachment(w http.ResponseWriter, r *http.Request) error {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/api/attachments/"), "/")
	if len(parts) != 3 {
		return errorf(http.StatusNotFound, "an attachment URL is /api/attachments/MESSAGE/ATTACHMENT/NAME?as=USER")
	}
	u, err := p.user(r.URL.Query().Get("as"))
	if err != nil {
		return err
	}
	m, err := p.message(u, parts[0])
	if err != nil {
		return err
	}
	for _, a := range m.Attachments {
		if a.ID == parts[1] {
			h := w.Header()
			h.Set("Content-Type", a.ContentType)
			h.Set("Cache-Control", "private, max-age=31536000, immutable") // attachments never change
			if !strings.HasPrefix(a.ContentType, "image/") {
				h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": a.Filename}))
			}
			h.Set("Content-Length", strconv.Itoa(len(a.Data)))
			w.WriteHeader(200)
			if r.Method != "HEAD" {
				w.Write(a.Data)
			}
			return nil
		}
	}
	return errorf(http.StatusNotFound, "message %s has no attachment %q", m.ID, parts[1])
}

// ---- acting ----

type postIn struct {
	As        string `json:"as"`
	ChannelID string `json:"channel_id"`
	Content   string `json:"content"`
}

func (p *Playground) apiPost(w http.ResponseWriter, r *http.Request) error {
	var in postIn
	u, err := p.decodeActing(w, r, &in, &in.As)
	if err != nil {
		return err
	}
	if _, err := p.channel(u, in.ChannelID); err != nil {
		return err
	}
	if strings.TrimSpace(in.Content) == "" {
		return errorf(http.StatusBadRequest, "the message is empty")
	}
	m, err := p.fake.Post(u, in.ChannelID, in.Content)
	if err != nil {
		return fakeError(err)
	}
	writeJSON(w, 200, p.messageJSON(u, m, 0))
	return nil
}

type optionIn struct {
	Name    string `json:"name"`
	Value   any    `json:"value"`
	Focused bool   `json:"focused,omitempty"`
}

type commandIn struct {
	As        string     `json:"as"`
	ChannelID string     `json:"channel_id"`
	Command   string     `json:"command"`
	Options   []optionIn `json:"options"`
}

func (in *commandIn) resolve(p *Playground) (*discordsim.User, []discordsim.Option, error) {
	u, err := p.user(in.As)
	if err != nil {
		return nil, nil, err
	}
	if _, err := p.channel(u, in.ChannelID); err != nil {
		return nil, nil, err
	}
	if strings.TrimSpace(in.Command) == "" {
		return nil, nil, errorf(http.StatusBadRequest, "command is missing (for example \"survival challenge\")")
	}
	if len(in.Options) > 25 {
		return nil, nil, errorf(http.StatusBadRequest, "a command has at most 25 options")
	}
	var opts []discordsim.Option
	for _, o := range in.Options {
		switch v := o.Value.(type) {
		case string, bool, float64:
			if o.Focused {
				s, ok := v.(string)
				if !ok {
					return nil, nil, errorf(http.StatusBadRequest, "option %q: what is typed is a string", o.Name)
				}
				opts = append(opts, discordsim.Focused(o.Name, s))
			} else {
				opts = append(opts, discordsim.Opt(o.Name, v))
			}
		case map[string]any:
			f, err := uploadedFile(o.Name, v)
			if err != nil {
				return nil, nil, err
			}
			opts = append(opts, discordsim.Opt(o.Name, f))
		case nil:
			return nil, nil, errorf(http.StatusBadRequest, "option %q has no value", o.Name)
		default:
			return nil, nil, errorf(http.StatusBadRequest, "option %q: a value is a string, a number, a boolean or a file", o.Name)
		}
	}
	return u, opts, nil
}

// uploadedFile decodes a file for an attachment option: {"filename", "content_type", "data"}
// with the bytes in standard base64.
func uploadedFile(option string, v map[string]any) (discordsim.File, error) {
	name, _ := v["filename"].(string)
	data, _ := v["data"].(string)
	ct, _ := v["content_type"].(string)
	for k := range v {
		if k != "filename" && k != "data" && k != "content_type" {
			return discordsim.File{}, errorf(http.StatusBadRequest, "option %q: a file has filename, content_type and data, not %q", option, k)
		}
	}
	if name == "" || strings.ContainsAny(name, "/\\") || len(name) > 200 {
		return discordsim.File{}, errorf(http.StatusBadRequest, "option %q: a file needs a filename (no path, at most 200 characters)", option)
	}
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return discordsim.File{}, errorf(http.StatusBadRequest, "option %q: data must be the file in base64: %v", option, err)
	}
	if len(raw) > MaxUpload {
		return discordsim.File{}, errorf(http.StatusRequestEntityTooLarge, "option %q: %s is over %d KiB", option, name, MaxUpload>>10)
	}
	if ct == "" {
		ct = "application/octet-stream"
	}
	return discordsim.File{Name: name, ContentType: ct, Data: raw}, nil
}

// actionOut answers an action: the interaction sent and whether the bot answered in time.
type actionOut struct {
	InteractionID string `json:"interaction_id"`
	Responded     bool   `json:"responded"`
	ResponseType  int    `json:"response_type,omitempty"`
	// MessageID is the message the answer created or updated, if any.
	MessageID string `json:"message_id,omitempty"`
	Error     string `json:"error,omitempty"`
}

func (p *Playground) answer(w http.ResponseWriter, in *discordsim.Interaction) error {
	out := actionOut{InteractionID: in.ID}
	resp, err := in.WaitResponse(p.opts.AnswerWait)
	switch {
	case err == nil:
		out.Responded, out.ResponseType = true, int(resp.Type)
		if m := in.Message(); m != nil {
			out.MessageID = m.ID
		}
	case errors.Is(err, discordsim.ErrTimeout):
		out.Error = BotName + " did not respond in time."
	default:
		return fakeError(err)
	}
	writeJSON(w, 200, out)
	return nil
}

// commandBody reads the body of a command or an autocomplete request and
// checks it (commandIn.resolve), and that the bot can answer it.
func (p *Playground) commandBody(w http.ResponseWriter, r *http.Request) (*commandIn, *discordsim.User, []discordsim.Option, error) {
	var in commandIn
	if err := decodeBody(w, r, &in); err != nil {
		return nil, nil, nil, err
	}
	u, opts, err := in.resolve(p)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := p.requireBot(); err != nil {
		return nil, nil, nil, err
	}
	return &in, u, opts, nil
}

func (p *Playground) apiCommand(w http.ResponseWriter, r *http.Request) error {
	in, u, opts, err := p.commandBody(w, r)
	if err != nil {
		return err
	}
	it, err := p.fake.Slash(u, in.ChannelID, in.Command, opts...)
	if err != nil {
		return fakeError(err)
	}
	return p.answer(w, it)
}

func (p *Playground) apiAutocomplete(w http.ResponseWriter, r *http.Request) error {
	in, u, opts, err := p.commandBody(w, r)
	if err != nil {
		return err
	}
	it, err := p.fake.Autocomplete(u, in.ChannelID, in.Command, opts...)
	if err != nil {
		return fakeError(err)
	}
	choices, err := it.WaitChoices(p.opts.AnswerWait)
	if errors.Is(err, discordsim.ErrTimeout) {
		return errorf(http.StatusGatewayTimeout, "%s did not answer the autocomplete in time", BotName)
	}
	if err != nil {
		return fakeError(err)
	}
	if choices == nil {
		choices = []*discordgo.ApplicationCommandOptionChoice{}
	}
	writeJSON(w, 200, map[string]any{"choices": choices})
	return nil
}

type componentIn struct {
	As        string   `json:"as"`
	MessageID string   `json:"message_id"`
	CustomID  string   `json:"custom_id"`
	Values    []string `json:"values"`
}

func (p *Playground) component(w http.ResponseWriter, r *http.Request, sel bool) error {
	var in componentIn
	u, err := p.decodeActing(w, r, &in, &in.As)
	if err != nil {
		return err
	}
	m, err := p.message(u, in.MessageID)
	if err != nil {
		return err
	}
	if in.CustomID == "" {
		return errorf(http.StatusBadRequest, "custom_id is missing")
	}
	if err := p.requireBot(); err != nil {
		return err
	}
	var it *discordsim.Interaction
	if sel {
		it, err = p.fake.Select(u, m, in.CustomID, in.Values...)
	} else {
		if in.Values != nil {
			return errorf(http.StatusBadRequest, "a button takes no values")
		}
		it, err = p.fake.Click(u, m, in.CustomID)
	}
	if err != nil {
		return fakeError(err)
	}
	return p.answer(w, it)
}

func (p *Playground) apiClick(w http.ResponseWriter, r *http.Request) error {
	return p.component(w, r, false)
}

func (p *Playground) apiSelect(w http.ResponseWriter, r *http.Request) error {
	return p.component(w, r, true)
}

type modalIn struct {
	As     string            `json:"as"`
	Values map[string]string `json:"values"`
}

func (p *Playground) apiModalSubmit(w http.ResponseWriter, r *http.Request) error {
	var in modalIn
	u, err := p.decodeActing(w, r, &in, &in.As)
	if err != nil {
		return err
	}
	if p.fake.OpenModal(u) == nil {
		return errorf(http.StatusConflict, "%s has no open form", u.Name)
	}
	if err := p.requireBot(); err != nil {
		return err
	}
	it, err := p.fake.SubmitModal(u, in.Values)
	if err != nil {
		return fakeError(err)
	}
	return p.answer(w, it)
}

type asIn struct {
	As string `json:"as"`
}

func (p *Playground) apiModalDismiss(w http.ResponseWriter, r *http.Request) error {
	var in asIn
	u, err := p.decodeActing(w, r, &in, &in.As)
	if err != nil {
		return err
	}
	p.fake.DismissModal(u)
	writeJSON(w, 200, map[string]any{})
	return nil
}

// apiDM opens (creating if needed) the user's DM channel with the bot.
func (p *Playground) apiDM(w http.ResponseWriter, r *http.Request) error {
	var in asIn
	u, err := p.decodeActing(w, r, &in, &in.As)
	if err != nil {
		return err
	}
	writeJSON(w, 200, p.channelJSON(u, p.fake.DM(u), 0))
	return nil
}

type joinIn struct {
	As       string `json:"as"`
	ThreadID string `json:"thread_id"`
}

func (p *Playground) apiJoinThread(w http.ResponseWriter, r *http.Request) error {
	var in joinIn
	u, err := p.decodeActing(w, r, &in, &in.As)
	if err != nil {
		return err
	}
	c, err := p.channel(u, in.ThreadID)
	if err != nil {
		return err
	}
	if !c.IsThread() {
		return errorf(http.StatusBadRequest, "%q is not a thread", c.Name)
	}
	if err := p.fake.JoinThread(u, c.ID); err != nil {
		return fakeError(err)
	}
	writeJSON(w, 200, p.channelJSON(u, p.fake.ChannelByID(c.ID), 0))
	return nil
}
