package discordsim

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// backlogSize is how many dispatches a session keeps for RESUME.
const backlogSize = 2000

type gateway struct {
	sessions map[string]*gwSession
	order    []string
	conns    []*gwConn
	closes   []GatewayClose
}

// Identify is an IDENTIFY payload as the fake received it. (discordgo.Identify cannot decode its
// own encoding: its presence activity writes created_at as a time and reads it as an integer.)
type Identify struct {
	Token          string                       `json:"token"`
	Intents        discordgo.Intent             `json:"intents"`
	Shard          *[2]int                      `json:"shard"`
	Properties     discordgo.IdentifyProperties `json:"properties"`
	Compress       bool                         `json:"compress"`
	LargeThreshold int                          `json:"large_threshold"`
	// Raw is the whole "d" object.
	Raw json.RawMessage `json:"-"`
}

type gwSession struct {
	id         string
	identify   Identify
	shard      [2]int
	seq        int64
	conn       *gwConn
	backlog    []gwFrame
	invalid    bool
	resumes    int
	heartbeats int
}

type gwFrame struct {
	seq  int64
	data []byte
}

// gwConn is one websocket connection with an unbounded, ordered outbound queue, so that
// dispatching under the server lock never blocks on the network.
type gwConn struct {
	ws      *websocket.Conn
	session *gwSession // guarded by Server.mu

	qmu   sync.Mutex
	queue [][]byte
	wake  chan struct{}
	done  chan struct{}
	once  sync.Once
}

func (c *gwConn) enqueue(b []byte) {
	c.qmu.Lock()
	c.queue = append(c.queue, b)
	c.qmu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *gwConn) writer() {
	for {
		select {
		case <-c.done:
			return
		case <-c.wake:
		}
		c.qmu.Lock()
		q := c.queue
		c.queue = nil
		c.qmu.Unlock()
		for _, b := range q {
			c.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if err := c.ws.WriteMessage(websocket.TextMessage, b); err != nil {
				c.close()
				return
			}
		}
	}
}

// close drops the TCP connection at once, without a close frame (as a network failure would).
func (c *gwConn) close() {
	c.once.Do(func() {
		close(c.done)
		c.ws.Close()
	})
}

// closeWith sends a close frame with code (for example 4004 authentication failed), then drops.
func (c *gwConn) closeWith(code int, text string) {
	c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, text), time.Now().Add(time.Second))
	c.close()
}

func (g *gateway) liveConns() []*gwConn { return append([]*gwConn(nil), g.conns...) }

func (g *gateway) removeConn(c *gwConn) {
	for i, x := range g.conns {
		if x == c {
			g.conns = append(g.conns[:i:i], g.conns[i+1:]...)
			return
		}
	}
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	ws.SetReadLimit(1 << 20)
	c := &gwConn{ws: ws, wake: make(chan struct{}, 1), done: make(chan struct{})}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ws.Close()
		return
	}
	s.gw.conns = append(s.gw.conns, c)
	s.mu.Unlock()
	go c.writer()
	c.enqueue(mustJSON(map[string]any{"op": 10, "s": nil, "t": nil,
		"d": map[string]any{"heartbeat_interval": s.opts.HeartbeatInterval.Milliseconds()}}))
	s.logf("gateway: connection opened")

	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				s.onClientClose(c, ce.Code)
			}
			break
		}
		var p struct {
			Op int             `json:"op"`
			D  json.RawMessage `json:"d"`
		}
		if json.Unmarshal(data, &p) != nil {
			c.closeWith(4002, "Error while decoding payload.")
			break
		}
		switch p.Op {
		case 1:
			s.onHeartbeat(c)
		case 2:
			s.onIdentify(c, p.D)
		case 6:
			s.onResume(c, p.D)
		}
	}
	c.close()
	s.mu.Lock()
	s.gw.removeConn(c)
	if sess := c.session; sess != nil && sess.conn == c {
		sess.conn = nil
	}
	s.notifyLocked()
	s.mu.Unlock()
	s.logf("gateway: connection closed")
}

// onClientClose records a close frame the client sent.
func (s *Server) onClientClose(c *gwConn, code int) {
	s.mu.Lock()
	gc := GatewayClose{Code: code, AfterCall: s.callCount, At: time.Now()}
	if c.session != nil {
		gc.Session = c.session.id
	}
	s.gw.closes = append(s.gw.closes, gc)
	s.notifyLocked()
	s.mu.Unlock()
	s.logf("gateway: client closed session %q with code %d after REST call #%d", gc.Session, code, gc.AfterCall)
}

func (s *Server) onHeartbeat(c *gwConn) {
	s.mu.Lock()
	if c.session != nil {
		c.session.heartbeats++
	}
	s.notifyLocked()
	s.mu.Unlock()
	c.enqueue([]byte(`{"op":11,"s":null,"t":null,"d":null}`))
}

func (s *Server) tokenOK(token string) bool { return trimBot(token) == s.opts.Token }

func (s *Server) onIdentify(c *gwConn, d json.RawMessage) {
	var id Identify
	id.Raw = append(json.RawMessage(nil), d...)
	if err := json.Unmarshal(d, &id); err != nil {
		c.closeWith(4002, "Error while decoding payload.")
		return
	}
	if !s.tokenOK(id.Token) {
		c.closeWith(4004, "Authentication failed.")
		return
	}
	shard := [2]int{0, 1}
	if id.Shard != nil {
		shard = *id.Shard
	}
	if shard[1] < 1 || shard[0] < 0 || shard[0] >= shard[1] {
		c.closeWith(4010, "Invalid shard.")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.session != nil {
		c.closeWith(4005, "Already authenticated.")
		return
	}
	// A new IDENTIFY for a shard ends the disconnected sessions of that shard.
	for _, sid := range s.gw.order {
		if old := s.gw.sessions[sid]; old.shard == shard && old.conn == nil {
			old.invalid = true
		}
	}
	sess := &gwSession{id: randomToken(16), identify: id, shard: shard, conn: c}
	s.gw.sessions[sess.id] = sess
	s.gw.order = append(s.gw.order, sess.id)
	c.session = sess

	var guilds []any
	var mine []*Guild
	for _, gid := range s.st.guildOrder {
		if shardOf(gid, shard[1]) == shard[0] {
			guilds = append(guilds, map[string]any{"id": gid, "unavailable": true})
			mine = append(mine, s.st.guilds[gid])
		}
	}
	if guilds == nil {
		guilds = []any{}
	}
	bot := userJSON(s.bot)
	bot["verified"], bot["mfa_enabled"] = true, false
	s.sendLocked(sess, "READY", mustJSON(map[string]any{
		"v": 9, "user": bot, "guilds": guilds, "session_id": sess.id, "session_type": "normal",
		"resume_gateway_url": s.GatewayURL(), "shard": shard, "private_channels": []any{},
		"application": map[string]any{"id": s.bot.ID, "flags": 0}, "relationships": []any{},
		"presences": []any{}, "guild_join_requests": []any{}, "geo_ordered_rtc_regions": []any{},
	}))
	for _, g := range mine {
		s.sendLocked(sess, "GUILD_CREATE", mustJSON(s.guildCreateLocked(g)))
	}
	s.notifyLocked()
	s.logf("gateway: IDENTIFY intents=%d shard=%v -> READY session %s", id.Intents, shard, sess.id)
}

func (s *Server) onResume(c *gwConn, d json.RawMessage) {
	var r struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if err := json.Unmarshal(d, &r); err != nil {
		c.closeWith(4002, "Error while decoding payload.")
		return
	}
	if !s.tokenOK(r.Token) {
		c.closeWith(4004, "Authentication failed.")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.gw.sessions[r.SessionID]
	if sess == nil || sess.invalid || c.session != nil {
		// Invalid session, not resumable: discordgo answers with a new IDENTIFY.
		c.enqueue([]byte(`{"op":9,"s":null,"t":null,"d":false}`))
		s.logf("gateway: RESUME of unknown session %s -> INVALID_SESSION", r.SessionID)
		return
	}
	if old := sess.conn; old != nil && old != c {
		old.session = nil
		go old.close()
	}
	sess.conn = c
	c.session = sess
	sess.resumes++
	replayed := 0
	for _, f := range sess.backlog {
		if f.seq > r.Seq {
			c.enqueue(f.data)
			replayed++
		}
	}
	s.sendLocked(sess, "RESUMED", []byte(`{}`))
	s.notifyLocked()
	s.logf("gateway: RESUME session %s from seq %d, replayed %d", sess.id, r.Seq, replayed)
}

// sendLocked numbers a dispatch for one session, keeps it for RESUME and sends it if connected.
func (s *Server) sendLocked(sess *gwSession, event string, d []byte) {
	sess.seq++
	frame := mustJSON(map[string]any{"op": 0, "s": sess.seq, "t": event, "d": json.RawMessage(d)})
	sess.backlog = append(sess.backlog, gwFrame{sess.seq, frame})
	if len(sess.backlog) > backlogSize {
		sess.backlog = append([]gwFrame(nil), sess.backlog[len(sess.backlog)-backlogSize:]...)
	}
	if sess.conn != nil {
		sess.conn.enqueue(frame)
	}
}

// dispatchLocked sends event to every session that would get it from Discord: the shard owning
// guildID (shard 0 for DMs, guildID ""), and only if the session asked for intent (0: always).
// Disconnected sessions keep it for RESUME.
func (s *Server) dispatchLocked(event string, data any, guildID string, intent discordgo.Intent) {
	var raw []byte
	for _, sid := range s.gw.order {
		sess := s.gw.sessions[sid]
		if sess.invalid || (intent != 0 && sess.identify.Intents&intent == 0) {
			continue
		}
		if shardOf(guildID, sess.shard[1]) != sess.shard[0] {
			continue
		}
		if raw == nil {
			raw = mustJSON(data)
		}
		s.sendLocked(sess, event, raw)
	}
	s.logf("gateway: dispatch %s", event)
}

// shardOf is Discord's shard formula, (guild_id >> 22) % num_shards; DMs go to shard 0.
func shardOf(guildID string, count int) int {
	if guildID == "" || count <= 1 {
		return 0
	}
	id, _ := strconv.ParseUint(guildID, 10, 64)
	return int((id >> 22) % uint64(count))
}

// dispatchMessageLocked sends MESSAGE_CREATE/UPDATE for m to sessions with the guild or DM
// message intent; the content is blanked without the MessageContent intent unless the bot
// wrote the message or is mentioned, as Discord does. Ephemeral messages are never dispatched.
func (s *Server) dispatchMessageLocked(event string, m *Message) {
	if m.Ephemeral() {
		return
	}
	intent := discordgo.IntentGuildMessages
	if m.GuildID == "" {
		intent = discordgo.IntentDirectMessages
	}
	full := s.messageJSONLocked(m)
	var blank map[string]any
	for _, sid := range s.gw.order {
		sess := s.gw.sessions[sid]
		if sess.invalid || sess.identify.Intents&intent == 0 || shardOf(m.GuildID, sess.shard[1]) != sess.shard[0] {
			continue
		}
		d := full
		if sess.identify.Intents&discordgo.IntentMessageContent == 0 && m.Author.ID != s.bot.ID && m.GuildID != "" {
			if blank == nil {
				blank = map[string]any{}
				for k, v := range full {
					blank[k] = v
				}
				blank["content"], blank["embeds"], blank["components"], blank["attachments"] = "", []any{}, []any{}, []any{}
			}
			d = blank
		}
		s.sendLocked(sess, event, mustJSON(d))
	}
}

// GatewaySession describes one gateway session (one IDENTIFY) as the fake sees it.
type GatewaySession struct {
	ID         string
	Identify   Identify // as received, token included
	Intents    discordgo.Intent
	Shard      [2]int // [id, count]; [0, 1] when IDENTIFY had no shard
	Connected  bool
	Invalid    bool // replaced by a newer IDENTIFY; cannot be resumed
	Resumes    int
	Heartbeats int
	Seq        int64 // last sequence number sent
}

// GatewaySessions returns every gateway session in IDENTIFY order.
func (s *Server) GatewaySessions() []GatewaySession {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]GatewaySession, 0, len(s.gw.order))
	for _, id := range s.gw.order {
		g := s.gw.sessions[id]
		out = append(out, GatewaySession{ID: g.id, Identify: g.identify, Intents: g.identify.Intents, Shard: g.shard,
			Connected: g.conn != nil, Invalid: g.invalid, Resumes: g.resumes, Heartbeats: g.heartbeats, Seq: g.seq})
	}
	return out
}

// GatewayClose is a close frame a client sent on a gateway connection: discordgo's
// Session.Close sends one with code 1000 (normal closure) before dropping the connection.
type GatewayClose struct {
	Session string // the gateway session's ID; "" if the connection never identified or resumed
	Code    int    // the close code, e.g. 1000
	// AfterCall is the number of REST calls recorded when the frame arrived (see CallCount):
	// the calls with Seq <= AfterCall reached the fake before it, the others after.
	AfterCall int
	At        time.Time
}

// GatewayCloses returns the close frames clients sent, in the order they arrived.
func (s *Server) GatewayCloses() []GatewayClose {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]GatewayClose(nil), s.gw.closes...)
}

// WaitConnected waits until some gateway session is connected (after READY or RESUMED) and
// returns it.
func (s *Server) WaitConnected(timeout time.Duration) (GatewaySession, error) {
	return waitValue(s, timeout, func() (GatewaySession, bool) {
		for _, g := range s.GatewaySessions() {
			if g.Connected {
				return g, true
			}
		}
		return GatewaySession{}, false
	}, func() string { return "no gateway session connected" })
}

// DropGateway closes every gateway connection abruptly (no close frame), as a network failure
// would. Sessions stay resumable: discordgo reconnects and sends RESUME, and gets the events
// dispatched meanwhile. It returns the number of connections dropped.
func (s *Server) DropGateway() int {
	s.mu.Lock()
	conns := s.gw.liveConns()
	s.mu.Unlock()
	for _, c := range conns {
		c.close()
	}
	return len(conns)
}

// RequestReconnect sends op 7 RECONNECT on every connection; discordgo closes and resumes.
func (s *Server) RequestReconnect() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.gw.conns {
		c.enqueue([]byte(`{"op":7,"s":null,"t":null,"d":null}`))
	}
	return len(s.gw.conns)
}

// Dispatch sends a raw gateway event (op 0, name event, data d) to every session, whatever its
// shard and intents, for events the fake does not produce itself.
func (s *Server) Dispatch(event string, d any) {
	raw := mustJSON(d)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sid := range s.gw.order {
		if sess := s.gw.sessions[sid]; !sess.invalid {
			s.sendLocked(sess, event, raw)
		}
	}
	s.notifyLocked()
}
