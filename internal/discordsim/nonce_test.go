package discordsim

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"sandtable/internal/testkit"
)

// postWithNonce creates a message as the bot's outbox does: discordgo's MessageSend has no
// nonce, so the payload is the bot's own.
func postWithNonce(sess *discordgo.Session, channelID, content, nonce string, enforce bool, opts ...discordgo.RequestOption) (*discordgo.Message, error) {
	body := map[string]any{"content": content}
	if nonce != "" {
		body["nonce"] = nonce
		body["enforce_nonce"] = enforce
	}
	url := discordgo.EndpointChannelMessages(channelID)
	b, err := sess.RequestWithBucketID("POST", url, body, url, opts...)
	if err != nil {
		return nil, err
	}
	var m discordgo.Message
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

func lastCall(t *testing.T, srv *Server, pattern string) *Call {
	t.Helper()
	calls := srv.CallsTo(pattern)
	if len(calls) == 0 {
		t.Fatalf("no call to %s", pattern)
	}
	return calls[len(calls)-1]
}

// TestNonceMakesOneMessage: a create repeating a nonce with enforce_nonce within the window is
// answered 200 with the message already created; outside the window, without enforce_nonce or
// with another nonce, a message is created.
func TestNonceMakesOneMessage(t *testing.T) {
	clock := testkit.NewClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	srv := Start(t, Options{Now: clock.Now, NonceWindow: 3 * time.Minute})
	sess := srv.NewSession()
	ch := srv.Channel("general")
	pattern := "POST /channels/" + ch.ID + "/messages"

	first, err := postWithNonce(sess, ch.ID, "board 1", "effect-1", true)
	if err != nil {
		t.Fatal(err)
	}
	if c := lastCall(t, srv, pattern); c.Repeat || srv.Message(first.ID).Nonce != "effect-1" {
		t.Errorf("the first create: %v, Repeat %v, nonce %q", c, c.Repeat, srv.Message(first.ID).Nonce)
	}
	clock.Advance(2 * time.Minute)
	again, err := postWithNonce(sess, ch.ID, "board 1", "effect-1", true)
	if err != nil {
		t.Fatal(err)
	}
	if again.ID != first.ID {
		t.Fatalf("the repeat created message %s beside %s", again.ID, first.ID)
	}
	if c := lastCall(t, srv, pattern); !c.Repeat || c.Status != 200 {
		t.Errorf("the repeat's call: %v, Repeat %v", c, c.Repeat)
	}
	if n := len(srv.Messages(ch.ID)); n != 1 {
		t.Fatalf("%d messages after a repeated nonce, want 1", n)
	}

	// Another nonce, or none, or one without enforce_nonce: a new message each.
	if _, err := postWithNonce(sess, ch.ID, "board 2", "effect-2", true); err != nil {
		t.Fatal(err)
	}
	if _, err := postWithNonce(sess, ch.ID, "board 1", "", false); err != nil {
		t.Fatal(err)
	}
	if _, err := postWithNonce(sess, ch.ID, "board 1", "effect-1", false); err != nil {
		t.Fatal(err)
	}
	if c := lastCall(t, srv, pattern); c.Repeat {
		t.Errorf("a create without enforce_nonce was answered as a repeat: %v", c)
	}
	if n := len(srv.Messages(ch.ID)); n != 4 {
		t.Fatalf("%d messages, want 4", n)
	}

	// Past the window the nonce is free again.
	clock.Advance(90 * time.Second)
	late, err := postWithNonce(sess, ch.ID, "board 1", "effect-1", true)
	if err != nil {
		t.Fatal(err)
	}
	if late.ID == first.ID || lastCall(t, srv, pattern).Repeat {
		t.Fatal("a nonce was enforced past the window")
	}

	// Too long a nonce is Discord's 50035.
	_, err = postWithNonce(sess, ch.ID, "x", strings.Repeat("n", 26), true)
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Message == nil || re.Message.Code != discordgo.ErrCodeInvalidFormBody {
		t.Fatalf("a 26-character nonce: %v, want 50035", err)
	}
	if _, err := postWithNonce(sess, ch.ID, "x", strings.Repeat("n", 25), true); err != nil {
		t.Fatalf("a 25-character nonce: %v", err)
	}
}

// TestNonceOnMultipartAndDMs: the nonce rides in payload_json beside files, and works in DM
// channels too.
func TestNonceOnMultipartAndDMs(t *testing.T) {
	srv := Start(t, Options{Users: []string{"alice"}})
	sess := srv.NewSession()
	dm, err := sess.UserChannelCreate(srv.User("alice").ID)
	if err != nil {
		t.Fatal(err)
	}
	payload := map[string]any{"content": "your board", "nonce": "dm-effect", "enforce_nonce": true}
	files := []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: strings.NewReader("PNG")}}
	var ids []string
	for range 2 {
		ct, body, err := discordgo.MultipartBodyWithJSON(payload, files)
		if err != nil {
			t.Fatal(err)
		}
		url := discordgo.EndpointChannelMessages(dm.ID)
		b, err := sess.RequestRaw("POST", url, ct, body, url, 0)
		if err != nil {
			t.Fatal(err)
		}
		var m discordgo.Message
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
		files[0].Reader = strings.NewReader("PNG")
	}
	if ids[0] != ids[1] || len(srv.Messages(dm.ID)) != 1 {
		t.Fatalf("two creates with one nonce: IDs %v, %d messages", ids, len(srv.Messages(dm.ID)))
	}
	if a := srv.Message(ids[0]).Attachment("board.png"); a == nil || string(a.Data) != "PNG" {
		t.Fatalf("the file: %+v", srv.Message(ids[0]).Attachments)
	}
}

// TestLostAnswer: LoseAnswerNext applies the create and closes the connection: the client
// sees a transport error, the message exists, and a retry with the same nonce finds it
// instead of making a second.
func TestLostAnswer(t *testing.T) {
	srv := Start(t, Options{})
	sess := srv.NewSession()
	ch := srv.Channel("general")
	pattern := "POST /channels/" + ch.ID + "/messages"
	srv.LoseAnswerNext(pattern, 1)
	_, err := postWithNonce(sess, ch.ID, "board", "effect-7", true, discordgo.WithRestRetries(0))
	var re *discordgo.RESTError
	if err == nil || errors.As(err, &re) {
		t.Fatalf("a lost answer: %v, want a transport error", err)
	}
	if c := lastCall(t, srv, pattern); !c.Fault || c.Status != 0 {
		t.Errorf("the lost call is recorded as %v (fault %v)", c, c.Fault)
	}
	msgs := srv.Messages(ch.ID)
	if len(msgs) != 1 {
		t.Fatalf("%d messages after a lost answer, want the one applied", len(msgs))
	}
	m, err := postWithNonce(sess, ch.ID, "board", "effect-7", true)
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != msgs[0].ID || len(srv.Messages(ch.ID)) != 1 {
		t.Fatalf("the retry made %s beside %s", m.ID, msgs[0].ID)
	}
}

// TestLateAnswer: LateAnswerNext applies the create at once and holds its answer; a client
// whose timeout is shorter gives up, though the message exists. A hold shorter than the
// client's patience only delays the answer. Apply with a Status answers that error after
// doing the work.
func TestLateAnswer(t *testing.T) {
	srv := Start(t, Options{})
	sess := srv.NewSession()
	ch := srv.Channel("general")
	pattern := "POST /channels/" + ch.ID + "/messages"

	srv.LateAnswerNext(pattern, 1, time.Hour)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	_, err := postWithNonce(sess, ch.ID, "late", "effect-8", true, discordgo.WithContext(ctx))
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a held answer: %v, want the client's timeout", err)
	}
	if n := len(srv.Messages(ch.ID)); n != 1 {
		t.Fatalf("%d messages after the client gave up, want the one applied", n)
	}

	srv.LateAnswerNext(pattern, 1, 20*time.Millisecond)
	m, err := postWithNonce(sess, ch.ID, "late but heard", "", false)
	if err != nil || m.Content != "late but heard" {
		t.Fatalf("a briefly held answer: %v, %+v", err, m)
	}

	srv.FailNext(pattern, 1, Fault{Apply: true, Status: 500})
	_, err = postWithNonce(sess, ch.ID, "done anyway", "", false)
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response.StatusCode != 500 {
		t.Fatalf("applied then 500: %v", err)
	}
	if msgs := srv.Messages(ch.ID); len(msgs) != 3 || msgs[2].Content != "done anyway" {
		t.Fatalf("messages %v: the 500 came after the create", msgs)
	}
}

// TestFailCall: FailCall strikes the call with the given Seq, whatever its route, before
// FailNext's faults, and only it; a fault without Apply leaves Discord unchanged.
func TestFailCall(t *testing.T) {
	t.Parallel()
	srv := Start(t, Options{})
	sess := srv.NewSession()
	ch := srv.Channel("general")
	srv.ServerErrorNext("POST /channels/"+ch.ID+"/messages", 1)
	srv.FailCall(srv.CallCount()+2, Fault{Status: 403, Code: 50013, Message: "Missing Permissions"})
	if _, err := sess.ChannelMessageSend(ch.ID, "one"); err == nil {
		t.Fatal("the first call: FailNext's 500 expected")
	}
	var re *discordgo.RESTError
	_, err := sess.ChannelMessageSend(ch.ID, "two")
	if !errors.As(err, &re) || re.Response.StatusCode != 403 {
		t.Fatalf("the second call: %v, want FailCall's 403", err)
	}
	if _, err := sess.ChannelMessageSend(ch.ID, "three"); err != nil {
		t.Fatalf("the third call: %v", err)
	}
	if msgs := srv.Messages(ch.ID); len(msgs) != 1 || msgs[0].Content != "three" {
		t.Fatalf("messages %v: only the third call was applied", msgs)
	}
	calls := srv.Calls()
	if last := calls[len(calls)-2]; !last.Fault || last.Status != 403 {
		t.Fatalf("call %s: recorded as the 403 fault", last)
	}
}
