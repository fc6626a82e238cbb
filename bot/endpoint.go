package bot

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

// The HTTP interactions endpoint: with discord.public_key set, Discord
// POSTs every interaction to /interactions on the operations listener
// instead of sending it over the gateway. A request is verified (Ed25519
// over the timestamp and the body, the timestamp within signatureWindow of
// the bot's clock), then goes through the same middleware chain as a
// gateway interaction; its initial response (an answer, a deferral, a form,
// autocomplete choices) is written as the HTTP response body instead of
// being POSTed to the REST callback. Follow-ups and edits use the webhook
// endpoints, as with the gateway. Nothing is kept between requests: any
// replica can take any request (deduplication lives in the store).

const (
	// maxInteractionBody bounds a request body; Discord's interactions are
	// a few kilobytes, resolved users and messages included.
	maxInteractionBody = 1 << 20
	// signatureWindow is how far a request's X-Signature-Timestamp may be
	// from the bot's clock, either way: an older request may be a replay.
	signatureWindow = 5 * time.Second
)

// errRequestGone: the HTTP request ended (the client went away) before the
// interaction's initial response was ready.
var errRequestGone = errors.New("the interactions endpoint's request ended before the answer")

// httpAnswer is an initial response handed to the waiting HTTP request;
// written gets the result of writing it.
type httpAnswer struct {
	resp    *discordgo.InteractionResponse
	written chan<- error
}

// serveInteractions is POST /interactions.
func (b *Bot) serveInteractions(w http.ResponseWriter, r *http.Request) {
	if !b.enter() {
		b.ops.refused.WithLabelValues("draining").Inc()
		w.Header().Set("Retry-After", "5")
		http.Error(w, "shutting down", http.StatusServiceUnavailable)
		return
	}
	handed := false // the interaction's goroutine counts it out
	defer func() {
		if !handed {
			b.inflight.Done()
		}
	}()
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxInteractionBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			b.ops.refused.WithLabelValues("too_large").Inc()
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "cannot read the request body", http.StatusBadRequest)
		return
	}
	if reason := verifyRequest(b.publicKey, r.Header, body, b.opts.Now()); reason != "" {
		b.ops.refused.WithLabelValues(reason).Inc()
		b.log.Warn("refusing an interactions request", "reason", reason, "remote", r.RemoteAddr)
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(body, &i); err != nil {
		b.log.Warn("refusing an interactions request", "reason", "bad JSON", "err", err)
		http.Error(w, "bad interaction", http.StatusBadRequest)
		return
	}
	if i.Type == discordgo.InteractionPing {
		_ = writeAnswer(w, &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
		return
	}
	answers := make(chan httpAnswer)
	gone := make(chan struct{}) // closed when this request is over
	defer close(gone)
	finished := make(chan struct{})
	initial := func(resp *discordgo.InteractionResponse) error {
		written := make(chan error, 1)
		select {
		case answers <- httpAnswer{resp, written}:
			return <-written
		case <-gone:
			return errRequestGone
		}
	}
	handed = true
	go func() {
		defer b.inflight.Done()
		defer close(finished)
		b.handle(&i, initial)
	}()
	select {
	case a := <-answers:
		a.written <- writeAnswer(w, a.resp)
	case <-finished:
		// The chain refused it without answering (see decode).
		http.Error(w, "unsupported interaction", http.StatusBadRequest)
	case <-r.Context().Done():
	}
}

// writeAnswer writes an initial response as Discord takes it from an
// endpoint: JSON, or multipart/form-data (payload_json and files[n]) when
// it carries files, as the REST callback takes it.
func writeAnswer(w http.ResponseWriter, resp *discordgo.InteractionResponse) error {
	var (
		ctype = "application/json"
		body  []byte
		err   error
	)
	if resp.Data != nil && len(resp.Data.Files) > 0 {
		ctype, body, err = discordgo.MultipartBodyWithJSON(resp, resp.Data.Files)
	} else {
		body, err = json.Marshal(resp)
	}
	if err != nil {
		http.Error(w, "encoding the answer failed", http.StatusInternalServerError)
		return err
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(body)
	return err
}

// verifyRequest checks a request's Ed25519 signature over its
// X-Signature-Timestamp and body, and that the timestamp is within
// signatureWindow of now. It returns "" for a good request, else the
// reason to refuse it (a metric label).
func verifyRequest(key ed25519.PublicKey, h http.Header, body []byte, now time.Time) string {
	sigHex, ts := h.Get("X-Signature-Ed25519"), h.Get("X-Signature-Timestamp")
	if sigHex == "" || ts == "" {
		return "missing_signature"
	}
	sig, err := hex.DecodeString(sigHex)
	if err != nil || len(sig) != ed25519.SignatureSize || len(key) != ed25519.PublicKeySize {
		return "bad_signature"
	}
	msg := make([]byte, 0, len(ts)+len(body))
	msg = append(append(msg, ts...), body...)
	if !ed25519.Verify(key, msg, sig) {
		return "bad_signature"
	}
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return "bad_timestamp"
	}
	if d := now.Sub(time.Unix(secs, 0)); d > signatureWindow || d < -signatureWindow {
		return "stale_timestamp"
	}
	return ""
}

// identifyREST learns over REST what the gateway's READY tells a bot: its
// own user (to recognise its messages) and, unless configured, the
// application ID.
func (b *Bot) identifyREST() error {
	u, err := b.sess.User("@me")
	if err != nil {
		return fmt.Errorf("reading the bot's user from Discord: %w", err)
	}
	b.sess.State.Lock()
	b.sess.State.User = u
	b.sess.State.Unlock()
	if b.appID == "" {
		app, err := b.sess.Application("@me")
		if err != nil {
			return fmt.Errorf("reading the application from Discord: %w", err)
		}
		b.appID = app.ID
	}
	b.log.Info("running without the gateway: interactions come to the HTTP endpoint", "user", u.Username)
	return nil
}

// Logger is the bot's logger: every line carries the process and the shard.
func (b *Bot) Logger() *slog.Logger { return b.log }
