package discordsim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

const maxBody = 26 << 20

// request is a parsed REST request.
type request struct {
	method string
	path   string // under /api/v9
	segs   []string
	query  url.Values
	auth   string
	body   []byte
	files  []File
}

// reply is a REST answer: a JSON value with status, no content, or an error.
type reply struct {
	status  int
	body    any
	err     *apiError
	headers map[string]string
	// repeat: a message create answered with the message its nonce made before.
	repeat bool
}

func ok(v any) reply      { return reply{status: 200, body: v} }
func created(v any) reply { return reply{status: 201, body: v} }
func noContent() reply    { return reply{status: 204} }
func fail(e *apiError) reply {
	return reply{status: e.Status, err: e}
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case p == "/gateway" || p == "/gateway/":
		s.serveGateway(w, r)
	case strings.HasPrefix(p, "/attachments/"):
		s.serveAttachment(w, r)
	case strings.HasPrefix(p, "/api/"):
		s.serveREST(w, r)
	default:
		writeJSON(w, 404, nil, errNotFound())
	}
}

func (s *Server) serveAttachment(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/attachments/"), "/")
	if len(parts) < 3 {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	found := s.st.uploads[parts[1]]
	for _, mid := range s.st.channelMsgs[parts[0]] {
		for _, a := range s.st.messages[mid].Attachments {
			if a.ID == parts[1] {
				found = a
			}
		}
	}
	s.mu.Unlock()
	if found == nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", found.ContentType)
	w.Write(found.Data)
}

func writeJSON(w http.ResponseWriter, status int, headers map[string]string, v any) {
	for k, x := range headers {
		w.Header().Set(k, x)
	}
	if status == 204 {
		w.WriteHeader(204)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(mustJSON(v))
}

// apiPath strips "/api" and an optional "/vN" prefix.
func apiPath(p string) string {
	p = strings.TrimPrefix(p, "/api")
	if strings.HasPrefix(p, "/v") {
		rest := p[2:]
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			i = len(rest)
		}
		if _, err := strconv.Atoi(rest[:i]); err == nil {
			p = rest[i:]
		}
	}
	if p == "" {
		p = "/"
	}
	return p
}

func (s *Server) serveREST(w http.ResponseWriter, r *http.Request) {
	req := &request{method: r.Method, path: apiPath(r.URL.Path), query: r.URL.Query(), auth: r.Header.Get("Authorization")}
	req.segs = strings.Split(strings.Trim(req.path, "/"), "/")
	rep := reply{}
	if err := parseBody(r, req); err != nil {
		var ae *apiError
		if !errors.As(err, &ae) {
			ae = errInvalidForm(err.Error())
		}
		rep = fail(ae)
	}

	if len(req.segs) >= 3 && req.segs[0] == "webhooks" {
		s.awaitEndpointAnswer(req.segs[2])
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		writeJSON(w, 503, nil, &apiError{503, 0, "server closed"})
		return
	}
	call := &Call{Method: req.method, Path: req.path, Query: req.query, Body: req.body, Files: req.files, At: time.Now()}
	if req.body != nil {
		var v any
		if json.Unmarshal(req.body, &v) == nil {
			call.JSON = v
		}
	}
	var f *Fault
	if rep.status == 0 {
		if f = s.takeFaultLocked(req.method, req.path); f != nil {
			call.Fault = true
			if f.Apply {
				rep = s.routeLocked(req)
			}
			if f.Status != 0 {
				rep = faultReply(f)
			}
		} else {
			rep = s.routeLocked(req)
		}
	}
	call.Repeat = rep.repeat
	if f != nil && f.Drop {
		rep.status = 0
	}
	s.recordLocked(call, rep)
	s.mu.Unlock()
	s.logf("REST %s", call)

	if f != nil && f.Hold > 0 {
		t := time.NewTimer(f.Hold)
		select {
		case <-t.C:
		case <-r.Context().Done(): // the client gave up (or the server closed)
		}
		t.Stop()
	}
	if f != nil && f.Drop {
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			conn.Close()
			return
		}
		panic(http.ErrAbortHandler) // closes the connection without an answer
	}

	if rep.err != nil {
		body := map[string]any{"code": rep.err.Code, "message": rep.err.Message}
		if rep.status == 429 {
			body = rep.body.(map[string]any)
		}
		writeJSON(w, rep.status, rep.headers, body)
		return
	}
	writeJSON(w, rep.status, rep.headers, rep.body)
}

// recordLocked completes call with the answer rep and records it. Caller holds s.mu.
func (s *Server) recordLocked(call *Call, rep reply) {
	call.Status = rep.status
	if rep.err != nil {
		call.Code, call.Error = rep.err.Code, rep.err.Message
	}
	s.callCount++
	call.Seq = s.callCount
	s.calls = append(s.calls, call)
	if k := s.opts.KeepCalls; k > 0 && len(s.calls) > 2*k {
		s.calls = append([]*Call(nil), s.calls[len(s.calls)-k:]...)
	}
	s.notifyLocked()
}

func faultReply(f *Fault) reply {
	e := &apiError{f.Status, f.Code, f.Message}
	rep := reply{status: f.Status, err: e}
	if f.Status == 429 {
		secs := f.RetryAfter.Seconds()
		rep.body = map[string]any{"message": f.Message, "retry_after": secs, "global": f.Global, "code": f.Code}
		rep.headers = map[string]string{"Retry-After": strconv.Itoa(int(secs + 0.999))}
		if f.Global {
			rep.headers["X-RateLimit-Global"] = "true"
			rep.headers["X-RateLimit-Reset-After"] = strconv.FormatFloat(secs, 'f', 3, 64)
			rep.headers["X-RateLimit-Scope"] = "global"
		} else {
			rep.headers["X-RateLimit-Scope"] = "user"
		}
	}
	return rep
}

func parseBody(r *http.Request, req *request) error {
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBody))
	if err != nil {
		return &apiError{413, discordgo.ErrCodeRequestEntityTooLarge, "Request entity too large"}
	}
	return parsePayload(body, r.Header.Get("Content-Type"), req)
}

// parsePayload reads a request's (or an endpoint's answer's) body into req: JSON, or multipart
// with payload_json and files[n].
func parsePayload(body []byte, contentType string, req *request) error {
	if len(body) == 0 {
		return nil
	}
	mt, params, _ := mime.ParseMediaType(contentType)
	if mt != "multipart/form-data" {
		req.body = body
		return checkJSONBody(body, "body")
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("bad multipart body: %v", err)
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return fmt.Errorf("bad multipart body: %v", err)
		}
		name := part.FormName()
		switch {
		case name == "payload_json":
			if err := checkJSONBody(data, "payload_json"); err != nil {
				return err
			}
			req.body = data
		case strings.HasPrefix(name, "files[") || name == "file":
			req.files = append(req.files, File{Field: name, Name: part.FileName(), ContentType: part.Header.Get("Content-Type"), Data: data})
		}
	}
	return nil
}

// checkJSONBody refuses a JSON body that Discord would refuse as invalid
// JSON (not UTF-8, code 50109), and, stricter than Discord, one with U+FFFD
// in any string. encoding/json (and so discordgo) sends each byte of invalid
// UTF-8 as U+FFFD, so a U+FFFD from the bot is almost always text cut in the
// middle of a character; Discord would show it as "�". Refusing it makes
// every end-to-end test catch such a cut.
func checkJSONBody(body []byte, what string) error {
	if !utf8.Valid(body) {
		return &apiError{400, discordgo.ErrCodeTheRequestBodyContainsInvalidJSON, "The request body contains invalid JSON: " + what + " is not UTF-8"}
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return &apiError{400, discordgo.ErrCodeTheRequestBodyContainsInvalidJSON, "The request body contains invalid JSON: " + what + ": " + err.Error()}
	}
	if at := findReplacementChar(v, what); at != "" {
		return errInvalidForm(at + ": contains U+FFFD, the mark of text cut in the middle of a character")
	}
	return nil
}

// findReplacementChar returns the path of the first string in v (a decoded
// JSON value) that holds U+FFFD, or "".
func findReplacementChar(v any, at string) string {
	switch x := v.(type) {
	case string:
		if strings.ContainsRune(x, utf8.RuneError) {
			return at
		}
	case []any:
		for i, e := range x {
			if p := findReplacementChar(e, fmt.Sprintf("%s[%d]", at, i)); p != "" {
				return p
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if p := findReplacementChar(x[k], at+"."+k); p != "" {
				return p
			}
		}
	}
	return ""
}

// seg matches the request path against a pattern of literal segments and "*" captures, and
// returns the captures.
func (req *request) match(method string, pattern ...string) ([]string, bool) {
	if req.method != method || len(req.segs) != len(pattern) {
		return nil, false
	}
	var caps []string
	for i, p := range pattern {
		if p == "*" {
			caps = append(caps, req.segs[i])
		} else if p != req.segs[i] {
			return nil, false
		}
	}
	return caps, true
}

func (s *Server) routeLocked(req *request) reply {
	// Token-authenticated routes (no bot token needed).
	if c, ok := req.match("POST", "interactions", "*", "*", "callback"); ok {
		return s.callbackLocked(c[0], c[1], req)
	}
	if len(req.segs) >= 3 && req.segs[0] == "webhooks" {
		return s.webhookLocked(req)
	}
	if _, ok := req.match("GET", "gateway"); ok {
		return ok200(map[string]any{"url": s.GatewayURL()})
	}
	if req.auth != "Bot "+s.opts.Token {
		return fail(&apiError{401, 0, "401: Unauthorized"})
	}
	if _, ok := req.match("GET", "gateway", "bot"); ok {
		return ok200(map[string]any{"url": s.GatewayURL(), "shards": 1,
			"session_start_limit": map[string]any{"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}})
	}
	if _, ok := req.match("GET", "oauth2", "applications", "@me"); ok {
		return ok200(map[string]any{"id": s.bot.ID, "name": s.bot.Name, "description": "", "bot_public": true,
			"verify_key": s.PublicKey(), "bot": userJSON(s.bot), "flags": 0})
	}
	if c, ok := req.match("GET", "users", "*"); ok {
		id := c[0]
		if id == "@me" {
			id = s.bot.ID
		}
		u := s.st.users[id]
		if u == nil {
			return fail(errUnknownUser())
		}
		return ok200(userJSON(u))
	}
	if _, ok := req.match("POST", "users", "@me", "channels"); ok {
		return s.createDMLocked(req)
	}
	if c, ok := req.match("GET", "guilds", "*"); ok {
		g := s.st.guilds[c[0]]
		if g == nil {
			return fail(&apiError{404, discordgo.ErrCodeUnknownGuild, "Unknown Guild"})
		}
		return ok200(s.guildCreateLocked(g))
	}
	if c, ok := req.match("GET", "guilds", "*", "channels"); ok {
		if s.st.guilds[c[0]] == nil {
			return fail(&apiError{404, discordgo.ErrCodeUnknownGuild, "Unknown Guild"})
		}
		out := []any{}
		for _, id := range s.st.channelOrder {
			if ch := s.st.channels[id]; ch.GuildID == c[0] && !ch.IsThread() {
				out = append(out, channelJSON(ch, s.bot.ID))
			}
		}
		return ok200(out)
	}
	if c, ok := req.match("GET", "guilds", "*", "members", "*"); ok {
		u := s.st.users[c[1]]
		if s.st.guilds[c[0]] == nil || u == nil {
			return fail(&apiError{404, discordgo.ErrCodeUnknownMember, "Unknown Member"})
		}
		m := s.memberJSONLocked(c[0], u, true)
		m["guild_id"] = c[0]
		return ok200(m)
	}
	if c, ok := req.match("GET", "guilds", "*", "roles"); ok {
		if s.st.guilds[c[0]] == nil {
			return fail(&apiError{404, discordgo.ErrCodeUnknownGuild, "Unknown Guild"})
		}
		return ok200(s.rolesJSONLocked(c[0]))
	}
	if c, ok := req.match("GET", "guilds", "*", "threads", "active"); ok {
		threads := []any{}
		for _, id := range s.st.channelOrder {
			if ch := s.st.channels[id]; ch.GuildID == c[0] && ch.IsThread() && !ch.Archived {
				threads = append(threads, channelJSON(ch, s.bot.ID))
			}
		}
		return ok200(map[string]any{"threads": threads, "members": []any{}})
	}
	if len(req.segs) >= 2 && req.segs[0] == "channels" {
		return s.channelRouteLocked(req)
	}
	if len(req.segs) >= 3 && req.segs[0] == "applications" {
		return s.commandsRouteLocked(req)
	}
	return fail(errNotFound())
}

func ok200(v any) reply { return ok(v) }

// botChannelLocked returns channel id if the bot can access it.
func (s *Server) botChannelLocked(id string) (*Channel, *apiError) {
	c := s.st.channels[id]
	if c == nil {
		return nil, errUnknownChannel()
	}
	if c.Type == discordgo.ChannelTypeGuildPrivateThread && !c.HasMember(s.bot.ID) {
		return nil, errMissingAccess()
	}
	return c, nil
}

func (s *Server) createDMLocked(req *request) reply {
	var body struct {
		RecipientID string `json:"recipient_id"`
	}
	if req.body == nil || json.Unmarshal(req.body, &body) != nil || body.RecipientID == "" {
		return fail(errInvalidForm("recipient_id: this field is required"))
	}
	u := s.st.users[body.RecipientID]
	if u == nil {
		return fail(errUnknownUser())
	}
	if u.ID == s.bot.ID {
		return fail(errInvalidForm("recipient_id: cannot open a DM with yourself"))
	}
	c := s.dmLocked(u)
	return ok(dmChannelJSON(c, u))
}

func (s *Server) channelRouteLocked(req *request) reply {
	segs := req.segs
	c, aerr := s.botChannelLocked(segs[1])
	if aerr != nil {
		return fail(aerr)
	}
	switch {
	case len(segs) == 2:
		switch req.method {
		case "GET":
			return ok(s.channelOut(c))
		case "PATCH":
			return s.patchChannelLocked(c, req)
		case "DELETE":
			return s.deleteChannelLocked(c)
		}
	case len(segs) == 3 && segs[2] == "messages":
		switch req.method {
		case "GET":
			return s.listMessagesLocked(c, req)
		case "POST":
			return s.postMessageLocked(c, req)
		}
	case len(segs) == 4 && segs[2] == "messages":
		m := s.st.messages[segs[3]]
		if m == nil || m.ChannelID != c.ID || m.Ephemeral() {
			return fail(errUnknownMessage())
		}
		switch req.method {
		case "GET":
			return ok(s.messageJSONLocked(m))
		case "PATCH":
			if m.Author.ID != s.bot.ID {
				return fail(&apiError{403, discordgo.ErrCodeCannotEditFromAnotherUser, "Cannot edit a message authored by another user"})
			}
			return s.editMessageLocked(m, req, "MESSAGE_UPDATE")
		case "DELETE":
			s.st.deleteMessage(m.ID)
			s.dispatchLocked("MESSAGE_DELETE", map[string]any{"id": m.ID, "channel_id": c.ID, "guild_id": c.GuildID},
				c.GuildID, messageIntent(c))
			return noContent()
		}
	case len(segs) == 3 && segs[2] == "threads" && req.method == "POST":
		return s.startThreadLocked(c, nil, req)
	case len(segs) == 5 && segs[2] == "messages" && segs[4] == "threads" && req.method == "POST":
		m := s.st.messages[segs[3]]
		if m == nil || m.ChannelID != c.ID || m.Ephemeral() {
			return fail(errUnknownMessage())
		}
		return s.startThreadLocked(c, m, req)
	case len(segs) == 3 && segs[2] == "thread-members" && req.method == "GET":
		if !c.IsThread() {
			return fail(&apiError{400, discordgo.ErrCodeCannotExecuteActionOnThisChannelType, "Cannot execute action on this channel type"})
		}
		out := []any{}
		for _, uid := range c.Members {
			out = append(out, map[string]any{"id": c.ID, "user_id": uid, "join_timestamp": c.CreatedAt.Format(time.RFC3339), "flags": 0})
		}
		return ok(out)
	case len(segs) == 4 && segs[2] == "thread-members":
		return s.threadMemberLocked(c, segs[3], req)
	}
	return fail(errNotFound())
}

func messageIntent(c *Channel) discordgo.Intent {
	if c.GuildID == "" {
		return discordgo.IntentDirectMessages
	}
	return discordgo.IntentGuildMessages
}

func (s *Server) channelOut(c *Channel) any {
	if c.IsDM() {
		return dmChannelJSON(c, s.st.users[c.RecipientID])
	}
	return channelJSON(c, s.bot.ID)
}

func (s *Server) listMessagesLocked(c *Channel, req *request) reply {
	limit := 50
	if v := req.query.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return fail(errInvalidForm("limit: must be between 1 and 100"))
		}
		limit = n
	}
	before, after := req.query.Get("before"), req.query.Get("after")
	var list []*Message
	for _, id := range s.st.channelMsgs[c.ID] {
		m := s.st.messages[id]
		if m.Ephemeral() || (before != "" && !idLess(m.ID, before)) || (after != "" && !idLess(after, m.ID)) {
			continue
		}
		list = append(list, m)
	}
	// Newest first, as Discord answers.
	sort.SliceStable(list, func(i, j int) bool { return idLess(list[j].ID, list[i].ID) })
	if after != "" && len(list) > limit {
		list = list[len(list)-limit:]
	} else if len(list) > limit {
		list = list[:limit]
	}
	out := make([]any, 0, len(list))
	for _, m := range list {
		out = append(out, s.messageJSONLocked(m))
	}
	return ok(out)
}

func idLess(a, b string) bool {
	x, _ := strconv.ParseUint(a, 10, 64)
	y, _ := strconv.ParseUint(b, 10, 64)
	return x < y
}

func (s *Server) postMessageLocked(c *Channel, req *request) reply {
	if c.IsDM() {
		u := s.st.users[c.RecipientID]
		if u == nil || u.Bot || s.st.dmsClosed[u.ID] {
			return fail(&apiError{403, discordgo.ErrCodeCannotSendMessagesToThisUser, "Cannot send messages to this user"})
		}
	}
	if c.IsThread() && c.Archived {
		if c.Locked {
			return fail(&apiError{400, discordgo.ErrCodePerformedOperationOnArchivedThread, "Thread is locked"})
		}
		c.Archived = false // sending unarchives, as for a member with send permission
	}
	p, aerr := parseMessagePayload(req.body, req.files)
	if aerr != nil {
		return fail(aerr)
	}
	nonceKey := ""
	if p.nonce != "" && p.enforceNonce {
		nonceKey = s.bot.ID + "/" + p.nonce
		if use, found := s.st.nonces[nonceKey]; found && s.now().Sub(use.at) < s.nonceWindow() {
			if old := s.st.messages[use.messageID]; old != nil {
				rep := ok(s.messageJSONLocked(old))
				rep.repeat = true
				return rep
			}
		}
	}
	flags := p.flags & (discordgo.MessageFlagsSuppressEmbeds | discordgo.MessageFlagsSuppressNotifications | discordgo.MessageFlagsIsComponentsV2)
	m := s.newMessageLocked(c, s.bot, p, discordgo.MessageTypeDefault, flags)
	if aerr := validateMessage(m); aerr != nil {
		return fail(aerr)
	}
	if nonceKey != "" {
		s.st.nonces[nonceKey] = nonceUse{messageID: m.ID, at: s.now()}
	}
	s.st.putMessage(m)
	s.noticesLocked(c, m, p)
	s.dispatchMessageLocked("MESSAGE_CREATE", m)
	return ok(s.messageJSONLocked(m))
}

// editMessageLocked applies the request body to m and answers with the new version.
func (s *Server) editMessageLocked(m *Message, req *request, event string) reply {
	p, aerr := parseMessagePayload(req.body, req.files)
	if aerr != nil {
		return fail(aerr)
	}
	nm := s.editedLocked(m, p)
	if aerr := validateMessage(nm); aerr != nil {
		return fail(aerr)
	}
	s.st.putMessage(nm)
	if event != "" {
		s.dispatchMessageLocked(event, nm)
	}
	return ok(s.messageJSONLocked(nm))
}

func (s *Server) patchChannelLocked(c *Channel, req *request) reply {
	var body struct {
		Name                *string `json:"name"`
		Archived            *bool   `json:"archived"`
		Locked              *bool   `json:"locked"`
		Invitable           *bool   `json:"invitable"`
		AutoArchiveDuration *int    `json:"auto_archive_duration"`
	}
	if req.body == nil || json.Unmarshal(req.body, &body) != nil {
		return fail(errInvalidForm("body must be a JSON object"))
	}
	if body.Name != nil {
		if n := len([]rune(*body.Name)); n < 1 || n > 100 {
			return fail(errInvalidForm("name: must be 1 to 100 characters"))
		}
		c.Name = *body.Name
	}
	if c.IsThread() {
		if body.Archived != nil {
			c.Archived = *body.Archived
		}
		if body.Locked != nil {
			c.Locked = *body.Locked
		}
		if body.Invitable != nil && c.Type == discordgo.ChannelTypeGuildPrivateThread {
			c.Invitable = *body.Invitable
		}
		if body.AutoArchiveDuration != nil {
			c.AutoArchiveDuration = *body.AutoArchiveDuration
		}
		s.dispatchLocked("THREAD_UPDATE", channelJSON(c, s.bot.ID), c.GuildID, discordgo.IntentGuilds)
	} else {
		s.dispatchLocked("CHANNEL_UPDATE", s.channelOut(c), c.GuildID, discordgo.IntentGuilds)
	}
	return ok(s.channelOut(c))
}

func (s *Server) deleteChannelLocked(c *Channel) reply {
	out := s.channelOut(c)
	if c.IsDM() {
		return ok(out) // closing a DM does not delete it
	}
	for _, id := range s.st.channelMsgs[c.ID] {
		delete(s.st.messages, id)
	}
	delete(s.st.channelMsgs, c.ID)
	delete(s.st.channels, c.ID)
	for i, id := range s.st.channelOrder {
		if id == c.ID {
			s.st.channelOrder = append(s.st.channelOrder[:i:i], s.st.channelOrder[i+1:]...)
			break
		}
	}
	ev := "CHANNEL_DELETE"
	if c.IsThread() {
		ev = "THREAD_DELETE"
	}
	s.dispatchLocked(ev, out, c.GuildID, discordgo.IntentGuilds)
	return ok(out)
}

// startThreadLocked creates a thread in parent, from message m if not nil. Standalone threads
// default to private (type 12) when no type is given, as API v9 does; a thread from a message
// is always public and has the message's ID.
func (s *Server) startThreadLocked(parent *Channel, m *Message, req *request) reply {
	if parent.Type != discordgo.ChannelTypeGuildText {
		return fail(&apiError{400, discordgo.ErrCodeCannotExecuteActionOnThisChannelType, "Cannot execute action on this channel type"})
	}
	var body struct {
		Name                string                 `json:"name"`
		AutoArchiveDuration int                    `json:"auto_archive_duration"`
		Type                *discordgo.ChannelType `json:"type"`
		Invitable           *bool                  `json:"invitable"`
	}
	if req.body == nil || json.Unmarshal(req.body, &body) != nil {
		return fail(errInvalidForm("body must be a JSON object"))
	}
	if n := len([]rune(body.Name)); n < 1 || n > 100 {
		return fail(errInvalidForm("name: must be 1 to 100 characters"))
	}
	switch body.AutoArchiveDuration {
	case 0:
		body.AutoArchiveDuration = 4320
	case 60, 1440, 4320, 10080:
	default:
		return fail(errInvalidForm("auto_archive_duration: must be one of 60, 1440, 4320, 10080"))
	}
	typ := discordgo.ChannelTypeGuildPrivateThread
	id := ""
	if m != nil {
		if m.ThreadID != "" {
			return fail(&apiError{400, discordgo.ErrCodeThreadAlreadyCreatedForThisMessage, "A thread has already been created for this message"})
		}
		typ = discordgo.ChannelTypeGuildPublicThread
		id = m.ID
	} else if body.Type != nil {
		typ = *body.Type
		if typ != discordgo.ChannelTypeGuildPublicThread && typ != discordgo.ChannelTypeGuildPrivateThread {
			return fail(errInvalidForm("type: must be 11 or 12"))
		}
		id = s.newID()
	} else {
		id = s.newID()
	}
	t := &Channel{ID: id, Type: typ, GuildID: parent.GuildID, ParentID: parent.ID, Name: body.Name, OwnerID: s.bot.ID,
		Members: []string{s.bot.ID}, AutoArchiveDuration: body.AutoArchiveDuration, CreatedAt: time.Now().UTC()}
	if typ == discordgo.ChannelTypeGuildPrivateThread {
		t.Invitable = body.Invitable == nil || *body.Invitable
	}
	s.st.addChannel(t)
	if m != nil {
		nm := *m
		nm.ThreadID = t.ID
		nm.Flags |= discordgo.MessageFlagsHasThread
		s.st.putMessage(&nm)
	} else if typ == discordgo.ChannelTypeGuildPublicThread {
		// Discord announces a standalone public thread in its parent channel.
		sys := &Message{ID: s.newID(), ChannelID: parent.ID, GuildID: parent.GuildID, Author: s.bot,
			Type: discordgo.MessageTypeThreadCreated, Content: t.Name, ThreadID: t.ID, Timestamp: time.Now().UTC(), Version: 1}
		s.st.putMessage(sys)
	}
	out := channelJSON(t, s.bot.ID)
	ev := map[string]any{}
	json.Unmarshal(mustJSON(out), &ev)
	ev["newly_created"] = true
	s.dispatchLocked("THREAD_CREATE", ev, t.GuildID, discordgo.IntentGuilds)
	return created(out)
}

func (s *Server) threadMemberLocked(c *Channel, userID string, req *request) reply {
	if !c.IsThread() {
		return fail(&apiError{400, discordgo.ErrCodeCannotExecuteActionOnThisChannelType, "Cannot execute action on this channel type"})
	}
	if userID == "@me" {
		userID = s.bot.ID
	}
	u := s.st.users[userID]
	if u == nil {
		return fail(errUnknownUser())
	}
	switch req.method {
	case "GET":
		if !c.HasMember(userID) {
			return fail(&apiError{404, discordgo.ErrCodeUnknownMember, "Unknown Member"})
		}
		return ok(map[string]any{"id": c.ID, "user_id": userID, "join_timestamp": c.CreatedAt.Format(time.RFC3339), "flags": 0})
	case "PUT":
		if c.Archived {
			return fail(&apiError{400, discordgo.ErrCodePerformedOperationOnArchivedThread, "Thread is archived"})
		}
		s.addThreadMemberLocked(c, userID)
	case "DELETE":
		for i, m := range c.Members {
			if m == userID {
				c.Members = append(c.Members[:i:i], c.Members[i+1:]...)
				break
			}
		}
	default:
		return fail(errNotFound())
	}
	s.dispatchLocked("THREAD_MEMBERS_UPDATE", map[string]any{"id": c.ID, "guild_id": c.GuildID, "member_count": len(c.Members)},
		c.GuildID, discordgo.IntentGuilds)
	return noContent()
}
