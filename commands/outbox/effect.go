package outbox

import (
	"time"

	"sandtable/commands/ui"
)

// Op is what an effect does.
type Op string

// The effects.
const (
	OpPost         Op = "post"          // post Body in Channel
	OpEdit         Op = "edit"          // make Message of Channel Body
	OpDM           Op = "dm"            // send Body to User by direct message (dropped when their DMs are closed: the result is DMClosed)
	OpEditDM       Op = "edit_dm"       // make the direct message Message to User Body
	OpStartThread  Op = "start_thread"  // start thread Name under Channel: from the message Message when set, else a new one (Private or public)
	OpAddMember    Op = "add_member"    // add User to the thread Channel
	OpAddMembers   Op = "add_members"   // add each of Users to the thread Channel (one effect for a team: a start's transaction stays within etcd's limits)
	OpRemoveMember Op = "remove_member" // remove User from the thread Channel
	OpArchive      Op = "archive"       // archive and lock the thread Channel (idempotent)
	OpBoard        Op = "board"         // post Body in Channel as the game's live board there; the board it replaces becomes its compact form (see Turn.Board)
	OpCompact      Op = "compact"       // make the replaced board Message of Channel its compact form Body (queued by an OpBoard's delivery before schema 8's boards edited in place)
	OpPing         Op = "ping"          // post Body in Channel, or DM it to User when set, as a "your move" ping of the game, recorded in Game.Pings
	OpUnping       Op = "unping"        // delete every ping of the game recorded in Game.Pings (a new turn's, or the end's)
	OpDelete       Op = "delete"        // delete the message Message of Channel, or the direct message Message to User when set (gone already is done)
	OpRename       Op = "rename"        // rename the channel Channel to Name (on a stream of its own, where only the latest rename waits: see Turn.Rename)
)

// ChannelOfGame as an effect's Channel is the game's public thread, read
// when the effect is delivered (the thread an earlier effect started).
const ChannelOfGame = "@game"

// ResultThread as a start_thread effect's Result makes the started thread
// the game's public thread.
const ResultThread = "thread"

// DMClosed is what a dm effect with a Result yields when the user's direct
// messages are closed (Discord's 50007): the game's Delivered hook learns
// that the message was not sent (and may, say, tell the user in public).
const DMClosed = "dm-closed"

// Effect is one thing to do on Discord, stored in the outbox until done.
type Effect struct {
	Op      Op          `json:"op"`
	Channel string      `json:"channel,omitempty"`
	Message string      `json:"message,omitempty"`
	User    string      `json:"user,omitempty"`
	Users   []string    `json:"users,omitempty"` // add_members: the users to add
	Guild   string      `json:"guild,omitempty"` // start_thread: the guild, to find the thread again
	Name    string      `json:"name,omitempty"`
	Private bool        `json:"private,omitempty"`
	Body    *ui.Message `json:"body,omitempty"`
	// Game is the game the effect belongs to (set by the framework).
	Game string `json:"game,omitempty"`
	// Reconcile makes even the first attempt of a post look for the
	// message among the bot's recent ones (an answer whose sending failed
	// may have been shown after all).
	Reconcile bool `json:"reconcile,omitempty"`
	// Result names what the ID the effect yields (a thread's, a message's)
	// is to the game: ResultThread, or a name the game's Delivered hook
	// knows. "" when nobody needs it.
	Result string `json:"result,omitempty"`
	// Final marks the post (or edit) that shows the game's end in its
	// public thread: the ID it yields becomes the game's FinalMessage, which
	// the closing summary links to (see markFinal).
	Final bool `json:"final,omitempty"`
	// Closing marks a thread's closing summary: its body is written again
	// when delivered, from the game as stored then (closingSummary), so it
	// links to the final message learnt meanwhile.
	Closing bool `json:"closing,omitempty"`
	// Compact is, for a board (OpBoard), what its message becomes once a
	// newer board of its channel replaces it: text only.
	Compact *ui.Message `json:"compact,omitempty"`
	// InPlace makes a board (OpBoard) edit the live board of its channel
	// instead of replacing it (see Turn.UpdateBoard).
	InPlace bool `json:"in_place,omitempty"`
	// Replay attaches to a post the replay of its game (an animated GIF),
	// drawn when the post is delivered from the game as stored then: the
	// outbox never holds the file. A game without a replay posts nothing.
	Replay bool `json:"replay,omitempty"`
	// To are the users a turn's pings are for (OpPing without a Body):
	// the framework turns it, when saving it, into an OpUnping and the
	// pings each user chose (thread, direct message, none); Turn names
	// what they must do ("move", "turn", "deployment") and Reminder makes
	// them the turn's reminder. Never stored.
	To       []string `json:"to,omitempty"`
	Turn     string   `json:"turn,omitempty"`
	Reminder bool     `json:"reminder,omitempty"`
	// Replace makes a ping (OpPing) delete every ping of its game recorded
	// before it (Game.Pings) first, then replace them: a turn's first
	// ping, so that a move costs one delivery for its pings, not two.
	Replace bool `json:"replace,omitempty"`
	// Queued is when the effect was saved (for the outbox age metric);
	// zero in effects saved before it was recorded.
	Queued time.Time `json:"queued,omitempty"`
}
