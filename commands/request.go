package commands

import (
	"context"
	"fmt"
	"strings"
	"time"

	"sandtable/commands/ui"
	"sandtable/internal/playertext"
)

// RequestType is the kind of interaction a Request came from.
type RequestType int

// The interaction kinds the bot handles.
const (
	CommandRequest      RequestType = iota + 1 // a slash command
	AutocompleteRequest                        // typing in an autocompleted option
	ComponentRequest                           // a button click or select menu choice
	ModalRequest                               // a modal form submitted
)

// User is the person behind an interaction.
type User struct {
	ID   string
	Name string // display name, for messages
	Bot  bool
}

// Mention is the Discord mention markup for the user; for a computer seat
// (ComputerUser), which is no Discord user, its name in bold.
func (u User) Mention() string {
	if IsComputer(u.ID) {
		return "**" + EscapeText(u.Name, 0) + "**"
	}
	return "<@" + u.ID + ">"
}

// Request is one decoded interaction. The bot package (the Discord
// adapter) fills it; tests may build one directly.
type Request struct {
	Type          RequestType
	InteractionID string
	GuildID       string
	ChannelID     string // channel, thread or DM channel the interaction came from
	User          User
	// Permissions are the member's permission bits in the channel, as
	// Discord computed them for the interaction (ui.ManageGuild...), and
	// Roles the member's role IDs; both zero outside servers.
	Permissions int64
	Roles       []string
	Now         time.Time
	// Ctx is the interaction's context (nil: context.Background): the
	// framework's store transactions for it run under it.
	Ctx context.Context

	// Commands and autocomplete.
	Command string            // top-level name, e.g. "survival"
	Sub     string            // subcommand name, "" when none
	Options map[string]Option // leaf options by name
	Focused string            // autocomplete: the option being typed

	// Components and modals.
	CustomID  string
	Values    []string          // select menu choices
	Fields    map[string]string // modal text inputs by custom ID
	MessageID string            // the message carrying the component

	// ratings are the players' ratings read with the request's game
	// (gameInChannelLocked), nil when not read.
	ratings *preRead
	// casualDefault is the server's default of the casual option (set
	// when the server's settings are read: mayStart).
	casualDefault bool
	// perMinute is the server's per-minute limit when this request's start
	// records its attempt in its own transaction (mayStartThen, countStart).
	perMinute int
}

// Context is Ctx, or context.Background when none was set.
func (r *Request) Context() context.Context {
	if r == nil || r.Ctx == nil {
		return context.Background()
	}
	return r.Ctx
}

// Option is one slash command option value, typed.
type Option struct {
	Type   ui.OptionType
	String string // string options, and the raw value of any other type
	Int    int64
	Bool   bool
	User   *User // user options, resolved
	// ChannelType is a channel option's channel's type, as Discord
	// resolved it.
	ChannelType ui.ChannelType
	// AttachmentURL and AttachmentName describe an attachment option.
	AttachmentURL  string
	AttachmentName string
}

// Str returns the string option name as readers read it: without
// invisible characters (playertext.Clean, as QuoteInput echoes it) and
// trimmed; "" when absent. Free text uses Text.
func (r *Request) Str(name string) string {
	return strings.TrimSpace(r.Typed(name))
}

// Typed returns the string option name without invisible characters
// (playertext.Clean) but untrimmed, for autocomplete, where a trailing
// space means a word is finished; "" when absent.
func (r *Request) Typed(name string) string {
	o, ok := r.Options[name]
	if !ok {
		return ""
	}
	return playertext.Clean(o.String)
}

// Text returns the free-text option name (a comment), trimmed, cleaned as
// free text is (playertext.Text: emoji sequences stay whole); "" when
// absent.
func (r *Request) Text(name string) string {
	o, ok := r.Options[name]
	if !ok {
		return ""
	}
	return strings.TrimSpace(playertext.Text(o.String))
}

// Field returns the modal text input id as readers read it, without
// invisible characters (playertext.Clean); "" when absent.
func (r *Request) Field(id string) string {
	return playertext.Clean(r.Fields[id])
}

// UserOpt returns the user option name, or nil when absent.
func (r *Request) UserOpt(name string) *User {
	o, ok := r.Options[name]
	if !ok || o.User == nil {
		return nil
	}
	return o.User
}

// Message is the content of a message the bot sends or edits: the neutral
// UI model (text, cards, files, rows of controls), which the bot package
// encodes for Discord. Fields left empty are sent empty.
type Message = ui.Message

// Response is a handler's answer to its interaction.
type Response struct {
	Message
	// Ephemeral makes the answer visible to the invoking user only.
	Ephemeral bool
	// Update edits the message carrying the clicked component instead of
	// posting a new message (component requests only).
	Update bool
	// Choices answers an autocomplete request (at most 25).
	Choices []*ui.Choice
	// Modal opens a form instead of answering.
	Modal *Modal
	// Posted, when set, is called with the ID of the message the bot posted
	// as this answer (public answers only).
	Posted func(messageID string)
	// Committed marks the answer to an interaction whose change was saved
	// (set by the framework), usually with a copy of this answer in the
	// outbox: the adapter calls AnswerSent once it is shown, or AnswerLost
	// when sending it failed, so that the change is shown once either way.
	Committed bool
	answerID  string // the outbox copy
	// final is the game whose end this answer shows (see markFinal): its
	// outbox copy, delivered, yields the game's final message.
	final string
	// PrivateNote, when set, follows the answer as a second message visible
	// to the invoking user only: what concerns them alone in a public
	// answer (their own rank under a public leaderboard).
	PrivateNote *Message
}

// Modal is a form with text inputs.
type Modal struct {
	CustomID string
	Title    string
	Inputs   []ModalInput
}

// ModalInput is one text input of a modal.
type ModalInput struct {
	CustomID    string
	Label       string
	Placeholder string
	Value       string
	Paragraph   bool
	Required    bool
	MaxLength   int
}

// Reply is a public answer with text.
func Reply(format string, args ...any) *Response {
	return &Response{Message: Message{Content: fmt.Sprintf(format, args...)}}
}

// Private is an ephemeral answer with text.
func Private(format string, args ...any) *Response {
	return &Response{Ephemeral: true, Message: Message{Content: fmt.Sprintf(format, args...)}}
}

// UserError is an error whose text is meant for the user who caused it: the
// bot answers it ephemerally, word for word. Other errors are logged and the
// user gets a generic apology.
type UserError struct{ Msg string }

func (e *UserError) Error() string { return e.Msg }

// Errorf builds a UserError.
func Errorf(format string, args ...any) error {
	return &UserError{Msg: fmt.Sprintf(format, args...)}
}
