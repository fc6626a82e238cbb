package discordsim

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// wait is the timeout of every wait in these tests; waits return as soon as the condition holds,
// so it is generous enough for -race on a loaded machine.
const wait = 90 * time.Second

// shared is one fake server and one real discordgo session for most tests: discordgo's Close
// sleeps a second, so sessions are not made per test. Tests isolate themselves with their own
// guild and users, and handlers are routed by the interacting user.
var shared struct {
	srv  *Server
	sess *discordgo.Session

	mu       sync.Mutex
	handlers map[string]func(*discordgo.Session, *discordgo.InteractionCreate)
	messages []*discordgo.MessageCreate
}

func TestMain(m *testing.M) {
	srv, err := New(Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	shared.srv = srv
	shared.handlers = map[string]func(*discordgo.Session, *discordgo.InteractionCreate){}
	sess := srv.NewSession()
	sess.Identify.Intents = discordgo.IntentsGuilds | discordgo.IntentsGuildMessages | discordgo.IntentsDirectMessages
	sess.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		uid := ""
		if i.Member != nil && i.Member.User != nil {
			uid = i.Member.User.ID
		} else if i.User != nil {
			uid = i.User.ID
		}
		shared.mu.Lock()
		h := shared.handlers[uid]
		shared.mu.Unlock()
		if h != nil {
			h(s, i)
		}
	})
	sess.AddHandler(func(s *discordgo.Session, m *discordgo.MessageCreate) {
		shared.mu.Lock()
		shared.messages = append(shared.messages, m)
		shared.mu.Unlock()
	})
	if err := sess.Open(); err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		os.Exit(1)
	}
	shared.sess = sess
	code := m.Run()
	sess.ShouldReconnectOnError = false
	sess.Close()
	srv.Close()
	os.Exit(code)
}

// env is one test's corner of the shared server: a guild with a "play" channel, two users,
// and guild commands registered through the real session.
type env struct {
	t            *testing.T
	srv          *Server
	sess         *discordgo.Session
	guild        *Guild
	ch           *Channel
	alice, bob   *User
	errs         chan error
	interactions chan *discordgo.InteractionCreate
}

var envCount atomic.Int64

func newEnv(t *testing.T, cmds ...*discordgo.ApplicationCommand) *env {
	t.Helper()
	// Unique per run, so that -count=N starts each run afresh.
	name := fmt.Sprintf("%s-%d", strings.NewReplacer("/", "-", " ", "-").Replace(t.Name()), envCount.Add(1))
	srv := shared.srv
	g := srv.AddGuild(name, "play")
	e := &env{t: t, srv: srv, sess: shared.sess, guild: g, ch: srv.Channels(g.ID)[0],
		alice: srv.User(name + "-alice"), bob: srv.User(name + "-bob"),
		errs: make(chan error, 16), interactions: make(chan *discordgo.InteractionCreate, 16)}
	if len(cmds) > 0 {
		if _, err := e.sess.ApplicationCommandBulkOverwrite(srv.AppID(), g.ID, cmds); err != nil {
			t.Fatalf("register commands: %v", err)
		}
	}
	t.Cleanup(func() {
		shared.mu.Lock()
		delete(shared.handlers, e.alice.ID)
		delete(shared.handlers, e.bob.ID)
		shared.mu.Unlock()
	})
	return e
}

// handle installs the bot's interaction handler for this test's users. Every interaction is
// also sent to e.interactions; a handler reports failures with e.fail.
func (e *env) handle(fn func(s *discordgo.Session, i *discordgo.InteractionCreate)) {
	h := func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		if i.Type == 0 {
			e.fail(errors.New("interaction decoded as type 0: the payload does not fit discordgo"))
			return
		}
		select {
		case e.interactions <- i:
		default:
		}
		fn(s, i)
	}
	shared.mu.Lock()
	shared.handlers[e.alice.ID] = h
	shared.handlers[e.bob.ID] = h
	shared.mu.Unlock()
}

// fail reports the result of a call made by the handler (nil for success).
func (e *env) fail(err error) {
	select {
	case e.errs <- err:
	default:
	}
}

// noErrors fails the test if a handler reported an error (results already reported only).
func (e *env) noErrors() {
	e.t.Helper()
	for {
		select {
		case err := <-e.errs:
			if err != nil {
				e.t.Fatalf("handler: %v", err)
			}
		default:
			return
		}
	}
}

// nextErr waits for the handler's next reported result (nil for a successful call).
func (e *env) nextErr() error {
	e.t.Helper()
	select {
	case err := <-e.errs:
		return err
	case <-time.After(wait):
		e.t.Fatal("handler reported nothing")
		return nil
	}
}

func (e *env) nextInteraction() *discordgo.InteractionCreate {
	e.t.Helper()
	select {
	case i := <-e.interactions:
		return i
	case <-time.After(wait):
		e.t.Fatal("no interaction reached the bot")
		return nil
	}
}

// respond answers with a message and reports an error.
func respond(e *env, s *discordgo.Session, i *discordgo.InteractionCreate, r *discordgo.InteractionResponse) {
	e.fail(s.InteractionRespond(i.Interaction, r))
}

func must[T any](t *testing.T) func(v T, err error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func restCode(err error) (int, int) {
	var re *discordgo.RESTError
	if !errors.As(err, &re) {
		return 0, 0
	}
	code := 0
	if re.Message != nil {
		code = re.Message.Code
	}
	return re.Response.StatusCode, code
}

func strOpt(name, desc string, required bool) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: name, Description: desc, Required: required}
}

func simpleCmd(name string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{Name: name, Description: "test command " + name, Options: opts}
}
