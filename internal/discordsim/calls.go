package discordsim

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// File is one uploaded file of a multipart request (field "files[n]").
type File struct {
	Field       string // form field, e.g. "files[0]"
	Name        string // file name
	ContentType string
	Data        []byte
}

// Call is one REST request the bot made, as the fake received and answered it. Calls are
// recorded in the order the fake processed them; treat them as read-only.
type Call struct {
	Seq    int        // 1-based position in Server.Calls
	Method string     // "POST"
	Path   string     // path under /api/v9, e.g. "/channels/123/messages"
	Query  url.Values // query string, e.g. wait=true
	// Body is the JSON body, or the payload_json part of a multipart body; nil if none.
	Body []byte
	// JSON is Body decoded into generic values (map[string]any, []any, float64, ...); nil if none.
	JSON  any
	Files []File
	// Status is the HTTP status the fake answered; Code and Error are Discord's error code and
	// message when Status >= 400.
	Status int
	Code   int
	Error  string
	// Fault is true when the answer was an injected fault (FailNext and friends). With
	// Fault.Apply the call was handled all the same; Status is 0 when the connection was
	// closed without an answer (Fault.Drop).
	Fault bool
	// Repeat is true for a message create whose nonce (with enforce_nonce) an earlier create
	// used within the window: answered with that message, creating nothing.
	Repeat bool
	// Endpoint is true for an initial response the bot gave as the HTTP answer to an interaction
	// delivered to its endpoint (see DeliverTo), recorded as the callback it stands for: Method
	// POST, Path /interactions/{id}/{token}/callback. Status is what the fake made of it (204
	// accepted), or the endpoint's own HTTP status when that was not 200.
	Endpoint bool
	At       time.Time
}

// Is reports whether the call matches pattern: "METHOD /path" or just "/path" (any method).
// In the path, "*" matches exactly one segment and a final "**" matches any rest, e.g.
// "POST /interactions/*/*/callback" or "/webhooks/**".
func (c *Call) Is(pattern string) bool { return matchPattern(pattern, c.Method, c.Path) }

// Decode unmarshals the call's JSON body into v.
func (c *Call) Decode(v any) error {
	if c.Body == nil {
		return fmt.Errorf("discordsim: %s %s has no JSON body", c.Method, c.Path)
	}
	return json.Unmarshal(c.Body, v)
}

// String is a one-line summary, "#3 POST /channels/1/messages -> 200".
func (c *Call) String() string {
	s := fmt.Sprintf("#%d %s %s -> %d", c.Seq, c.Method, c.Path, c.Status)
	if c.Endpoint {
		s = fmt.Sprintf("#%d endpoint answer for %s -> %d", c.Seq, c.Path, c.Status)
	}
	if c.Code != 0 || c.Error != "" {
		s += fmt.Sprintf(" (%d %s)", c.Code, c.Error)
	}
	return s
}

// CallTo returns a predicate for WaitCall matching pattern (see Call.Is).
func CallTo(pattern string) func(*Call) bool {
	return func(c *Call) bool { return c.Is(pattern) }
}

func matchPattern(pattern, method, path string) bool {
	pattern = strings.TrimSpace(pattern)
	if i := strings.IndexByte(pattern, ' '); i >= 0 {
		if !strings.EqualFold(pattern[:i], method) {
			return false
		}
		pattern = strings.TrimSpace(pattern[i+1:])
	}
	ps := strings.Split(strings.Trim(pattern, "/"), "/")
	xs := strings.Split(strings.Trim(path, "/"), "/")
	for i, p := range ps {
		if p == "**" && i == len(ps)-1 {
			return true
		}
		if i >= len(xs) || (p != "*" && p != xs[i]) {
			return false
		}
	}
	return len(ps) == len(xs)
}

// Calls returns every REST call so far, in order (the last ones only with Options.KeepCalls).
func (s *Server) Calls() []*Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	calls := s.calls
	if k := s.opts.KeepCalls; k > 0 && len(calls) > k {
		calls = calls[len(calls)-k:]
	}
	return append([]*Call(nil), calls...)
}

// CallsTo returns the calls matching pattern (see Call.Is), in order.
func (s *Server) CallsTo(pattern string) []*Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Call
	for _, c := range s.calls {
		if c.Is(pattern) {
			out = append(out, c)
		}
	}
	return out
}

// CallCount returns how many calls were recorded (the Seq of the last one); use it as a mark
// before an action and keep only calls with a greater Seq.
func (s *Server) CallCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.callCount
}

// WaitCall waits until a recorded call satisfies pred (the earliest one is returned).
func (s *Server) WaitCall(timeout time.Duration, pred func(*Call) bool) (*Call, error) {
	return waitValue(s, timeout, func() (*Call, bool) {
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, c := range s.calls {
			if pred(c) {
				return c, true
			}
		}
		return nil, false
	}, s.describeCalls)
}

func (s *Server) describeCalls() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	const last = 8
	var b strings.Builder
	b.WriteString("no call matched")
	if len(s.calls) == 0 {
		b.WriteString("; no REST calls were made")
		return b.String()
	}
	b.WriteString("; last calls:")
	start := max(0, len(s.calls)-last)
	for _, c := range s.calls[start:] {
		b.WriteString(" [" + c.String() + "]")
	}
	return b.String()
}

// Fault is an error answer injected by FailNext.
type Fault struct {
	Status  int    // HTTP status, e.g. 429, 500, 403
	Code    int    // Discord error code in the body (0 for none)
	Message string // error message in the body
	// RetryAfter is sent for 429 as retry_after (seconds, in the body, which discordgo reads) and
	// the Retry-After header.
	RetryAfter time.Duration
	// Global marks a 429 as global (X-RateLimit-Global), which makes discordgo hold every bucket.
	Global bool
	// Apply handles the call as usual before the fault strikes: Discord did the work (a message
	// is created, an edit made) though the client may never learn it. With Status 0 the usual
	// answer is sent (late with Hold, or never with Drop); with a Status, that error instead.
	Apply bool
	// Hold delays the answer that long, or until the client gives up and hangs up, whichever
	// comes first: with a client timeout shorter than Hold, the answer is lost.
	Hold time.Duration
	// Drop closes the connection instead of answering: the client sees a transport error.
	Drop bool
}

type fault struct {
	pattern string
	left    int
	f       Fault
}

// FailNext answers the next n calls matching pattern (see Call.Is) with f instead of handling
// them. Faults are consumed in the order they were added.
func (s *Server) FailNext(pattern string, n int, f Fault) {
	if n <= 0 {
		return
	}
	if f.Status == 0 && !f.Apply && !f.Drop {
		f.Status = 500 // a fault must answer something, or nothing at all
	}
	if f.Message == "" && f.Status != 0 {
		f.Message = fmt.Sprintf("%d: injected fault", f.Status)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &fault{pattern: pattern, left: n, f: f})
}

// RateLimitNext answers the next n calls matching pattern with 429 Too Many Requests and
// retry_after. discordgo sleeps retry_after and retries (forever, so n must be finite).
func (s *Server) RateLimitNext(pattern string, n int, retryAfter time.Duration) {
	s.FailNext(pattern, n, Fault{Status: 429, Message: "You are being rate limited.", RetryAfter: retryAfter})
}

// LoseAnswerNext applies the next n calls matching pattern as usual, then closes their
// connection without an answer: Discord did it, the client sees a transport error (and a
// retry may make it twice).
func (s *Server) LoseAnswerNext(pattern string, n int) {
	s.FailNext(pattern, n, Fault{Apply: true, Drop: true})
}

// LateAnswerNext applies the next n calls matching pattern at once but holds their answer for
// hold, or until the client gives up: with a client timeout shorter than hold, the client
// never learns that the call succeeded.
func (s *Server) LateAnswerNext(pattern string, n int, hold time.Duration) {
	s.FailNext(pattern, n, Fault{Apply: true, Hold: hold})
}

// ServerErrorNext answers the next n calls matching pattern with 500 Internal Server Error;
// discordgo returns it as a *discordgo.RESTError without retrying.
func (s *Server) ServerErrorNext(pattern string, n int) {
	s.FailNext(pattern, n, Fault{Status: 500, Message: "500: Internal Server Error"})
}

// FailCall strikes the REST call whose Seq is seq (CallCount()+k is the k-th call from now)
// with f, whatever it is: a test walks a flow's calls one by one without knowing their
// routes (e.g. kill the bot while the k-th call is held before or after Discord applied it).
// It takes precedence over FailNext's faults; f's zero Status means as in FailNext.
func (s *Server) FailCall(seq int, f Fault) {
	if f.Status == 0 && !f.Apply && !f.Drop {
		f.Status = 500
	}
	if f.Message == "" && f.Status != 0 {
		f.Message = fmt.Sprintf("%d: injected fault", f.Status)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seqFaults == nil {
		s.seqFaults = map[int]Fault{}
	}
	s.seqFaults[seq] = f
}

// takeFaultLocked returns and consumes the fault for the call about to be recorded (FailCall's,
// else the first FailNext fault matching it), or nil.
func (s *Server) takeFaultLocked(method, path string) *Fault {
	if f, ok := s.seqFaults[s.callCount+1]; ok {
		delete(s.seqFaults, s.callCount+1)
		return &f
	}
	for i, f := range s.faults {
		if matchPattern(f.pattern, method, path) {
			f.left--
			if f.left == 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
			ff := f.f
			return &ff
		}
	}
	return nil
}
