package discordsim

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

var commandName = regexp.MustCompile(`^[-_\p{Ll}\p{Lo}\p{N}]{1,32}$`)

// commandsRouteLocked serves /applications/{app}/commands[...] and
// /applications/{app}/guilds/{g}/commands[...].
func (s *Server) commandsRouteLocked(req *request) reply {
	segs := req.segs
	if segs[1] != s.bot.ID {
		return fail(&apiError{403, discordgo.ErrCodeMissingAccess, "Missing Access"})
	}
	scope, rest := "", segs[2:]
	if len(rest) >= 3 && rest[0] == "guilds" {
		scope, rest = rest[1], rest[2:]
		if s.st.guilds[scope] == nil {
			return fail(&apiError{404, discordgo.ErrCodeUnknownGuild, "Unknown Guild"})
		}
	}
	if len(rest) == 0 || rest[0] != "commands" {
		return fail(errNotFound())
	}
	switch {
	case len(rest) == 1 && req.method == "GET":
		return ok(s.commandListLocked(scope))
	case len(rest) == 1 && req.method == "PUT":
		var cmds []*discordgo.ApplicationCommand
		if req.body == nil || json.Unmarshal(req.body, &cmds) != nil {
			return fail(errInvalidForm("body must be a JSON array of application commands"))
		}
		if len(cmds) > 100 {
			return fail(errInvalidForm("must be 100 or fewer in length"))
		}
		seen := map[string]bool{}
		for i, c := range cmds {
			if err := validateCommand(fmt.Sprint(i), c); err != nil {
				return fail(err)
			}
			key := fmt.Sprint(commandType(c), c.Name)
			if seen[key] {
				return fail(errInvalidForm(fmt.Sprintf("%d.name: application command names must be unique (%s)", i, c.Name)))
			}
			seen[key] = true
		}
		for _, c := range cmds {
			s.assignCommandLocked(scope, c)
		}
		s.st.commands[scope] = cmds
		return ok(s.commandListLocked(scope))
	case len(rest) == 1 && req.method == "POST":
		var c *discordgo.ApplicationCommand
		if req.body == nil || json.Unmarshal(req.body, &c) != nil || c == nil {
			return fail(errInvalidForm("body must be an application command"))
		}
		if err := validateCommand("", c); err != nil {
			return fail(err)
		}
		s.assignCommandLocked(scope, c)
		list := s.st.commands[scope]
		replaced := false
		for i, old := range list {
			if old.Name == c.Name && commandType(old) == commandType(c) {
				list[i], replaced = c, true
			}
		}
		if !replaced {
			list = append(list, c)
		}
		s.st.commands[scope] = list
		return created(c)
	case len(rest) == 2:
		list := s.st.commands[scope]
		for i, c := range list {
			if c.ID != rest[1] {
				continue
			}
			switch req.method {
			case "GET":
				return ok(c)
			case "DELETE":
				s.st.commands[scope] = append(list[:i:i], list[i+1:]...)
				return noContent()
			}
		}
		return fail(&apiError{404, discordgo.ErrCodeUnknownApplicationCommand, "Unknown application command"})
	}
	return fail(errNotFound())
}

func commandType(c *discordgo.ApplicationCommand) discordgo.ApplicationCommandType {
	if c.Type == 0 {
		return discordgo.ChatApplicationCommand
	}
	return c.Type
}

// assignCommandLocked gives c the ID it had before under the same name (Discord keeps IDs across
// overwrites) or a new one.
func (s *Server) assignCommandLocked(scope string, c *discordgo.ApplicationCommand) {
	key := scope + "/" + fmt.Sprint(commandType(c)) + "/" + c.Name
	id := s.st.cmdIDs[key]
	if id == "" {
		id = s.newID()
		s.st.cmdIDs[key] = id
	}
	c.ID, c.ApplicationID, c.GuildID, c.Version = id, s.bot.ID, scope, s.newID()
	c.Type = commandType(c)
}

func (s *Server) commandListLocked(scope string) []*discordgo.ApplicationCommand {
	out := s.st.commands[scope]
	if out == nil {
		out = []*discordgo.ApplicationCommand{}
	}
	return out
}

// validateCommand applies Discord's registration rules to a chat input command.
func validateCommand(at string, c *discordgo.ApplicationCommand) *apiError {
	if at != "" {
		at += "."
	}
	if c == nil {
		return errInvalidForm(at + "command is null")
	}
	if commandType(c) != discordgo.ChatApplicationCommand {
		if c.Name == "" || utf8.RuneCountInString(c.Name) > 32 {
			return errInvalidForm(at + "name: must be 1 to 32 characters")
		}
		return nil
	}
	if !commandName.MatchString(c.Name) {
		return errInvalidForm(fmt.Sprintf("%sname: %q must be 1 to 32 lowercase letters, digits, - or _", at, c.Name))
	}
	if n := utf8.RuneCountInString(c.Description); n < 1 || n > 100 {
		return errInvalidForm(at + "description: must be 1 to 100 characters")
	}
	return validateOptions(at+"options", c.Options, 0, false)
}

func validateOptions(at string, opts []*discordgo.ApplicationCommandOption, depth int, inGroup bool) *apiError {
	if len(opts) > 25 {
		return errInvalidForm(at + ": must be 25 or fewer in length")
	}
	subs, plain := 0, 0
	optional := false
	names := map[string]bool{}
	for i, o := range opts {
		oat := fmt.Sprintf("%s[%d]", at, i)
		if o == nil {
			return errInvalidForm(oat + ": null")
		}
		if !commandName.MatchString(o.Name) {
			return errInvalidForm(fmt.Sprintf("%s.name: %q must be 1 to 32 lowercase letters, digits, - or _", oat, o.Name))
		}
		if names[o.Name] {
			return errInvalidForm(oat + ".name: option names must be unique (" + o.Name + ")")
		}
		names[o.Name] = true
		if n := utf8.RuneCountInString(o.Description); n < 1 || n > 100 {
			return errInvalidForm(oat + ".description: must be 1 to 100 characters")
		}
		switch o.Type {
		case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
			subs++
			if o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
				if depth > 0 {
					return errInvalidForm(oat + ": a subcommand group can only be at the top level")
				}
				for j, sub := range o.Options {
					if sub == nil || sub.Type != discordgo.ApplicationCommandOptionSubCommand {
						return errInvalidForm(fmt.Sprintf("%s.options[%d]: a subcommand group holds only subcommands", oat, j))
					}
				}
			} else if depth > 1 || (depth == 1 && !inGroup) {
				return errInvalidForm(oat + ": a subcommand can only be at the top level or in a group")
			}
			group := o.Type == discordgo.ApplicationCommandOptionSubCommandGroup
			if err := validateOptions(oat+".options", o.Options, depth+1, group); err != nil {
				return err
			}
		case discordgo.ApplicationCommandOptionString, discordgo.ApplicationCommandOptionInteger,
			discordgo.ApplicationCommandOptionBoolean, discordgo.ApplicationCommandOptionUser,
			discordgo.ApplicationCommandOptionChannel, discordgo.ApplicationCommandOptionRole,
			discordgo.ApplicationCommandOptionMentionable, discordgo.ApplicationCommandOptionNumber,
			discordgo.ApplicationCommandOptionAttachment:
			plain++
			if len(o.Options) > 0 {
				return errInvalidForm(oat + ".options: only subcommands have options")
			}
			if o.Required && optional {
				return errInvalidForm(oat + ".required: required options must be placed before non-required options")
			}
			if !o.Required {
				optional = true
			}
			if len(o.Choices) > 25 {
				return errInvalidForm(oat + ".choices: must be 25 or fewer in length")
			}
			if o.Autocomplete && len(o.Choices) > 0 {
				return errInvalidForm(oat + ".autocomplete: cannot be set with choices")
			}
			if o.Autocomplete && o.Type != discordgo.ApplicationCommandOptionString &&
				o.Type != discordgo.ApplicationCommandOptionInteger && o.Type != discordgo.ApplicationCommandOptionNumber {
				return errInvalidForm(oat + ".autocomplete: only string, integer and number options autocomplete")
			}
			for j, ch := range o.Choices {
				if ch == nil || ch.Name == "" || utf8.RuneCountInString(ch.Name) > 100 {
					return errInvalidForm(fmt.Sprintf("%s.choices[%d].name: must be 1 to 100 characters", oat, j))
				}
				if _, err := coerceChoice(o.Type, ch.Value); err != nil {
					return errInvalidForm(fmt.Sprintf("%s.choices[%d].value: %v", oat, j, err))
				}
			}
		default:
			return errInvalidForm(fmt.Sprintf("%s.type: unknown option type %d", oat, o.Type))
		}
	}
	if subs > 0 && plain > 0 {
		return errInvalidForm(at + ": subcommands cannot be mixed with other options")
	}
	return nil
}

func coerceChoice(t discordgo.ApplicationCommandOptionType, v any) (any, error) {
	switch t {
	case discordgo.ApplicationCommandOptionString:
		if s, ok := v.(string); ok {
			return s, nil
		}
		return nil, fmt.Errorf("must be a string")
	case discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionNumber:
		f, ok := v.(float64)
		if !ok {
			return nil, fmt.Errorf("must be a number")
		}
		if t == discordgo.ApplicationCommandOptionInteger && f != math.Trunc(f) {
			return nil, fmt.Errorf("must be an integer")
		}
		return f, nil
	}
	return nil, fmt.Errorf("choices are only for string, integer and number options")
}

// Commands returns the registered commands of a scope: "" for global commands, else a guild ID.
func (s *Server) Commands(guildID string) []*discordgo.ApplicationCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*discordgo.ApplicationCommand(nil), s.st.commands[guildID]...)
}

// CommandsIn returns the chat commands a user can use in channelID, sorted by name: the guild's
// commands and the global ones (in a DM, the global ones allowed in DMs). A guild command
// hides a global one of the same name.
func (s *Server) CommandsIn(channelID string) []*discordgo.ApplicationCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.st.channels[channelID]
	if c == nil {
		return nil
	}
	byName := map[string]*discordgo.ApplicationCommand{}
	for _, cmd := range s.st.commands[""] {
		if commandType(cmd) == discordgo.ChatApplicationCommand && allowedIn(cmd, c) {
			byName[cmd.Name] = cmd
		}
	}
	if c.GuildID != "" {
		for _, cmd := range s.st.commands[c.GuildID] {
			if commandType(cmd) == discordgo.ChatApplicationCommand {
				byName[cmd.Name] = cmd
			}
		}
	}
	out := make([]*discordgo.ApplicationCommand, 0, len(byName))
	for _, cmd := range byName {
		out = append(out, cmd)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func allowedIn(cmd *discordgo.ApplicationCommand, c *Channel) bool {
	if !c.IsDM() {
		if cmd.Contexts != nil {
			for _, x := range *cmd.Contexts {
				if x == discordgo.InteractionContextGuild {
					return true
				}
			}
			return false
		}
		return true
	}
	if cmd.Contexts != nil {
		for _, x := range *cmd.Contexts {
			if x == discordgo.InteractionContextBotDM {
				return true
			}
		}
		return false
	}
	return cmd.DMPermission == nil || *cmd.DMPermission
}

// WaitCommands waits until every named chat command is usable in channelID (registered in its
// guild or globally) and returns nil.
func (s *Server) WaitCommands(timeout time.Duration, channelID string, names ...string) error {
	missing := func() []string {
		have := map[string]bool{}
		for _, c := range s.CommandsIn(channelID) {
			have[c.Name] = true
		}
		var out []string
		for _, n := range names {
			if !have[n] {
				out = append(out, n)
			}
		}
		return out
	}
	err := s.WaitFor(timeout, func() bool { return len(missing()) == 0 })
	if err != nil && err != ErrClosed {
		return fmt.Errorf("%w: commands not registered: %s", err, strings.Join(missing(), ", "))
	}
	return err
}

// Option is an option value for Slash or Autocomplete; make one with Opt or Focused.
type Option struct {
	Name    string
	Value   any
	Focused bool
}

// Opt is option name with value. The value is converted to the registered option type:
// string for String; int, int64 or a whole float64 for Integer; int or float64 for Number;
// bool for Boolean; *User (or a user ID string) for User and Mentionable; *Role (or a role ID
// string) for Role; *Channel (or a
// channel ID string) for Channel; File (Name and Data) for Attachment: the file is uploaded
// as Discord's client does, listed in data.resolved.attachments and served at its URL.
func Opt(name string, value any) Option { return Option{Name: name, Value: value} }

// Focused is the option being typed in an autocomplete interaction, with the text typed so
// far. Discord sends it as a string whatever the option's type.
func Focused(name, typed string) Option { return Option{Name: name, Value: typed, Focused: true} }

// resolvedSet collects users, channels and uploaded files referenced by options, for
// data.resolved.
type resolvedSet struct {
	users       map[string]*User
	channels    map[string]*Channel
	attachments map[string]*Attachment
	roles       map[string]*Role
}

// buildOptionsLocked resolves a command path ("survival challenge") against the commands usable
// in c and converts opts to the data.options JSON. autocomplete relaxes required options and
// needs exactly one focused option on an option with autocomplete.
func (s *Server) buildOptionsLocked(c *Channel, path string, opts []Option, autocomplete bool) (*discordgo.ApplicationCommand, []any, *resolvedSet, error) {
	words := strings.Fields(strings.TrimPrefix(strings.TrimSpace(path), "/"))
	if len(words) == 0 {
		return nil, nil, nil, fmt.Errorf("empty command")
	}
	var cmd *discordgo.ApplicationCommand
	if c.GuildID != "" {
		for _, x := range s.st.commands[c.GuildID] {
			if x.Name == words[0] && commandType(x) == discordgo.ChatApplicationCommand {
				cmd = x
			}
		}
	}
	if cmd == nil {
		for _, x := range s.st.commands[""] {
			if x.Name == words[0] && commandType(x) == discordgo.ChatApplicationCommand {
				cmd = x
			}
		}
	}
	if cmd == nil {
		return nil, nil, nil, fmt.Errorf("command /%s is not registered", words[0])
	}
	if !allowedIn(cmd, c) {
		return nil, nil, nil, fmt.Errorf("command /%s cannot be used in this kind of channel", words[0])
	}
	res := &resolvedSet{users: map[string]*User{}, channels: map[string]*Channel{}, attachments: map[string]*Attachment{}, roles: map[string]*Role{}}
	level := cmd.Options
	var chain []*discordgo.ApplicationCommandOption
	for _, w := range words[1:] {
		var found *discordgo.ApplicationCommandOption
		for _, o := range level {
			if o.Name == w && (o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
				found = o
			}
		}
		if found == nil {
			return nil, nil, nil, fmt.Errorf("/%s has no subcommand %q", strings.Join(words, " "), w)
		}
		chain = append(chain, found)
		level = found.Options
	}
	for _, o := range level {
		if o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
			return nil, nil, nil, fmt.Errorf("/%s needs a subcommand (%s)", strings.Join(words, " "), o.Name)
		}
	}
	given := map[string]bool{}
	var leaf []any
	focused := 0
	for _, op := range opts {
		var def *discordgo.ApplicationCommandOption
		for _, o := range level {
			if o.Name == op.Name {
				def = o
			}
		}
		if def == nil {
			return nil, nil, nil, fmt.Errorf("/%s has no option %q", strings.Join(words, " "), op.Name)
		}
		if given[op.Name] {
			return nil, nil, nil, fmt.Errorf("option %q given twice", op.Name)
		}
		given[op.Name] = true
		item := map[string]any{"name": def.Name, "type": int(def.Type)}
		if op.Focused {
			if !autocomplete {
				return nil, nil, nil, fmt.Errorf("option %q: Focused is only for Autocomplete", op.Name)
			}
			if !def.Autocomplete {
				return nil, nil, nil, fmt.Errorf("option %q is not registered with autocomplete", op.Name)
			}
			s, _ := op.Value.(string)
			item["value"], item["focused"] = s, true
			focused++
		} else {
			v, err := s.coerceOptionLocked(def, op.Value, res)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("option %q: %v", op.Name, err)
			}
			item["value"] = v
		}
		leaf = append(leaf, item)
	}
	if autocomplete && focused != 1 {
		return nil, nil, nil, fmt.Errorf("autocomplete needs exactly one Focused option, got %d", focused)
	}
	if !autocomplete {
		for _, o := range level {
			if o.Required && !given[o.Name] {
				return nil, nil, nil, fmt.Errorf("/%s: required option %q missing", strings.Join(words, " "), o.Name)
			}
		}
	}
	if leaf == nil {
		leaf = []any{}
	}
	// Wrap the leaf options in the subcommand chain, innermost first.
	out := leaf
	for i := len(chain) - 1; i >= 0; i-- {
		out = []any{map[string]any{"name": chain[i].Name, "type": int(chain[i].Type), "options": out}}
	}
	return cmd, out, res, nil
}

func (s *Server) coerceOptionLocked(def *discordgo.ApplicationCommandOption, v any, res *resolvedSet) (any, error) {
	var out any
	switch def.Type {
	case discordgo.ApplicationCommandOptionString:
		str, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("want a string, got %T", v)
		}
		n := utf8.RuneCountInString(str)
		if def.MinLength != nil && n < *def.MinLength || def.MaxLength > 0 && n > def.MaxLength || n > 6000 {
			return nil, fmt.Errorf("length %d outside the registered limits", n)
		}
		out = str
	case discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionNumber:
		var f float64
		switch x := v.(type) {
		case int:
			f = float64(x)
		case int64:
			f = float64(x)
		case float64:
			f = x
		default:
			return nil, fmt.Errorf("want a number, got %T", v)
		}
		if def.Type == discordgo.ApplicationCommandOptionInteger && f != math.Trunc(f) {
			return nil, fmt.Errorf("want an integer, got %v", f)
		}
		if def.MinValue != nil && f < *def.MinValue || def.MaxValue != 0 && f > def.MaxValue {
			return nil, fmt.Errorf("%v outside the registered range", f)
		}
		out = f
	case discordgo.ApplicationCommandOptionBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("want a bool, got %T", v)
		}
		out = b
	case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionMentionable:
		var u *User
		switch x := v.(type) {
		case *User:
			u = s.st.users[x.ID]
		case string:
			u = s.st.users[x]
		}
		if u == nil {
			return nil, fmt.Errorf("want a known *User, got %v", v)
		}
		res.users[u.ID] = u
		out = u.ID
	case discordgo.ApplicationCommandOptionChannel:
		var c *Channel
		switch x := v.(type) {
		case *Channel:
			c = s.st.channels[x.ID]
		case string:
			c = s.st.channels[x]
		}
		if c == nil {
			return nil, fmt.Errorf("want a known *Channel, got %v", v)
		}
		res.channels[c.ID] = c
		out = c.ID
	case discordgo.ApplicationCommandOptionRole:
		var id string
		switch x := v.(type) {
		case *Role:
			id = x.ID
		case string:
			id = x
		}
		var r *Role
		for _, rs := range s.st.roles {
			for _, x := range rs {
				if x.ID == id {
					r = x
				}
			}
		}
		if r == nil {
			return nil, fmt.Errorf("want a known *Role, got %v", v)
		}
		res.roles[r.ID] = r
		out = r.ID
	case discordgo.ApplicationCommandOptionAttachment:
		var f File
		switch x := v.(type) {
		case File:
			f = x
		case *File:
			f = *x
		default:
			return nil, fmt.Errorf("want a discordsim.File, got %T", v)
		}
		if f.Name == "" {
			return nil, fmt.Errorf("an uploaded file needs a name")
		}
		a := s.attachmentsLocked("uploads", []File{f})[0]
		s.st.uploads[a.ID] = a
		res.attachments[a.ID] = a
		out = a.ID
	default:
		return nil, fmt.Errorf("option type %v is not supported by the fake", def.Type)
	}
	if len(def.Choices) > 0 {
		for _, ch := range def.Choices {
			if cv, err := coerceChoice(def.Type, ch.Value); err == nil && cv == out {
				return out, nil
			}
		}
		return nil, fmt.Errorf("%v is not one of the registered choices", v)
	}
	return out, nil
}
