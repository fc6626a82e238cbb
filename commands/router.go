package commands

import (
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"sort"
	"time"

	"sandtable/commands/ui"
	"sandtable/storage"
)

// gameHandler handles an interaction aimed at one stored game: a command in
// the game's thread, its autocomplete, or a component carrying its ID. g is a
// snapshot read before the handler runs, under the game's lock.
type gameHandler func(a *App, req *Request, g *storage.Game) (*Response, error)

// Handler handles an interaction not tied to a game (yet).
type Handler func(a *App, req *Request) (*Response, error)

// kindTable is the router's table for one game: its commands and the
// handlers of its routes. Register builds it from a Game[S], wrapping every
// route in the framework's one action path: a game has no other way in
// (tests that need routes but no rules register a commandstest.Toy). The shared commands (/move,
// /resign, /draw, /board, /games) reach the kind that owns the thread they
// are used in, so adding a game changes no other game's code.
type kindTable struct {
	Name  string // the storage kind, e.g. "survival"
	Title string // shown to users, e.g. "Survival Chess: Tartan Grid"

	// Definitions are the kind's own top-level commands (e.g. /survival),
	// handled by TopLevel by command name.
	Definitions []*ui.Command
	TopLevel    map[string]Handler

	// Thread handles commands used in the kind's game threads, by command
	// name ("move", "resign", "draw", "board", and kind-specific ones).
	Thread map[string]gameHandler
	// Autocomplete handles autocomplete for thread commands, by command name.
	Autocomplete map[string]gameHandler
	// Components handles buttons and selects with scope "g", by action;
	// Modals handles modal submits the same way.
	Components map[string]gameHandler
	Modals     map[string]gameHandler
	// Challenge handles buttons with scope "c" whose challenge or lobby
	// document is of this kind, by action.
	Challenge map[string]Handler

	// Timeout is called when a game's deadline has passed (under its lock,
	// with a fresh snapshot); it ends or advances the game and announces it.
	Timeout func(a *App, g *storage.Game, now time.Time) error
	// Summary is one line about a game for /games, e.g. "vs @bob, your move".
	Summary func(a *App, g *storage.Game, userID string) string

	// typed is the *kindOf[S] of a kind registered with Register.
	typed any
	// computer, for kinds registered with Register whose Spec has a
	// Computer, is the computer player (computer.go).
	computer *computerKind
	// start, for kinds registered with Register, makes the game of an
	// accepted challenge: rec (new, unsaved) gets its state and clock; it
	// returns the thread's name and the first effects.
	start func(a *App, req *Request, ch *Challenge, rec *storage.Game) (threadName string, effects []Effect, err error)
	// delivered, for kinds registered with Register, records the result
	// of an effect (see Effect.Result) in the game rec, in tx.
	delivered func(a *App, tx storage.Tx, rec *storage.Game, result, id string) error
	// lobbyExpired, for kinds registered with Register, is
	// Spec.LobbyExpired.
	lobbyExpired func(a *App, doc []byte) (Message, error)
	// clockOf, for kinds registered with Register, is the clock of the
	// game rec (Game.Clock of its decoded state): whom a reminder and
	// /games name.
	clockOf func(a *App, rec *storage.Game) (Clock, error)
	// gamesLine, for kinds registered with Register, is Summary and the
	// clock of the game rec, from one decoding of its state (/games).
	gamesLine func(a *App, rec *storage.Game, userID string) (summary string, c Clock, ok bool)
	// replay, for kinds registered with Register, is Spec.Replay of the
	// finished game rec.
	replay func(a *App, rec *storage.Game) (*Replay, error)
	// analysis, for kinds registered with Register whose Spec has an
	// Analysis, computes and answers the analyses of finished games.
	analysis *analysisKind
	// versus and record, for kinds registered with Register, are
	// Spec.Versus (of the stored game rec) and Spec.RecordName: the
	// archive's words.
	versus func(a *App, rec *storage.Game, userID string) string
	record string
	// noWinner, for kinds registered with Register, is Spec.NoWinner.
	noWinner string
	// leaderboard, for kinds registered with Register, is
	// Spec.Leaderboard.
	leaderboard Handler
	// abort, for kinds registered with Register whose Spec has an Abort,
	// aborts the game rec through it, with also run in the transaction
	// (the audit log's entry); others, for kinds registered with
	// Register, are the game's threads besides its public one.
	abort  func(a *App, req *Request, rec *storage.Game, why string, also func(storage.Tx) error) (*Response, error)
	others func(a *App, rec *storage.Game) []string
	// results and adjudicate, for kinds registered with Register whose
	// Spec has Results and Adjudicate, are the results a manager may
	// declare for the game rec (none once it is over) and the
	// declaration of one, with also run in the transaction.
	results    func(a *App, rec *storage.Game) []ui.Choice
	adjudicate func(a *App, req *Request, rec *storage.Game, result, why string, also func(storage.Tx) error) (*Response, error)

	// Private reports whether the answer to req (a command or modal of this
	// kind) is private: ephemeral or by direct message, with nothing shown
	// in public, not even the command and its options. The bot then defers
	// such an interaction ephemerally when its handler is slow. Nil: never.
	// It must decide from req alone (no storage), quickly.
	Private func(req *Request) bool
}

// subcommands handles the top-level command /name by its subcommand: subs
// has a handler per subcommand name; any other subcommand is refused.
func Subcommands(name string, subs map[string]Handler) Handler {
	return func(a *App, req *Request) (*Response, error) {
		if h, ok := subs[req.Sub]; ok {
			return h(a, req)
		}
		return nil, Errorf("Unknown subcommand /%s %s.", name, req.Sub)
	}
}

// AnswersPrivately reports whether req's answer is private: /games (the
// caller's own games), /history (a viewer for the caller) or what some kind declares private (see
// Spec.Private), so that a deferred answer must be ephemeral.
func (a *App) AnswersPrivately(req *Request) bool {
	if req.Type == CommandRequest && (req.Command == "games" || req.Command == HistoryAction || req.Command == AdminCommand) {
		return true
	}
	for _, k := range a.kinds {
		if k.Private != nil && k.Private(req) {
			return true
		}
	}
	return false
}

// register adds a game's table (see Register). Registering a name twice is
// a programming error and panics at start-up.
func (a *App) register(k *kindTable) {
	if _, dup := a.kinds[k.Name]; dup {
		panic("commands: kind registered twice: " + k.Name)
	}
	a.kinds[k.Name] = k
}

// Definitions lists every slash command, for bulk-overwrite registration.
func (a *App) Definitions() []*ui.Command {
	defs := append(sharedDefinitions(), a.ratingDefinitions()...)
	defs = append(defs, adminDefinition())
	seen := map[string]bool{}
	for _, d := range defs {
		seen[d.Name] = true
	}
	names := make([]string, 0, len(a.kinds))
	for n := range a.kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	kinds := make([]*kindTable, 0, len(names))
	for _, n := range names {
		kinds = append(kinds, a.kinds[n])
	}
	for _, d := range defs {
		if d.Name == HistoryAction {
			d.Options = historyOptions(kinds)
		}
	}
	for _, n := range names {
		for _, d := range a.kinds[n].Definitions {
			if !seen[d.Name] {
				seen[d.Name] = true
				defs = append(defs, d)
			}
		}
	}
	return defs
}

// Handle routes one interaction to its handler and returns the answer. Errors
// of type *UserError are meant for the user; others are internal.
func (a *App) Handle(req *Request) (*Response, error) {
	if req.Now.IsZero() {
		req.Now = a.Now()
	}
	switch req.Type {
	case CommandRequest, AutocompleteRequest:
		return a.handleCommand(req)
	case ComponentRequest, ModalRequest:
		return a.handleComponent(req)
	}
	return nil, fmt.Errorf("unknown interaction type %d", req.Type)
}

func (a *App) handleCommand(req *Request) (*Response, error) {
	for _, k := range a.kinds {
		if h, ok := k.TopLevel[req.Command]; ok {
			if req.Type == AutocompleteRequest {
				return &Response{}, nil
			}
			return h(a, req)
		}
	}
	switch req.Command {
	case "games":
		return a.listGames(req)
	case HistoryAction:
		if archive, err := a.wantsArchive(req); err != nil || archive {
			if err != nil || req.Type == AutocompleteRequest {
				return &Response{}, err
			}
			return a.archiveCommand(req)
		}
	case AdminCommand:
		return a.admin(req)
	case "leaderboard":
		return a.leaderboard(req)
	case "stats":
		return a.stats(req)
	case "notify":
		if req.Type == AutocompleteRequest {
			return &Response{}, nil
		}
		return a.notify(req)
	}
	// Everything else is a thread command: find the game the thread
	// belongs to, read under its lock.
	g, unlock, err := a.gameInChannelLocked(req)
	if err != nil {
		if req.Type == AutocompleteRequest {
			return &Response{}, nil
		}
		return nil, err
	}
	defer unlock()
	k := a.kinds[g.Kind]
	if k == nil {
		return nil, fmt.Errorf("game %s has unknown kind %q", g.ID, g.Kind)
	}
	table := k.Thread
	if req.Type == AutocompleteRequest {
		table = k.Autocomplete
	}
	h, ok := table[req.Command]
	if !ok {
		if req.Type == AutocompleteRequest {
			return &Response{}, nil
		}
		return nil, Errorf("/%s is not used in %s.", req.Command, k.Title)
	}
	if req.Type == CommandRequest && waitingChoiceSent(req) {
		return nil, Errorf("That choice only said whose turn it was: nothing was played. When you may act, type your move or pick one of the moves offered.")
	}
	return a.withLockedGame(g, req, h)
}

func (a *App) handleComponent(req *Request) (*Response, error) {
	id, err := ParseCustomID(req.CustomID)
	if err != nil {
		return nil, &UserError{Msg: err.Error()}
	}
	if id.Scope == "a" {
		return a.archiveClick(req, id)
	}
	if id.Scope == "c" {
		unlock := a.lock(id.ID)
		defer unlock()
		// Another process may change a lobby between the handler's read
		// and its write (PutLobby's compare): the click is then handled
		// again on what is stored, as kindOf.run does for games.
		for n := 1; ; n++ {
			resp, err := a.handleInvitation(req, id)
			if errors.Is(err, storage.ErrConflict) && n == maxRuns {
				a.Log.Warn("the invitation kept changing in other processes: the click was given up", "owner", a.Process,
					"id", id.ID, "runs", n)
				return nil, errBusy
			}
			if !errors.Is(err, storage.ErrConflict) {
				return resp, err
			}
			a.Log.Info("the invitation changed in another process meanwhile: handling the click again", "owner", a.Process,
				"id", id.ID, "run", n+1)
			time.Sleep(time.Duration(mrand.Int64N(int64(n) * int64(5*time.Millisecond))))
		}
	}
	g, err := a.snapshot(id.ID)
	if err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return nil, Errorf("That game no longer exists.")
		}
		return nil, err
	}
	if err := a.refuseOrigin(req, g); err != nil {
		return nil, err
	}
	k := a.kinds[g.Kind]
	if k == nil {
		return nil, fmt.Errorf("game %s has unknown kind %q", g.ID, g.Kind)
	}
	table := k.Components
	if req.Type == ModalRequest {
		table = k.Modals
	}
	h, ok := table[id.Action]
	if !ok {
		return nil, Errorf("This button is not one of mine (unknown action %q).", id.Action)
	}
	if req.Type == ComponentRequest && id.Action == AnalysisAction && k.analysis != nil {
		// A finished game's analysis may take seconds to compute: the
		// click waits for it without the game's lock (analysis.go).
		return a.analysisClick(req, g, k.analysis)
	}
	return a.withGame(g.ID, req, h)
}

// handleInvitation runs the handler of a click on the challenge or lobby
// id (under its lock).
func (a *App) handleInvitation(req *Request, id CustomID) (*Response, error) {
	// A challenge or a lobby: either document names its kind.
	var ch struct {
		Kind string `json:"kind"`
	}
	ns := "challenge"
	err := a.view(func(tx storage.Tx) error {
		_, err := tx.Challenges().Get(id.ID, &ch)
		if errors.Is(err, storage.ErrNotFound) {
			ns = "lobby"
			_, err = tx.Lobbies().Get(id.ID, &ch)
		}
		return err
	})
	if err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return nil, Errorf("This challenge or lobby is no longer open.")
		}
		return nil, err
	}
	k := a.kinds[ch.Kind]
	if k == nil {
		return nil, fmt.Errorf("%s %s has unknown kind %q", ns, id.ID, ch.Kind)
	}
	h, ok := k.Challenge[id.Action]
	if !ok {
		return nil, Errorf("This button is not one of mine (unknown action %q).", id.Action)
	}
	return h(a, req)
}

// withGame runs h under the game's lock with a fresh snapshot of the game,
// unless req comes from where the game cannot be acted on (refuseOrigin):
// then nothing runs, an autocomplete gets no choices.
func (a *App) withGame(id string, req *Request, h gameHandler) (*Response, error) {
	unlock := a.lock(id)
	defer unlock()
	g, err := a.snapshot(id)
	if err != nil {
		return nil, err
	}
	return a.withLockedGame(g, req, h)
}

// withLockedGame is withGame once the game g is locked and read under the
// lock.
func (a *App) withLockedGame(g *storage.Game, req *Request, h gameHandler) (*Response, error) {
	if err := a.refuseOrigin(req, g); err != nil {
		if req.Type == AutocompleteRequest {
			return &Response{}, nil
		}
		return nil, err
	}
	return h(a, req, g)
}

// errOtherGuild and errNotPlayer refuse an interaction aimed at a game from
// where it cannot be acted on (refuseOrigin).
var (
	errOtherGuild = Errorf("That game belongs to another server: nothing was done.")
	errNotPlayer  = Errorf("You are not playing in this game: only its players act on it from direct messages. Nothing was done.")
)

// refuseOrigin refuses req, an interaction aimed at the game g, when it
// comes from another server than the game's (a custom ID, a thread or a
// game option replayed elsewhere), or from direct messages (no server) by
// someone who is not one of g's players. A request that is no interaction
// (Type 0: operators' tools) and a game of no server pass.
func (a *App) refuseOrigin(req *Request, g *storage.Game) error {
	if req == nil || req.Type == 0 || g.GuildID == "" {
		return nil
	}
	switch {
	case req.GuildID == g.GuildID:
		return nil
	case req.GuildID != "":
		a.Log.Warn("an interaction from another server was refused", "game", g.ID, "guild", req.GuildID,
			"game_guild", g.GuildID, "user", req.User.ID, "interaction", req.InteractionID)
		return errOtherGuild
	case slices.Contains(g.Players, req.User.ID):
		return nil
	}
	a.Log.Warn("a direct-message interaction by a non-player was refused", "game", g.ID, "user", req.User.ID,
		"interaction", req.InteractionID)
	return errNotPlayer
}

// snapshot reads the stored game id.
func (a *App) snapshot(id string) (*storage.Game, error) {
	var g *storage.Game
	err := a.view(func(tx storage.Tx) error {
		var err error
		g, err = tx.Games().Get(id)
		return err
	})
	return g, err
}

// gameInChannelLocked is gameInChannel read under the game's lock (as
// withGame reads a game), and the unlock: one read when this process knows
// the channel's game already, the lock taken before it. That read also
// reads the players' ratings the game shows (req's, for Turn.RatingOf).
func (a *App) gameInChannelLocked(req *Request) (*storage.Game, func(), error) {
	guess := a.channelGame(req.ChannelID)
	// The request's transactions are a sequence (storage.Carry): its
	// action's commit and its effects' deliveries start from what this
	// read and the one before them left.
	req.Ctx = storage.WithCarry(req.Context(), storage.NewCarry())
	for {
		unlock := func() {}
		if guess.id != "" {
			unlock = a.lock(guess.id)
		}
		var g *storage.Game
		err := a.Store.View(req.Context(), func(tx storage.Tx) error {
			hints := []storage.Hint{storage.HintChannel(req.ChannelID)}
			if guess.id != "" {
				hints = append(hints, storage.HintGame(guess.id))
				for _, u := range guess.rated {
					hints = append(hints, storage.HintRating(guess.kind, guess.guild, u))
				}
				// What the action's transaction reads (Turn.hints).
				hints = append(hints, storage.HintAdd(guess.id), storage.HintStreamHead(guess.id), storage.HintAdd(compactions(guess.id)))
				if req.InteractionID != "" {
					hints = append(hints, storage.HintInteraction(req.InteractionID))
				}
				hints = append(hints, notifyHints(guess.humans)...)
			}
			tx.Prefetch(hints...)
			var err error
			if g, err = tx.Games().ByChannel(req.ChannelID); err != nil {
				return err
			}
			if g.ID != guess.id {
				return nil
			}
			if slices.Equal(ratedPlayers(g), guess.rated) {
				if req.ratings, err = readRatings(tx, g.Kind, g.GuildID, guess.rated); err != nil {
					return err
				}
			}
			// The players' notification choices, which the action's
			// transaction reads when a turn starts (expandPings), read
			// with the game and carried to it.
			return tx.ReadAhead(notifyHints(humanPlayers(g))...)
		})
		if errors.Is(err, storage.ErrNotFound) {
			err = Errorf("There is no game in this channel. Use this command in a game's thread (see /games for yours).")
		}
		if err != nil {
			unlock()
			return nil, nil, err
		}
		a.learnChannel(req.ChannelID, g)
		if g.ID == guess.id {
			return g, unlock, nil
		}
		unlock() // not the game guessed: lock the one read, and read again
		guess = a.channelGame(req.ChannelID)
	}
}

// channelGuess is what a channel led to when this process last looked: a
// guess, which the read under the lock checks.
type channelGuess struct {
	id, kind, guild string
	rated           []string // the players whose ratings the game shows
	humans          []string // the players the computer does not play
}

// humanPlayers are g's players but its computer seats.
func humanPlayers(g *storage.Game) []string {
	var out []string
	for _, id := range g.Players {
		if _, computer := g.Computer(id); !computer {
			out = append(out, id)
		}
	}
	return out
}

// notifyHints are the reads of users' notification choices (notifyChoice).
func notifyHints(users []string) []storage.Hint {
	hs := make([]storage.Hint, len(users))
	for i, u := range users {
		hs[i] = storage.HintNotify(u)
	}
	return hs
}

// ratedPlayers are the players whose ratings g shows beside their names
// (Turn.RatingOf): none outside a server or with a computer seat.
func ratedPlayers(g *storage.Game) []string {
	if g.GuildID == "" || len(g.Computers) > 0 {
		return nil
	}
	return g.Players
}

// preRead are ratings read with a request's game (Turn.RatingOf).
type preRead struct {
	kind, guild string
	ratings     map[string]*storage.PlayerRating // nil: never rated
}

// readRatings reads the ratings of users in tx.
func readRatings(tx storage.Tx, kind, guild string, users []string) (*preRead, error) {
	if len(users) == 0 {
		return nil, nil
	}
	p := &preRead{kind: kind, guild: guild, ratings: map[string]*storage.PlayerRating{}}
	for _, u := range users {
		r, err := tx.Ratings().Get(kind, guild, u)
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			return nil, err
		}
		p.ratings[u] = r
	}
	return p, nil
}

func (a *App) channelGame(channelID string) channelGuess {
	a.threadsMu.Lock()
	defer a.threadsMu.Unlock()
	return a.channels[channelID]
}

func (a *App) learnChannel(channelID string, g *storage.Game) {
	a.threadsMu.Lock()
	defer a.threadsMu.Unlock()
	if a.channels == nil || len(a.channels) >= maxThreads {
		a.channels = map[string]channelGuess{}
	}
	a.channels[channelID] = channelGuess{id: g.ID, kind: g.Kind, guild: g.GuildID, rated: slices.Clone(ratedPlayers(g)), humans: humanPlayers(g)}
}

// Sweep runs every timer that is due at now: per-move time limits of games,
// turn reminders (remind.go) and challenge expiry. The bot calls it
// periodically; it returns the first error after trying everything.
func (a *App) Sweep(now time.Time) error {
	var due []string
	if err := a.view(func(tx storage.Tx) error {
		var err error
		due, err = tx.Games().Due(now)
		return err
	}); err != nil {
		return err
	}
	var first error
	for _, id := range due {
		if err := a.timeoutGame(id, now); err != nil {
			a.Log.Error("timeout failed", "game", id, "err", err)
			if first == nil {
				first = err
			}
		}
		// After the timeout: a timeout that restarted the clock set the
		// next run's reminder, not due yet.
		if err := a.remindGame(id, now); err != nil {
			a.Log.Error("reminder failed", "game", id, "err", err)
			if first == nil {
				first = err
			}
		}
		// A pending computer move goes to the workers (resumed after a
		// restart, or handed again when the queue was full).
		if g, err := a.snapshot(id); err == nil {
			a.maybeComputer(g, now)
		}
	}
	if err := a.expireChallenges(now); err != nil && first == nil {
		first = err
	}
	if err := a.expireLobbies(now); err != nil && first == nil {
		first = err
	}
	return first
}

func (a *App) timeoutGame(id string, now time.Time) error {
	unlock := a.lock(id)
	defer unlock()
	g, err := a.snapshot(id)
	if err != nil {
		return err
	}
	if !g.Active || g.Deadline.IsZero() || g.Deadline.After(now) {
		return nil // moved or finished meanwhile
	}
	k := a.kinds[g.Kind]
	if k == nil || k.Timeout == nil {
		return fmt.Errorf("game %s: kind %q has no timeout handler", g.ID, g.Kind)
	}
	return k.Timeout(a, g, now)
}

// NextDeadline is when Sweep next has work (a game's timer or an
// invitation's expiry), or the zero time.
func (a *App) NextDeadline() time.Time {
	var t time.Time
	_ = a.view(func(tx storage.Tx) error {
		var err error
		t, err = tx.Games().NextDeadline()
		for _, inv := range []storage.Invitations{tx.Challenges(), tx.Lobbies()} {
			if err != nil {
				return err
			}
			var at time.Time
			if at, err = inv.NextExpiry(); !at.IsZero() && (t.IsZero() || at.Before(t)) {
				t = at
			}
		}
		return err
	})
	return t
}

// typedKind is the typed kind behind k (nil for no kind).
func (k *kindTable) typedKind() any {
	if k == nil {
		return nil
	}
	return k.typed
}
