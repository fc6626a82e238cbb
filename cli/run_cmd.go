package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"

	"sandtable/bot"
	"sandtable/playground"
	"sandtable/storage"
)

// runMain is `sandtable run [-config FILE] [-playground [-http-interactions]]`: it connects the
// bot to Discord, or, with no token configured or with -playground, starts the
// local playground (package playground) instead. It serves until SIGINT or
// SIGTERM, then shuts down gracefully (stops taking interactions, finishes
// those in flight, closes the database).
func runMain(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runWith(ctx, args, stdout, stderr, nil)
}

// runWith is runMain until ctx ends. holdBot, when not nil, holds the
// playground's bot back until it is closed (tests).
func runWith(ctx context.Context, args []string, stdout, stderr io.Writer, holdBot <-chan struct{}) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configPath := fs.String("config", "", "configuration file (TOML, see config.example.toml); default: config.toml if it exists")
	forcePlayground := fs.Bool("playground", false, "start the local playground even when a token is configured")
	httpInteractions := fs.Bool("http-interactions", false, "playground only: run the bot without a gateway, its stand-in delivering interactions to the bot's HTTP endpoint as Discord does to an Interactions Endpoint URL")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile (go tool pprof) of this run to FILE, complete once the bot stops (SIGINT or SIGTERM)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), `usage: sandtable run [-config FILE] [-playground [-http-interactions]] [-cpuprofile FILE]

Connects the bot to Discord. The token comes from DISCORD_TOKEN or
discord.token in the config file. With no token (or with -playground) it
starts the local playground instead: the bot against a Discord stand-in on
127.0.0.1 and a web page to play in, at the URL it prints.`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sandtable run: unexpected argument %s\n", quoteArg(fs.Arg(0)))
		return 2
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(stderr, "sandtable run: -cpuprofile:", err)
			return 2
		}
		defer func() {
			pprof.StopCPUProfile()
			_ = f.Close()
		}()
	}
	path := *configPath
	if path == "" {
		if _, err := os.Stat("config.toml"); err == nil {
			path = "config.toml"
		}
	}
	cfg, err := bot.LoadConfig(path, os.Getenv)
	if err != nil {
		fmt.Fprintln(stderr, "sandtable run: "+clipForeign(err.Error(), flagInputs(args)...))
		return 2
	}
	if *forcePlayground || cfg.Discord.Token.Empty() {
		if !*forcePlayground {
			fmt.Fprintln(stderr, "sandtable run: no Discord token configured (DISCORD_TOKEN or discord.token), so starting the local playground. To connect to Discord, see the README's \"Create the Discord application\".")
		}
		return runPlayground(ctx, cfg, *httpInteractions, stdout, stderr, holdBot)
	}
	if *httpInteractions {
		fmt.Fprintln(stderr, "sandtable run: -http-interactions is for the playground; a bot on Discord takes its interactions over HTTP with discord.public_key, http.listen and discord.gateway = false in the config (see the README's \"HTTP interactions\")")
		return 2
	}
	log := bot.NewLogger(cfg.Log, stderr)
	store, err := openStore(ctx, cfg.Storage)
	if err != nil {
		fmt.Fprintln(stderr, "sandtable run:", err)
		return 1
	}
	defer store.Close()
	// A bbolt file is this process's alone: claims found in it are an
	// earlier run's, taken over at once.
	_, sole := store.(*storage.Bolt)
	b, err := bot.New(cfg, store, bot.Options{Logger: log, SoleProcess: sole})
	if err != nil {
		fmt.Fprintln(stderr, "sandtable run:", err)
		return 1
	}
	log = b.Logger() // with the process and the shard
	if err := b.Start(); err != nil {
		fmt.Fprintln(stderr, "sandtable run:", err)
		return 1
	}
	<-ctx.Done()
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := b.Shutdown(sctx); err != nil {
		log.Error("shutdown", "err", err)
		return 1
	}
	log.Info("stopped")
	return 0
}

// openStore opens the store the [storage] table configures: the bbolt file
// (waiting 2 s for another process's lock) or the etcd cluster.
func openStore(ctx context.Context, c bot.StorageConfig) (storage.Store, error) {
	if c.Backend == "etcd" {
		return storage.OpenEtcd(ctx, c.EtcdOptions())
	}
	s, err := storage.Open(c.Path, 2*time.Second)
	if err != nil {
		return nil, fmt.Errorf("storage.path: %w", err)
	}
	return s, nil
}

// runPlayground serves the local playground until ctx ends.
func runPlayground(ctx context.Context, cfg bot.Config, httpInteractions bool, stdout, stderr io.Writer, holdBot <-chan struct{}) int {
	log := bot.NewLogger(cfg.Log, stderr)
	if cfg.Storage.Backend != "bbolt" {
		// The playground's games stay out of the store of the bot on Discord.
		fmt.Fprintf(stderr, "sandtable run: the playground keeps its games and its Discord stand-in in its own bbolt file, %s (playground.database); storage.backend = %q is for the bot on Discord and is not used here\n", cfg.Playground.Database, cfg.Storage.Backend)
	}
	store, err := storage.Open(cfg.Playground.Database, 2*time.Second)
	if errors.Is(err, storage.ErrLocked) {
		fmt.Fprintf(stderr, "sandtable run: another playground is running on %s: use its page (the URL it printed), stop it, or set database in [playground] to run a second one\n", cfg.Playground.Database)
		return 1
	}
	if err != nil {
		fmt.Fprintln(stderr, "sandtable run: playground:", err)
		return 1
	}
	defer store.Close()
	pg, err := playground.Start(playground.Options{Config: cfg, Store: store, Stdout: stdout, Stderr: stderr,
		Logger: log, HoldBot: holdBot, HTTPInteractions: httpInteractions})
	if err != nil {
		fmt.Fprintln(stderr, "sandtable run:", err)
		return 1
	}
	<-ctx.Done()
	log.Info("shutting down the playground")
	sctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := pg.Shutdown(sctx); err != nil {
		log.Error("shutdown", "err", err)
		return 1
	}
	log.Info("stopped; the playground is saved", "database", cfg.Playground.Database)
	return 0
}
