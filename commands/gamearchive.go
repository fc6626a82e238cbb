package commands

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"sandtable/commands/ui"
	"sandtable/storage"
)

// The game archive (issue 17 item 4): /history [user] [game] lists the
// finished games of a user (the invoker by default) in this server, newest
// first, five a page, each with its result for that user, whom they played,
// the date and links: the game's thread, its final board (which carries the
// PGN or the SandTable log) and a 🎞 Replay button. /history with no
// option in a game's thread keeps opening that game's history viewer; with
// an option, or anywhere else, it opens the archive (rulings: survival.md,
// sandtable.md, teamchess.md, "/history: the viewer or the archive"). The
// archive is private (ephemeral), like the viewer: only the asker sees it;
// everything it shows is public once a game is over, and only the public
// thread is linked (never a team's private thread).
//
// Its ◀ ▶ buttons carry the page they show, in custom IDs of scope "a":
// "a:<user>:page:<kind or *>.<anchor>.<page>", where anchor (base 36 Unix
// seconds) is when the archive was opened: games finished after that are
// left out, so pages do not shift under the reader. A click changes
// nothing and updates the archive it is on in place.

// archivePageSize is how many games an archive page lists: one row of
// Replay buttons holds five.
const archivePageSize = 5

// archiveScan is how many finished games of the user one read fetches
// while looking for those of this server and kind.
const archiveScan = 100

// historyOptions are the options of /history (the archive's).
func historyOptions(kinds []*kindTable) []*ui.CommandOption {
	game := &ui.CommandOption{Type: ui.String, Name: "game", Description: "Only games of this kind (archive)"}
	for _, k := range kinds {
		game.Choices = append(game.Choices, &ui.Choice{Name: Clip(k.Title, 100), Value: k.Name})
	}
	return []*ui.CommandOption{
		{Type: ui.User, Name: "user", Description: "Whose finished games to list (default: yours)"},
		game,
	}
}

// wantsArchive reports whether /history (req) asks for the archive rather
// than the viewer of the thread's game: it has an option, or it is not
// used in a game's thread.
func (a *App) wantsArchive(req *Request) (bool, error) {
	if len(req.Options) > 0 {
		return true, nil
	}
	if req.ChannelID == "" {
		return true, nil
	}
	err := a.view(func(tx storage.Tx) error {
		_, err := tx.Games().ByChannel(req.ChannelID)
		return err
	})
	if errors.Is(err, storage.ErrNotFound) {
		return true, nil
	}
	return false, err
}

// archiveQuery is one archive page: whose games, which kind ("" any), the
// anchor (games finished at or before it) and the page (0 the newest).
type archiveQuery struct {
	user   string
	kind   string
	anchor time.Time
	page   int
}

func (q archiveQuery) route(page int) string {
	kind := q.kind
	if kind == "" {
		kind = "*"
	}
	arg := kind + "." + strconv.FormatInt(q.anchor.Unix(), 36) + "." + strconv.Itoa(page)
	return CustomID{Scope: "a", ID: q.user, Action: "page", Arg: arg}.String()
}

// parseArchiveRoute reads the query of a page button.
func parseArchiveRoute(id CustomID) (archiveQuery, error) {
	bad := Errorf("This button does not belong to a game archive.")
	parts := strings.Split(id.Arg, ".")
	if id.Action != "page" || len(parts) != 3 {
		return archiveQuery{}, bad
	}
	secs, err1 := strconv.ParseInt(parts[1], 36, 64)
	page, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || page < 0 || page > 10000 {
		return archiveQuery{}, bad
	}
	q := archiveQuery{user: id.ID, kind: parts[0], anchor: time.Unix(secs, 0), page: page}
	if q.kind == "*" {
		q.kind = ""
	}
	return q, nil
}

// archiveCommand answers /history asking for the archive.
func (a *App) archiveCommand(req *Request) (*Response, error) {
	if req.GuildID == "" {
		return nil, Errorf("The game archive lists a server's games: use /history in a server.")
	}
	q := archiveQuery{user: req.User.ID, anchor: req.Now.Truncate(time.Second).Add(time.Second)}
	if u := req.UserOpt("user"); u != nil {
		q.user = u.ID
	}
	if kind := req.Str("game"); kind != "" {
		if a.kinds[kind] == nil {
			return nil, Errorf("There is no game called %s: pick one of the choices offered.", QuoteInput(kind))
		}
		q.kind = kind
	}
	m, err := a.archivePage(req.GuildID, q)
	if err != nil {
		return nil, err
	}
	return &Response{Ephemeral: true, Message: m}, nil
}

// archiveClick answers a ◀ ▶ click of an archive: the page asked for, in
// place.
func (a *App) archiveClick(req *Request, id CustomID) (*Response, error) {
	q, err := parseArchiveRoute(id)
	if err != nil {
		return nil, err
	}
	if req.GuildID == "" {
		return nil, Errorf("The game archive lists a server's games: use /history in a server.")
	}
	m, err := a.archivePage(req.GuildID, q)
	if err != nil {
		return nil, err
	}
	return &Response{Update: true, Message: m}, nil
}

// archiveGames reads the games of page q.page of q in guildID, and whether
// a later page has any.
func (a *App) archiveGames(guildID string, q archiveQuery) (games []*storage.Game, more bool, err error) {
	skip, want := q.page*archivePageSize, archivePageSize+1
	before := q.anchor
	err = a.view(func(tx storage.Tx) error {
		for {
			batch, err := tx.Games().Finished(q.user, before, archiveScan)
			if err != nil {
				return err
			}
			for _, g := range batch {
				if g.GuildID != guildID || (q.kind != "" && g.Kind != q.kind) || a.kinds[g.Kind] == nil {
					continue
				}
				if skip > 0 {
					skip--
					continue
				}
				games = append(games, g)
				if len(games) == want {
					return nil
				}
			}
			if len(batch) < archiveScan {
				return nil
			}
			// The next batch: games that ended before the last one read.
			// Games ending in the same nanosecond as it would be skipped;
			// Ended comes from the bot's clock, one game at a time.
			before = batch[len(batch)-1].Ended
		}
	})
	if len(games) > archivePageSize {
		return games[:archivePageSize], true, err
	}
	return games, false, err
}

// archivePage is page q of the archive in guildID: a card listing the
// games, a row of their Replay buttons, and ◀ ▶.
func (a *App) archivePage(guildID string, q archiveQuery) (Message, error) {
	games, more, err := a.archiveGames(guildID, q)
	if err != nil {
		return Message{}, err
	}
	what := "finished games"
	if k := a.kinds[q.kind]; k != nil {
		what = "finished " + k.Title + " games"
	}
	title := fmt.Sprintf("Archive of <@%s>", q.user)
	card := &ui.Card{
		Title:  "Game archive",
		Color:  ColorClosed,
		Footer: fmt.Sprintf("Page %d · newest first · only you see this · games of this server only", q.page+1),
	}
	if len(games) == 0 {
		card.Description = fmt.Sprintf("%s: no %s in this server", title, what)
		if q.page > 0 {
			card.Description += " on this page"
		}
		card.Description += "."
	} else {
		lines := []string{fmt.Sprintf("%s: %s in this server.", title, what)}
		for i, g := range games {
			lines = append(lines, a.archiveLine(q.page*archivePageSize+i+1, g, q.user))
		}
		card.Description = ClipLines(lines, 4000)
	}
	var replays ui.Row
	for i, g := range games {
		if a.kinds[g.Kind].replay == nil {
			continue
		}
		b := GameButton(g, ReplayAction, strconv.Itoa(q.page*archivePageSize+i+1), ui.Secondary)
		b.Emoji = "🎞"
		replays = append(replays, b)
	}
	prev := ui.Button{Emoji: "◀", Label: "Newer", Style: ui.Secondary, Route: q.route(max(q.page-1, 0)), Disabled: q.page == 0}
	next := ui.Button{Emoji: "▶", Label: "Older", Style: ui.Secondary, Route: q.route(q.page + 1), Disabled: !more}
	rows := []ui.Row{}
	if len(replays) > 0 {
		rows = append(rows, replays)
	}
	if q.page > 0 || more {
		rows = append(rows, ui.Row{prev, next})
	}
	return Message{Cards: []*ui.Card{card}, Rows: rows}, nil
}

// archiveLine is one game of the archive, numbered n, for userID: kind,
// result, whom they played, date; links to the thread and the final board.
func (a *App) archiveLine(n int, g *storage.Game, userID string) string {
	k := a.kinds[g.Kind]
	head := fmt.Sprintf("**%d. %s** · %s", n, k.Title, resultFor(g.Outcome, userID))
	versus := ""
	if k.versus != nil {
		versus = k.versus(a, g, userID)
	}
	if versus == "" {
		versus = versusOf(g, userID)
	}
	if versus != "" {
		head += " · " + versus
	}
	if !g.Ended.IsZero() {
		head += fmt.Sprintf(" · <t:%d:d>", g.Ended.Unix())
	}
	var links []string
	if g.ThreadID != "" {
		links = append(links, fmt.Sprintf("[thread](%s)", ThreadLink(g.GuildID, g.ThreadID)))
	}
	if link := MessageLink(g.GuildID, g.ThreadID, g.FinalMessage); link != "" {
		record := k.record
		if record == "" {
			record = "record"
		}
		links = append(links, fmt.Sprintf("[final board and %s](%s)", record, link))
	}
	if k.replay != nil {
		links = append(links, fmt.Sprintf("replay: 🎞 %d below", n))
	}
	if len(links) > 0 {
		head += "\n" + strings.Join(links, " · ")
	}
	return head
}

// resultFor is the outcome o as userID lived it: "won by checkmate",
// "lost on time", "drawn by agreement", "aborted".
func resultFor(o *storage.Outcome, userID string) string {
	if o == nil {
		return "finished"
	}
	method := strings.ReplaceAll(string(o.Method), "_", " ")
	switch {
	case o.Method == storage.Aborted:
		return "aborted"
	case slices.Contains(o.Winners, userID):
		return "**won** (" + method + ")"
	case slices.Contains(o.Losers, userID) && len(o.Winners) == 0:
		return "**lost**: a mutual loss (" + method + ")"
	case slices.Contains(o.Losers, userID):
		return "**lost** (" + method + ")"
	case len(o.Winners) > 0:
		return "ended (" + method + ")"
	}
	return "**drawn** (" + method + ")"
}

// versusOf names whom userID played in g when its kind does not say: the
// other side of the outcome, else every other player.
func versusOf(g *storage.Game, userID string) string {
	var others []string
	switch o := g.Outcome; {
	case o != nil && slices.Contains(o.Winners, userID) && len(o.Losers) > 0:
		others = o.Losers
	case o != nil && slices.Contains(o.Losers, userID) && len(o.Winners) > 0:
		others = o.Winners
	default:
		for _, p := range g.Players {
			if p != userID {
				others = append(others, p)
			}
		}
	}
	if len(others) == 0 {
		return ""
	}
	out := make([]string, len(others))
	for i, id := range others {
		out[i] = "<@" + id + ">"
	}
	return "vs " + strings.Join(out, ", ")
}
