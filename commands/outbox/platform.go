package outbox

import (
	"context"
	"errors"
	"time"

	"sandtable/internal/retry"

	"sandtable/commands/ui"
)

// Platform is what the framework does on Discord besides answering an
// interaction; every call carries the context of the interaction or the
// delivery that makes it (its cancellation abandons the request). The bot package implements it with discordgo; every method
// returns Discord's refusal as a *PlatformError except DM, which wraps a
// closed DM channel (Discord error 50007) in ErrDMClosed, and StartThread,
// which wraps a channel that cannot hold threads (50024) in ErrNoThreads.
type Platform interface {
	// Send posts a message in a channel or thread and returns its ID.
	Send(ctx context.Context, channelID string, m ui.Message) (string, error)
	// Edit replaces a message's content, embeds, files and components.
	Edit(ctx context.Context, channelID, messageID string, m ui.Message) error
	// Delete deletes the bot's message messageID in channelID.
	Delete(ctx context.Context, channelID, messageID string) error
	// DeleteDM deletes the direct message messageID (an ID DM returned)
	// the bot sent to userID.
	DeleteDM(ctx context.Context, userID, messageID string) error
	// StartThread creates a thread under channelID: public (anyone in the
	// channel can see it) or private (members only). It returns its ID.
	StartThread(ctx context.Context, channelID, name string, private bool) (string, error)
	// ChannelType is the type of the channel, thread or DM channelID (an
	// interaction does not say it).
	ChannelType(ctx context.Context, channelID string) (ui.ChannelType, error)
	// AddThreadMember and RemoveThreadMember change a thread's membership.
	AddThreadMember(ctx context.Context, threadID, userID string) error
	RemoveThreadMember(ctx context.Context, threadID, userID string) error
	// ArchiveThread archives and locks the thread threadID: it leaves the
	// active list and only moderators (and the bot, which locked it) can
	// reopen it. Archiving an archived thread again is no error.
	ArchiveThread(ctx context.Context, threadID string) error
	// RenameChannel renames a channel or thread (Discord allows about two
	// renames a channel per 10 minutes: more are refused with a 429).
	RenameChannel(ctx context.Context, channelID, name string) error
	// DM sends a direct message to a user and returns its ID.
	DM(ctx context.Context, userID string, m ui.Message) (string, error)
	// EditDM replaces the direct message messageID (an ID DM returned)
	// the bot sent to userID with m, as Edit does, and its attachments
	// too: an edited direct message keeps no file that m does not carry
	// (a panel or an order turned into a short text drops its image).
	EditDM(ctx context.Context, userID, messageID string, m ui.Message) error
	// StartThreadFrom starts the public thread of the message messageID in
	// channelID, named name, and returns its ID, which is the message's ID.
	// Starting it again (Discord's 160004, "a thread has already been
	// created for this message") is no error: it returns the same ID, so a
	// retried start never makes a second thread.
	StartThreadFrom(ctx context.Context, channelID, messageID, name string) (string, error)
	// FindThreads lists the IDs of the active threads named name under
	// the channel parentID of guild guildID, newest first: how a retried
	// thread start finds the thread an earlier attempt made.
	FindThreads(ctx context.Context, guildID, parentID, name string) ([]string, error)
	// Recent lists the bot's own messages among the latest limit messages
	// of channelID (newest first), as far as reconciliation needs them.
	Recent(ctx context.Context, channelID string, limit int) ([]Posted, error)
	// RecentDM is Recent for the direct messages with userID.
	RecentDM(ctx context.Context, userID string, limit int) ([]Posted, error)
	// Download fetches a file a user attached to a command (an attachment
	// option's URL) and returns its bytes. A file larger than maxBytes is
	// an error (ErrTooLarge), and so is any answer but 200 OK.
	Download(ctx context.Context, url string, maxBytes int64) ([]byte, error)
}

// Posted is a message the bot posted, as Platform.Recent reads it back:
// enough to recognise a message an earlier delivery attempt already posted.
type Posted struct {
	ID      string
	Content string
	// Cards are the titles, descriptions and footers of its embeds.
	Cards []ui.Card
}

// ErrTooLarge means a downloaded file is larger than the caller allows.
var ErrTooLarge = errors.New("the file is too large")

// ErrDMClosed means the user does not accept direct messages from the bot.
var ErrDMClosed = errors.New("the user's direct messages are closed")

// ErrNoThreads means a thread cannot be created in the channel, whatever
// the permissions: it is a thread itself, or a kind of channel that holds
// no threads.
var ErrNoThreads = errors.New("this channel cannot hold threads")

// PlatformError is a request Discord refused, as the Platform reports it
// (the bot package wraps discordgo's REST errors in it): the HTTP status,
// and Discord's JSON error code and message when it sent one. Err is the
// original error, whose text Error returns.
type PlatformError struct {
	HTTPStatus int    // 403, 404, 500...
	Status     string // the status line, "403 Forbidden"
	Code       int    // Discord's error code (50001: missing access), 0 when none
	Message    string // Discord's error message, "" when none
	// RetryAfter is the wait the server asked for (Retry-After,
	// retry_after), 0 when none.
	RetryAfter time.Duration
	Err        error
}

func (e *PlatformError) Error() string { return e.Err.Error() }

// Unwrap returns the original error.
func (e *PlatformError) Unwrap() error { return e.Err }

// RetryFailure describes the refusal to the retry policy.
func (e *PlatformError) RetryFailure() retry.Failure {
	return retry.Failure{Status: e.HTTPStatus, Code: e.Code, RetryAfter: e.RetryAfter}
}
