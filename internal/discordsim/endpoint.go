package discordsim

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// HTTP interactions: with DeliverTo(url), the fake delivers every injected interaction as Discord
// does to an application's Interactions Endpoint URL instead of over the gateway: a POST of the
// INTERACTION_CREATE data, signed with the fake's Ed25519 key (X-Signature-Ed25519 over
// X-Signature-Timestamp + body; the timestamp in Unix seconds of Options.Now). The HTTP answer is
// the interaction's initial response, JSON or multipart/form-data (payload_json and files[n]),
// applied exactly as a POST to the REST callback would be, so messages, follow-ups and edits
// behave as with gateway delivery. The answer is recorded as a Call with Endpoint set.
//
// A webhook call (follow-up, @original) for an interaction whose endpoint answer the fake is
// still reading waits for it: the bot can only make such a call after writing that answer, and
// the fake applying it a moment later is an artefact of the fake's own goroutines.

// endpointTimeout bounds one delivery; Discord gives up after 3 s, but Options.CallbackDeadline
// models that, and slow -race runs must not flake.
const endpointTimeout = 2 * time.Minute

// PublicKey returns the fake application's Ed25519 public key in hex, as the Developer Portal
// shows it: the bot's discord.public_key.
func (s *Server) PublicKey() string { return hex.EncodeToString(s.key.Public().(ed25519.PublicKey)) }

// Sign returns the hex X-Signature-Ed25519 the fake gives a request with this timestamp and
// body, for tests that forge requests (a stale timestamp, a body changed after signing).
func (s *Server) Sign(timestamp string, body []byte) string {
	return hex.EncodeToString(ed25519.Sign(s.key, append([]byte(timestamp), body...)))
}

// DeliverTo makes the fake deliver interactions to the endpoint url (for example
// "http://127.0.0.1:9090/interactions") as signed HTTP POSTs, instead of over the gateway; ""
// returns to gateway delivery. As on Discord, an interaction goes to one or the other, never both.
func (s *Server) DeliverTo(url string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endpoint = url
}

// DeliveryError says why the interaction's delivery to the endpoint failed (a network error, an
// HTTP status other than 200, an answer the fake could not read), or nil.
func (in *Interaction) DeliveryError() error {
	in.srv.mu.Lock()
	defer in.srv.mu.Unlock()
	return in.deliveryErr
}

// nonceWindow is Options.NonceWindow or its default.
func (s *Server) nonceWindow() time.Duration {
	if s.opts.NonceWindow > 0 {
		return s.opts.NonceWindow
	}
	return DefaultNonceWindow
}

// DefaultNonceWindow is how long a message nonce is enforced unless Options.NonceWindow says
// otherwise.
const DefaultNonceWindow = 5 * time.Minute

func (s *Server) now() time.Time {
	if s.opts.Now != nil {
		return s.opts.Now()
	}
	return time.Now()
}

// SignedRequest builds the POST Discord would send to url with body, signed at the time at.
func (s *Server) SignedRequest(url string, body []byte, at time.Time) (*http.Request, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	ts := strconv.FormatInt(at.Unix(), 10)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	req.Header.Set("X-Signature-Timestamp", ts)
	req.Header.Set("X-Signature-Ed25519", s.Sign(ts, body))
	return req, nil
}

// deliverHTTP posts in to url and applies the answer as its initial response. It closes
// in.delivering when done.
func (s *Server) deliverHTTP(in *Interaction, url string) {
	call := &Call{Method: "POST", Path: "/interactions/" + in.ID + "/" + in.Token + "/callback", Endpoint: true}
	req := &request{method: "POST", path: call.Path}
	req.segs = strings.Split(strings.Trim(call.Path, "/"), "/")
	rep, err := s.postInteraction(url, in.Payload, req)
	s.mu.Lock()
	if err == nil && !s.closed {
		rep = s.callbackLocked(in.ID, in.Token, req)
	}
	call.Body, call.Files, call.At = req.body, req.files, time.Now()
	if req.body != nil {
		var v any
		if json.Unmarshal(req.body, &v) == nil {
			call.JSON = v
		}
	}
	if err == nil && rep.err != nil {
		err = fmt.Errorf("the endpoint's answer was refused: %d %s", rep.err.Code, rep.err.Message)
	}
	in.deliveryErr = err
	ch := in.delivering
	in.delivering = nil
	if !s.closed {
		s.recordLocked(call, rep)
	}
	s.mu.Unlock()
	close(ch)
	s.logf("endpoint %s", call)
}

// postInteraction sends one signed interaction and reads the answer into req (body, files). A
// status other than 200 is an error, with rep holding the status.
func (s *Server) postInteraction(url string, payload []byte, req *request) (reply, error) {
	hr, err := s.SignedRequest(url, payload, s.now())
	if err != nil {
		return reply{status: 0, err: &apiError{0, 0, err.Error()}}, err
	}
	resp, err := s.endpointClient.Do(hr)
	if err != nil {
		return reply{status: 0, err: &apiError{0, 0, err.Error()}}, fmt.Errorf("delivering to the endpoint: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err == nil && len(body) > maxBody {
		err = errors.New("answer too large")
	}
	if err != nil {
		return reply{status: resp.StatusCode, err: &apiError{resp.StatusCode, 0, err.Error()}}, fmt.Errorf("reading the endpoint's answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		msg := strings.TrimSpace(string(body))
		return reply{status: resp.StatusCode, err: &apiError{resp.StatusCode, 0, msg}}, fmt.Errorf("the endpoint answered %s: %s", resp.Status, msg)
	}
	if err := parsePayload(body, resp.Header.Get("Content-Type"), req); err != nil {
		var ae *apiError
		if !errors.As(err, &ae) {
			ae = errInvalidForm(err.Error())
		}
		return fail(ae), fmt.Errorf("the endpoint's answer: %w", err)
	}
	return reply{}, nil
}

// awaitEndpointAnswer waits while the fake reads the endpoint's answer to the interaction with
// this token (see the package notes on HTTP interactions).
func (s *Server) awaitEndpointAnswer(token string) {
	s.mu.Lock()
	var ch chan struct{}
	if in := s.st.byToken[token]; in != nil {
		ch = in.delivering
	}
	s.mu.Unlock()
	if ch == nil {
		return
	}
	t := time.NewTimer(endpointTimeout)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	}
}

// PingEndpoint checks url as Discord does when the Interactions Endpoint URL is saved in the
// Developer Portal: a signed PING (type 1) must be answered {"type":1}, and a request with a bad
// signature must be refused with 401.
func (s *Server) PingEndpoint(url string) error {
	body := mustJSON(map[string]any{"id": s.newIDLocking(), "application_id": s.bot.ID, "type": int(discordgo.InteractionPing),
		"token": randomToken(24), "version": 1})
	hr, err := s.SignedRequest(url, body, s.now())
	if err != nil {
		return err
	}
	resp, err := s.endpointClient.Do(hr)
	if err != nil {
		return fmt.Errorf("discordsim: PING: %w", err)
	}
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	var pong struct {
		Type discordgo.InteractionResponseType `json:"type"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(answer, &pong) != nil || pong.Type != discordgo.InteractionResponsePong {
		return fmt.Errorf("discordsim: PING answered %s %q, not {\"type\":1}", resp.Status, answer)
	}
	hr, _ = s.SignedRequest(url, body, s.now())
	hr.Header.Set("X-Signature-Ed25519", strings.Repeat("00", ed25519.SignatureSize))
	resp, err = s.endpointClient.Do(hr)
	if err != nil {
		return fmt.Errorf("discordsim: PING with a bad signature: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		return fmt.Errorf("discordsim: a PING with a bad signature was answered %s, not 401", resp.Status)
	}
	return nil
}

func (s *Server) newIDLocking() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newID()
}
