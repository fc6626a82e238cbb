// Package playground runs SandTable Bot on one machine with no Discord account: the real bot
// (real discordgo, real gateway and REST) connected to a local Discord stand-in (package
// internal/discordsim) on 127.0.0.1, and a web page that works like a Discord client, served by the
// same process. `sandtable run` starts it when no token is configured, or with -playground.
//
// # The page
//
// One server with a few text channels, four or more local people and a switcher to act as any
// of them, each person's DMs with the bot, public and private threads (a private thread is shown
// only to its members), messages with embeds, board images and files, buttons, select menus,
// modals, ephemeral messages shown only to their person, and a command box that knows the
// bot's registered slash commands (subcommands, options, choices, user options) with live
// autocomplete from the bot. Updates arrive by long polling. Everything is embedded: no build
// step, no CDN, nothing from the internet.
//
// The page shows what Discord's client shows:
//   - Markdown as Discord renders it: bold, italic, underline, strikethrough, spoilers, code,
//     quotes, headings, masked links, backslash escapes (\* shows *), mentions of people and
//     channels, message links as channel mentions, <t:UNIX:STYLE> timestamps in the reader's
//     locale (relative ones, "in 5 minutes", move on by themselves).
//   - Emoji drawn with Twemoji, as Discord draws them, from a font the page ships
//     (web/twemoji.woff2, OFL-1.1 with artwork under CC-BY 4.0), so they show on a machine with
//     no emoji font too.
//   - An ephemeral message lives in the page that received it: a reload no longer shows it.
//   - The bot's autocomplete suggestions never replace what was typed unless the user picks
//     one: a list made for an earlier text is never shown, nothing is highlighted until the
//     user moves to a suggestion, and Enter sends the text as typed.
//
// # The API
//
// JSON over HTTP under /api/. Errors are {"error": "...", "status": N} with that status.
// Actions name the person who acts in "as" (a user ID); the bot never acts through the API.
//
//	GET  /api/status                      {"bot": {"state": "connecting|ready|failed"}, "version": N}
//	GET  /api/view?as=U&channel=C         what U's client shows (see viewOut): server, channels,
//	     [&ephemeral_after=now|H]         DM, the channel's messages and commands, open modal,
//	                                      who has unread DMs (no U: the first person; a channel U
//	                                      cannot see: the first text channel); with
//	                                      ephemeral_after, only the ephemeral messages from H on
//	                                      ("now": from this moment; the answer's ephemeral_after
//	                                      is H, which the page sends for the rest of its life)
//	GET  /api/poll?since=N                waits (25 s at most) until the version differs from N
//	GET  /api/attachments/M/A/NAME?as=U   an attachment's bytes, if U can see message M
//	POST /api/messages      {"as", "channel_id", "content"}             plain message
//	POST /api/commands      {"as", "channel_id", "command", "options"}  slash command
//	POST /api/autocomplete  {"as", "channel_id", "command", "options"}  one option has "focused": true; answers {"choices"}
//	POST /api/click         {"as", "message_id", "custom_id"}            button
//	POST /api/select        {"as", "message_id", "custom_id", "values"}  select menu
//	POST /api/modal/submit  {"as", "values": {custom_id: text}}          submits U's open modal
//	POST /api/modal/dismiss {"as"}
//	POST /api/dm            {"as"}                                       opens U's DM with the bot
//	POST /api/threads/join  {"as", "thread_id"}                          joins a public thread
//
// Options are {"name", "value"}: a string, a number, a boolean, a user or channel ID for user
// and channel options, or for an attachment option a file {"filename", "content_type", "data"}
// with the bytes in base64 (at most MaxUpload bytes; the page's file picker sends it). Actions wait up to 3 seconds (Options.AnswerWait) for the bot's
// first answer and say whether it came ({"responded": true, "response_type": N}).
//
// Requests are checked: JSON bodies of at most MaxBody bytes with known fields only, a Host
// header naming this loopback server (no DNS rebinding), no Origin from another site. The page
// sets a Content-Security-Policy that allows nothing outside this server.
//
// # State
//
// The playground database (its own bbolt file, [playground] database) holds the bot's games as
// usual and, as storage documents, the stand-in's users, channels, threads, messages and
// attachments, saved shortly after every change and at shutdown; a playground game survives a
// restart.
package playground
