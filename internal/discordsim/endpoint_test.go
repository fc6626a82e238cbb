package discordsim

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestHTTPDelivery: with DeliverTo, interactions arrive as POSTs signed
// with the fake's key (discordgo.VerifyInteraction accepts them with
// PublicKey), none over the gateway; the endpoint's answer is the initial
// response, JSON or multipart with files; a webhook edit made right after a
// deferral finds the deferred message; a refused delivery says why.
func TestHTTPDelivery(t *testing.T) {
	srv := Start(t, Options{Users: []string{"alice"}})
	sess := srv.NewSession()
	if _, err := sess.ApplicationCommandBulkOverwrite(srv.AppID(), "", []*discordgo.ApplicationCommand{{Name: "ping", Description: "ping"}}); err != nil {
		t.Fatal(err)
	}
	raw, err := hex.DecodeString(srv.PublicKey())
	if err != nil || len(raw) != ed25519.PublicKeySize {
		t.Fatalf("public key %q: %v", srv.PublicKey(), err)
	}
	var mode atomic.Value
	edited := make(chan error, 1)
	ep := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !discordgo.VerifyInteraction(r, ed25519.PublicKey(raw)) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		var i discordgo.Interaction
		if err := json.NewDecoder(r.Body).Decode(&i); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if i.Type == discordgo.InteractionPing {
			w.Write([]byte(`{"type":1}`))
			return
		}
		switch mode.Load().(string) {
		case "json":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"type":4,"data":{"content":"pong"}}`))
		case "multipart":
			ctype, body, err := discordgo.MultipartBodyWithJSON(&discordgo.InteractionResponse{Type: 4,
				Data: &discordgo.InteractionResponseData{Content: "a file"}},
				[]*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader([]byte("PNG"))}})
			if err != nil {
				t.Error(err)
			}
			w.Header().Set("Content-Type", ctype)
			w.Write(body)
		case "defer":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"type":5}`))
			w.(http.Flusher).Flush()
			go func() {
				content := "done"
				_, err := sess.InteractionResponseEdit(&i, &discordgo.WebhookEdit{Content: &content})
				edited <- err
			}()
		default:
			http.Error(w, "down", http.StatusServiceUnavailable)
		}
	}))
	defer ep.Close()
	if err := srv.PingEndpoint(ep.URL); err != nil {
		t.Fatal(err)
	}
	srv.DeliverTo(ep.URL)
	alice, ch := srv.User("alice"), srv.Channel("general")

	mode.Store("json")
	in, err := srv.Slash(alice, ch.ID, "ping")
	if err != nil {
		t.Fatal(err)
	}
	if m, err := in.WaitMessage(wait, nil); err != nil || m.Content != "pong" {
		t.Fatalf("answer %v, %v", m, err)
	}

	mode.Store("multipart")
	in, _ = srv.Slash(alice, ch.ID, "ping")
	m, err := in.WaitMessage(wait, nil)
	if err != nil || m.Attachment("board.png") == nil || string(m.Attachment("board.png").Data) != "PNG" {
		t.Fatalf("answer %+v, %v", m, err)
	}

	mode.Store("defer")
	in, _ = srv.Slash(alice, ch.ID, "ping")
	if err := <-edited; err != nil {
		t.Fatalf("editing the deferred answer: %v", err)
	}
	if m, err := in.WaitMessage(wait, nil); err != nil || m.Content != "done" {
		t.Fatalf("answer %v, %v", m, err)
	}

	mode.Store("down")
	in, _ = srv.Slash(alice, ch.ID, "ping")
	if err := srv.WaitFor(wait, func() bool { return in.DeliveryError() != nil }); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(in.DeliveryError().Error(), "503") || in.Response() != nil {
		t.Fatalf("delivery error %v, response %v", in.DeliveryError(), in.Response())
	}

	endpoint := 0
	for _, c := range srv.Calls() {
		if c.Endpoint {
			endpoint++
		}
	}
	if endpoint != 4 || len(srv.GatewaySessions()) != 0 {
		t.Fatalf("%d endpoint answers recorded, %d gateway sessions", endpoint, len(srv.GatewaySessions()))
	}
}
