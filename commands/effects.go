package commands

import (
	"sandtable/commands/outbox"
	"sandtable/storage"
)

// The effects and the platform they are delivered on are package
// commands/outbox's; these names keep them where games use them.
type (
	// Op is what an effect does.
	Op = outbox.Op
	// Effect is one thing to do on Discord, stored in the outbox until done.
	Effect = outbox.Effect
	// Platform is what the framework does on Discord besides answering an
	// interaction (see outbox.Platform).
	Platform = outbox.Platform
	// Posted is a message the bot posted, as Platform.Recent reads it back.
	Posted = outbox.Posted
	// PlatformError is a request Discord refused, as the Platform reports it.
	PlatformError = outbox.PlatformError
)

// The effects (see outbox.Op).
const (
	OpPost         = outbox.OpPost
	OpEdit         = outbox.OpEdit
	OpDM           = outbox.OpDM
	OpEditDM       = outbox.OpEditDM
	OpStartThread  = outbox.OpStartThread
	OpAddMember    = outbox.OpAddMember
	OpAddMembers   = outbox.OpAddMembers
	OpRemoveMember = outbox.OpRemoveMember
	OpArchive      = outbox.OpArchive
	OpBoard        = outbox.OpBoard
	OpCompact      = outbox.OpCompact
	OpPing         = outbox.OpPing
	OpUnping       = outbox.OpUnping
	OpDelete       = outbox.OpDelete
	OpRename       = outbox.OpRename
)

// Where an effect goes and what it yields (see the outbox's).
const (
	ChannelOfGame = outbox.ChannelOfGame
	ResultThread  = outbox.ResultThread
	DMClosed      = outbox.DMClosed
)

// The platform's errors (see the outbox's).
var (
	ErrTooLarge  = outbox.ErrTooLarge
	ErrDMClosed  = outbox.ErrDMClosed
	ErrNoThreads = outbox.ErrNoThreads
)

// LiveBoard is the message ID of game g's live board in channelID (as the
// game named the channel to Board), "" when none was posted there yet.
func LiveBoard(g *storage.Game, channelID string) string { return outbox.LiveBoard(g, channelID) }
