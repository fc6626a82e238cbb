package commands

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"sandtable/commands/ui"
	"sandtable/games/chess"
	"sandtable/internal/duration"
	"sandtable/storage"
)

// Survival Chess: Tartan Grid in Discord (shared/seeds/001, copied to
// docs/rules/texts/survival.txt; issue 2 point 6,
// rulings in docs/rules/survival.md). The rules are decided by games/chess;
// this file only runs the game flow.

const kindSurvival = "survival"

// survivalState is the stored state of one Survival game: the start position
// and every move, so any position can be replayed.
type survivalState struct {
	StartFEN  string        `json:"start_fen"`
	Moves     []string      `json:"moves"` // UCI
	White     User          `json:"white"`
	Black     User          `json:"black"`
	MoveTime  time.Duration `json:"move_time"`
	DrawOffer string        `json:"draw_offer,omitempty"` // user ID with a standing offer
	DrawSeq   int           `json:"draw_seq,omitempty"`   // offers made so far (drawOffer.seq)
	// DrawAnswer is the latest answer to a draw offer (drawOffer.answered).
	DrawAnswer string    `json:"draw_answer,omitempty"`
	Result     string    `json:"result,omitempty"` // PGN result once over
	Reason     string    `json:"reason,omitempty"` // why it ended, for people
	Started    time.Time `json:"started"`
}

func (a *App) survivalKind() *Kind {
	return &Kind{
		Name:  kindSurvival,
		Title: "Survival Chess: Tartan Grid",
		Definitions: []*ui.Command{{
			Name:         "survival",
			Description:  "Survival Chess: Tartan Grid (capture is mandatory, the king is an ordinary piece)",
			DMPermission: &dmPermission,
			Options: []*ui.CommandOption{{
				Type:        ui.Subcommand,
				Name:        "challenge",
				Description: "Challenge someone to a game of Survival Chess",
				Options: []*ui.CommandOption{
					{Type: ui.User, Name: "opponent", Description: "Who you want to play", Required: true},
					{Type: ui.String, Name: "color", Description: "Your colour (default: random)", Choices: []*ui.Choice{
						{Name: "white", Value: "white"}, {Name: "black", Value: "black"}, {Name: "random", Value: "random"}}},
					{Type: ui.String, Name: "move_time", Description: "Time for each move, e.g. 30m, 24h, 3d (default: the server's setting)", MaxLength: 20},
				},
			}},
		}},
		TopLevel: map[string]Handler{"survival": Subcommands("survival", map[string]Handler{"challenge": survivalChallenge})},
		Thread: map[string]GameHandler{
			"move":   survivalMove,
			"resign": survivalResign,
			"draw":   drawCommand(survivalDrawAction),
			"board":  survivalBoard,
		},
		Autocomplete: map[string]GameHandler{"move": survivalAutocomplete},
		Components: map[string]GameHandler{
			"flip":         survivalFlip,
			"draw-accept":  drawButton(survivalDrawAction),
			"draw-decline": drawButton(survivalDrawAction),
		},
		Challenge: challengeHandlers(startSurvival),
		Timeout:   survivalTimeout,
		Summary:   survivalSummary,
	}
}

func survivalChallenge(a *App, req *Request) (*Response, error) {
	color := strings.ToLower(req.Str("color"))
	switch color {
	case "":
		color = "random"
	case "white", "black", "random":
	default:
		return nil, Errorf("color must be white, black or random, not %s.", QuoteInput(color))
	}
	moveTime, err := a.MoveTimeOption(req, "move_time")
	if err != nil {
		return nil, err
	}
	k := a.kinds[kindSurvival]
	desc := []string{
		fmt.Sprintf("Colour of %s: %s.", req.User.Mention(), color),
		fmt.Sprintf("Time for each move: %s.", duration.Format(moveTime)),
	}
	return a.openChallenge(req, k, req.UserOpt("opponent"), map[string]string{
		"color": color, "move_time": moveTime.String(),
	}, desc)
}

func startSurvival(a *App, req *Request, ch *Challenge) (string, error) {
	moveTime, err := ch.Duration("move_time")
	if err != nil {
		return "", err
	}
	white, black := ch.Challenger, ch.Opponent
	switch ch.Options["color"] {
	case "black":
		white, black = black, white
	case "white":
	default:
		var b [1]byte
		_, _ = rand.Read(b[:])
		if b[0]&1 == 1 {
			white, black = black, white
		}
	}
	game := chess.NewGame(chess.Survival)
	st := &survivalState{StartFEN: game.StartFEN(), Moves: []string{}, White: white, Black: black, MoveTime: moveTime, Started: req.Now}
	g, err := a.newGameThread(req, ch, kindSurvival, "Survival", white, black, moveTime)
	if err != nil {
		return "", err
	}
	if err := a.saveSurvival(g, st, req.Now, ""); err != nil {
		return "", err
	}
	a.addPlayers(g.ThreadID, white, black)
	msg, err := a.survivalMessage(g, st, game, fmt.Sprintf("%s (White) vs %s (Black). White moves first: the first move must be a promotion.", white.Mention(), black.Mention()))
	if err != nil {
		return "", err
	}
	if _, err := a.Platform.Send(g.ThreadID, msg); err != nil {
		return "", fmt.Errorf("posting the first board: %w", err)
	}
	return g.ThreadID, nil
}

// loadSurvival decodes a stored game and replays its moves.
func loadSurvival(g *storage.Game) (*survivalState, *chess.Game, error) {
	var st survivalState
	if err := json.Unmarshal(g.State, &st); err != nil {
		return nil, nil, fmt.Errorf("game %s: corrupt state: %w", g.ID, err)
	}
	game, err := chess.ReplayGame(chess.Survival, st.StartFEN, st.Moves)
	if err != nil {
		return nil, nil, fmt.Errorf("game %s: replay: %w", g.ID, err)
	}
	return &st, game, nil
}

// saveSurvival writes the game in one transaction; when interactionID is
// set, it also marks it applied, and refuses a second application.
func (a *App) saveSurvival(g *storage.Game, st *survivalState, now time.Time, interactionID string) error {
	return a.saveGame(g, st, now, interactionID, nil)
}

// commitSurvival saves a transition made by req and answers with the public
// board message carrying note.
func (a *App) commitSurvival(req *Request, g *storage.Game, st *survivalState, game *chess.Game, note string) (*Response, error) {
	if err := a.saveSurvival(g, st, req.Now, req.InteractionID); err != nil {
		return nil, err
	}
	return publicAnswer(a.survivalMessage(g, st, game, note))
}

func (st *survivalState) player(c chess.Color) User {
	if c == chess.White {
		return st.White
	}
	return st.Black
}

// colorOf returns the user's colour; ok is false for non-players.
func (st *survivalState) colorOf(userID string) (chess.Color, bool) {
	switch userID {
	case st.White.ID:
		return chess.White, true
	case st.Black.ID:
		return chess.Black, true
	}
	return chess.White, false
}

func (st *survivalState) describe(c chess.Color) string {
	return fmt.Sprintf("%s (%s)", st.player(c).Mention(), c.Title())
}

// finish ends the game with a PGN result and a reason.
func (st *survivalState) finish(g *storage.Game, result chess.Result, reason string) {
	st.Result = result.String()
	st.Reason = reason
	st.DrawOffer = ""
	g.Active = false
	g.Deadline = time.Time{}
}

// bottom is the side the board is shown from: the side to move while the
// game is on, and once it is over the winner's (White's after a draw), not
// the side to move, which is usually the loser.
func (st *survivalState) bottom(game *chess.Game, active bool) chess.Color {
	switch {
	case active:
		return game.Position().Turn()
	case st.Result == "0-1":
		return chess.Black
	}
	return chess.White
}

// resultLine says how the game ended, for people.
func (st *survivalState) resultLine() string {
	switch st.Result {
	case "1-0":
		return fmt.Sprintf("%s wins by %s.", st.describe(chess.White), st.Reason)
	case "0-1":
		return fmt.Sprintf("%s wins by %s.", st.describe(chess.Black), st.Reason)
	case "1/2-1/2":
		return fmt.Sprintf("Draw by %s.", st.Reason)
	}
	return ""
}

// survivalMessage is the board post: embed, image, Flip button, and at the
// end the result and the PGN record.
func (a *App) survivalMessage(g *storage.Game, st *survivalState, game *chess.Game, note string) (Message, error) {
	pos := game.Position()
	file, err := a.chessBoardFile(game, boardView{Flipped: st.bottom(game, g.Active) == chess.Black, CaptureMarks: g.Active})
	if err != nil {
		return Message{}, err
	}
	e := &ui.Card{
		Title: "Survival Chess: Tartan Grid",
		Image: "board.png",
		Fields: []*ui.Field{
			{Name: "White", Value: st.White.Mention(), Inline: true},
			{Name: "Black", Value: st.Black.Mention(), Inline: true},
		},
		Footer: "Game " + g.ID,
	}
	if last := MoveNumberText(game); last != "" {
		e.Fields = append(e.Fields, &ui.Field{Name: "Last move", Value: last, Inline: true})
	}
	files := []*ui.File{file}
	var comps []ui.Row
	if g.Active {
		turn := pos.Turn()
		e.Color = ColorWhite
		if turn == chess.Black {
			e.Color = ColorBlack
		}
		toMove := fmt.Sprintf("%s, move %d", st.describe(turn), pos.FullmoveNumber())
		if !g.Deadline.IsZero() {
			toMove += fmt.Sprintf("\nTime runs out <t:%d:R>", g.Deadline.Unix())
		}
		e.Fields = append(e.Fields, &ui.Field{Name: "To move", Value: toMove})
		if caps := pos.Captures(); len(caps) > 0 {
			sans := make([]string, 0, len(caps))
			for _, m := range caps {
				sans = append(sans, pos.SAN(m))
			}
			e.Fields = append(e.Fields, &ui.Field{
				Name:  "Capture is mandatory",
				Value: fmt.Sprintf("%s available: %s", Plural(len(caps), "capture", "captures"), ListAtMost(sans, 10)),
			})
		}
		if claims := game.Claims(); len(claims) > 0 {
			names := make([]string, len(claims))
			for i, c := range claims {
				names[i] = c.String()
			}
			e.Fields = append(e.Fields, &ui.Field{
				Name:  "Draw claimable",
				Value: fmt.Sprintf("%s may claim a draw by %s with /draw claim.", st.describe(turn), strings.Join(names, " or ")),
			})
		}
		if st.DrawOffer != "" {
			e.Fields = append(e.Fields, &ui.Field{Name: "Draw offer", Value: fmt.Sprintf("<@%s> offers a draw.", st.DrawOffer)})
		}
		comps = []ui.Row{{
			GameArgButton(g, "flip", strconv.Itoa(len(st.Moves)), "Flip board", ui.Secondary),
		}}
	} else {
		e.Color = ColorOver
		e.Fields = append(e.Fields, &ui.Field{Name: "Result", Value: st.Result + ": " + st.resultLine()})
		pgn := game.PGN([]chess.Tag{
			{Name: "Event", Value: "SandTable Bot Survival Chess"},
			{Name: "Site", Value: "Discord"},
			{Name: "Date", Value: st.Started.UTC().Format("2006.01.02")},
			{Name: "White", Value: st.White.Name},
			{Name: "Black", Value: st.Black.Name},
			{Name: "Termination", Value: st.Reason},
		}, st.Result)
		files = append(files, &ui.File{Name: "survival-" + g.ID + ".pgn", ContentType: "application/x-chess-pgn", Data: []byte(pgn)})
	}
	return Message{Content: note, Cards: []*ui.Card{e}, Files: files, Rows: comps}, nil
}

func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func ListAtMost(items []string, max int) string {
	if len(items) <= max {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:max], ", ") + fmt.Sprintf(" and %d more", len(items)-max)
}

// survivalLoadPlayer loads the game for an action of req's user. It
// refuses finished games, non-players and, when needTurn, the player not to
// move. It returns the player's colour.
func survivalLoadPlayer(g *storage.Game, req *Request, needTurn bool) (*survivalState, *chess.Game, chess.Color, error) {
	st, game, err := loadSurvival(g)
	if err != nil {
		return nil, nil, chess.White, err
	}
	if !g.Active {
		return nil, nil, chess.White, Errorf("This game is over: %s", st.resultLine())
	}
	c, ok := st.colorOf(req.User.ID)
	if !ok {
		return nil, nil, c, Errorf("You are not playing in this game; only %s and %s are.", st.White.Mention(), st.Black.Mention())
	}
	if needTurn && game.Position().Turn() != c {
		turn := game.Position().Turn()
		return nil, nil, c, Errorf("It is not your turn: %s is to move.", st.describe(turn))
	}
	return st, game, c, nil
}

func survivalMove(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, game, _, err := survivalLoadPlayer(g, req, true)
	if err != nil {
		return nil, err
	}
	text := req.Str("move")
	if text == "" {
		return nil, Errorf("Write your move in the move option, e.g. `e8=Q` or `e7e8q`.")
	}
	m, san, err := game.PlayText(text)
	if err != nil {
		var me *chess.MoveError
		if errors.As(err, &me) {
			return nil, MoveRefused(text, me)
		}
		return nil, err
	}
	st.Moves = append(st.Moves, m.UCI())
	st.DrawOffer = ""
	status := game.Status()
	if status.Over() {
		st.finish(g, status.Result, status.Reason.String())
	} else {
		g.Deadline = req.Now.Add(st.MoveTime)
	}
	note := fmt.Sprintf("%s played **%s**.", req.User.Mention(), san)
	if !g.Active {
		note += " " + st.resultLine()
	} else {
		note += fmt.Sprintf(" %s, your move.", st.player(game.Position().Turn()).Mention())
	}
	return a.commitSurvival(req, g, st, game, note)
}

func survivalAutocomplete(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, game, err := loadSurvival(g)
	if err != nil || !g.Active {
		return &Response{}, err
	}
	_ = st
	typed := strings.ToLower(strings.TrimSpace(req.Str("move")))
	var choices []*ui.Choice
	for _, mt := range game.Position().LegalMoveTexts() {
		if typed != "" && !strings.HasPrefix(strings.ToLower(mt.SAN), typed) && !strings.HasPrefix(mt.UCI, typed) {
			continue
		}
		choices = append(choices, &ui.Choice{Name: mt.SAN + " (" + mt.UCI + ")", Value: mt.UCI})
		if len(choices) == 25 {
			break
		}
	}
	return &Response{Choices: choices}, nil
}

func survivalResign(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, game, c, err := survivalLoadPlayer(g, req, false)
	if err != nil {
		return nil, err
	}
	winner := chess.WhiteWins
	if c == chess.White {
		winner = chess.BlackWins
	}
	st.finish(g, winner, "resignation")
	return a.commitSurvival(req, g, st, game, fmt.Sprintf("%s resigned. %s", req.User.Mention(), st.resultLine()))
}

func survivalBoard(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, game, err := loadSurvival(g)
	if err != nil {
		return nil, err
	}
	return publicAnswer(a.survivalMessage(g, st, game, ""))
}

// survivalFlip shows the clicker, privately, the board of the message
// whose button was clicked from the other side: the position after the
// number of moves the button carries (the current one on boards from
// before buttons carried it), not the game's position now.
func survivalFlip(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, game, err := loadSurvival(g)
	if err != nil {
		return nil, err
	}
	id, _ := ParseCustomID(req.CustomID)
	ply := len(st.Moves)
	if id.Arg != "" {
		if ply, err = strconv.Atoi(id.Arg); err != nil || ply < 0 || ply > len(st.Moves) {
			return nil, Errorf("This button does not belong to a board of this game.")
		}
	}
	where := ""
	if ply < len(st.Moves) {
		if game, err = chess.ReplayGame(chess.Survival, st.StartFEN, st.Moves[:ply]); err != nil {
			return nil, fmt.Errorf("game %s: replay: %w", g.ID, err)
		}
		where = " before the first move"
		if last := MoveNumberText(game); last != "" {
			where = " after " + last
		}
	}
	flipped := game.Position().Turn() != chess.Black
	file, err := a.chessBoardFile(game, boardView{Flipped: flipped, CaptureMarks: !game.Status().Over()})
	if err != nil {
		return nil, err
	}
	side := "White"
	if flipped {
		side = "Black"
	}
	return &Response{Ephemeral: true, Message: Message{Content: fmt.Sprintf("The board%s from %s's side:", where, side), Files: []*ui.File{file}}}, nil
}

func survivalDrawAction(a *App, req *Request, g *storage.Game, action string) (*Response, error) {
	if st, _, err := loadSurvival(g); err != nil {
		return nil, err
	} else if r := drawRepeat(req, st.DrawAnswer, st.DrawOffer); r != nil {
		return r, nil
	}
	st, game, c, err := survivalLoadPlayer(g, req, false)
	if err != nil {
		return nil, err
	}
	switch action {
	case "offer", "accept", "decline":
		return drawOffer{
			offer: &st.DrawOffer, seq: &st.DrawSeq, opp: st.player(c.Other()), answered: &st.DrawAnswer,
			offerNote: "(The offer lapses with the next move.)", noOfferNote: "(offers lapse when a move is made)",
			save: func() error { return a.saveSurvival(g, st, req.Now, req.InteractionID) },
			accept: func() (*Response, error) {
				st.finish(g, chess.Draw, "agreement")
				return a.commitSurvival(req, g, st, game, fmt.Sprintf("%s accepted the draw offer. Draw by agreement.", req.User.Mention()))
			},
		}.answer(req, g, action)
	case "claim":
		if game.Position().Turn() != c {
			return nil, Errorf("Only the player to move can claim a draw (FIDE 9.2 and 9.3): wait for your turn.")
		}
		claims := game.Claims()
		var withMove string
		if text := req.Str("move"); text != "" {
			m, err := game.Position().ParseMove(text)
			if err != nil {
				var me *chess.MoveError
				if errors.As(err, &me) {
					return nil, MoveRefused(text, me)
				}
				return nil, NotLegal(text, err.Error())
			}
			claims = game.ClaimsWithMove(m)
			if len(claims) == 0 {
				return nil, Errorf("Playing %s would not allow a draw claim (no threefold repetition and fewer than 50 moves without a capture or pawn move); nothing was played.", game.Position().SAN(m))
			}
			san := game.Position().SAN(m)
			if err := game.Play(m); err != nil {
				return nil, err
			}
			st.Moves = append(st.Moves, m.UCI())
			withMove = " with the move " + san
		}
		if len(claims) == 0 {
			return nil, Errorf("No draw can be claimed now: the position has not occurred three times (it has occurred %s) and the fifty-move count is %d of 50 moves.",
				Plural(game.RepetitionCount(), "time", "times"), game.Position().HalfmoveClock()/2)
		}
		st.finish(g, chess.Draw, claims[0].String()+" (claimed)")
		return a.commitSurvival(req, g, st, game, fmt.Sprintf("%s claimed a draw by %s%s.", req.User.Mention(), claims[0], withMove))
	}
	return nil, Errorf("Unknown draw action %q: use offer, accept, decline or claim.", action)
}

// survivalTimeout: the side to move ran out of time and loses (the rules
// follow FIDE, and no Survival position with pieces on both sides is one
// where the opponent cannot win, except dead positions, which end at once).
func survivalTimeout(a *App, g *storage.Game, now time.Time) error {
	st, game, err := loadSurvival(g)
	if err != nil {
		return err
	}
	loser := game.Position().Turn()
	winner := chess.WhiteWins
	if loser == chess.White {
		winner = chess.BlackWins
	}
	st.finish(g, winner, "time (the per-move limit ran out)")
	if err := a.saveSurvival(g, st, now, ""); err != nil {
		return err
	}
	msg, err := a.survivalMessage(g, st, game, fmt.Sprintf("%s ran out of time. %s", st.describe(loser), st.resultLine()))
	if err != nil {
		return err
	}
	_, err = a.Platform.Send(g.ThreadID, msg)
	return err
}

func survivalSummary(a *App, g *storage.Game, userID string) string {
	st, game, err := loadSurvival(g)
	if err != nil {
		return ""
	}
	c, ok := st.colorOf(userID)
	if !ok {
		return ""
	}
	opp := st.player(c.Other())
	s := fmt.Sprintf("vs %s, you play %s", opp.Mention(), c.Title())
	if game.Position().Turn() == c {
		s += ", **your move**"
		if !g.Deadline.IsZero() {
			s += fmt.Sprintf(" (time runs out <t:%d:R>)", g.Deadline.Unix())
		}
	}
	return s
}
