// Package discordsim is a Discord simulator for end-to-end tests and the local playground:
// an HTTP server and a websocket gateway on 127.0.0.1 that a real discordgo.Session connects
// to. Nothing of discordgo is mocked; its REST client and gateway dialer are pointed at the fake.
//
// # What it models
//
// The fake keeps a state model like Discord's: users (named, some bots), guilds with text
// channels, public (type 11) and private (type 12) threads with their members, DM channels,
// messages (content, embeds, components, attachments with their bytes, author, ephemeral flag
// and the one user an ephemeral message is visible to), and registered application commands.
// Every REST call the bot makes is recorded (Calls) and applied to that state as Discord would:
//
//   - interaction callbacks: 4 creates a message (ephemeral: visible to the invoking user
//     only), 5 creates a "thinking" message that PATCH @original or the first follow-up fills,
//     6 defers an update of the component's message, 7 updates it, 8 stores autocomplete
//     choices (at most 25), 9 opens a modal for the user; a second callback fails with 40060;
//   - follow-ups (POST /webhooks/{app}/{token}), @original and follow-up GET/PATCH/DELETE,
//     tokens expiring after 15 minutes (or Interaction.Expire) with 50027;
//   - channel messages (JSON or multipart with payload_json and files[n]) with Discord's nonce:
//     a create carrying a nonce (at most 25 characters) and enforce_nonce answers a repeat of
//     that nonce by the same author within Options.NonceWindow (5 minutes on Options.Now's
//     clock) with 200 and the message already created, creating nothing (Call.Repeat); edits (a key present
//     replaces the field, null clears it, absent keeps it; "attachments" lists the files to
//     keep), deletes, fetches (never ephemeral messages);
//   - DM channel creation, thread creation (standalone: private unless type 11 is given, as in
//     API v9; from a message: public, with the message's ID), thread member add and remove;
//   - bulk overwrite of global and per-guild commands, validated like Discord (names,
//     descriptions, option order, choices) and keeping command IDs by name.
//
// Invalid requests get Discord's errors: 50006 empty message, 50035 invalid form body (content
// over 2000 characters, more than 10 embeds or 5 rows, duplicate custom IDs...), 50109 a body
// that is not UTF-8, 10003, 10008, 50001, 50005, 160004, 401 for a wrong token. Lengths are
// counted in characters (Unicode code points) as Discord counts them, never in bytes. Stricter
// than Discord, a string holding U+FFFD is refused (50035): encoding/json sends each byte of
// invalid UTF-8 as U+FFFD, so from the bot it means text cut inside a character.
//
// Components V2 layouts (message flag IS_COMPONENTS_V2, 1<<15) are accepted on channel messages,
// interaction answers and follow-ups, and checked as Discord checks them (50035): no content or
// embeds beside them; action rows, sections, text displays, media galleries, files, separators
// and containers where each may stand (no container in a container); a section of 1 to 3 text
// displays with a button or thumbnail; galleries of 1 to 10 items; files from the message's
// attachments; at most 40 components in all and 4000 characters of text; buttons and menus as
// in rows. Message.Text reads their text displays too.
//
// Threads: a person's message unarchives an archived thread; a locked one takes no message or
// command from people (Post and Slash refuse), as Discord's client has no box there.
//
// # Gateway
//
// GET /api/v9/gateway answers ws://127.0.0.1:PORT/gateway. The gateway sends HELLO, answers
// IDENTIFY with READY (the bot user, a session ID, the guilds of the session's shard) and one
// GUILD_CREATE per guild, ACKs heartbeats, numbers dispatches with increasing sequence numbers,
// routes guild events to shard (guild_id >> 22) % shard_count and DMs to shard 0, and answers
// RESUME by replaying the events the session missed, then RESUMED. IDENTIFY payloads are
// recorded (GatewaySessions), and so are the close frames clients send (GatewayCloses), with
// the number of REST calls that came before each: a test can check that the bot answered
// something before it closed its gateway. MESSAGE_CREATE is sent only with the message intents, and its
// content only with the MessageContent intent, as on Discord.
//
// # Injecting users' actions
//
// Slash, Autocomplete, Click, Select and SubmitModal send INTERACTION_CREATE as a named user in
// a guild channel, thread or DM, after checking what Discord's client would check (the command
// is registered and usable there, options match their definitions, the user can see the channel
// and the message, the button exists and is enabled, the select values are options). Each
// returns an *Interaction handle to find and wait for the bot's answer. Post sends a plain
// message as a user.
//
// # HTTP interactions
//
// DeliverTo(url) delivers interactions as Discord does to an Interactions Endpoint URL instead of
// over the gateway: a POST of the same payload, signed with the fake application's Ed25519 key
// (PublicKey, the bot's discord.public_key; timestamps from Options.Now). The HTTP answer (JSON, or
// multipart with payload_json and files[n]) is applied as the REST callback would be and recorded
// as a Call with Endpoint set; follow-ups and edits work as with the gateway. PingEndpoint checks
// an endpoint as the Developer Portal does; Sign and SignedRequest forge requests for tests.
//
// # Faults
//
// SetDMsClosed (403, code 50007 on the message POST to the DM channel), RateLimitNext (429 with
// retry_after; discordgo retries, so it must be finite), ServerErrorNext (500), FailNext (any
// status and code), DropGateway (the bot reconnects and resumes), RequestReconnect (op 7), and
// Options.CallbackDeadline (Discord's 3-second limit, off by default). Some faults strike after
// Discord did the work (Fault.Apply): LoseAnswerNext applies a call and closes the connection
// without an answer, LateAnswerNext holds the answer past the client's timeout, and
// Fault{Apply: true, Status: 500} answers an error for a call that succeeded; a client then
// retries something already done, which a nonce or a look at the channel must catch.
//
// # Waiting
//
// Every wait takes a timeout and returns as soon as its condition holds (the server wakes
// waiters on every change), so tests never sleep. On timeout the error wraps ErrTimeout and
// says what was missing, with the last REST calls.
//
// # For a web UI
//
// VisibleChannels, VisibleMessages, CommandsIn and OpenModal give what one user's client
// shows; the injection methods act as that user; Changed and Version support long polling;
// ExportState and Options.State persist the model across restarts. ExportStateSplit and
// Options.Files do the same with the attachments' bytes apart, so a frequent saver writes each
// file once. Message.Interaction says who used which command, for the line a client shows
// above an answer. The local playground (package playground) runs the fake as its Discord.
//
// # Usage
//
//	srv := discordsim.Start(t, discordsim.Options{})
//	sess := srv.NewSession() // or srv.Connect(sess) on a session the bot made
//	sess.Identify.Intents = discordgo.IntentsGuilds
//	// ... register the bot's handlers on sess, then:
//	if err := sess.Open(); err != nil {
//		t.Fatal(err)
//	}
//	t.Cleanup(func() { sess.ShouldReconnectOnError = false; sess.Close() })
//
//	alice, bob := srv.User("alice"), srv.User("bob")
//	general := srv.Channel("general")
//	if err := srv.WaitCommands(5*time.Second, general.ID, "survival"); err != nil {
//		t.Fatal(err)
//	}
//	in, err := srv.Slash(alice, general.ID, "survival challenge", discordsim.Opt("opponent", bob))
//	if err != nil {
//		t.Fatal(err)
//	}
//	challenge, err := in.WaitMessage(5*time.Second, nil)
//	if err != nil {
//		t.Fatal(err)
//	}
//	accept, err := srv.Click(bob, challenge, challenge.Buttons()[0].CustomID)
//	...
//	thread, err := srv.WaitThread(5*time.Second, func(c *discordsim.Channel) bool { return c.ParentID == general.ID })
//	choices, err := srv.Autocomplete(alice, thread.ID, "move", discordsim.Focused("move", "e"))
//	for _, m := range srv.VisibleMessages(bob, thread.ID) { ... }
//
// A bot in another process (a restart test) is pointed at the fake with
// Redirect(sess, srv.URL()).
//
// discordgo's Close sleeps about a second and, unless ShouldReconnectOnError is false first,
// reconnects: share sessions between tests where you can.
package discordsim
