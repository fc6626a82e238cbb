package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"sandtable/bot"
	"sandtable/commands"
	"sandtable/storage"
)

const migrateUsage = `usage: sandtable migrate -from bbolt:PATH[,PATH...] -to etcd:URL[,URL...] [-prefix P] [-config FILE] [-force]
       sandtable migrate -from etcd:URL[,URL...] -to bbolt:PATH [-prefix P] [-config FILE] [-force]

Copies every record of the bot (games and their indexes, challenges, lobbies,
records, logs, interaction marks, the outbox, the playground's state) from
one or more bbolt files, or from an etcd cluster, into a new store. Stop every
bot using them first: a source whose heartbeat (written every 30 s by a
running bot, and once more as it stops) is under 90 s old is refused as in
use, nothing written, unless -force (a bot stopped moments ago, for sure).

Several bbolt files (one per shard, as the bot ran before etcd) are merged:
- records held by several files are copied once when identical; when they
  differ (two games with one ID, two records of a player...) nothing is
  written and every such key is listed with the files holding it;
- the heartbeat is the latest of the files'; the clock offset (downtime
  credited) the largest, and the deadlines, expiries and retry times of a
  file that credited less are re-expressed in it, keeping their wall time;
- outbox sequence numbers take the largest per stream, so effect IDs stay
  unique; interaction marks keep their latest time.

The sources are never changed: a bbolt file is read through a private copy
(migrated there when its schema is older). The destination must hold no bot
data (a new file, or an etcd prefix holding only the schema version);
otherwise nothing is written. The copy runs in transactions of at most 100
writes, then the destination is verified by counting its keys. If it fails
half-way, empty the destination (delete the file, or etcdctl del --prefix P)
and run it again.

-config reads the etcd user, password and TLS files of its [storage] table
(endpoints and prefix come from the flags).

flags:
`

// migrateMain implements "sandtable migrate". Exit codes: 0 copied and
// verified, 1 refused or failed (conflicts, a destination not empty, a
// source in use, a store that does not open), 2 bad arguments.
func migrateMain(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return migrateWith(ctx, args, stdout, stderr)
}

// migrateAliveWithin is how recent a source's heartbeat makes it in use: a
// running bot writes one every commands.HeartbeatEvery (30 s), late by up
// to a sweep on a busy machine.
const migrateAliveWithin = 3 * commands.HeartbeatEvery

// inUse is the refusal of a source whose newest heartbeat, at hb, is under
// migrateAliveWithin old at now ("" when none is).
func inUse(name string, hb, now time.Time) string {
	if hb.IsZero() {
		return ""
	}
	age := now.Sub(hb)
	if age >= migrateAliveWithin {
		return ""
	}
	when := fmt.Sprintf("%s ago", age.Round(time.Second))
	if age < 0 {
		when = fmt.Sprintf("%s ahead of this machine's clock", (-age).Round(time.Second))
	}
	return fmt.Sprintf("the source %s is in use: a bot recorded its heartbeat %s (at %s; a running bot records one every %s); "+
		"nothing was written. Stop every bot using it and run this again once its heartbeat is %s old, or pass -force if every bot is stopped",
		name, when, hb.UTC().Format(time.RFC3339), commands.HeartbeatEvery, migrateAliveWithin)
}

// storeSpec is a parsed -from or -to: a backend and its places.
type storeSpec struct {
	backend string   // "bbolt" or "etcd"
	places  []string // file paths or endpoint URLs
}

func parseStoreSpec(flagName, v string) (storeSpec, error) {
	backend, rest, ok := strings.Cut(v, ":")
	if v == "" {
		return storeSpec{}, fmt.Errorf("-%s is required (bbolt:PATH[,PATH...] or etcd:URL[,URL...])", flagName)
	}
	if !ok || (backend != "bbolt" && backend != "etcd") {
		return storeSpec{}, fmt.Errorf("-%s %s: start with bbolt: or etcd: (bbolt:PATH[,PATH...] or etcd:URL[,URL...])", flagName, quoteArg(v))
	}
	var places []string
	for _, p := range strings.Split(rest, ",") {
		if p = strings.TrimSpace(p); p == "" {
			return storeSpec{}, fmt.Errorf("-%s %s: an empty %s in the list", flagName, quoteArg(v), map[string]string{"bbolt": "path", "etcd": "URL"}[backend])
		}
		if backend == "etcd" && !strings.HasPrefix(p, "http://") && !strings.HasPrefix(p, "https://") {
			return storeSpec{}, fmt.Errorf("-%s: %s is not an etcd client URL such as http://127.0.0.1:2379", flagName, quoteArg(p))
		}
		places = append(places, p)
	}
	return storeSpec{backend, places}, nil
}

func migrateWith(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return migrateAt(ctx, time.Now, args, stdout, stderr)
}

// migrateAt is migrateWith on the clock now (tests inject it).
func migrateAt(ctx context.Context, now func() time.Time, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	from := fs.String("from", "", "the source: bbolt:PATH[,PATH...] or etcd:URL[,URL...]")
	to := fs.String("to", "", "the destination: etcd:URL[,URL...] or bbolt:PATH")
	prefix := fs.String("prefix", storage.DefaultEtcdPrefix, "the etcd key prefix (of the source or the destination)")
	configPath := fs.String("config", "", "configuration file whose [storage] gives the etcd user, password and TLS files")
	force := fs.Bool("force", false, "copy even from a source whose heartbeat is recent (every bot using it is stopped, for sure)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), migrateUsage)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := failer(stderr, "sandtable migrate: ", args)
	usageFail := func(format string, a ...any) int {
		fail(2, format, a...)
		fmt.Fprintln(stderr, "run 'sandtable migrate -h' for usage")
		return 2
	}
	if fs.NArg() > 0 {
		return usageFail("unexpected argument %s", quoteArg(fs.Arg(0)))
	}
	src, err := parseStoreSpec("from", *from)
	if err != nil {
		return usageFail("%s", err.Error())
	}
	dst, err := parseStoreSpec("to", *to)
	if err != nil {
		return usageFail("%s", err.Error())
	}
	switch {
	case src.backend == "etcd" && dst.backend == "etcd":
		return usageFail("-from and -to are both etcd: copy between clusters with etcd's own tools (etcdctl snapshot, make-mirror)")
	case dst.backend == "bbolt" && len(dst.places) != 1:
		return usageFail("-to bbolt: takes one file, got %d", len(dst.places))
	case strings.TrimSpace(*prefix) == "":
		return usageFail("-prefix must not be empty")
	case !strings.HasSuffix(*prefix, "/"):
		return usageFail("-prefix must end with / (such as sandtable/), got %s", quoteArg(*prefix))
	}
	if dst.backend == "bbolt" {
		for _, p := range src.places {
			if filepath.Clean(p) == filepath.Clean(dst.places[0]) {
				return usageFail("-to %s is also a source", quoteArg(dst.places[0]))
			}
		}
	}
	sc := bot.DefaultConfig().Storage
	if *configPath != "" {
		cfg, err := bot.LoadConfig(*configPath, nil)
		if err != nil {
			return fail(2, "%v", err)
		}
		sc = cfg.Storage
	}
	if src.backend == "bbolt" {
		// The same file under two names (a repeated or ./ path, a link) would
		// otherwise fail on bbolt's lock as if another process held it.
		var infos []os.FileInfo
		for _, p := range src.places {
			fi, err := os.Stat(p)
			if err != nil {
				return usageFail("-from: %s: no such file", quoteArg(p))
			}
			if fi.Mode().IsRegular() && fi.Size() == 0 {
				return usageFail("-from: %s is an empty file, not a bot database", quoteArg(p))
			}
			for j, prev := range infos {
				if os.SameFile(prev, fi) {
					return usageFail("-from lists one file twice: %s and %s", quoteArg(src.places[j]), quoteArg(p))
				}
			}
			infos = append(infos, fi)
		}
		if dst.backend == "bbolt" {
			if fi, err := os.Stat(dst.places[0]); err == nil {
				for _, s := range infos {
					if os.SameFile(s, fi) {
						return usageFail("-to %s is also a source", quoteArg(dst.places[0]))
					}
				}
			}
		}
	}
	open := func(spec storeSpec, i int, source bool) (storage.Store, error) {
		if spec.backend == "bbolt" && source {
			return storage.OpenCopy(spec.places[i], 2*time.Second) // the file stays as it was
		}
		if spec.backend == "bbolt" {
			return storage.Open(spec.places[i], 2*time.Second)
		}
		o := sc.EtcdOptions()
		o.Endpoints, o.Prefix, o.MustExist = spec.places, *prefix, source
		return storage.OpenEtcd(ctx, o)
	}
	var sources []storage.Source
	n := len(src.places)
	if src.backend == "etcd" {
		n = 1
	}
	for i := range n {
		s, err := open(src, i, true)
		if err != nil {
			return fail(1, "source: %v", err)
		}
		defer s.Close()
		name := src.places[i]
		if src.backend == "etcd" {
			name = strings.Join(src.places, ",")
		}
		sources = append(sources, storage.Source{Name: name, Store: s})
		var hb time.Time
		if err := s.View(ctx, func(tx storage.Tx) (err error) { hb, err = tx.Meta().Heartbeat(); return err }); err != nil {
			return fail(1, "source %s: reading its heartbeat: %v", name, err)
		}
		if msg := inUse(name, hb, now()); msg != "" {
			if !*force {
				return fail(1, "%s", msg)
			}
			fmt.Fprintf(stderr, "sandtable migrate: -force: copying %s although its heartbeat is %s old\n", name, now().Sub(hb).Round(time.Second))
		}
	}
	d, err := open(dst, 0, false)
	if err != nil {
		return fail(1, "destination: %v", err)
	}
	defer d.Close()
	rep, err := storage.Merge(ctx, d, sources)
	if errors.Is(err, storage.ErrMergeConflict) {
		fail(1, "%d records differ between the sources; nothing was written:", len(rep.Conflicts))
		for _, c := range rep.Conflicts {
			fmt.Fprintf(stderr, "  %s %s: in %s\n", c.Bucket, c.Key, strings.Join(c.Sources, ", "))
		}
		return 1
	}
	if err != nil {
		return fail(1, "%v", err)
	}
	for _, s := range sources {
		fmt.Fprintf(stdout, "read %d keys from %s\n", rep.Read[s.Name], s.Name)
	}
	var buckets []string
	total := 0
	for b, c := range rep.Written {
		buckets = append(buckets, fmt.Sprintf("%s %d", b, c))
		total += c
	}
	sort.Strings(buckets)
	fmt.Fprintf(stdout, "wrote %d keys in %d transactions to %s:%s: %s\n", total, rep.Batches, dst.backend, strings.Join(dst.places, ","), strings.Join(buckets, ", "))
	if !rep.Heartbeat.IsZero() {
		fmt.Fprintf(stdout, "heartbeat %s, clock offset %s\n", rep.Heartbeat.Format(time.RFC3339), rep.ClockOffset)
	}
	fmt.Fprintln(stdout, "verified: the destination holds every key written")
	return 0
}
