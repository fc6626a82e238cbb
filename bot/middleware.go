package bot

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/bwmarrin/discordgo"

	"sandtable/commands"
)

// An interaction goes through a chain of middleware, outermost first:
//
//	gate (refuse while shutting down) → decode → answer (respond at once,
//	or defer: publicly, ephemerally when the answer is private
//	(App.AnswersPrivately), or as an update of a clicked message) → log →
//	recover (a panic becomes an apology with a reference) → route
//	(App.Handle: lock, dedupe and the game's action live in the framework)
//
// Each step is a function of the call and the rest of the chain.

// call is one interaction on its way through the chain.
type call struct {
	ctx context.Context
	i   *discordgo.Interaction
	req *commands.Request
	log *slog.Logger
	// initial sends the initial response (the answer or the deferral).
	initial responder
}

// result is what the inner chain produced.
type result struct {
	resp *commands.Response
	err  error
}

// step is one middleware: it may act before and after next, the rest of
// the chain.
type step func(c *call, next func(*call) result) result

// chain composes steps around the innermost handler.
func chain(handler func(*call) result, steps ...step) func(*call) result {
	h := handler
	for i := len(steps) - 1; i >= 0; i-- {
		s, next := steps[i], h
		h = func(c *call) result { return s(c, next) }
	}
	return h
}

// responder sends an interaction's initial response: to the REST callback
// for a gateway interaction, as the HTTP response body for one that came to
// the interactions endpoint.
type responder func(*discordgo.InteractionResponse) error

func (b *Bot) onInteraction(s *discordgo.Session, ic *discordgo.InteractionCreate) {
	i := ic.Interaction
	initial := func(r *discordgo.InteractionResponse) error { return b.sess.InteractionRespond(i, r) }
	if !b.enter() {
		if i.Type != discordgo.InteractionApplicationCommandAutocomplete {
			b.respond(i, &commands.Response{Ephemeral: true, Message: commands.Message{
				Content: "The bot is restarting. Nothing was changed; try again in a minute."}}, initial)
		}
		return
	}
	defer b.inflight.Done()
	b.handle(i, initial)
}

// handle runs an interaction through the middleware chain; initial sends
// its initial response. The caller has counted it in (enter).
func (b *Bot) handle(i *discordgo.Interaction, initial responder) {
	req, err := decode(i, b.opts.Now())
	if err != nil {
		b.log.Warn("ignoring interaction", "id", i.ID, "err", err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req.Ctx = ctx
	c := &call{ctx: ctx, i: i, req: req, initial: initial,
		log: b.log.With("interaction", i.ID, "user", req.User.ID, "command", req.Command, "custom_id", req.CustomID)}
	b.answer(c, chain(b.route, b.logStep, b.recoverStep))
}

// logStep logs each interaction's outcome and duration at debug level.
func (b *Bot) logStep(c *call, next func(*call) result) result {
	start := time.Now()
	r := next(c)
	took := time.Since(start)
	c.log.Debug("interaction handled", "took", took, "err", r.err)
	b.ops.observe(c.req, took, r.err)
	return r
}

// recoverStep turns a panic in a handler into an error (the user gets an
// apology with a reference; the stack is logged).
func (b *Bot) recoverStep(c *call, next func(*call) result) (r result) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("handler panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			r = result{err: fmt.Errorf("panic: %v", p)}
		}
	}()
	return next(c)
}

// route hands the request to the framework.
func (b *Bot) route(c *call) result {
	resp, err := b.app.Handle(c.req)
	return result{resp, err}
}

// answer runs the chain and answers the interaction: at once when the
// handler is quick (within Options.DeferAfter), else with a deferral
// first (Discord's 3-second rule) and the answer when it is ready.
// Autocomplete cannot be deferred: it is answered when ready.
func (b *Bot) answer(c *call, handle func(*call) result) {
	done := make(chan result, 1)
	go func() { done <- handle(c) }()
	i := c.i
	var r result
	if c.req.Type == commands.AutocompleteRequest {
		r = <-done
		b.respond(i, b.toResponse(r, c.log), c.initial)
		return
	}
	if b.opts.DeferAfter > 0 {
		timer := time.NewTimer(b.opts.DeferAfter)
		select {
		case r = <-done:
			timer.Stop()
			b.respond(i, b.toResponse(r, c.log), c.initial)
			return
		case <-timer.C:
		}
	}
	// A component (or a modal submitted from one) defers an update of its
	// message, which shows nothing. A command defers with a "thinking"
	// message, public unless the kind declares the answer private: a public
	// one would show the command and its options to everyone.
	defer_ := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
	private := false
	switch {
	case updatesMessage(i):
		defer_.Type = discordgo.InteractionResponseDeferredMessageUpdate
	case b.app.AnswersPrivately(c.req):
		private = true
		defer_.Data = &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}
	}
	b.ops.deferrals.Inc()
	if err := c.initial(defer_); err != nil {
		c.log.Error("deferring failed", "err", err)
	}
	r = <-done
	ans := b.toResponse(r, c.log)
	if private && !ans.Ephemeral {
		c.log.Warn("a private answer was not ephemeral; it fills the ephemeral deferral")
	}
	b.respondDeferred(i, ans, private)
}
