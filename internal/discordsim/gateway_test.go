package discordsim

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

func TestHandshakeRecordsIdentifyAndReady(t *testing.T) {
	srv, sess := shared.srv, shared.sess
	gs := srv.GatewaySessions()
	if len(gs) == 0 {
		t.Fatal("no gateway session recorded")
	}
	g := gs[0]
	want := discordgo.IntentsGuilds | discordgo.IntentsGuildMessages | discordgo.IntentsDirectMessages
	if g.Intents != want {
		t.Errorf("IDENTIFY intents = %d, want %d", g.Intents, want)
	}
	if g.Shard != [2]int{0, 1} || g.Identify.Shard != nil {
		t.Errorf("shard = %v (raw %v), want [0 1] with no shard field for one shard", g.Shard, g.Identify.Shard)
	}
	if g.Identify.Token != "Bot "+srv.Token() {
		t.Errorf("IDENTIFY token = %q", g.Identify.Token)
	}
	if !g.Connected {
		t.Error("session not connected")
	}
	if sess.State.User == nil || sess.State.User.ID != srv.Bot().ID || !sess.State.User.Bot {
		t.Errorf("READY user = %+v, want the bot %s", sess.State.User, srv.Bot().ID)
	}
	if sess.State.SessionID != g.ID {
		t.Errorf("READY session_id = %q, fake says %q", sess.State.SessionID, g.ID)
	}
	// GUILD_CREATE after READY fills discordgo's state with the guild and its channels.
	err := srv.WaitFor(wait, func() bool {
		ch, err := sess.State.Channel(srv.Channel("general").ID)
		return err == nil && ch.Name == "general" && ch.GuildID == srv.Guild().ID
	})
	if err != nil {
		t.Fatalf("default guild's channel not in discordgo state: %v", err)
	}
	// A guild added later arrives as GUILD_CREATE too.
	g2 := srv.AddGuild("later", "lobby")
	if err := srv.WaitFor(wait, func() bool { _, err := sess.State.Guild(g2.ID); return err == nil }); err != nil {
		t.Fatalf("added guild never reached the session: %v", err)
	}
}

func TestSequenceNumbersIncrease(t *testing.T) {
	srv := shared.srv
	before := srv.GatewaySessions()[0].Seq
	srv.AddGuild("seq") // one GUILD_CREATE
	srv.Dispatch("TYPING_START", map[string]any{"channel_id": "1", "user_id": "2", "timestamp": 0})
	after := srv.GatewaySessions()[0].Seq
	if after != before+2 {
		t.Errorf("seq went from %d to %d after two dispatches, want +2", before, after)
	}
}

// A second server with a short heartbeat, two shards and a callback deadline.
func TestHeartbeatsShardsAndCallbackDeadline(t *testing.T) {
	srv := Start(t, Options{HeartbeatInterval: 200 * time.Millisecond, CallbackDeadline: 300 * time.Millisecond, Users: []string{"carol"}})
	start := time.Now()
	got := make([]chan *discordgo.InteractionCreate, 2)
	sessions := make([]*discordgo.Session, 2)
	for shard := range 2 {
		got[shard] = make(chan *discordgo.InteractionCreate, 4)
		s := srv.NewSession()
		s.ShardID, s.ShardCount = shard, 2
		// No reconnects here: a slow machine missing 5 ACKs must fail the test, not hide in a
		// reconnect (and discordgo reads this field without a lock).
		s.ShouldReconnectOnError = false
		s.Identify.Intents = discordgo.IntentsGuilds
		ch := got[shard]
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			ch <- i
			if i.Type == discordgo.InteractionApplicationCommand {
				if data := i.ApplicationCommandData(); data.Name == "slow" {
					time.Sleep(400 * time.Millisecond)
				}
				err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
					Data: &discordgo.InteractionResponseData{Content: "pong"}})
				if err != nil {
					ch <- nil
				}
			}
		})
		if err := s.Open(); err != nil {
			t.Fatal(err)
		}
		sessions[shard] = s
	}
	t.Cleanup(func() {
		var wg sync.WaitGroup
		for _, s := range sessions {
			wg.Add(1)
			go func() { defer wg.Done(); s.Close() }()
		}
		wg.Wait()
	})

	for i, g := range srv.GatewaySessions() {
		if g.Shard != [2]int{i, 2} || g.Identify.Shard == nil || *g.Identify.Shard != [2]int{i, 2} {
			t.Errorf("session %d: shard %v, IDENTIFY shard %v", i, g.Shard, g.Identify.Shard)
		}
	}
	if err := srv.WaitFor(wait, func() bool {
		for _, g := range srv.GatewaySessions() {
			if g.Heartbeats < 2 {
				return false
			}
		}
		return true
	}); err != nil {
		t.Fatalf("heartbeats: %v (%+v)", err, srv.GatewaySessions())
	}
	for i, s := range sessions {
		// Open sets LastHeartbeatAck; only an op 11 moves it past the first heartbeat.
		err := srv.WaitFor(wait, func() bool {
			s.RLock()
			defer s.RUnlock()
			return s.LastHeartbeatAck.After(start.Add(srv.opts.HeartbeatInterval))
		})
		if err != nil {
			t.Errorf("session %d: no heartbeat ACK processed: %v", i, err)
		}
	}

	// Register a global command through shard 0, then use it in a guild of each shard and in DMs.
	cmds := []*discordgo.ApplicationCommand{simpleCmd("ping"), simpleCmd("slow")}
	if _, err := sessions[0].ApplicationCommandBulkOverwrite(srv.AppID(), "", cmds); err != nil {
		t.Fatal(err)
	}
	carol := srv.User("carol")
	seen := map[int]bool{}
	for len(seen) < 2 {
		g := srv.AddGuild("g", "c")
		shard := shardOf(g.ID, 2)
		if seen[shard] {
			time.Sleep(time.Millisecond) // the next snowflake lands on the other shard soon
			continue
		}
		seen[shard] = true
		// The other shard's sequence number shows what the fake sent it, whenever it arrives.
		otherSeq := srv.GatewaySessions()[1-shard].Seq
		in, err := srv.Slash(carol, srv.Channels(g.ID)[0].ID, "ping")
		if err != nil {
			t.Fatal(err)
		}
		select {
		case i := <-got[shard]:
			if i.ID != in.ID {
				t.Errorf("shard %d got interaction %s, want %s", shard, i.ID, in.ID)
			}
		case <-time.After(wait):
			t.Fatalf("shard %d never got the interaction for guild %s", shard, g.ID)
		}
		if _, err := in.WaitResponse(wait); err != nil {
			t.Fatal(err)
		}
		if seq := srv.GatewaySessions()[1-shard].Seq; seq != otherSeq {
			t.Errorf("shard %d was also sent the interaction (seq %d -> %d)", 1-shard, otherSeq, seq)
		}
	}
	// DMs go to shard 0 only.
	shard1Seq := srv.GatewaySessions()[1].Seq
	in, err := srv.Slash(carol, srv.DM(carol).ID, "ping")
	if err != nil {
		t.Fatal(err)
	}
	if i := <-got[0]; i.ID != in.ID || i.User == nil || i.User.ID != carol.ID || i.Member != nil {
		t.Errorf("DM interaction on shard 0: %+v", i)
	}
	if _, err := in.WaitMessage(wait, nil); err != nil {
		t.Fatal(err)
	}
	if seq := srv.GatewaySessions()[1].Seq; seq != shard1Seq {
		t.Errorf("shard 1 was also sent the DM interaction (seq %d -> %d)", shard1Seq, seq)
	}

	// Answering after the deadline fails with Unknown interaction, and creates nothing.
	in, err = srv.Slash(carol, srv.DM(carol).ID, "slow")
	if err != nil {
		t.Fatal(err)
	}
	<-got[0]
	c, err := srv.WaitCall(wait, func(c *Call) bool { return c.Is("POST /interactions/" + in.ID + "/*/callback") })
	if err != nil {
		t.Fatal(err)
	}
	if c.Status != 404 || c.Code != discordgo.ErrCodeUnknownInteraction {
		t.Errorf("late callback answered %v, want 404 code 10062", c)
	}
	if in.Response() != nil || in.Message() != nil {
		t.Error("late callback changed state")
	}
	if i := <-got[0]; i != nil {
		t.Errorf("handler saw no error for the late callback")
	}
}

func TestGatewayDropResumesAndReplaysMissedEvents(t *testing.T) {
	e := newEnv(t, simpleCmd("hello"))
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		respond(e, s, i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "hi"}})
	})
	before := e.srv.GatewaySessions()
	if n := e.srv.DropGateway(); n != 1 {
		t.Fatalf("dropped %d connections, want 1", n)
	}
	// Sent while the bot is disconnected (or while it notices): delivered on RESUME.
	in, err := e.srv.Slash(e.alice, e.ch.ID, "hello")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in.WaitMessage(wait, func(m *Message) bool { return m.Content == "hi" }); err != nil {
		t.Fatal(err)
	}
	after := e.srv.GatewaySessions()
	if len(after) != len(before) {
		t.Errorf("reconnect made a new IDENTIFY (%d sessions, was %d); want RESUME", len(after), len(before))
	}
	if after[0].Resumes != before[0].Resumes+1 || !after[0].Connected {
		t.Errorf("after drop: %+v, before %+v", after[0], before[0])
	}
	e.noErrors()
}

func TestReconnectRequestResumes(t *testing.T) {
	srv := shared.srv
	before := srv.GatewaySessions()[0].Resumes
	srv.RequestReconnect()
	if err := srv.WaitFor(wait, func() bool {
		g := srv.GatewaySessions()[0]
		return g.Resumes == before+1 && g.Connected
	}); err != nil {
		t.Fatalf("no RESUME after op 7: %v (%+v)", err, srv.GatewaySessions())
	}
}

func TestWrongTokenIsRejected(t *testing.T) {
	srv := Start(t, Options{})
	s := srv.NewSession()
	s.Token, s.Identify.Token = "Bot wrong", "Bot wrong"
	s.ShouldReconnectOnError = false
	if _, err := s.User("@me"); err == nil {
		t.Error("REST with a wrong token succeeded")
	} else if status, _ := restCode(err); status != 401 {
		t.Errorf("REST with a wrong token: %v, want 401", err)
	}
	if err := s.Open(); err == nil {
		s.Close()
		t.Fatal("Open with a wrong token succeeded")
	}
	if len(srv.GatewaySessions()) != 0 {
		t.Error("a session was created for a wrong token")
	}
	// With no bot on the gateway, an interaction is lost and the timeout says why.
	ok := srv.NewSession()
	if _, err := ok.ApplicationCommandBulkOverwrite(srv.AppID(), "", []*discordgo.ApplicationCommand{simpleCmd("ping")}); err != nil {
		t.Fatal(err)
	}
	in, err := srv.Slash(srv.User("dave"), srv.Channel("general").ID, "ping")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in.WaitResponse(20 * time.Millisecond); err == nil || !strings.Contains(err.Error(), "no bot is connected") {
		t.Errorf("timeout error %v", err)
	}
}

func TestClientCloseFrameIsRecordedAfterTheCallsBeforeIt(t *testing.T) {
	srv := Start(t, Options{})
	s := srv.NewSession()
	s.ShouldReconnectOnError = false
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	if got := srv.GatewayCloses(); len(got) != 0 {
		t.Fatalf("closes before any close: %+v", got)
	}
	if _, err := s.User("@me"); err != nil {
		t.Fatal(err)
	}
	before := srv.CallCount()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// A REST call after the close comes after it.
	if _, err := s.User("@me"); err != nil {
		t.Fatal(err)
	}
	var closes []GatewayClose
	if err := srv.WaitFor(wait, func() bool { closes = srv.GatewayCloses(); return len(closes) > 0 }); err != nil {
		t.Fatalf("the close frame was not recorded: %v", err)
	}
	if len(closes) != 1 {
		t.Fatalf("closes %+v, want one", closes)
	}
	c, sess := closes[0], srv.GatewaySessions()[0]
	if c.Session != sess.ID || c.Code != websocket.CloseNormalClosure || c.AfterCall != before {
		t.Errorf("close %+v, want session %s, code 1000, after call #%d", c, sess.ID, before)
	}
	if srv.CallCount() != before+1 {
		t.Errorf("%d calls, want %d", srv.CallCount(), before+1)
	}
	// The connection ending after the frame adds no record.
	if err := srv.WaitFor(wait, func() bool { return !srv.GatewaySessions()[0].Connected }); err != nil {
		t.Fatal(err)
	}
	if got := srv.GatewayCloses(); len(got) != 1 {
		t.Errorf("closes %+v after the connection ended, want the one frame", got)
	}
}
