package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"sandtable/internal/duration"
	"sandtable/storage"
)

// GuildSettings are one server's own settings, changed by its managers
// with /admin settings and stored per guild (storage.Guilds). The zero
// value is the default: games anywhere, the deployment's move time,
// rated, computers allowed, no role needed, no limits.
type GuildSettings struct {
	// Channels is the allow-list of text channels games may be started
	// in; empty: any text channel.
	Channels []string `json:"channels,omitempty"`
	// MoveTime is the default time for a move (a SandTable turn); 0: the
	// deployment's (Settings.MoveTime).
	MoveTime time.Duration `json:"move_time,omitempty"`
	// Clock is the default Fischer clock of the games that take one
	// (Survival) when a challenge gives neither clock nor move_time; nil:
	// per-move deadlines (MoveTime).
	Clock *TimeControl `json:"clock,omitempty"`
	// Casual makes games casual unless a challenge asks casual:false.
	Casual bool `json:"casual,omitempty"`
	// NoComputers refuses games against the bot's computer player.
	NoComputers bool `json:"no_computers,omitempty"`
	// StartRole is the role a member needs to start a game (challenge,
	// lobby, computer game); "": none.
	StartRole string `json:"start_role,omitempty"`
	// MaxGames, MaxChallenges and PerMinute are the limits per member: the
	// most active games in the server, the most open challenges and lobbies
	// it made, the most challenges, lobbies and computer games it starts
	// per minute; 0: no limit.
	MaxGames      int `json:"max_games,omitempty"`
	MaxChallenges int `json:"max_challenges,omitempty"`
	PerMinute     int `json:"per_minute,omitempty"`
}

// The bounds of the limits an admin may set: below 1 is no limit (say
// "off"), above these is no limit in practice and surely a typo.
const (
	maxMaxGames      = 100
	maxMaxChallenges = 100
	maxPerMinute     = 60
)

// settingsCache keeps each server's settings in the process, so that a
// challenge or a lobby reads them without a store round trip. A change
// made by this process forgets its server's entry; one made by another
// process sharing the store is reported by the store's watch
// (storage.SettingsChanged, see Bot.changed), which forgets it too. gen
// counts what was forgotten, so that a read racing with a change never
// keeps what it read before the change.
type settingsCache struct {
	mu  sync.Mutex
	gen uint64
	m   map[string]GuildSettings
}

// GuildSettingsOf returns the settings of guildID (the defaults outside a
// server), from the process's cache when it has them.
func (a *App) GuildSettingsOf(ctx context.Context, guildID string) (GuildSettings, error) {
	if guildID == "" {
		return GuildSettings{}, nil
	}
	c := &a.settings
	c.mu.Lock()
	s, ok := c.m[guildID]
	gen := c.gen
	c.mu.Unlock()
	if ok {
		return s, nil
	}
	var got GuildSettings
	if err := a.Store.View(ctx, func(tx storage.Tx) error {
		got = GuildSettings{}
		err := tx.Guilds().Settings(guildID, &got)
		if errors.Is(err, storage.ErrNotFound) {
			return nil
		}
		return err
	}); err != nil {
		return GuildSettings{}, err
	}
	c.mu.Lock()
	if c.gen == gen {
		if c.m == nil {
			c.m = map[string]GuildSettings{}
		}
		c.m[guildID] = got
	}
	c.mu.Unlock()
	return got, nil
}

// ForgetSettings drops guildID's settings from the process's cache ("":
// every server's), so the next read reads the store: the store's watch
// calls it when another process changed them.
func (a *App) ForgetSettings(guildID string) {
	c := &a.settings
	c.mu.Lock()
	c.gen++
	if guildID == "" {
		c.m = nil
	} else {
		delete(c.m, guildID)
	}
	c.mu.Unlock()
}

// guildSettings is GuildSettingsOf for req's server.
func (a *App) guildSettings(req *Request) (GuildSettings, error) {
	return a.GuildSettingsOf(req.Context(), req.GuildID)
}

// RoleChecker is what a Platform that can tell whether a server's role
// exists implements (the bot's: its gateway cache, else a REST call, as
// HTTP interactions have no cache).
type RoleChecker interface {
	RoleExists(ctx context.Context, guildID, roleID string) (bool, error)
}

// mayStart checks req's member against the server's settings before it
// opens a challenge or a lobby or starts a computer game: the game
// channels, the role, the open challenges and active games it has, and
// the per-minute limit (counted here, in the store). It also sets req's
// default of the casual option. Each refusal names the limit and the
// setting.
func (a *App) mayStart(req *Request, computer bool) error {
	return a.checkStart(req, computer, false)
}

// mayStartThen is mayStart for a start whose own transaction records the
// per-minute attempt (countStart): a start refused after these checks
// (an open challenge between the two players, ...) uses up nothing.
func (a *App) mayStartThen(req *Request, computer bool) error {
	return a.checkStart(req, computer, true)
}

// errNotRecorded aborts the per-minute limit's check of mayStartThen: it
// reads, the start's transaction records.
var errNotRecorded = errors.New("per-minute attempt checked, not recorded")

// countStart records req's per-minute attempt in tx, the transaction that
// starts what mayStartThen allowed, refusing it (and so the start) when
// the limit was reached meanwhile.
func (a *App) countStart(tx storage.Tx, req *Request) error {
	if req.perMinute == 0 {
		return nil
	}
	ok, retry, err := tx.Guilds().Attempt(req.GuildID, req.User.ID, req.Now, time.Minute, req.perMinute)
	if err != nil {
		return err
	}
	if !ok {
		return perMinuteRefusal(req.perMinute, retry)
	}
	return nil
}

func perMinuteRefusal(limit int, retry time.Time) error {
	return Errorf("You started %s in the last minute, this server's limit (setting: per minute %d): try again <t:%d:R>.",
		Plural(limit, "game or challenge", "games or challenges"), limit, retry.Add(999*time.Millisecond).Unix())
}

func (a *App) checkStart(req *Request, computer, deferred bool) error {
	if req.GuildID == "" {
		return nil
	}
	s, err := a.guildSettings(req)
	if err != nil {
		return err
	}
	req.casualDefault = s.Casual
	if len(s.Channels) > 0 && !slices.Contains(s.Channels, req.ChannelID) {
		return Errorf("Games on this server are started in %s (setting: game channels).", channelList(s.Channels))
	}
	if computer && s.NoComputers {
		return Errorf("Games against the computer are turned off on this server (setting: computers).")
	}
	if s.StartRole != "" && !slices.Contains(req.Roles, s.StartRole) {
		if rc, ok := a.Platform.(RoleChecker); ok {
			if exists, err := rc.RoleExists(req.Context(), req.GuildID, s.StartRole); err == nil && !exists {
				return Errorf("Starting games needs a role that no longer exists on this server (setting: role): ask a server manager to change it with /admin settings.")
			}
		}
		return Errorf("Starting games on this server needs the role <@&%s> (setting: role).", s.StartRole)
	}
	if s.MaxGames > 0 || s.MaxChallenges > 0 {
		games, open, err := a.memberLoad(req.GuildID, req.User.ID)
		if err != nil {
			return err
		}
		if s.MaxGames > 0 && games >= s.MaxGames {
			return Errorf("You have %d active games on this server, its limit (setting: max games %d): finish one first.", games, s.MaxGames)
		}
		if s.MaxChallenges > 0 && open >= s.MaxChallenges && !computer {
			return Errorf("You have %d open challenges or lobbies on this server, its limit (setting: max challenges %d): wait for an answer, or cancel one.", open, s.MaxChallenges)
		}
	}
	if s.PerMinute > 0 {
		var ok bool
		var retry time.Time
		err := a.Store.Update(req.Context(), func(tx storage.Tx) error {
			var err error
			ok, retry, err = tx.Guilds().Attempt(req.GuildID, req.User.ID, req.Now, time.Minute, s.PerMinute)
			if err == nil && deferred {
				return errNotRecorded // the start's transaction records it
			}
			return err
		})
		if err != nil && !errors.Is(err, errNotRecorded) {
			return err
		}
		if !ok {
			return perMinuteRefusal(s.PerMinute, retry)
		}
		if deferred {
			req.perMinute = s.PerMinute
		}
	}
	return nil
}

// MayJoin checks a member joining a lobby of guildID against the server's
// limit of active games, as accepting a challenge is.
func (a *App) MayJoin(req *Request, guildID string) error { return a.mayAccept(req, guildID) }

// mayAccept checks the member who accepts a challenge against the
// server's limit of active games.
func (a *App) mayAccept(req *Request, guildID string) error {
	s, err := a.GuildSettingsOf(req.Context(), guildID)
	if err != nil || s.MaxGames == 0 {
		return err
	}
	games, _, err := a.memberLoad(guildID, req.User.ID)
	if err != nil {
		return err
	}
	if games >= s.MaxGames {
		return Errorf("You have %d active games on this server, its limit (setting: max games %d): finish one before you accept.", games, s.MaxGames)
	}
	return nil
}

// memberLoad counts userID's active games in guildID and the open
// challenges and lobbies it made there.
func (a *App) memberLoad(guildID, userID string) (games, open int, err error) {
	err = a.view(func(tx storage.Tx) error {
		games, open = 0, 0
		active, err := tx.Games().Active(userID)
		if err != nil {
			return err
		}
		for _, g := range active {
			if g.GuildID == guildID {
				games++
			}
		}
		count := func(_ string, raw []byte) error {
			var doc struct {
				GuildID    string `json:"guild_id"`
				Challenger *User  `json:"challenger"`
				Creator    *User  `json:"creator"`
			}
			if json.Unmarshal(raw, &doc) != nil || doc.GuildID != guildID {
				return nil
			}
			if doc.Challenger != nil && doc.Challenger.ID == userID || doc.Creator != nil && doc.Creator.ID == userID {
				open++
			}
			return nil
		}
		if err := tx.Challenges().Each(count); err != nil {
			return err
		}
		return tx.Lobbies().Each(count)
	})
	return games, open, err
}

// ComputersAllowed refuses a computer seat (a lobby's computer commander)
// on a server whose settings turn computers off.
func (a *App) ComputersAllowed(req *Request) error {
	s, err := a.guildSettings(req)
	if err != nil {
		return err
	}
	if s.NoComputers {
		return Errorf("Games against the computer are turned off on this server (setting: computers).")
	}
	return nil
}

func channelList(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = "<#" + id + ">"
	}
	return strings.Join(out, ", ")
}

// describe lists s for /admin settings.
func (s GuildSettings) describe(deploymentMoveTime time.Duration) string {
	var b strings.Builder
	line := func(name, value string) { fmt.Fprintf(&b, "**%s**: %s\n", name, value) }
	if len(s.Channels) == 0 {
		line("game channels", "any text channel")
	} else {
		line("game channels", channelList(s.Channels))
	}
	if s.MoveTime == 0 {
		line("move time", duration.Format(deploymentMoveTime)+" (the bot's default)")
	} else {
		line("move time", duration.Format(s.MoveTime))
	}
	if s.Clock == nil {
		line("clock", "none: a time per move unless a challenge gives a clock")
	} else {
		line("clock", s.Clock.String()+" in Survival unless a challenge gives move_time or clock")
	}
	line("rated", map[bool]string{false: "yes, unless a challenge says casual", true: "no, unless a challenge says casual:false"}[s.Casual])
	line("computers", map[bool]string{false: "allowed", true: "off"}[s.NoComputers])
	if s.StartRole == "" {
		line("role", "none: anyone may start games")
	} else {
		line("role", "<@&"+s.StartRole+">")
	}
	limit := func(n int) string {
		if n == 0 {
			return "none"
		}
		return fmt.Sprint(n)
	}
	line("max games", limit(s.MaxGames))
	line("max challenges", limit(s.MaxChallenges))
	line("per minute", limit(s.PerMinute))
	return b.String()
}
