package bot

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"sandtable/commands"
	"sandtable/storage"
)

// ops is the bot's operations surface: Prometheus metrics, and the HTTP
// listener ([http] listen) serving /metrics, /livez and /readyz. Each Bot
// has its own registry, so tests read exactly their bot's figures.
type ops struct {
	reg          *prometheus.Registry
	interactions *prometheus.CounterVec   // by type and outcome
	latency      *prometheus.HistogramVec // handler seconds, by type
	deferrals    prometheus.Counter
	restErrors   *prometheus.CounterVec // by HTTP status and Discord code
	refused      *prometheus.CounterVec // interactions endpoint requests refused, by reason
	renders      *prometheus.HistogramVec
	retries      prometheus.Counter
	waited       prometheus.Histogram // effects done: seconds since due
	server       *http.Server
	addr         string
	// The process's lease on a shared store and the watch's wake-ups.
	leases, leasesLost prometheus.Counter
	wakeups            *prometheus.CounterVec
}

func newOps(b *Bot) *ops {
	o := &ops{reg: prometheus.NewRegistry()}
	o.interactions = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sandtable_interactions_total",
		Help: "Interactions handled, by type (command, autocomplete, component, modal) and outcome (ok, refused, error)."},
		[]string{"type", "outcome"})
	o.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "sandtable_interaction_seconds",
		Help: "Time from an interaction's arrival to its handler's answer, by type.", Buckets: prometheus.ExponentialBuckets(0.001, 2, 14)},
		[]string{"type"})
	o.deferrals = prometheus.NewCounter(prometheus.CounterOpts{Name: "sandtable_deferrals_total",
		Help: "Interactions deferred because their handler was slow."})
	o.restErrors = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sandtable_discord_rest_errors_total",
		Help: "Discord REST requests refused, by HTTP status and Discord error code (0: none)."}, []string{"status", "code"})
	o.refused = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sandtable_endpoint_refused_total",
		Help: "Requests to the HTTP interactions endpoint refused, by reason (missing_signature, bad_signature, bad_timestamp, stale_timestamp, too_large, draining)."},
		[]string{"reason"})
	o.renders = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "sandtable_render_seconds",
		Help:    "Time to render and encode a board image, by what was rendered (chess, sandtable_public, sandtable_south, sandtable_north).",
		Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14)}, []string{"what"})
	o.retries = prometheus.NewCounter(prometheus.CounterOpts{Name: "sandtable_outbox_retries_total",
		Help: "Failed effect deliveries put back in the outbox for another attempt."})
	o.waited = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "sandtable_outbox_wait_seconds",
		Help: "Effects this process recorded done (performed, or dropped as refused): seconds from when each was due " +
			"(queued, or its retry's time) until then.", Buckets: prometheus.ExponentialBuckets(0.01, 2, 16)})
	o.reg.MustRegister(o.interactions, o.latency, o.deferrals, o.restErrors, o.refused, o.renders, o.retries, o.waited,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "sandtable_outbox_workers",
			Help: "The size of this process's delivery pool: how many games' effects it delivers at once (outbox.workers)."},
			func() float64 { return float64(b.app.PoolSize()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "sandtable_outbox_delivering",
			Help: "Games whose effects this process is delivering now: its pool's busy workers and actions delivering their own effects."},
			func() float64 { return float64(b.app.Delivering()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "sandtable_outbox_parked",
			Help: "Games whose effects wait, in this process, for their replay to be drawn."},
			func() float64 { return float64(b.app.Parked()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "sandtable_analyses_computed_total",
			Help: "Finished games' analyses this process computed (the Analysis button; a click answered from the store computes none)."},
			func() float64 { return float64(b.app.AnalysesComputed()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "sandtable_analyses_waiting",
			Help: "Clicks on Analysis waiting, in this process, for their game's analysis to be computed."},
			func() float64 { return float64(b.app.AnalysesWaiting()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "sandtable_outbox_oldest_seconds",
			Help: "How long the oldest effect in the outbox has waited since it was saved (0: empty)."}, func() float64 {
			d, err := b.app.OldestPending(b.opts.Now())
			if err != nil {
				b.log.Warn("metrics: reading the outbox failed", "err", err)
			}
			return d.Seconds()
		}),
		&activeGames{b: b},
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "sandtable_outbox_pending",
			Help: "Effects waiting in the outbox (due or not)."}, func() float64 { return float64(b.app.Pending()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "sandtable_outbox_due",
			Help: "Effects due now and not delivered yet."}, func() float64 { return float64(b.app.Due(b.opts.Now())) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "sandtable_timers_due",
			Help: "Game timers (deadlines, turn reminders) due now and not handled yet."}, func() float64 {
			var n int
			_ = b.store.View(context.Background(), func(tx storage.Tx) error {
				ids, err := tx.Games().Due(b.opts.Now())
				n = len(ids)
				return err
			})
			return float64(n)
		}),
	)
	o.leases = prometheus.NewCounter(prometheus.CounterOpts{Name: "sandtable_leases_granted_total",
		Help: "Leases this process took on a shared store (etcd), which its outbox claims are bound to: 1 unless one was lost."})
	o.leasesLost = prometheus.NewCounter(prometheus.CounterOpts{Name: "sandtable_leases_lost_total",
		Help: "Leases this process lost while alive (the store lost its majority for a whole lease TTL): it delivered nothing until it held a new one."})
	o.wakeups = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sandtable_store_wakeups_total",
		Help: "Wake-ups of the timer loop and the dispatcher by other processes' changes on a shared store, by change (timer_set, process_gone, missed)."},
		[]string{"change"})
	o.reg.MustRegister(o.leases, o.leasesLost, o.wakeups)
	return o
}

// activeGames is the gauge of active games by kind, read from the store at
// scrape time (App.ActiveGames), at most once per activeGamesEvery: every
// replica reports the same figures, the whole store's. Reading costs about
// 0.13 s per 10,000 active games on bbolt (BenchmarkActiveGames).
type activeGames struct {
	b *Bot

	mu     sync.Mutex
	at     time.Time // wall time of the last reading
	counts map[string]int
}

// activeGamesEvery bounds how often the store is read for the gauge.
const activeGamesEvery = 30 * time.Second

var activeGamesDesc = prometheus.NewDesc("sandtable_games_active",
	"Active games by kind, read from the store at scrape time (at most every 30 s).", []string{"kind"}, nil)

func (g *activeGames) Describe(ch chan<- *prometheus.Desc) { ch <- activeGamesDesc }

func (g *activeGames) Collect(ch chan<- prometheus.Metric) {
	g.mu.Lock()
	defer g.mu.Unlock()
	var err error
	if g.counts == nil || time.Since(g.at) >= activeGamesEvery {
		var counts map[string]int
		if counts, err = g.b.app.ActiveGames(); err == nil {
			g.counts, g.at = counts, time.Now()
		}
	}
	if err != nil {
		g.b.log.Warn("metrics: counting active games failed", "err", err)
		ch <- prometheus.NewInvalidMetric(activeGamesDesc, err)
		return
	}
	kinds := g.b.app.KindNames()
	for _, kind := range kinds {
		ch <- prometheus.MustNewConstMetric(activeGamesDesc, prometheus.GaugeValue, float64(g.counts[kind]), kind)
	}
	for kind, n := range g.counts {
		if !slices.Contains(kinds, kind) { // a kind no longer registered
			ch <- prometheus.MustNewConstMetric(activeGamesDesc, prometheus.GaugeValue, float64(n), kind)
		}
	}
}

// observe records one handled interaction.
func (o *ops) observe(req *commands.Request, took time.Duration, err error) {
	typ := map[commands.RequestType]string{commands.CommandRequest: "command", commands.AutocompleteRequest: "autocomplete",
		commands.ComponentRequest: "component", commands.ModalRequest: "modal"}[req.Type]
	outcome := "ok"
	var ue *commands.UserError
	switch {
	case errors.As(err, &ue):
		outcome = "refused"
	case err != nil:
		outcome = "error"
	}
	o.interactions.WithLabelValues(typ, outcome).Inc()
	o.latency.WithLabelValues(typ).Observe(took.Seconds())
}

// restError counts a Discord REST refusal (err as platformError made it).
func (o *ops) restError(err error) {
	var pe *commands.PlatformError
	if errors.As(err, &pe) {
		o.restErrors.WithLabelValues(strconv.Itoa(pe.HTTPStatus), strconv.Itoa(pe.Code)).Inc()
	}
}

// serve starts the HTTP listener on addr (host:port; port 0 picks one).
func (o *ops) serve(b *Bot, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("http.listen %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(o.reg, promhttp.HandlerOpts{}))
	if b.publicKey != nil {
		mux.HandleFunc("POST /interactions", b.serveInteractions)
	}
	mux.HandleFunc("GET /livez", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if nr := b.ready(r.Context()); nr != nil {
			if nr.err != nil {
				b.log.Warn("/readyz: not ready", "reason", nr.reason, "err", nr.err)
			}
			http.Error(w, "not ready: "+nr.reason, http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	o.server = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second}
	o.addr = ln.Addr().String()
	go func() {
		if err := o.server.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			b.log.Error("the HTTP listener stopped", "err", err)
		}
	}()
	if b.publicKey != nil {
		b.log.Info("serving the interactions endpoint (POST /interactions), /metrics, /livez and /readyz", "address", o.addr)
		return nil
	}
	b.log.Info("serving /metrics, /livez and /readyz", "address", o.addr)
	return nil
}

// readyStoreTimeout bounds /readyz's read of the store.
const readyStoreTimeout = 2 * time.Second

// notReady is why the bot does not serve: reason, short and fixed, is all
// /readyz answers; err, the detail (which may name a file or a cluster's
// addresses), goes to the log only.
type notReady struct {
	reason string
	err    error
}

// ready says whether the bot serves (nil), or why not: its store answers,
// and its gateway connection is up or its interactions endpoint serves
// (and it is not shutting down).
func (b *Bot) ready(ctx context.Context) *notReady {
	if !b.started.Load() {
		return &notReady{reason: "starting"}
	}
	b.gate.Lock()
	closing := b.closing
	b.gate.Unlock()
	if closing {
		return &notReady{reason: "shutting down"}
	}
	// A real read: a View that reads nothing never reaches an etcd cluster.
	// Bounded, as a store's View retries an unavailable cluster for long.
	sctx, cancel := context.WithTimeout(ctx, readyStoreTimeout)
	defer cancel()
	if err := b.store.View(sctx, func(tx storage.Tx) error {
		_, err := tx.Meta().Heartbeat()
		return err
	}); err != nil {
		return &notReady{reason: "store unavailable", err: err}
	}
	if b.publicKey != nil && b.ops.server != nil {
		return nil // the interactions endpoint serves
	}
	b.sess.RLock() // discordgo writes DataReady under the session's lock
	connected := b.sess.DataReady
	b.sess.RUnlock()
	if !connected {
		return &notReady{reason: "gateway not connected"}
	}
	return nil
}

// HTTPAddr is the address the HTTP listener serves on ("" when off).
func (b *Bot) HTTPAddr() string {
	if b.ops.server == nil {
		return ""
	}
	return b.ops.addr
}
