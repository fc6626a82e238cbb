package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"sandtable/commands/ui"
	"sandtable/storage"
)

// Analyses of finished games (issue 24 item 5). A game whose Spec has an
// Analysis puts AnalysisButton on its final board; a click answers
// privately with the game's analysis (each side's accuracy, the worst
// moves, an evaluation graph), drawn by the game from the analysis's data.
//
// The data is computed once per game and cached in the store
// (storage.Analyses, schema 9), so that a later click, by anyone, in any
// process, answers from the store. Computing takes one search a position
// (Settings.AnalysisMoveTime each): seconds. It runs in a pool of its own
// with one worker, apart from the computer players' (computer.go), so an
// analysis never delays a game's computer or a move, and two analyses
// never share the machine with each other. Clicks on a game whose analysis
// is queued or computing in this process wait for that one computation
// (one per game): every waiting click is answered once it is stored. On a
// store shared by processes (etcd) a process claims the computation in the
// store (storage.Analyses.Claim, bound to its lease, so the claim ends if
// it dies); another process's worker then waits for that analysis in the
// store (reading it every analysisPoll, at most analysisWait) instead of
// computing it, and computes it itself if the claim ends without one. The
// click runs outside the game's lock (the game is over: nothing it reads
// changes), so moves and deliveries of other games and the game's own
// late effects are never held up by it; the bot defers the answer
// (Discord's 3-second rule) while it waits.
//
// Nothing is stored before the computation ends: a process stopped (or
// crashed) while computing loses only that work (its claim ends with it),
// and the next click computes again.

// AnalysisAction is the custom ID action of the Analysis button.
const AnalysisAction = "analysis"

// AnalysisButton is the 📈 Analysis button of game g's final board.
func AnalysisButton(g *storage.Game) ui.Button {
	b := GameButton(g, AnalysisAction, "Analysis", ui.Secondary)
	b.Emoji = "📈"
	return b
}

// Analysis is what a game offers to analyse its finished games
// (Spec.Analysis).
type Analysis[S any] struct {
	// Version is the version of the data Analyse returns: a cached
	// analysis of another version is computed again.
	Version int
	// Check refuses, with a *UserError saying why, a finished game s that
	// has nothing to analyse (aborted, no move). Nil: every finished game
	// has an analysis.
	Check func(s S) error
	// Analyse computes the analysis of the finished game s (t.Req is nil):
	// a value stored as JSON. It must stop when ctx ends (the error is
	// then ctx's). It runs in the analysis pool, outside the game's lock,
	// and must not touch the store.
	Analyse func(ctx context.Context, t *Turn[S], opt AnalysisOptions) (any, error)
	// Answer is the private answer showing the analysis, raw as Analyse's
	// value was stored (t.Req is the click).
	Answer func(t *Turn[S], raw json.RawMessage) (Message, error)
}

// AnalysisOptions bound one analysis: the search time of each position,
// and a depth cap (0: none; tests use it to be quick).
type AnalysisOptions struct {
	MoveTime time.Duration
	Depth    int
}

// The analysis pool's bounds.
const (
	// DefaultAnalysisMoveTime is a position's search time when Settings
	// leaves it zero: a 100-ply game takes about 10 s.
	DefaultAnalysisMoveTime = 100 * time.Millisecond
	// analysisTimeout stops one computation (a very long game at a long
	// search time): the click is told, nothing is stored.
	analysisTimeout = 10 * time.Minute
	// analysisWait is how long a click waits for its game's analysis
	// before it is told to come back; the computation goes on.
	analysisWait = 2 * time.Minute
	// analysisQueue is how many games may wait for the worker.
	analysisQueue = 32
	// analysisStopWait bounds how long StopAnalyses waits for the worker.
	analysisStopWait = 5 * time.Second
)

// analysisEnvelope is how the framework stores a game's analysis.
type analysisEnvelope struct {
	Version  int             `json:"version"`
	Computed time.Time       `json:"computed"`
	MoveTime time.Duration   `json:"move_time"`
	Depth    int             `json:"depth,omitempty"`
	Data     json.RawMessage `json:"data"`
}

// analysisKind is the state-typed part of a kind's analyses.
type analysisKind struct {
	version int
	check   func(a *App, rec *storage.Game) error
	analyse func(ctx context.Context, a *App, rec *storage.Game, opt AnalysisOptions) (any, error)
	answer  func(a *App, req *Request, rec *storage.Game, raw json.RawMessage) (Message, error)
}

func analysisOf[S any](k *kindOf[S], an *Analysis[S]) *analysisKind {
	decode := func(rec *storage.Game) (S, error) {
		st, err := k.decode(rec)
		if err != nil {
			return st, err
		}
		if rec.Active || !k.over(st) {
			return st, errAnalysisRunning
		}
		return st, nil
	}
	return &analysisKind{
		version: an.Version,
		check: func(a *App, rec *storage.Game) error {
			st, err := decode(rec)
			if err != nil || an.Check == nil {
				return err
			}
			return an.Check(st)
		},
		analyse: func(ctx context.Context, a *App, rec *storage.Game, opt AnalysisOptions) (any, error) {
			st, err := decode(rec)
			if err != nil {
				return nil, err
			}
			return an.Analyse(ctx, &Turn[S]{Game: rec, State: st, Now: a.Now(), app: a, kind: k}, opt)
		},
		answer: func(a *App, req *Request, rec *storage.Game, raw json.RawMessage) (Message, error) {
			st, err := decode(rec)
			if err != nil {
				return Message{}, err
			}
			return an.Answer(&Turn[S]{Req: req, Game: rec, State: st, Now: a.Now(), app: a, kind: k}, raw)
		},
	}
}

var (
	errAnalysisRunning = Errorf("The analysis is ready once the game is over.")
	errAnalysisBusy    = Errorf("Too many analyses are waiting to be computed right now. Please click again in a few minutes.")
	errAnalysisStopped = Errorf("I am restarting, so the analysis was not finished. Please click again in a minute.")
	errAnalysisSlow    = Errorf("The analysis is still being computed. Please click again in a minute.")
)

// analysisPool is the one worker that computes analyses, and the games
// queued or computing (each once).
type analysisPool struct {
	once    sync.Once
	mu      sync.Mutex
	jobs    map[string]*analysisJob // queued or computing, by game ID
	queue   chan *analysisJob
	ctx     context.Context // cancelled by StopAnalyses
	cancel  context.CancelFunc
	stopped bool
	wg      sync.WaitGroup
	// computed counts the computations started by this process, waiting
	// the clicks waiting for one.
	computed, waiting atomic.Int64
}

// analysisJob is one game's computation; done is closed once env (or
// err) is set.
type analysisJob struct {
	game string
	rec  *storage.Game
	kind *analysisKind
	done chan struct{}
	once sync.Once
	env  *analysisEnvelope
	err  error
}

// finish sets the job's result and wakes its clicks, once: a stop may
// answer them before the worker ends the computation.
func (j *analysisJob) finish(env *analysisEnvelope, err error) {
	j.once.Do(func() {
		j.env, j.err = env, err
		close(j.done)
	})
}

// AnalysesComputed counts the analyses this process has started to
// compute (a click answered from the store counts none).
func (a *App) AnalysesComputed() int64 { return a.analyses.computed.Load() }

// AnalysesWaiting counts the clicks waiting for an analysis being
// computed.
func (a *App) AnalysesWaiting() int64 { return a.analyses.waiting.Load() }

// StopAnalyses stops the analysis worker: the computation running is
// abandoned (nothing stored; the next click computes again) and every
// click waiting is told to come back.
//
// It waits for the worker at most analysisStopWait: a search that does not
// stop is left to end alone (it then stores its analysis, or fails to on a
// closed store, which is logged).
func (a *App) StopAnalyses() {
	p := &a.analyses
	p.once.Do(func() {}) // never start it after this
	p.mu.Lock()
	p.stopped = true
	if p.cancel != nil {
		p.cancel()
	}
	for id, j := range p.jobs {
		j.finish(nil, errAnalysisStopped)
		delete(p.jobs, id)
	}
	p.mu.Unlock()
	done := make(chan struct{})
	go func() { p.wg.Wait(); close(done) }()
	t := time.NewTimer(analysisStopWait)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		a.Log.Warn("an analysis did not stop within its wait: left to end alone", "wait", analysisStopWait)
	}
}

// analysisClick answers a click on the Analysis button of the game rec
// (read without its lock: see above).
func (a *App) analysisClick(req *Request, rec *storage.Game, k *analysisKind) (*Response, error) {
	if rec.Active {
		return nil, errAnalysisRunning
	}
	env, err := a.cachedAnalysis(rec.ID, k)
	if err != nil {
		return nil, err
	}
	if env == nil {
		if err := k.check(a, rec); err != nil {
			return nil, err
		}
		if env, err = a.awaitAnalysis(rec, k); err != nil {
			return nil, err
		}
	}
	m, err := k.answer(a, req, rec, env.Data)
	if err != nil {
		return nil, err
	}
	return &Response{Ephemeral: true, Message: m}, nil
}

// cachedAnalysis reads the stored analysis of game id: nil when there is
// none of the kind's version.
func (a *App) cachedAnalysis(id string, k *analysisKind) (*analysisEnvelope, error) {
	var env *analysisEnvelope
	err := a.view(func(tx storage.Tx) error {
		var err error
		env, err = a.storedAnalysis(tx, id, k)
		return err
	})
	return env, err
}

// storedAnalysis reads the stored analysis of game id in tx: nil when
// there is none of the kind's version.
func (a *App) storedAnalysis(tx storage.Tx, id string, k *analysisKind) (*analysisEnvelope, error) {
	raw, err := tx.Analyses().Get(id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var env analysisEnvelope
	if err := json.Unmarshal(raw, &env); err != nil || env.Version != k.version || len(env.Data) == 0 {
		a.Log.Warn("a stored analysis is unreadable or of another version: computing it again", "game", id, "err", err,
			"version", env.Version, "want", k.version)
		return nil, nil
	}
	return &env, nil
}

// awaitAnalysis queues the computation of rec's analysis, unless it is
// queued or computing already, and waits for it.
func (a *App) awaitAnalysis(rec *storage.Game, k *analysisKind) (*analysisEnvelope, error) {
	p := &a.analyses
	p.once.Do(func() {
		p.jobs = map[string]*analysisJob{}
		p.queue = make(chan *analysisJob, analysisQueue)
		p.ctx, p.cancel = context.WithCancel(context.Background())
		p.wg.Add(1)
		go a.analysisWorker()
	})
	p.mu.Lock()
	if p.stopped || p.queue == nil {
		p.mu.Unlock()
		return nil, errAnalysisStopped
	}
	j := p.jobs[rec.ID]
	if j == nil {
		j = &analysisJob{game: rec.ID, rec: rec, kind: k, done: make(chan struct{})}
		select {
		case p.queue <- j:
			p.jobs[rec.ID] = j
		default:
			p.mu.Unlock()
			return nil, errAnalysisBusy
		}
	}
	p.mu.Unlock()
	p.waiting.Add(1)
	defer p.waiting.Add(-1)
	t := time.NewTimer(analysisWait)
	defer t.Stop()
	select {
	case <-j.done:
		return j.env, j.err // set before done is closed
	case <-t.C:
		return nil, errAnalysisSlow
	}
}

// analysisWorker computes the queued analyses one at a time.
func (a *App) analysisWorker() {
	p := &a.analyses
	defer p.wg.Done()
	for {
		select {
		case <-p.ctx.Done():
			return // StopAnalyses answered the clicks waiting
		case j := <-p.queue:
			env, err := a.computeAnalysis(p.ctx, j)
			p.mu.Lock()
			if p.jobs[j.game] == j {
				delete(p.jobs, j.game)
			}
			j.finish(env, err)
			p.mu.Unlock()
		}
	}
}

// computeAnalysis computes and stores one game's analysis.
func (a *App) computeAnalysis(ctx context.Context, j *analysisJob) (env *analysisEnvelope, err error) {
	// A computation that ended (here or in another process) since the game
	// was queued may have stored it; on a store shared by processes,
	// another may be computing it.
	env, claimed, err := a.claimAnalysis(ctx, j)
	if env != nil || err != nil {
		return env, err
	}
	if claimed {
		defer func() {
			if env == nil {
				a.releaseAnalysis(j.game)
			}
		}()
	}
	opt := AnalysisOptions{MoveTime: a.Settings.AnalysisMoveTime, Depth: a.Settings.AnalysisDepth}
	if opt.MoveTime <= 0 {
		opt.MoveTime = DefaultAnalysisMoveTime
	}
	a.analyses.computed.Add(1)
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, analysisTimeout)
	defer cancel()
	data, err := func() (v any, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		return j.kind.analyse(ctx, a, j.rec, opt)
	}()
	if err != nil {
		var ue *UserError
		switch {
		case errors.As(err, &ue):
			return nil, err
		case a.analyses.ctx.Err() != nil:
			return nil, errAnalysisStopped
		}
		a.Log.Error("analysing a game failed", "game", j.game, "err", err, "took", time.Since(start))
		return nil, err
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	env = &analysisEnvelope{Version: j.kind.version, Computed: a.Now().UTC(), MoveTime: opt.MoveTime, Depth: opt.Depth, Data: raw}
	if err := a.update(func(tx storage.Tx) error {
		if err := tx.Analyses().Put(j.game, env); err != nil || !claimed {
			return err
		}
		return tx.Analyses().Release(j.game, a.Process)
	}); err != nil {
		// The clicks waiting are answered all the same; the next one
		// computes again.
		a.Log.Error("storing a game's analysis failed", "game", j.game, "err", err)
	}
	a.Log.Info("analysed a game", "game", j.game, "kind", j.rec.Kind, "took", time.Since(start).Round(time.Millisecond),
		"move_time", opt.MoveTime, "bytes", len(raw))
	return env, nil
}

// analysisPoll is how often a process waiting for another's analysis of a
// game reads the store.
const analysisPoll = 500 * time.Millisecond

// claimAnalysis returns the stored analysis of j's game, if any; else, on
// a store shared by processes, it claims the computation (bound to this
// process's lease, so it ends if the process dies). While another
// process's claim lives it waits for that process's analysis, reading the
// store every analysisPoll; when the claim ends without one (the process
// died, or failed), this process claims it. claimed says a claim is this
// process's to release. On a store one process uses, or without a live
// lease, nothing is claimed: the pool's own bookkeeping is the only one.
func (a *App) claimAnalysis(ctx context.Context, j *analysisJob) (env *analysisEnvelope, claimed bool, err error) {
	_, lease, ok := a.currentLease()
	a.leases.mu.Lock()
	shared := a.leases.shared
	a.leases.mu.Unlock()
	if !shared || !ok {
		env, err := a.cachedAnalysis(j.game, j.kind)
		return env, false, err
	}
	ctx, cancel := context.WithTimeout(ctx, analysisWait)
	defer cancel()
	for logged := false; ; {
		var other string
		err := a.Store.Update(ctx, func(tx storage.Tx) error {
			var err error
			other = ""
			if env, err = a.storedAnalysis(tx, j.game, j.kind); env != nil || err != nil {
				return err
			}
			other, err = tx.Analyses().Claim(j.game, a.Process, lease)
			return err
		})
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, false, a.analysisWaitEnded()
		case err != nil || env != nil:
			return env, false, err
		case other == "":
			return nil, true, nil
		}
		if !logged {
			a.Log.Info("another process is analysing the game: waiting for its analysis", "game", j.game, "owner", other)
			logged = true
		}
		t := time.NewTimer(analysisPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, false, a.analysisWaitEnded()
		case <-t.C:
		}
	}
}

// analysisWaitEnded is why a wait for another process's analysis ended:
// this process stopping, or the wait's time up (that process still holds
// the claim: a click later finds its analysis).
func (a *App) analysisWaitEnded() error {
	if a.analyses.ctx.Err() != nil {
		return errAnalysisStopped
	}
	return errAnalysisSlow
}

// releaseAnalysis ends this process's claim on the game's analysis (a
// computation that failed): another process may compute it.
func (a *App) releaseAnalysis(game string) {
	if err := a.update(func(tx storage.Tx) error { return tx.Analyses().Release(game, a.Process) }); err != nil {
		a.Log.Warn("releasing the claim on a game's analysis failed (it ends with this process's lease)", "game", game, "err", err)
	}
}
