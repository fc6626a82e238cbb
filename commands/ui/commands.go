package ui

// Command is the definition of a slash command, registered with Discord
// when the bot connects. Names are lower case, at most 32 characters;
// descriptions at most 100.
type Command struct {
	Name        string
	Description string
	// DMPermission, when set to false, hides the command in direct
	// messages; nil leaves Discord's default (allowed).
	DMPermission *bool
	// DefaultMemberPermissions, when set, is the permission bits (Discord's,
	// e.g. ManageGuild) a member needs to see and use the command until a
	// server owner changes it in Integrations; the bot must still check the
	// member's permissions (Request.Permissions) itself. Nil: everyone.
	DefaultMemberPermissions *int64
	// GuildOnly registers the command for servers only (the guild
	// interaction context): it is not offered in direct messages.
	GuildOnly bool
	Options   []*CommandOption
}

// ManageGuild is Discord's Manage Server permission bit (MANAGE_GUILD).
const ManageGuild int64 = 1 << 5

// OptionType is the type of a command option's value, or a subcommand.
type OptionType int

// The option types the bot uses.
const (
	String OptionType = iota + 1
	Integer
	Boolean
	User
	Attachment
	Subcommand      // an option holding its own options
	SubcommandGroup // an option holding subcommands
	Channel         // a channel of the server, resolved by Discord
	Role            // a role of the server, resolved by Discord
)

// CommandOption is one option (or subcommand) of a Command. Choices (at
// most 25) restrict a string option to fixed values; Autocomplete asks the
// bot for choices while the user types instead. MaxLength bounds a string
// option's length (0: Discord's 6000).
type CommandOption struct {
	Type         OptionType
	Name         string
	Description  string
	Required     bool
	Autocomplete bool
	Choices      []*Choice
	Options      []*CommandOption // subcommands and groups
	MaxLength    int
	// TextChannels restricts a channel option to server text channels.
	TextChannels bool
}

// Choice is a fixed or autocompleted value of a string option: Name is
// shown (at most 100 characters, cut), Value is sent (at most 100, never
// cut: a longer one is left out).
type Choice struct {
	Name  string
	Value string
}

// ChannelType is the kind of a Discord channel, as far as the game flow
// cares.
type ChannelType int

// The channel types. Other is any channel no game can start in or from
// (voice, forum, category...).
const (
	OtherChannel ChannelType = iota
	TextChannel
	PublicThread
	PrivateThread
	NewsThread
)
