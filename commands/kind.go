package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"strings"
	"time"

	"sandtable/commands/rating"
	"sandtable/commands/ui"
	"sandtable/render"
	"sandtable/storage"
)

// Game is the typed contract one game implements, in its own package
// (commands/survival, ...), over S, its state: a value the framework
// decodes before every action and encodes after it. Register plugs a Game
// into the App; the framework never imports a game.
//
// The framework runs every action the same way: lock the game → load it →
// decode the state (Decode, by the stored codec version) → refuse an
// interaction already applied → call the route's Action → apply the clock
// rule (Clock, before and after) and the end (Outcome) → encode → save the
// state, the interaction mark and the action's effects in one transaction →
// answer. Effects are delivered afterwards from the outbox (see Effect).
type Game[S any] interface {
	// Spec names the game and its commands and routes.
	Spec() Spec[S]
	// Version is the codec version Encode writes.
	Version() int
	// Encode writes the state as JSON at Version.
	Encode(s S) ([]byte, error)
	// Decode reads a state written at version (0: a state stored before
	// states carried a version), migrating older versions.
	Decode(version int, raw []byte) (S, error)
	// Clock says who must act now and which clock runs (see Clock).
	Clock(s S) Clock
	// Outcome is the game's result once it is over (ok false while on).
	Outcome(s S) (o storage.Outcome, over bool)
	// Timeout runs when the game's deadline has passed: it ends or
	// advances the game through t (t.Req is nil) and announces it with
	// effects.
	Timeout(t *Turn[S]) error
	// Summary is one line about the game for userID's /games, e.g.
	// "vs @bob, **your move**": it says when userID must act; the
	// framework adds whom else the game waits on (Clock's Actors) and a
	// link to its thread.
	Summary(g *storage.Game, s S, userID string) string
}

// Spec is what a game registers besides its contract: its name and title,
// its slash commands and the routes of its interactions.
type Spec[S any] struct {
	Name  string // the storage kind, e.g. "survival"
	Title string // shown to users, e.g. "Survival Chess: Tartan Grid"

	// Definitions are the game's own top-level commands (e.g. /survival),
	// handled by TopLevel by command name; they are not tied to a game.
	Definitions []*ui.Command
	TopLevel    map[string]Handler

	// Thread routes commands used in the game's threads by command name
	// ("move", "resign", "draw", "board", and the game's own);
	// Autocomplete the autocomplete of those commands; Components the
	// buttons and selects of scope "g" by action; Modals the forms by
	// action.
	Thread       map[string]Action[S]
	Autocomplete map[string]Action[S]
	Components   map[string]Action[S]
	Modals       map[string]Action[S]

	// WhoseTurn, when set, gates Autocomplete: its routes answer only a
	// user who may act with the command now (MayComplete), and anyone
	// else gets one choice, WhoseTurn's line about s (e.g. "White to
	// move: alice"), whose value WaitingValue plays nothing when
	// submitted; "" answers no choice.
	WhoseTurn func(s S) string
	// MayComplete reports whether t's user may act now with t.Req.Command
	// and so gets its autocomplete choices. Nil: the users who must act
	// now (Clock's Actors) while the game is on.
	MayComplete func(t *Turn[S]) bool

	// Start makes the game of an accepted two-player challenge (see
	// OpenChallenge) through t: t.Save its state, t.Post its first board
	// in its thread. It returns the thread's name. t.Game.ThreadID is the
	// thread's ID when the thread will start from the challenge's message
	// (which gives it the message's ID), else "". Nil: the game has no
	// challenges.
	Start func(t *Turn[S], ch *Challenge) (threadName string, err error)

	// Invitations routes the buttons and selects of scope "c" on the
	// game's own invitations (a lobby the game stores in
	// storage.Tx.Lobbies, its document carrying "kind": Name) by action,
	// under the invitation's lock. Challenges made with OpenChallenge
	// need none: the framework answers their buttons.
	Invitations map[string]Handler

	// LobbyExpired is the message an expired lobby of the game (doc, its
	// stored JSON) is edited into when the timer sweep closes it: no
	// buttons, saying it expired. Nil: the message is left as it is.
	LobbyExpired func(a *App, doc []byte) (Message, error)

	// Delivered records in the game what an effect yielded: the ID of the
	// message or thread made by an effect whose Result was set (e.g. a
	// direct message to edit later), or DMClosed for a direct message
	// the user's closed DMs refused. It runs under the game's lock and may
	// t.Save; t.Req is nil. Nil: no effect of the game asks for a result.
	Delivered func(t *Turn[S], result, id string) error

	// Private reports whether the answer to req is private (see
	// kindTable.Private, which it becomes).
	Private func(req *Request) bool

	// Computer, when set, lets the bot's computer player take seats of
	// the game (computer.go): a challenge naming the bot starts at once
	// against it. Nil: the computer does not play this game.
	Computer *Computer[S]

	// OtherThreads, when set, lists the game's threads besides its public
	// one (a team's private thread): at the end each is archived and
	// locked with the public thread, after a summary pointing to it (see
	// closeThread). Nil: the game has only its public thread.
	OtherThreads func(s S) []string

	// Replay builds the replay of the finished game t.State (t.Req is nil;
	// t.View reads what the game stores apart): its frames, from the first
	// position to the last, everything shown (the game is over). Nil, or
	// fewer than two frames: the game has nothing to replay (an aborted
	// game, a SandTable game ended in Deployment). With Replay set, the
	// framework posts the replay in the game's thread after its end, and
	// routes the 🎞 Replay button (ReplayButton) of the game's messages.
	// Nil: the game has no replays.
	Replay func(t *Turn[S]) (*Replay, error)

	// Analysis, when set, analyses the game's finished games (analysis.go):
	// the framework routes the 📈 Analysis button (AnalysisButton) of its
	// final board, computes each game's analysis once and caches it. Nil:
	// the game has no analyses.
	Analysis *Analysis[S]

	// Versus says whom userID played in the finished game s, for the game
	// archive: "vs @bob as White". Nil or "": the other players.
	Versus func(s S, userID string) string
	// RecordName names the record the game's final board carries ("PGN",
	// "game log"), for the archive's link to it ("" : "record").
	RecordName string

	// NoWinner names, in the rating record that /stats and /leaderboard
	// show ("6 W · 3 L · 1 D"), a rated game that ended without a winner,
	// which rating.Rate counts as a draw: "" for a draw ("D"); Team Chess,
	// which has no draws, says "mutual loss" (see rating.RecordAs).
	NoWinner string

	// RatingSides, when set, lists the sides of the finished game s for
	// its ratings (see rating.Rate): Team Chess's teams with each
	// commander's moves. Nil: each of the game's players (storage.Game's
	// Players) is a side of its own.
	RatingSides func(s S) []RatingSide

	// Leaderboard, when set, answers /leaderboard for this game instead
	// of the framework's list by rating (Team Chess keeps rule 6.1's
	// order, with the rating beside it).
	Leaderboard Handler

	// Abort, when set, ends the game t.State (on) aborted, without a
	// result, through the game's one abort path (the one its timeouts
	// take), saying why (a clause) on its final board: unrated, nobody's
	// record changes. A server manager's /admin game abort calls it (t.Req
	// is the manager's request). Nil: the game cannot be aborted so.
	Abort func(t *Turn[S], why string) error

	// Results lists the results a server manager may declare for the game
	// s (on) with /admin game adjudicate, the game's own (a side wins, a
	// draw, Team Chess's mutual loss): Value is what Adjudicate is given,
	// Name what the manager reads. Adjudicate ends the game t.State with
	// the result (one of Results' values) by adjudication
	// (storage.Adjudicated), saying why (a clause) on its final board; the
	// framework rates it as any end (rated unless the game is unrated).
	// Nil: the game cannot be adjudicated.
	Results    func(s S) []ui.Choice
	Adjudicate func(t *Turn[S], result, why string) error
}

// Action handles one interaction aimed at a game: t carries the request,
// the stored game and its decoded state. It changes the game with t.Save,
// asks for effects with t.Post and its siblings, and returns the answer.
// An error changes nothing and performs no effect.
type Action[S any] func(t *Turn[S]) (*Response, error)

// ClockRule is which clock runs while a game waits for its players.
type ClockRule string

// The clock rules.
const (
	NoClock    ClockRule = "none"       // nothing runs out
	PerMove    ClockRule = "per_move"   // each move has its time
	PerTurn    ClockRule = "per_turn"   // each turn (several actions) has its time
	Deployment ClockRule = "deployment" // the secret deployment has its time, for every player at once
	// Fischer: the side to move's own clock runs (Period is its remaining
	// time, Key changes each move; see fischer.go); no reminders.
	Fischer ClockRule = "fischer"
)

// Clock is who must act in a game and the clock that runs meanwhile. The
// framework restarts the clock (deadline = now + Period) whenever Key
// changes across an action or a timeout, keeps the deadline while Key stays
// the same, and stops it when the rule is NoClock, Period is zero or the
// game is over. Key is what identifies one run of the clock: the ply for
// a per-move clock, the turn number for a per-turn clock, the phase for a
// deployment clock.
type Clock struct {
	Rule   ClockRule
	Actors []string // user IDs who must act now
	Key    string
	Period time.Duration
	// PingIn is the channel where the actors who chose to be pinged in
	// the thread are (a Team Chess team's thread); "" for the game's
	// thread (see pings.go).
	PingIn string
}

// Turn is one action on a game in progress: what the action reads and what
// it asks of the framework. Its methods only record; the framework saves
// and delivers after the action returns without error.
type Turn[S any] struct {
	// Req is the interaction, nil for a timeout.
	Req *Request
	// Game is the stored record (ID, thread, players, deadline), read under
	// the game's lock; actions must not change it.
	Game *storage.Game
	// State is the decoded state, S as the game decoded it.
	State S
	// Now is the time of the action.
	Now time.Time

	app  *App
	prev *Clock // the clock before the action (nil for a new game)
	kind interface {
		clock(S) Clock
		over(S) bool
		outcome(S) (storage.Outcome, bool)
	}
	saved   bool
	next    S
	effects []Effect
	extra   []func(storage.Tx) error
	runs    *runs
	// confirmed marks the run of an action its user confirmed (see Ask).
	confirmed bool
	// apart are effects on outbox streams of their own (OpenLobby).
	apart []apart
	// tx is the transaction the Turn runs in, when it runs in one
	// (Spec.Delivered): reads go through it, not a new View.
	tx storage.Tx
	// ratings are the ratings RatingOf read, by user ID: the players'
	// are read together once per Turn.
	ratings map[string]string
}

// Save makes s the game's new state. Without Save, the action changes
// nothing (its effects are still delivered).
func (t *Turn[S]) Save(s S) { t.saved, t.next = true, s }

// Deadline is when the game's clock will run out once the action is saved
// (the clock rule applied to the state given to Save; the stored deadline
// when nothing is saved), the zero time when no clock runs: what the
// action's messages show.
func (t *Turn[S]) Deadline() time.Time {
	if !t.saved || t.kind == nil {
		return t.Game.Deadline
	}
	if t.kind.over(t.next) {
		return time.Time{}
	}
	return nextDeadline(t.prev, t.kind.clock(t.next), t.Game.Deadline, t.Now)
}

// Saved reports whether the action saved a new state, and which.
func (t *Turn[S]) Saved() (S, bool) { return t.next, t.saved }

// Post asks for m to be posted in the game's thread.
func (t *Turn[S]) Post(m Message) { t.Effect(Effect{Op: OpPost, Channel: ChannelOfGame, Body: &m}) }

// PostIn asks for m to be posted in channelID.
func (t *Turn[S]) PostIn(channelID string, m Message) {
	t.Effect(Effect{Op: OpPost, Channel: channelID, Body: &m})
}

// Edit asks for the message messageID of channelID to become m.
func (t *Turn[S]) Edit(channelID, messageID string, m Message) {
	t.Effect(Effect{Op: OpEdit, Channel: channelID, Message: messageID, Body: &m})
}

// AddMember asks for userID to be added to the thread threadID. Members
// added one after another to one thread are one effect (OpAddMembers):
// each effect costs several keys in the transaction that saves it, and a
// Team Chess start adds a whole table.
func (t *Turn[S]) AddMember(threadID, userID string) {
	if n := len(t.effects); n > 0 {
		if last := &t.effects[n-1]; last.Op == OpAddMembers && last.Channel == threadID {
			last.Users = append(last.Users, userID)
			return
		}
	}
	t.Effect(Effect{Op: OpAddMembers, Channel: threadID, Users: []string{userID}})
}

// RemoveMember asks for userID to be removed from the thread threadID.
func (t *Turn[S]) RemoveMember(threadID, userID string) {
	t.Effect(Effect{Op: OpRemoveMember, Channel: threadID, User: userID})
}

// Effect asks for any effect. Effects are delivered in the order asked,
// after the action's transaction commits.
func (t *Turn[S]) Effect(e Effect) { t.effects = append(t.effects, e) }

// Also runs fn in the action's transaction (archived logs, players'
// records): saved with the state, or not at all.
func (t *Turn[S]) Also(fn func(tx storage.Tx) error) { t.extra = append(t.extra, fn) }

// View reads the store (outside the action's transaction).
func (t *Turn[S]) View(fn func(tx storage.Tx) error) error { return t.app.view(fn) }

// SendPrivately sends m privately to the user who made t.Req, at once, as
// the answer to the interaction depends on it (App.SendPrivatelyID): by
// direct message, answered with dmNote, or ephemerally when their DMs are
// closed. It returns the answer and the direct message's ID ("" when m was
// shown ephemerally). Anything else the action shows goes through effects.
//
// An action may run again when another process changed its game meanwhile
// (see kindOf.run): a second run's SendPrivately edits the direct message
// the first run sent into m, instead of sending another.
func (t *Turn[S]) SendPrivately(m Message, dmNote string) (*Response, string, error) {
	if t.runs != nil && t.runs.sentDM != "" {
		if err := t.app.Platform.EditDM(t.Req.Context(), t.Req.User.ID, t.runs.sentDM, m); err != nil {
			return nil, "", fmt.Errorf("direct message to %s (again): %w", t.Req.User.ID, err)
		}
		return &Response{Ephemeral: true, Message: Message{Content: dmNote}}, t.runs.sentDM, nil
	}
	resp, id, err := t.app.SendPrivatelyID(t.Req, m, dmNote)
	if t.runs != nil && id != "" {
		t.runs.sentDM = id
	}
	return resp, id, err
}

// runs is what the runs of one action share (see kindOf.run).
type runs struct {
	sentDM string // the direct message SendPrivately sent
}

// Settings are the deployment's settings.
func (t *Turn[S]) Settings() Settings { return t.app.Settings }

// Renderer draws board images.
func (t *Turn[S]) Renderer() *render.Renderer { return t.app.Render }

// kindOf erases a Game's state type for the router.
type kindOf[S any] struct {
	g    Game[S]
	spec Spec[S]
}

// Register plugs the game g into the App. Call it before the bot starts;
// registering a name twice, or a route table with a collision or an
// unknown route (checkRoutes), panics.
func Register[S any](a *App, g Game[S]) {
	k := &kindOf[S]{g: g, spec: g.Spec()}
	s := k.spec
	checkRoutes(a, s)
	wrap := func(m map[string]Action[S]) map[string]gameHandler {
		out := make(map[string]gameHandler, len(m))
		for name, act := range m {
			out[name] = func(a *App, req *Request, rec *storage.Game) (*Response, error) {
				return k.run(a, req, rec, act)
			}
		}
		return out
	}
	gated := make(map[string]Action[S], len(s.Autocomplete))
	for name, act := range s.Autocomplete {
		gated[name] = gateAutocomplete(k, s, act)
	}
	legacy := &kindTable{
		Name: s.Name, Title: s.Title, Definitions: s.Definitions, TopLevel: s.TopLevel,
		Thread: wrap(s.Thread), Autocomplete: wrap(gated), Components: wrap(s.Components), Modals: wrap(s.Modals),
		Private: s.Private,
		Timeout: func(a *App, rec *storage.Game, now time.Time) error {
			_, err := k.run(a, &Request{Now: now}, rec, func(t *Turn[S]) (*Response, error) {
				t.Req = nil
				if g := t.Game; !g.Active || g.Deadline.IsZero() || g.Deadline.After(t.Now) {
					// Read again after a conflict: another process's timeout
					// or action came first. Nothing to do.
					return nil, nil
				}
				return nil, k.g.Timeout(t)
			})
			return err
		},
		Summary: func(a *App, rec *storage.Game, userID string) string {
			st, err := k.decode(rec)
			if err != nil {
				a.Log.Error("decoding a game for /games failed", "game", rec.ID, "err", err)
				return ""
			}
			return k.g.Summary(rec, st, userID)
		},
	}
	legacy.clockOf = func(a *App, rec *storage.Game) (Clock, error) {
		st, err := k.decode(rec)
		if err != nil {
			return Clock{}, err
		}
		return k.g.Clock(st), nil
	}
	legacy.gamesLine = func(a *App, rec *storage.Game, userID string) (string, Clock, bool) {
		st, err := k.decode(rec)
		if err != nil {
			a.Log.Error("decoding a game for /games failed", "game", rec.ID, "err", err)
			return "", Clock{}, false
		}
		return k.g.Summary(rec, st, userID), k.g.Clock(st), true
	}
	if s.Replay != nil {
		legacy.replay = func(a *App, rec *storage.Game) (*Replay, error) {
			st, err := k.decode(rec)
			if err != nil {
				return nil, err
			}
			if !k.over(st) {
				return nil, nil // nothing is drawn before the end
			}
			return s.Replay(&Turn[S]{Game: rec, State: st, Now: a.Now(), app: a, kind: k})
		}
		if _, own := legacy.Components[ReplayAction]; !own {
			legacy.Components[ReplayAction] = func(a *App, req *Request, rec *storage.Game) (*Response, error) {
				return a.replayAnswer(rec)
			}
		}
	}
	if s.Analysis != nil {
		an := analysisOf(k, s.Analysis)
		legacy.analysis = an
		if _, own := legacy.Components[AnalysisAction]; !own {
			// The router answers the button without the game's lock
			// (handleComponent); this entry declares the route.
			legacy.Components[AnalysisAction] = func(a *App, req *Request, rec *storage.Game) (*Response, error) {
				return a.analysisClick(req, rec, an)
			}
		}
	}
	legacy.record = s.RecordName
	legacy.noWinner = s.NoWinner
	if s.Versus != nil {
		legacy.versus = func(a *App, rec *storage.Game, userID string) string {
			st, err := k.decode(rec)
			if err != nil {
				a.Log.Error("decoding a game for the archive failed", "game", rec.ID, "err", err)
				return ""
			}
			return s.Versus(st, userID)
		}
	}
	confirmRoutes(k, legacy.Components, s.Components)
	legacy.typed = k
	if s.Computer != nil {
		legacy.computer = computerOf(k, s.Computer)
	}
	legacy.lobbyExpired = s.LobbyExpired
	legacy.leaderboard = s.Leaderboard
	legacy.others = func(a *App, rec *storage.Game) []string {
		st, err := k.decode(rec)
		if err != nil {
			a.Log.Error("decoding a game for its threads failed", "game", rec.ID, "err", err)
			return nil
		}
		return k.otherThreads(st)
	}
	if s.Adjudicate != nil && s.Results != nil {
		legacy.results = func(a *App, rec *storage.Game) []ui.Choice {
			st, err := k.decode(rec)
			if err != nil || k.over(st) {
				return nil
			}
			return s.Results(st)
		}
		legacy.adjudicate = func(a *App, req *Request, rec *storage.Game, result, why string, also func(storage.Tx) error) (*Response, error) {
			return k.run(a, req, rec, func(t *Turn[S]) (*Response, error) {
				if !t.Game.Active || k.over(t.State) {
					return nil, Errorf("This game is already over: its result stands. Nothing was done.")
				}
				var names []string
				ok := false
				for _, c := range s.Results(t.State) {
					names = append(names, c.Value)
					ok = ok || c.Value == result
				}
				if !ok {
					return nil, Errorf("%s is not a result of this game; its results are: %s. Nothing was done.", QuoteInput(result), strings.Join(names, ", "))
				}
				if err := s.Adjudicate(t, result, why); err != nil {
					return nil, err
				}
				if st, saved := t.Saved(); !saved || !k.over(st) {
					return nil, fmt.Errorf("game %s: its adjudication did not end it", rec.ID)
				}
				t.Also(also)
				return nil, nil
			})
		}
	}
	if s.Abort != nil {
		legacy.abort = func(a *App, req *Request, rec *storage.Game, why string, also func(storage.Tx) error) (*Response, error) {
			return k.run(a, req, rec, func(t *Turn[S]) (*Response, error) {
				if !t.Game.Active || k.over(t.State) {
					return nil, Errorf("This game is already over: there is nothing to abort.")
				}
				if err := s.Abort(t, why); err != nil {
					return nil, err
				}
				if _, saved := t.Saved(); !saved {
					return nil, fmt.Errorf("game %s: its abort saved no state", rec.ID)
				}
				t.Also(also)
				return nil, nil
			})
		}
	}
	if s.Delivered != nil {
		legacy.delivered = func(a *App, tx storage.Tx, rec *storage.Game, result, id string) error {
			st, err := k.decode(rec)
			if err != nil {
				return err
			}
			prev := k.g.Clock(st)
			t := &Turn[S]{Game: rec, State: st, Now: a.Now(), app: a, kind: k, prev: &prev, tx: tx}
			if err := s.Delivered(t, result, id); err != nil {
				return err
			}
			if t.saved {
				wasActive := rec.Active
				if err := k.finish(t, rec, t.prev); err != nil {
					return err
				}
				if wasActive && !rec.Active {
					changes, err := rating.Rate(tx, rec, k.ratingSides(rec, t.next), t.Now)
					if err != nil {
						return err
					}
					t.effects = withRatingLine(t.effects, nil, Message{}, false, rating.ChangesLine(changes, t.Now))
				}
				if err := tx.Games().Put(rec, t.Now); err != nil {
					return err
				}
			}
			for _, fn := range t.extra {
				if err := fn(tx); err != nil {
					return err
				}
			}
			return a.enqueue(tx, rec.ID, rec, t.effects)
		}
	}
	if s.Start != nil {
		legacy.Challenge = challengeHandlers(func(a *App, req *Request, ch *Challenge) (string, error) {
			return "", fmt.Errorf("kind %s: challenges start through the framework", s.Name)
		})
		legacy.start = func(a *App, req *Request, ch *Challenge, rec *storage.Game) (string, []Effect, error) {
			t := &Turn[S]{Req: req, Game: rec, Now: req.Now, app: a, kind: k}
			name, err := s.Start(t, ch)
			if err != nil {
				return "", nil, err
			}
			if !t.saved {
				return "", nil, fmt.Errorf("kind %s: Start saved no state", s.Name)
			}
			if err := k.finish(t, rec, nil); err != nil {
				return "", nil, err
			}
			return name, t.effects, nil
		}
	}
	if len(s.Invitations) > 0 {
		if legacy.Challenge == nil {
			legacy.Challenge = map[string]Handler{}
		}
		for action, h := range s.Invitations {
			legacy.Challenge[action] = h
		}
	}
	a.register(legacy)
}

func (k *kindOf[S]) clock(s S) Clock { return k.g.Clock(s) }

// ratingSides are the sides of the finished game rec, state s, for its
// ratings (Spec.RatingSides; by default one side per player).
func (k *kindOf[S]) ratingSides(rec *storage.Game, s S) []RatingSide {
	if k.spec.RatingSides != nil {
		return k.spec.RatingSides(s)
	}
	sides := make([]RatingSide, 0, len(rec.Players))
	for _, p := range rec.Players {
		sides = append(sides, RatingSide{Players: []string{p}})
	}
	return sides
}

func (k *kindOf[S]) over(s S) bool { _, over := k.g.Outcome(s); return over }

func (k *kindOf[S]) outcome(s S) (storage.Outcome, bool) { return k.g.Outcome(s) }

// otherThreads lists the game's threads besides its public one
// (Spec.OtherThreads).
func (k *kindOf[S]) otherThreads(s S) []string {
	if k.spec.OtherThreads == nil {
		return nil
	}
	return k.spec.OtherThreads(s)
}

func (k *kindOf[S]) decode(rec *storage.Game) (S, error) {
	st, err := k.g.Decode(rec.StateVersion, rec.State)
	if err != nil {
		var zero S
		return zero, fmt.Errorf("game %s: decoding its state (version %d): %w", rec.ID, rec.StateVersion, err)
	}
	return st, nil
}

// maxRuns bounds how many times an action runs when other processes keep
// changing its game between its read and its commit.
const maxRuns = 5

// errBusy answers an action given up after maxRuns conflicting runs:
// nothing of it was saved.
var errBusy = Errorf("This game changed several times while your action ran (other players or processes acting at the same moment): nothing changed. Try again.")

// run is the one path of an action: decode, act, then (when the action
// saved a state or asked for effects) clock, encode and commit. When
// another process changed the game between the read and the commit
// (Games.Put's version compare: storage.ErrConflict), the game is read
// again and the action runs again on it: actions change nothing outside
// their Turn before the commit (SendPrivately edits, on a second run, the
// direct message the first sent), so the user sees one action, applied to
// the game as it is.
func (k *kindOf[S]) run(a *App, req *Request, rec *storage.Game, act Action[S]) (*Response, error) {
	shared := &runs{}
	for n := 1; ; n++ {
		resp, err := k.runOnce(a, req, rec, act, shared)
		if errors.Is(err, storage.ErrConflict) && n == maxRuns {
			a.Log.Warn("the game kept changing in other processes: the action was given up", "owner", a.Process,
				"game", rec.ID, "runs", n)
			return nil, errBusy
		}
		if !errors.Is(err, storage.ErrConflict) {
			return resp, err
		}
		a.Log.Info("the game changed in another process meanwhile: running the action again", "owner", a.Process,
			"game", rec.ID, "run", n+1)
		// A short random pause, growing with each run, lets processes that
		// keep colliding on one game fall out of step.
		time.Sleep(time.Duration(mrand.Int64N(int64(n) * int64(5*time.Millisecond))))
		if rec, err = a.snapshot(rec.ID); err != nil {
			return nil, err
		}
	}
}

// runOnce is one run of an action (see run).
func (k *kindOf[S]) runOnce(a *App, req *Request, rec *storage.Game, act Action[S], shared *runs) (*Response, error) {
	st, err := k.decode(rec)
	if err != nil {
		return nil, err
	}
	// The clock before the action, read before the action can touch the
	// state it was given.
	prev := k.g.Clock(st)
	t := &Turn[S]{Req: req, Game: rec, State: st, Now: req.Now, app: a, kind: k, prev: &prev, runs: shared}
	resp, err := act(t)
	if err != nil {
		return nil, err
	}
	if !t.saved && len(t.effects) == 0 && len(t.extra) == 0 && len(t.apart) == 0 {
		return resp, nil
	}
	wasActive := rec.Active
	if t.saved {
		if err := k.finish(t, rec, t.prev); err != nil {
			return nil, err
		}
	}
	var closing, replay []Effect
	if wasActive && !rec.Active && rec.ThreadID != "" {
		a.markFinal(rec, t.Req, resp, t.effects)
		closing = closeThread(rec, k.otherThreads(t.next))
		if k.spec.Replay != nil {
			replay = []Effect{replayFollowUp(rec)}
		}
	}
	answered := t.saved && t.Req != nil && t.Req.InteractionID != ""
	ended := t.saved && wasActive && !rec.Active
	effects := t.effects
	var origAnswer Message
	if resp != nil {
		origAnswer = resp.Message
	}
	var saved *storage.Game
	var head *storage.Pending // the head of the game's stream after the commit
	answerStream := "answer-" + newID()
	err = a.Store.Update(req.Context(), func(tx storage.Tx) error {
		tx.Prefetch(t.hints(rec, answered, answerStream)...)
		// The end rates the game here, in the transaction that ends it: a
		// game is rated once or not at all (set afresh on each run).
		effects = t.effects
		if ended {
			changes, err := rating.Rate(tx, rec, k.ratingSides(rec, t.next), t.Now)
			if err != nil {
				return err
			}
			effects = withRatingLine(t.effects, resp, origAnswer, resp != nil && resp.final != "", rating.ChangesLine(changes, t.Now))
		}
		// Whatever the interaction changes or does on Discord, it does once.
		if t.Req != nil && t.Req.InteractionID != "" {
			if err := markApplied(tx, t.Req.InteractionID, t.Now); err != nil {
				return err
			}
		}
		for _, fn := range t.extra {
			if err := fn(tx); err != nil {
				return err
			}
		}
		if t.saved {
			var err error
			if saved, err = putGame(tx, rec, t.Now); err != nil {
				return err
			}
		}
		if answered {
			if err := a.saveAnswer(tx, answerStream, t.Req, resp, t.Now); err != nil {
				return err
			}
		}
		if err := a.enqueue(tx, rec.ID, rec, effects); err != nil {
			return err
		}
		for _, ap := range t.apart {
			enqueue := func() error { return a.enqueue(tx, ap.stream, rec, []Effect{ap.effect}) }
			if ap.latest {
				enqueue = func() error { return a.enqueueLatest(tx, ap.stream, rec, ap.effect) }
			}
			if err := enqueue(); err != nil {
				return err
			}
		}
		if err := a.enqueueLate(tx, rec.ID, rec, replay, t.Now.Add(ReplayDelay)); err != nil {
			return err
		}
		if err := a.enqueueLate(tx, rec.ID, rec, closing, t.Now.Add(ArchiveDelay)); err != nil {
			return err
		}
		if len(effects) == 0 {
			return nil
		}
		// The head deliverNow starts from, read here rather than after;
		// and what recording a new board done reads (the compaction of the
		// board it replaces), read ahead for that transaction.
		var err error
		if head, err = tx.Outbox().StreamHead(rec.ID); err != nil {
			return err
		}
		return tx.ReadAhead(storage.HintAdd(compactions(rec.ID)))
	})
	if err != nil {
		return nil, err
	}
	if saved != nil {
		*rec = *saved
	}
	drained := len(effects) > 0 && a.deliverNowFrom(req.Context(), rec.ID, true, head, saved) // run holds the game's lock
	for _, ap := range t.apart {
		a.deliverNow(req.Context(), ap.stream, true)
	}
	if !drained || len(t.apart) > 0 || len(replay) > 0 || len(closing) > 0 || (resp != nil && resp.answerID != "") {
		// Something this action queued is left for the dispatcher (or it
		// cannot tell): wake it.
		a.kick()
	}
	a.maybeComputer(rec, t.Now)
	if resp != nil && t.saved {
		resp.Committed = true
	}
	return resp, nil
}

// hints are what the transaction saving t reads (storage.Tx.Prefetch):
// the game, the interaction's mark and the outbox streams it adds to.
func (t *Turn[S]) hints(rec *storage.Game, answered bool, answerStream string) []storage.Hint {
	var hs []storage.Hint
	if t.Req != nil && t.Req.InteractionID != "" {
		hs = append(hs, storage.HintInteraction(t.Req.InteractionID))
	}
	if t.saved {
		hs = append(hs, storage.HintGame(rec.ID))
	}
	if answered {
		hs = append(hs, storage.HintAdd(answerStream)) // read only if a copy is saved
	}
	hs = append(hs, storage.HintAdd(rec.ID), storage.HintStreamHead(rec.ID), storage.HintAdd(compactions(rec.ID)))
	for _, ap := range t.apart {
		hs = append(hs, storage.HintAdd(ap.stream))
		if ap.latest {
			hs = append(hs, storage.HintStreamHead(ap.stream))
		}
	}
	return hs
}

// finish writes the saved state into rec: encoded at the codec version,
// the end (Outcome) and the clock rule applied. prev is the clock before
// the action (nil for a new game).
func (k *kindOf[S]) finish(t *Turn[S], rec *storage.Game, prev *Clock) error {
	raw, err := k.g.Encode(t.next)
	if err != nil {
		return fmt.Errorf("game %s: encoding its state: %w", rec.ID, err)
	}
	rec.State, rec.StateVersion = json.RawMessage(raw), k.g.Version()
	if o, over := k.g.Outcome(t.next); over {
		if rec.Active {
			// The end deletes the last pings, before the thread's archive.
			t.effects = append(t.effects, Effect{Op: OpUnping})
		}
		rec.Active, rec.Deadline, rec.Remind = false, time.Time{}, time.Time{}
		oc := o
		rec.Outcome = &oc
		return nil
	}
	c, before := k.g.Clock(t.next), rec.Deadline
	rec.Deadline = nextDeadline(prev, c, before, t.Now)
	rec.Remind = nextRemind(t.app.Settings.RemindAt, prev, c, before, rec.Deadline, rec.Remind)
	rec.ComputerMove = computerDue(rec, c, t.Now)
	if startsTurn(prev, c) {
		t.effects = append(t.effects, turnPings(c, false, t.Now))
	}
	return nil
}

// nextDeadline is the clock rule: the deadline after an action that moved
// the clock from prev (nil: the game is new) to next, given the deadline
// before it.
func nextDeadline(prev *Clock, next Clock, deadline, now time.Time) time.Time {
	switch {
	case next.Rule == NoClock || next.Rule == "" || next.Period <= 0:
		return time.Time{}
	case restarts(prev, next, deadline):
		return now.Add(next.Period)
	}
	return deadline
}

// Run runs act on the stored game gameID, of a kind registered with
// Register as S, under the game's lock, as the router runs a route's
// action: for commands not tied to one thread that find their game
// themselves (e.g. from direct messages), and for operators' tools. req
// may carry no interaction (then nothing is marked applied); its Now is
// the action's time.
func Run[S any](a *App, req *Request, gameID string, act Action[S]) (*Response, error) {
	return a.withGame(gameID, req, func(a *App, req *Request, rec *storage.Game) (*Response, error) {
		k, _ := a.kinds[rec.Kind].typedKind().(*kindOf[S])
		if k == nil {
			return nil, fmt.Errorf("game %s: kind %q is not registered with state %T", rec.ID, rec.Kind, *new(S))
		}
		if req.Now.IsZero() {
			req.Now = a.Now()
		}
		return k.run(a, req, rec, act)
	})
}

// NewID returns a new random game or invitation ID (10 lower-case base32
// characters).
func NewID() string { return newID() }

// Create saves a new game rec (ID, Kind of a game registered with
// Register as S, guild, channels, players; Active) made by build, which
// t.Saves its first state and asks for its first effects; what build adds
// with t.Also (closing a lobby, linking the game's other channels) is
// saved in the same transaction, which also marks req applied. Nothing is
// saved when build or the transaction fails. Create is how a game starts
// other than from a challenge (OpenChallenge starts its own).
func Create[S any](a *App, req *Request, rec *storage.Game, build func(t *Turn[S]) error) error {
	k, _ := a.kinds[rec.Kind].typedKind().(*kindOf[S])
	if k == nil {
		return fmt.Errorf("create: kind %q is not registered with state %T", rec.Kind, *new(S))
	}
	t := &Turn[S]{Req: req, Game: rec, Now: req.Now, app: a, kind: k}
	if err := build(t); err != nil {
		return err
	}
	if !t.saved {
		return fmt.Errorf("kind %s: the new game saved no state", rec.Kind)
	}
	if err := k.finish(t, rec, nil); err != nil {
		return err
	}
	var saved *storage.Game
	err := a.Store.Update(req.Context(), func(tx storage.Tx) error {
		if req.InteractionID != "" {
			if err := markApplied(tx, req.InteractionID, req.Now); err != nil {
				return err
			}
		}
		for _, fn := range t.extra {
			if err := fn(tx); err != nil {
				return err
			}
		}
		var err error
		if saved, err = putGame(tx, rec, req.Now); err != nil {
			return err
		}
		return a.enqueue(tx, rec.ID, rec, t.effects)
	})
	if err == nil {
		*rec = *saved
		// The caller may hold a lock keyed by the new game's ID (a lobby
		// whose ID the game takes): a result is recorded without taking it.
		a.deliverNow(req.Context(), rec.ID, true)
		a.kick()
		a.maybeComputer(rec, req.Now)
	}
	return err
}

// OpenThread makes sure a thread named name exists under parentID and
// returns its ID: the public thread of the message starter when starter
// is set (Discord gives it the message's ID; a second start returns the
// same thread), else the active thread of that name an earlier attempt made
// (an active thread of that name that no game owns: Platform.FindThreads),
// else a new thread, private or public. A game opens its threads with it
// before saving the game (Create), so that a retry after a failure or a
// crash reuses them instead of leaving an empty thread behind. A refusal is
// returned as Discord gave it (see ErrNoThreads).
func (a *App) OpenThread(ctx context.Context, guildID, parentID, starter, name string, private bool) (string, error) {
	if starter != "" {
		return a.Platform.StartThreadFrom(ctx, parentID, starter, name)
	}
	if id, err := a.unownedThread(ctx, guildID, parentID, name); err != nil || id != "" {
		return id, err
	}
	return a.Platform.StartThread(ctx, parentID, name, private)
}

// unownedThread is the newest active thread named name under parentID that
// no game owns (one an interrupted start made), or "".
func (a *App) unownedThread(ctx context.Context, guildID, parentID, name string) (string, error) {
	ids, err := a.Platform.FindThreads(ctx, guildID, parentID, name)
	if err != nil {
		return "", err
	}
	for _, id := range ids {
		owned := false
		if err := a.view(func(tx storage.Tx) error {
			_, err := tx.Games().ByChannel(id)
			owned = err == nil
			if errors.Is(err, storage.ErrNotFound) {
				err = nil
			}
			return err
		}); err != nil {
			return "", err
		}
		if !owned {
			return id, nil
		}
	}
	return "", nil
}
