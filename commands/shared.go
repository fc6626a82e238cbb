package commands

import (
	"fmt"
	"strings"

	"sandtable/commands/ui"
	"sandtable/storage"
)

// Embed colours.
const (
	ColorChallenge = 0x5865F2
	ColorClosed    = 0x747F8D
	ColorWhite     = 0xF0F0F0
	ColorBlack     = 0x2B2D31
	ColorOver      = 0xFEE75C
)

var dmPermission = false

// sharedDefinitions are the commands every game uses in its thread, plus
// /games.
func sharedDefinitions() []*ui.Command {
	return []*ui.Command{
		{
			Name:         "move",
			Description:  "Make your move in this game's thread",
			DMPermission: &dmPermission,
			Options: []*ui.CommandOption{{
				Type:         ui.String,
				Name:         "move",
				Description:  "Your move (SAN like Nf3 or exd5, or UCI like g1f3; SandTable: see /sandtable rules)",
				Required:     true,
				Autocomplete: true,
				MaxLength:    200,
			}},
		},
		{Name: "resign", Description: "Resign this game", DMPermission: &dmPermission},
		{
			Name:         "draw",
			Description:  "Offer, accept, decline or claim a draw",
			DMPermission: &dmPermission,
			Options: []*ui.CommandOption{
				{Type: ui.Subcommand, Name: "offer", Description: "Offer your opponent a draw"},
				{Type: ui.Subcommand, Name: "accept", Description: "Accept the draw your opponent offered"},
				{Type: ui.Subcommand, Name: "decline", Description: "Decline the draw your opponent offered"},
				{Type: ui.Subcommand, Name: "claim", Description: "Claim a draw by threefold repetition or the fifty-move rule",
					Options: []*ui.CommandOption{{Type: ui.String, Name: "move",
						Description: "Claim with this move: it is played and the draw holds if it brings the repetition or 50 moves", MaxLength: 20}}},
			},
		},
		{Name: "board", Description: "Show this game's board again", DMPermission: &dmPermission},
		{Name: "history", Description: "Step through this game's positions; elsewhere or with options: finished games (only you see it)", DMPermission: &dmPermission},
		{Name: "games", Description: "List your active games with links"},
		notifyDefinition(),
	}
}

// gamesOf reads the active games userID plays in, newest first
// (storage.Games.Active).
func (a *App) gamesOf(userID string) ([]*storage.Game, error) {
	var games []*storage.Game
	err := a.view(func(tx storage.Tx) error {
		var err error
		games, err = tx.Games().Active(userID)
		return err
	})
	return games, err
}

// listGames answers /games: the caller's active games, newest first, each
// with a link to its thread and whom it waits on.
func (a *App) listGames(req *Request) (*Response, error) {
	games, err := a.gamesOf(req.User.ID)
	if err != nil {
		return nil, err
	}
	var lines []string
	size := 0
	for i, g := range games {
		if !g.Active {
			continue
		}
		k := a.kinds[g.Kind]
		if k == nil {
			continue
		}
		// The title links to the thread from anywhere (a DM too); the
		// thread's mention shows its name.
		line := fmt.Sprintf("**%s** in <#%s>", k.Title, g.ThreadID)
		if g.GuildID != "" {
			line = fmt.Sprintf("**[%s](%s)** in <#%s>", k.Title, ThreadLink(g.GuildID, g.ThreadID), g.ThreadID)
		}
		var summary, who string
		switch {
		case k.gamesLine != nil:
			var c Clock
			summary, c, _ = k.gamesLine(a, g, req.User.ID)
			who = waitingOn(c, req.User.ID)
		case k.Summary != nil:
			summary = k.Summary(a, g, req.User.ID)
		}
		if summary != "" {
			line += ": " + summary
		}
		if vs := ComputerSeats(g); vs != "" {
			line += " · " + vs
		}
		if who != "" {
			line += " · waiting on " + who
		}
		line = "• " + line
		// A card's description holds 4096 characters: the lines that fit,
		// then how many more there are.
		if len(lines) == 20 || size+len(line)+1 > maxGamesList {
			lines = append(lines, fmt.Sprintf("…and %d more.", len(games)-i))
			break
		}
		lines = append(lines, line)
		size += len(line) + 1
	}
	if len(lines) == 0 {
		return Private("You have no active games. Start one with /survival challenge, /sandtable challenge or /teamchess new."), nil
	}
	return &Response{Ephemeral: true, Message: Message{Cards: []*ui.Card{{
		Title:       "Your active games",
		Description: strings.Join(lines, "\n"),
		Color:       ColorChallenge,
	}}}}, nil
}

// maxGamesList bounds the game lines of /games, leaving room in the
// card's 4096 characters for the line saying how many more there are.
const maxGamesList = 4000

// HistoryAction is the custom ID action of the history viewer's controls
// and of the History button (package historyview), and the /history
// command; games route it to their viewer.
const HistoryAction = "history"
