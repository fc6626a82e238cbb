package commands

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"sandtable/commands/outbox"
	"sandtable/commands/ui"
	"sandtable/internal/duration"
	"sandtable/storage"
)

// AdminCommand is /admin, the server managers' command: this server's
// settings, moderation of its games and the audit log of both. Discord
// shows it only to members with Manage Server (DefaultMemberPermissions),
// which a server owner may change in Integrations, so the bot checks the
// member's permissions again on every use. Every answer is private.
const AdminCommand = "admin"

// permAdministrator is Discord's Administrator bit, which grants every
// permission.
const permAdministrator int64 = 1 << 3

// adminLogShown is how many audit log entries /admin log shows.
const adminLogShown = 50

// AdminEntry is one entry of a server's audit log.
type AdminEntry struct {
	By     User   `json:"by"`
	Action string `json:"action"` // "settings", "abort", "adjudicate", "extend", "end-thread"
	Game   string `json:"game,omitempty"`
	Reason string `json:"reason,omitempty"`
	Detail string `json:"detail,omitempty"`
}

func adminDefinition() *ui.Command {
	perm := ui.ManageGuild
	limit := func(name, what string, most int64) *ui.CommandOption {
		// No bounds registered: the bot's own check answers a value out
		// of range, naming the range.
		return &ui.CommandOption{Type: ui.Integer, Name: name,
			Description: fmt.Sprintf("Most %s per member, 1-%d (clear:%s removes it)", what, most, name)}
	}
	reason := &ui.CommandOption{Type: ui.String, Name: "reason", Description: "Why: said in the game's thread and kept in the log", Required: true, MaxLength: 300}
	gameOpt := &ui.CommandOption{Type: ui.String, Name: "game", Description: "The game's ID (default: the game of this thread)", MaxLength: 20}
	return &ui.Command{
		Name: AdminCommand, Description: "Server managers: this server's settings, its games, the audit log",
		DefaultMemberPermissions: &perm, GuildOnly: true,
		Options: []*ui.CommandOption{
			{Type: ui.Subcommand, Name: "settings", Description: "Show this server's settings, or change those you give",
				Options: []*ui.CommandOption{
					{Type: ui.Channel, Name: "add_channel", Description: "Allow games in this text channel (with none listed: any)", TextChannels: true},
					{Type: ui.Channel, Name: "remove_channel", Description: "No longer allow games in this channel", TextChannels: true},
					{Type: ui.String, Name: "move_time", Description: "Default time for a move, like 30m, 24h or 3d", MaxLength: 20},
					{Type: ui.String, Name: "clock", Description: "Default Fischer clock of Survival games, minutes+seconds like 10+5", MaxLength: 20},
					{Type: ui.Boolean, Name: "rated", Description: "Games are rated unless a challenge says casual (default: true)"},
					{Type: ui.Boolean, Name: "computers", Description: "Members may play the bot's computer player (default: true)"},
					{Type: ui.Role, Name: "role", Description: "The role a member needs to start games"},
					limit("max_games", "active games", maxMaxGames),
					limit("max_challenges", "open challenges and lobbies", maxMaxChallenges),
					limit("per_minute", "games, challenges or lobbies started a minute", maxPerMinute),
					{Type: ui.String, Name: "clear", Description: "Put one setting back to its default", Choices: []*ui.Choice{
						{Name: "game channels (any channel)", Value: "channels"}, {Name: "move time", Value: "move_time"}, {Name: "clock (a time per move)", Value: "clock"},
						{Name: "role (none needed)", Value: "role"}, {Name: "max games", Value: "max_games"},
						{Name: "max challenges", Value: "max_challenges"}, {Name: "per minute", Value: "per_minute"},
					}},
				}},
			{Type: ui.Subcommand, Name: "log", Description: "The last 50 actions of this server's managers"},
			{Type: ui.SubcommandGroup, Name: "game", Description: "Act on a game of this server (in its thread, or by ID)",
				Options: []*ui.CommandOption{
					{Type: ui.Subcommand, Name: "abort", Description: "End the game without a result: unrated, nobody's record changes",
						Options: []*ui.CommandOption{reason, gameOpt}},
					{Type: ui.Subcommand, Name: "adjudicate", Description: "Declare the game's result",
						Options: []*ui.CommandOption{
							{Type: ui.String, Name: "result", Description: "The result (the game's own: a side wins, a draw, a mutual loss)", Required: true, Autocomplete: true, MaxLength: 40},
							reason, gameOpt}},
					{Type: ui.Subcommand, Name: "extend", Description: "More time for whoever must act now",
						Options: []*ui.CommandOption{
							{Type: ui.String, Name: "time", Description: "How much more, like 30m, 24h or 3d", Required: true, MaxLength: 20},
							reason, gameOpt}},
					{Type: ui.Subcommand, Name: "end-thread", Description: "Archive and lock a finished game's threads now",
						Options: []*ui.CommandOption{reason, gameOpt}},
				}},
		},
	}
}

// mayAdmin refuses req unless its member may manage the server.
func mayAdmin(req *Request) error {
	if req.GuildID == "" {
		return Errorf("/admin manages a server: use it in one of the server's channels.")
	}
	if req.Permissions&(ui.ManageGuild|permAdministrator) == 0 {
		return Errorf("/admin needs the Manage Server permission, which you do not have on this server.")
	}
	return nil
}

// admin answers /admin.
func (a *App) admin(req *Request) (*Response, error) {
	if err := mayAdmin(req); err != nil {
		if req.Type == AutocompleteRequest {
			return &Response{}, nil
		}
		return nil, err
	}
	if req.Type == AutocompleteRequest {
		if req.Sub == "game adjudicate" && req.Focused == "result" {
			return a.adjudicateChoices(req), nil
		}
		return &Response{}, nil
	}
	if strings.HasPrefix(req.Sub, "game ") {
		return a.adminGame(req, strings.TrimPrefix(req.Sub, "game "))
	}
	switch req.Sub {
	case "settings":
		return a.adminSettings(req)
	case "log":
		return a.adminLog(req)
	}
	return nil, Errorf("Unknown subcommand /admin %s.", req.Sub)
}

// adminSettings shows the server's settings, or changes those given: every
// option is checked first, and any refusal changes nothing.
func (a *App) adminSettings(req *Request) (*Response, error) {
	var changes []func(*GuildSettings) error
	var said []string
	change := func(what string, fn func(*GuildSettings) error) {
		changes = append(changes, fn)
		said = append(said, what)
	}
	// Options that contradict each other are refused, not applied in turn.
	if add, rm := req.Options["add_channel"], req.Options["remove_channel"]; add.String != "" && add.String == rm.String {
		return nil, Errorf("add_channel and remove_channel name the same channel <#%s>: give one of them. Nothing changed.", add.String)
	}
	if c := req.Str("clear"); c != "" {
		set := c
		if c == "channels" {
			set = ""
			for _, o := range []string{"add_channel", "remove_channel"} {
				if _, ok := req.Options[o]; ok {
					set = o
				}
			}
		}
		if _, ok := req.Options[set]; ok && set != "" {
			return nil, Errorf("%s and clear:%s contradict each other: give one of them. Nothing changed.", set, c)
		}
	}
	if o, ok := req.Options["add_channel"]; ok {
		id := o.String
		if err := a.checkGameChannel(req, o); err != nil {
			return nil, err
		}
		change("game channels + <#"+id+">", func(s *GuildSettings) error {
			if slices.Contains(s.Channels, id) {
				return Errorf("<#%s> is already a game channel. Nothing changed.", id)
			}
			if len(s.Channels) >= 25 {
				return Errorf("This server already has 25 game channels, the most it may list: remove one first. Nothing changed.")
			}
			s.Channels = append(s.Channels, id)
			return nil
		})
	}
	if o, ok := req.Options["remove_channel"]; ok {
		id := o.String
		change("game channels - <#"+id+">", func(s *GuildSettings) error {
			i := slices.Index(s.Channels, id)
			if i < 0 {
				return Errorf("<#%s> is not a game channel. Nothing changed.", id)
			}
			s.Channels = slices.Delete(s.Channels, i, i+1)
			return nil
		})
	}
	if raw := req.Str("move_time"); raw != "" {
		d, err := duration.Parse(raw)
		if err != nil || d < time.Minute || d > 30*24*time.Hour {
			return nil, Errorf("move_time must be a time between 1m and 30d, written like 30m, 24h or 3d; %s is not. Nothing changed.", QuoteInput(raw))
		}
		change("move time "+duration.Format(d), func(s *GuildSettings) error { s.MoveTime = d; return nil })
	}
	if raw := req.Str("clock"); raw != "" {
		tc, err := ParseTimeControl(raw)
		if err != nil {
			return nil, Errorf("clock must be a Fischer clock %s; %s is not. Nothing changed.", clockForm, QuoteInput(raw))
		}
		change("clock "+tc.String(), func(s *GuildSettings) error { s.Clock = &tc; return nil })
	}
	if o, ok := req.Options["rated"]; ok {
		rated := o.Bool || o.String == "true"
		change(fmt.Sprintf("rated %v", rated), func(s *GuildSettings) error { s.Casual = !rated; return nil })
	}
	if o, ok := req.Options["computers"]; ok {
		on := o.Bool || o.String == "true"
		change(fmt.Sprintf("computers %v", on), func(s *GuildSettings) error { s.NoComputers = !on; return nil })
	}
	if o, ok := req.Options["role"]; ok {
		id := o.String
		if err := a.checkRole(req, id); err != nil {
			return nil, err
		}
		change("role <@&"+id+">", func(s *GuildSettings) error { s.StartRole = id; return nil })
	}
	limits := []struct {
		name string
		most int
		set  func(*GuildSettings, int)
	}{
		{"max_games", maxMaxGames, func(s *GuildSettings, n int) { s.MaxGames = n }},
		{"max_challenges", maxMaxChallenges, func(s *GuildSettings, n int) { s.MaxChallenges = n }},
		{"per_minute", maxPerMinute, func(s *GuildSettings, n int) { s.PerMinute = n }},
	}
	for _, l := range limits {
		o, ok := req.Options[l.name]
		if !ok {
			continue
		}
		if o.Int < 1 || o.Int > int64(l.most) {
			return nil, Errorf("%s must be between 1 and %d; %d is not (clear:%s removes the limit). Nothing changed.", l.name, l.most, o.Int, l.name)
		}
		n, set := int(o.Int), l.set
		change(fmt.Sprintf("%s %d", strings.ReplaceAll(l.name, "_", " "), n), func(s *GuildSettings) error { set(s, n); return nil })
	}
	if c := req.Str("clear"); c != "" {
		var fn func(*GuildSettings)
		switch c {
		case "channels":
			fn = func(s *GuildSettings) { s.Channels = nil }
		case "move_time":
			fn = func(s *GuildSettings) { s.MoveTime = 0 }
		case "clock":
			fn = func(s *GuildSettings) { s.Clock = nil }
		case "role":
			fn = func(s *GuildSettings) { s.StartRole = "" }
		case "max_games":
			fn = func(s *GuildSettings) { s.MaxGames = 0 }
		case "max_challenges":
			fn = func(s *GuildSettings) { s.MaxChallenges = 0 }
		case "per_minute":
			fn = func(s *GuildSettings) { s.PerMinute = 0 }
		default:
			return nil, Errorf("clear: %s is not a setting. Nothing changed.", QuoteInput(c))
		}
		change("cleared "+c, func(s *GuildSettings) error { fn(s); return nil })
	}

	if len(changes) == 0 {
		s, err := a.guildSettings(req)
		if err != nil {
			return nil, err
		}
		return a.settingsAnswer("This server's settings:", s), nil
	}
	var saved GuildSettings
	err := a.Store.Update(req.Context(), func(tx storage.Tx) error {
		saved = GuildSettings{}
		if err := tx.Guilds().Settings(req.GuildID, &saved); err != nil && !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		for _, fn := range changes {
			if err := fn(&saved); err != nil {
				return err
			}
		}
		if err := tx.Guilds().PutSettings(req.GuildID, &saved); err != nil {
			return err
		}
		return tx.Guilds().AddLog(req.GuildID, req.Now, AdminEntry{By: req.User, Action: "settings", Detail: strings.Join(said, ", ")})
	})
	a.ForgetSettings(req.GuildID)
	if err != nil {
		return nil, err
	}
	return a.settingsAnswer("Saved: "+strings.Join(said, ", ")+".", saved), nil
}

func (a *App) settingsAnswer(title string, s GuildSettings) *Response {
	return &Response{Ephemeral: true, Message: Message{Content: title, Cards: []*ui.Card{{
		Title: "Server settings", Description: s.describe(a.Settings.MoveTime), Color: ColorChallenge,
		Footer: "Change one with /admin settings <option>; clear:<setting> puts it back to its default.",
	}}}}
}

// checkGameChannel refuses a channel games cannot be started in: not a
// text channel of this server, or one Discord no longer knows (deleted).
func (a *App) checkGameChannel(req *Request, o Option) error {
	if o.ChannelType != 0 && o.ChannelType != ui.TextChannel {
		return Errorf("<#%s> is not a text channel: games start in text channels (each in a thread of its own). Nothing changed.", o.String)
	}
	t, err := a.Platform.ChannelType(req.Context(), o.String)
	if err != nil {
		var pe *outbox.PlatformError
		if errors.As(err, &pe) && pe.HTTPStatus == 404 {
			return Errorf("Channel %s is unknown to Discord (deleted?). Nothing changed.", QuoteInput(o.String))
		}
		return err
	}
	if t != ui.TextChannel {
		return Errorf("<#%s> is not a text channel: games start in text channels (each in a thread of its own). Nothing changed.", o.String)
	}
	return nil
}

// checkRole refuses a role that does not exist on req's server (or
// @everyone, which every member has and no member lists).
func (a *App) checkRole(req *Request, id string) error {
	if id == req.GuildID {
		return Errorf("@everyone is every member: to let anyone start games, use clear:role. Nothing changed.")
	}
	rc, ok := a.Platform.(RoleChecker)
	if !ok {
		return nil
	}
	exists, err := rc.RoleExists(req.Context(), req.GuildID, id)
	if err != nil {
		return err
	}
	if !exists {
		return Errorf("This server has no role %s (deleted?). Nothing changed.", QuoteInput(id))
	}
	return nil
}

// adminLog shows the server's latest admin actions, privately.
func (a *App) adminLog(req *Request) (*Response, error) {
	var lines []string
	err := a.view(func(tx storage.Tx) error {
		lines = nil
		return tx.Guilds().Log(req.GuildID, adminLogShown, func(at time.Time, raw []byte) error {
			var e AdminEntry
			if err := json.Unmarshal(raw, &e); err != nil {
				return err
			}
			line := fmt.Sprintf("<t:%d:f> %s **%s**", at.Unix(), e.By.Mention(), e.Action)
			if e.Game != "" {
				line += " game `" + e.Game + "`"
			}
			if e.Detail != "" {
				line += ": " + e.Detail // the bot's own words and mentions
			}
			if e.Reason != "" {
				line += " — " + EscapeText(e.Reason, 300)
			}
			lines = append(lines, line)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	if len(lines) == 0 {
		return Private("No admin action on this server yet."), nil
	}
	// A card's description holds 4096 characters: the newest first, as
	// many as fit.
	desc := ""
	for _, l := range lines {
		if len(desc)+len(l)+1 > 4000 {
			break
		}
		desc += l + "\n"
	}
	return &Response{Ephemeral: true, Message: Message{Cards: []*ui.Card{{
		Title: fmt.Sprintf("Admin log (last %d)", len(lines)), Description: desc, Color: ColorChallenge}}}}, nil
}
