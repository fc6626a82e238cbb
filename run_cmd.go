package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"sandtable/bot"
	"sandtable/storage"
)

// runMain is `sandtable run [-config FILE]`: it connects the bot to Discord
// and serves until SIGINT or SIGTERM, then shuts down gracefully (stops
// taking interactions, finishes those in flight, closes the database).
func runMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configPath := fs.String("config", "", "configuration file (TOML, see config.example.toml); default: config.toml if it exists")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: sandtable run [-config FILE]\n\nConnects the bot to Discord. The token comes from DISCORD_TOKEN or discord.token in the config file.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sandtable run: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	path := *configPath
	if path == "" {
		if _, err := os.Stat("config.toml"); err == nil {
			path = "config.toml"
		}
	}
	cfg, err := bot.LoadConfig(path, os.Getenv)
	if err != nil {
		fmt.Fprintln(stderr, "sandtable run:", err)
		return 2
	}
	if err := cfg.RequireToken(path); err != nil {
		fmt.Fprintln(stderr, "sandtable run:", err)
		return 2
	}
	log := bot.NewLogger(cfg.Log, stderr)
	store, err := storage.Open(cfg.Storage.Path, 2*time.Second)
	if err != nil {
		fmt.Fprintln(stderr, "sandtable run:", err)
		return 1
	}
	defer store.Close()
	b, err := bot.New(cfg, store, bot.Options{Logger: log})
	if err != nil {
		fmt.Fprintln(stderr, "sandtable run:", err)
		return 1
	}
	if err := b.Start(); err != nil {
		fmt.Fprintln(stderr, "sandtable run:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
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
