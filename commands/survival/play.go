package survival

import (
	"crypto/rand"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"sandtable/commands"
	"sandtable/commands/chessui"
	"sandtable/commands/ui"
	"sandtable/games/chess"
	"sandtable/games/engine"
	"sandtable/internal/duration"
)

type (
	turn     = commands.Turn[*State]
	response = commands.Response
)

var dmPermission = false

// Spec names Survival's commands and routes.
func (Game) Spec() commands.Spec[*State] {
	draw := func(t *turn) (*response, error) { return drawAction(t, t.Req.Sub) }
	drawButton := func(t *turn) (*response, error) {
		id, _ := commands.ParseCustomID(t.Req.CustomID)
		return drawAction(t, strings.TrimPrefix(id.Action, "draw-"))
	}
	return commands.Spec[*State]{
		Name:  Kind,
		Title: Title,
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
					{Type: ui.String, Name: "clock", Description: "A Fischer clock instead: minutes+seconds added per move, e.g. 10+5 (3+0 to 180+180)", MaxLength: 20},
					commands.LevelOption(engine.LevelNames(), defaultLevel),
					commands.CasualOption(),
				},
			}},
		}},
		TopLevel:     map[string]commands.Handler{"survival": commands.Subcommands("survival", map[string]commands.Handler{"challenge": challenge})},
		Thread:       map[string]commands.Action[*State]{"move": move, "resign": resign, "draw": draw, "board": board, commands.HistoryAction: history},
		Autocomplete: map[string]commands.Action[*State]{"move": autocomplete},
		WhoseTurn:    whoseTurn,
		Components:   map[string]commands.Action[*State]{"flip": flip, "pick": pick, "resign": resign, "rematch": rematch, "draw-accept": drawButton, "draw-decline": drawButton, commands.HistoryAction: history},
		Start:        start,
		Private:      private,
		Replay:       replay,
		Analysis:     analysisSpec(),
		RecordName:   "PGN",
		Abort:        func(t *commands.Turn[*State], why string) error { return abort(t, t.State.clone(), why, "") },
		Results:      results,
		Adjudicate:   adjudicate,
		Versus: func(s *State, userID string) string {
			c, ok := s.colorOf(userID)
			if !ok {
				return ""
			}
			return fmt.Sprintf("vs %s as %s", s.player(c.Other()).Mention(), c.Title())
		},
		Computer: computer(),
	}
}

func challenge(a *commands.App, req *commands.Request) (*response, error) {
	color := strings.ToLower(req.Str("color"))
	switch color {
	case "":
		color = "random"
	case "white", "black", "random":
	default:
		return nil, commands.Errorf("color must be white, black or random, not %s.", commands.QuoteInput(color))
	}
	tc, clocked, err := a.ClockOption(req, "clock", "move_time")
	if err != nil {
		return nil, err
	}
	if clocked {
		return a.OpenChallenge(req, Kind, req.UserOpt("opponent"), map[string]string{
			"color": color, "clock": tc.String(),
		}, []string{
			fmt.Sprintf("Colour of %s: %s.", req.User.Mention(), color),
			fmt.Sprintf("Time control: %s.", tc.Describe()),
		})
	}
	moveTime, err := a.MoveTimeOption(req, "move_time")
	if err != nil {
		return nil, err
	}
	desc := []string{
		fmt.Sprintf("Colour of %s: %s.", req.User.Mention(), color),
		fmt.Sprintf("Time for each move: %s.", duration.Format(moveTime)),
	}
	return a.OpenChallenge(req, Kind, req.UserOpt("opponent"), map[string]string{
		"color": color, "move_time": moveTime.String(),
	}, desc)
}

// timeControl is what a game's header says of its clock.
func (s *State) timeControl() string {
	if s.Clock != nil {
		return s.Clock.Describe()
	}
	return duration.Format(s.MoveTime) + " per move"
}

// start makes the game of an accepted challenge: colours as asked (random
// by a coin), the start position, the first board.
func start(t *turn, ch *commands.Challenge) (string, error) {
	var clock *Clocks
	var moveTime time.Duration
	if text := ch.Options["clock"]; text != "" {
		tc, err := commands.ParseTimeControl(text)
		if err != nil {
			return "", err
		}
		clock = &Clocks{TimeControl: tc, White: tc.Base, Black: tc.Base}
	} else {
		var err error
		if moveTime, err = ch.Duration("move_time"); err != nil {
			return "", err
		}
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
	g := chess.NewGame(chess.Survival)
	s := &State{StartFEN: g.StartFEN(), Moves: []string{}, White: white, Black: black, MoveTime: moveTime, Clock: clock, Started: t.Now, game: g}
	t.Save(s)
	msg, err := message(t, s, fmt.Sprintf("%s (White) vs %s (Black), %s. White moves first: the first move must be a promotion.", white.Mention(), black.Mention(), s.timeControl()))
	if err != nil {
		return "", err
	}
	t.Board(commands.ChannelOfGame, msg, commands.Message{Content: fmt.Sprintf("**%s**: %s (White) vs %s (Black), %s.", Title, white.Mention(), black.Mention(), s.timeControl())})
	return fmt.Sprintf("Survival · %s vs %s", white.Name, black.Name), nil
}

// player checks that req's user may act: the game is on, they play in it
// and, when needTurn, it is their move. It returns their colour.
func player(t *turn, needTurn bool) (chess.Color, error) {
	s := t.State
	if s.over() {
		return chess.White, commands.Errorf("This game is over: %s", s.resultLine())
	}
	c, ok := s.colorOf(t.Req.User.ID)
	if !ok {
		return c, commands.Errorf("You are not playing in this game; only %s and %s are.", s.White.Mention(), s.Black.Mention())
	}
	if needTurn && s.turn() != c {
		return c, commands.Errorf("It is not your turn: %s is to move.", s.describe(s.turn()))
	}
	return c, nil
}

// commit saves s, posts its board carrying note as the thread's live board
// (compacted later into compact, a line of the move list), and answers
// the user privately with answer: the board is what everyone reads.
func commit(t *turn, s *State, note, compact, answer string) (*response, error) {
	t.Save(s)
	msg, err := message(t, s, note)
	if err != nil {
		return nil, err
	}
	t.Board(commands.ChannelOfGame, msg, commands.Message{Content: compact})
	return privately(t, answer), nil
}

// privately is the private answer text to t's request; it replaces the
// confirmation prompt a Confirm button was on.
func privately(t *turn, text string) *response {
	return &response{Ephemeral: true, Update: t.Confirmed(), Message: commands.Message{Content: text}}
}

// private reports which answers are private (deferred ephemerally): those
// of the commands whose news is a new board.
func private(req *commands.Request) bool {
	if req.Type != commands.CommandRequest {
		return false
	}
	switch req.Command {
	case "move", "resign", "board":
		return true
	case "draw":
		return req.Sub == "accept" || req.Sub == "claim"
	}
	return false
}

// moveLine is a board's compact form: the move it shows and who played it.
func moveLine(s *State, mover commands.User) string {
	return fmt.Sprintf("%s — %s", s.LastMove, mover.Mention())
}

// played records the move m (san) just played from the position before.
func (s *State) played(before *chess.Position, m chess.Move, san string) {
	s.Moves = append(s.Moves, m.UCI())
	s.Offer = ""
	if before.Turn() == chess.White {
		s.LastMove = fmt.Sprintf("%d. %s", before.FullmoveNumber(), san)
	} else {
		s.LastMove = fmt.Sprintf("%d... %s", before.FullmoveNumber(), san)
	}
}

func move(t *turn) (*response, error) { return playMove(t, t.Req.Str("move")) }

// playMove plays the move text for t's user: /move's typed move, or the
// move a picker completed (picker.go), on one path (the same checks,
// effects and answer).
func playMove(t *turn, text string) (*response, error) {
	if _, err := player(t, true); err != nil {
		return nil, err
	}
	if text == "" {
		return nil, commands.Errorf("Write your move in the move option, e.g. `e8=Q` or `e7e8q`.")
	}
	if flagged(t) {
		return lateMove(t)
	}
	s := t.State.clone()
	before := s.game.Position()
	m, san, err := s.game.PlayText(text)
	if err != nil {
		var me *chess.MoveError
		if errors.As(err, &me) {
			return nil, chessui.MoveRefused(text, me)
		}
		return nil, err
	}
	punch(t, s, before.Turn())
	s.played(before, m, san)
	s.ended()
	note := fmt.Sprintf("%s played **%s**.", t.Req.User.Mention(), san)
	if s.over() {
		note += " " + s.resultLine()
	} else {
		note += fmt.Sprintf(" %s, your move.", s.player(s.turn()).Mention())
	}
	answer := fmt.Sprintf("You played **%s**.", san)
	if s.over() {
		answer += " " + s.resultLine()
	}
	return commit(t, s, note, moveLine(s, t.Req.User), answer)
}

// lateMove refuses a move that arrived after its side's flag fell (judged
// when the move is committed): the loss on time is committed instead, in
// the same transaction, and the mover told so.
func lateMove(t *turn) (*response, error) {
	s := t.State.clone()
	if len(s.Moves) == 0 {
		if err := (Game{}).Timeout(t); err != nil {
			return nil, err
		}
		return privately(t, "Your move came after your clock ran out: nothing was played. "+s.resultLine()), nil
	}
	if _, err := flag(t, s); err != nil {
		return nil, err
	}
	return privately(t, "Your move came after your clock ran out: nothing was played, and you lose on time. "+s.resultLine()), nil
}

// whoseTurn is the one autocomplete choice of whoever may not move now
// (ruling 26).
func whoseTurn(s *State) string {
	if s.over() {
		return "This game is over: " + s.Result
	}
	return fmt.Sprintf("Waiting for %s (%s) to move", s.player(s.turn()).Name, s.turn().Title())
}

// autocomplete lists the legal moves starting with what the player to
// move typed (the framework answers anyone else with whoseTurn).
func autocomplete(t *turn) (*response, error) {
	if t.State.over() {
		return &response{}, nil
	}
	typed := strings.ToLower(strings.TrimSpace(t.Req.Str("move")))
	var choices []*ui.Choice
	for _, mt := range t.State.game.Position().LegalMoveTexts() {
		if typed != "" && !strings.HasPrefix(strings.ToLower(mt.SAN), typed) && !strings.HasPrefix(mt.UCI, typed) {
			continue
		}
		choices = append(choices, &ui.Choice{Name: mt.SAN + " (" + mt.UCI + ")", Value: mt.UCI})
		if len(choices) == 25 {
			break
		}
	}
	return &response{Choices: choices}, nil
}

func resign(t *turn) (*response, error) {
	c, err := player(t, false)
	if err != nil {
		return nil, err
	}
	if r := t.Ask("resign", "", "Resign this game? You lose it."); r != nil {
		return r, nil
	}
	s := t.State.clone()
	if err := s.game.Resign(c); err != nil {
		return nil, err
	}
	s.ended()
	return commit(t, s, fmt.Sprintf("%s resigned. %s", t.Req.User.Mention(), s.resultLine()),
		fmt.Sprintf("%s resigned. %s", t.Req.User.Mention(), s.resultLine()), "You resigned. "+s.resultLine())
}

// board shows the board to its asker, privately: the thread's live board
// stays the one at the bottom of the thread.
func board(t *turn) (*response, error) {
	msg, err := message(t, t.State, "")
	if err != nil {
		return nil, err
	}
	return &response{Ephemeral: true, Message: msg}, nil
}

// flip shows the clicker, privately, the board of the message whose button
// was clicked from Black's side (public boards are drawn from White's): the position after the number of moves
// the button carries (the current one on boards from before buttons
// carried it), not the game's position now.
func flip(t *turn) (*response, error) {
	s := t.State
	id, _ := commands.ParseCustomID(t.Req.CustomID)
	ply := len(s.Moves)
	if id.Arg != "" {
		var err error
		if ply, err = strconv.Atoi(id.Arg); err != nil || ply < 0 || ply > len(s.Moves) {
			return nil, commands.Errorf("This button does not belong to a board of this game.")
		}
	}
	g, where := s.game, ""
	if ply < len(s.Moves) {
		var err error
		if g, err = chess.ReplayGame(chess.Survival, s.StartFEN, s.Moves[:ply]); err != nil {
			return nil, fmt.Errorf("game %s: replay: %w", t.Game.ID, err)
		}
		where = " before the first move"
		if last := chessui.MoveNumberText(g); last != "" {
			where = " after " + last
		}
	}
	file, err := boardFile(t, g, chessui.BoardView{Flipped: true, CaptureMarks: !g.Status().Over()})
	if err != nil {
		return nil, err
	}
	return &response{Ephemeral: true, Message: commands.Message{Content: fmt.Sprintf("The board%s from Black's side:", where), Files: []*ui.File{file}}}, nil
}

func drawAction(t *turn, action string) (*response, error) {
	if r := t.State.Repeat(t.Req); r != nil {
		return r, nil
	}
	c, err := player(t, false)
	if err != nil {
		return nil, err
	}
	if action == "accept" {
		if err := t.State.Draw.Check(t.Req, t.State.player(c.Other()), action, "(offers lapse when a move is made)"); err != nil {
			return nil, err
		}
		if r := t.Ask("draw-accept", t.State.Draw.Arg(), "Accept the draw offer? The game ends in a draw."); r != nil {
			return r, nil
		}
	}
	s := t.State.clone()
	switch action {
	case "offer", "accept", "decline":
		resp, accepted, err := s.Draw.Act(t.Req, t.Game.ID, s.player(c.Other()), action,
			"(The offer lapses with the next move.)", "(offers lapse when a move is made)")
		if err != nil {
			return nil, err
		}
		if !accepted {
			t.Save(s)
			return resp, nil
		}
		if err := s.game.AgreeDraw(); err != nil {
			return nil, err
		}
		s.ended()
		note := fmt.Sprintf("%s accepted the draw offer. Draw by agreement.", t.Req.User.Mention())
		return commit(t, s, note, note, "You accepted the draw offer: the game is drawn.")
	case "claim":
		return claim(t, s, c)
	}
	return nil, commands.Errorf("Unknown draw action %q: use offer, accept, decline or claim.", action)
}

// claim ends the game in a draw claimed by the player to move, with a move
// when one is given (FIDE 9.2 and 9.3).
func claim(t *turn, s *State, c chess.Color) (*response, error) {
	g := s.game
	if g.Position().Turn() != c {
		return nil, commands.Errorf("Only the player to move can claim a draw (FIDE 9.2 and 9.3): wait for your turn.")
	}
	var withMove string
	if text := t.Req.Str("move"); text != "" {
		if flagged(t) {
			return lateMove(t)
		}
		m, err := g.Position().ParseMove(text)
		if err != nil {
			var me *chess.MoveError
			if errors.As(err, &me) {
				return nil, chessui.MoveRefused(text, me)
			}
			return nil, commands.NotLegal(text, err.Error())
		}
		before := g.Position()
		san := before.SAN(m)
		var ce *chess.ClaimError
		if _, err := g.ClaimDrawWithMove(m); errors.As(err, &ce) {
			return nil, commands.Errorf("Playing %s would not allow a draw claim (no threefold repetition and fewer than 50 moves without a capture or pawn move); nothing was played.", san)
		} else if err != nil {
			return nil, err
		}
		punch(t, s, before.Turn())
		s.played(before, m, san)
		withMove = " with the move " + san
	} else {
		var ce *chess.ClaimError
		if _, err := g.ClaimDraw(); errors.As(err, &ce) {
			return nil, commands.Errorf("No draw can be claimed now: the position has not occurred three times (it has occurred %s) and the fifty-move count is %d of 50 moves.",
				commands.Plural(ce.Repetitions, "time", "times"), ce.HalfmoveClock/2)
		} else if err != nil {
			return nil, err
		}
	}
	s.ended()
	note := fmt.Sprintf("%s claimed a draw by %s%s.", t.Req.User.Mention(), s.End.Reason, withMove)
	return commit(t, s, note, note, fmt.Sprintf("You claimed a draw by %s%s.", s.End.Reason, withMove))
}

// rematch opens, from a finished game's Rematch button, a challenge from
// the clicker to their opponent with colours swapped and the same move
// time (ruling 31), answered like any challenge.
func rematch(t *turn) (*response, error) {
	s := t.State
	if !s.over() {
		return nil, commands.Errorf("This game is still on: a rematch is offered once it has ended.")
	}
	c, ok := s.colorOf(t.Req.User.ID)
	if !ok {
		return nil, commands.Errorf("Only %s and %s, who played this game, can ask for a rematch.", s.White.Mention(), s.Black.Mention())
	}
	color := "black"
	if c == chess.Black {
		color = "white"
	}
	opp := s.player(c.Other())
	options := map[string]string{"color": color, "move_time": s.MoveTime.String()}
	describe := []string{
		fmt.Sprintf("A rematch of game %s, colours swapped: %s plays %s.", t.Game.ID, t.Req.User.Mention(), color),
		fmt.Sprintf("Time for each move: %s.", duration.Format(s.MoveTime)),
	}
	if s.Clock != nil {
		options = map[string]string{"color": color, "clock": s.Clock.String()}
		describe[1] = fmt.Sprintf("Time control: %s.", s.Clock.Describe())
	}
	r, id, err := t.Rematch(s.Rematch, Kind, &opp, options, describe)
	if err == nil && id != s.Rematch {
		next := s.clone()
		next.Rematch = id
		t.Save(next)
	}
	return r, err
}
