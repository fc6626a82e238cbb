package teamchess

import (
	"context"
	"fmt"
	"strings"
	"time"

	"sandtable/commands"
	"sandtable/commands/ui"
	"sandtable/games/chess"
	"sandtable/games/engine"
	tc "sandtable/games/teamchess"
	"sandtable/storage"
)

// Computer commanders (issue 16; ruling in docs/rules/teamchess.md): the
// lobby's creator adds computer commanders to either queue with the
// "Add a computer commander" menu, at a level; they fill any seat, so a
// human team may play computers or a mixed team. A computer commander is
// a commands.ComputerUser: no Discord user, never added to a thread or
// pinged. When it is the active commander of the side to act, the
// framework asks think for its action (games/engine's Team Chess search,
// from the game alone), and runs it as the commander's own /move or
// /siege would run. A human team's advisers still /suggest to their human
// commander; a computer commander reads no suggestion.

// defaultLevel is the middle of the engine's levels.
var defaultLevel = engine.LevelNames()[len(engine.LevelNames())/2]

// computer is Team Chess's computer player.
func computer() *commands.Computer[*State] {
	return &commands.Computer[*State]{Levels: engine.LevelNames(), Default: defaultLevel, Aliases: engine.LevelAliases, Think: think,
		Name: func(seat storage.ComputerSeat) string {
			if n, _, ok := strings.Cut(strings.TrimPrefix(seat.User, "computer-"), "-"); ok {
				return fmt.Sprintf("Computer %s (%s)", n, seat.Level)
			}
			return commands.ComputerName(seat)
		}}
}

// think searches s's game for the active commander seat at its level and
// returns the engine's action (a move, a sacrifice, a siege decision) as
// an action of that commander: when ctx is cancelled, the best found so
// far, else (cancelled while the moves were still being listed, which
// takes seconds in a position with long chains of sacrifices) the
// best-ordered of the moves listed so far. Its First is think under a
// cancelled context: a move among the first listed, without a search.
func think(ctx context.Context, s *State, seat storage.ComputerSeat, seed uint64, budget time.Duration) (commands.Action[*State], error) {
	act, err := chooseAction(ctx, s, seat, seed, budget)
	if err != nil {
		return nil, err
	}
	return func(t *turn) (*response, error) {
		if err := commander(t, "move"); err != nil {
			return nil, err
		}
		act.By = t.Req.User.ID
		return apply(t, func(g *tc.Game) ([]tc.Event, error) { return g.Apply(act) })
	}, nil
}

// chooseAction is the engine's action for seat in s (see think).
func chooseAction(ctx context.Context, s *State, seat storage.ComputerSeat, seed uint64, budget time.Duration) (tc.Action, error) {
	p, err := engine.NewTeamChessPlayer(seat.Level, seed)
	if err != nil {
		return tc.Action{}, err
	}
	if budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}
	res := p.ChooseContext(ctx, s.game.Clone())
	if res.Action.Kind == "" {
		return tc.Action{}, fmt.Errorf("the engine found no action")
	}
	return res.Action, nil
}

// computers lists the computer seats among the lobby's queues, once each.
func (l *lobby) computers() []storage.ComputerSeat {
	var out []storage.ComputerSeat
	seen := map[string]bool{}
	for _, side := range sides {
		for _, u := range *l.queue(side) {
			if seat, ok := commands.ComputerSeatOf(u.ID); ok && !seen[u.ID] {
				seen[u.ID] = true
				out = append(out, seat)
			}
		}
	}
	return out
}

// computerMenu is the creator's menu adding a computer commander to a
// side at a level, or removing one; nil when it would be empty.
func computerMenu(l *lobby, id func(string) string) *ui.Select {
	var opts []ui.SelectOption
	for _, side := range sides {
		if l.distinct(side) >= maxTeam {
			continue
		}
		for _, lv := range engine.LevelNames() {
			opts = append(opts, ui.SelectOption{Label: fmt.Sprintf("Add a computer to %s (%s)", side.Title(), lv), Value: sideKey(side) + ":" + lv})
		}
	}
	for _, seat := range l.computers() {
		if len(opts) == 25 {
			break
		}
		name := commands.ComputerName(seat)
		for _, side := range sides {
			for _, u := range *l.queue(side) {
				if u.ID == seat.User {
					name = u.Name
				}
			}
		}
		opts = append(opts, ui.SelectOption{Label: "Remove " + trimLabel(name), Value: "remove:" + seat.User})
	}
	if len(opts) == 0 {
		return nil
	}
	if len(opts) > 25 {
		opts = opts[:25]
	}
	return &ui.Select{Route: id("computer"), Placeholder: "Creator: add or remove a computer commander", Options: opts}
}

// lobbyComputer adds a computer commander to a side's queue at a level
// ("w:easy"), or removes one ("remove:<ID>"): the creator's menu.
func lobbyComputer(a *commands.App, req *commands.Request) (*response, error) {
	l, err := loadCreatorLobby(a, req, "add or remove computer commanders")
	if err != nil {
		return nil, err
	}
	if len(req.Values) != 1 {
		return nil, commands.Errorf("Choose one option.")
	}
	key, arg, _ := strings.Cut(req.Values[0], ":")
	if key != "remove" {
		if err := a.ComputersAllowed(req); err != nil {
			return nil, err
		}
	}
	if key == "remove" {
		if _, ok := l.sideOf(arg); !ok || !commands.IsComputer(arg) {
			return commands.Private("Already done: that computer is not in the lobby."), nil
		}
		var name string
		for _, side := range sides {
			for _, u := range *l.queue(side) {
				if u.ID == arg {
					name = u.Mention()
				}
			}
		}
		l.remove(arg)
		note := fmt.Sprintf("%s removed %s.", req.User.Mention(), name)
		for _, n := range l.fixDoubles() {
			note += " " + n
		}
		return saveLobby(a, req, l, note)
	}
	side := chess.White
	switch key {
	case "w":
	case "b":
		side = chess.Black
	default:
		return nil, commands.Errorf("That option is not one of this menu's; choose again.")
	}
	level := ""
	for _, lv := range engine.LevelNames() {
		if lv == engine.CanonicalLevel(arg) { // a menu sent before a level's renaming names its old name
			level = lv
		}
	}
	if level == "" {
		return nil, commands.Errorf("level must be one of %s.", strings.Join(engine.LevelNames(), ", "))
	}
	if l.distinct(side) >= maxTeam {
		return nil, commands.Errorf("%s already has %d commanders, the most a lobby allows.", side.Title(), maxTeam)
	}
	n := 1
	for _, seat := range l.computers() {
		var k int
		fmt.Sscanf(strings.TrimPrefix(seat.User, "computer-"), "%d", &k)
		if k >= n {
			n = k + 1
		}
	}
	u := commands.ComputerUser(n, level)
	q := l.queue(side)
	*q = append(*q, u)
	note := fmt.Sprintf("%s added %s to %s.", req.User.Mention(), u.Mention(), side.Title())
	for _, n := range l.fixDoubles() {
		note += " " + n
	}
	return saveLobby(a, req, l, note)
}

// humans drops the computer seats from ids: those never join a thread.
func humans(ids []string) []string {
	var out []string
	for _, id := range ids {
		if !commands.IsComputer(id) {
			out = append(out, id)
		}
	}
	return out
}
