package commands_test

// A fourth game, tic-tac-toe, plugged in through the Game contract alone:
// no edit of the framework. It is the proof that the contract is enough
// for a new game (challenge, thread, moves, turn clock, timeout, outcome,
// /games), in under 300 lines with its test.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/storage"
)

type tttState struct {
	X     commands.User `json:"x"`
	O     commands.User `json:"o"`
	Cells [9]byte       `json:"cells"` // 0, 'X' or 'O'
	Moves int           `json:"moves"`
	Won   string        `json:"won,omitempty"` // "X", "O", "draw", "time:X" (X won on time)
}

type ticTacToe struct{}

func (ticTacToe) Spec() commands.Spec[*tttState] {
	return commands.Spec[*tttState]{
		Name: "ttt", Title: "Tic-tac-toe",
		Definitions: []*ui.Command{{Name: "ttt", Description: "Tic-tac-toe", Options: []*ui.CommandOption{
			{Type: ui.Subcommand, Name: "challenge", Description: "Challenge someone",
				Options: []*ui.CommandOption{{Type: ui.User, Name: "opponent", Description: "Who", Required: true}}}}}},
		TopLevel: map[string]commands.Handler{"ttt": func(a *commands.App, req *commands.Request) (*commands.Response, error) {
			return a.OpenChallenge(req, "ttt", req.UserOpt("opponent"), nil, nil)
		}},
		Thread: map[string]commands.Action[*tttState]{"move": tttMove},
		Start: func(t *commands.Turn[*tttState], ch *commands.Challenge) (string, error) {
			s := &tttState{X: ch.Challenger, O: ch.Opponent}
			t.Save(s)
			t.Post(commands.Message{Content: s.X.Mention() + " (X) to move.\n" + s.grid()})
			return "Tic-tac-toe · " + s.X.Name + " vs " + s.O.Name, nil
		},
	}
}

func (ticTacToe) Version() int                       { return 1 }
func (ticTacToe) Encode(s *tttState) ([]byte, error) { return json.Marshal(s) }
func (ticTacToe) Decode(v int, raw []byte) (*tttState, error) {
	var s tttState
	return &s, json.Unmarshal(raw, &s)
}

func (s *tttState) mark() byte { return "XO"[s.Moves%2] }

func (s *tttState) toMove() commands.User {
	if s.mark() == 'X' {
		return s.X
	}
	return s.O
}

func (ticTacToe) Clock(s *tttState) commands.Clock {
	if s.Won != "" {
		return commands.Clock{Rule: commands.NoClock}
	}
	return commands.Clock{Rule: commands.PerMove, Actors: []string{s.toMove().ID}, Key: strconv.Itoa(s.Moves), Period: time.Hour}
}

func (ticTacToe) Outcome(s *tttState) (storage.Outcome, bool) {
	win := strings.TrimPrefix(s.Won, "time:")
	switch win {
	case "":
		return storage.Outcome{}, false
	case "draw":
		return storage.Outcome{Method: storage.Stalemate}, true
	}
	m := storage.Method("three_in_a_row")
	if strings.HasPrefix(s.Won, "time:") {
		m = storage.Time
	}
	w, l := s.X, s.O
	if win == "O" {
		w, l = l, w
	}
	return storage.Outcome{Side: win, Winners: []string{w.ID}, Losers: []string{l.ID}, Method: m}, true
}

func (ticTacToe) Timeout(t *commands.Turn[*tttState]) error {
	s := *t.State
	s.Won = "time:" + string("OX"[s.Moves%2]) // the player not to move wins
	t.Save(&s)
	t.Post(commands.Message{Content: s.toMove().Mention() + " ran out of time."})
	return nil
}

func (ticTacToe) Summary(g *storage.Game, s *tttState, userID string) string {
	if s.toMove().ID == userID {
		return "your move"
	}
	return ""
}

func (s *tttState) grid() string {
	var b strings.Builder
	for i, c := range s.Cells {
		if c == 0 {
			c = '.'
		}
		b.WriteByte(c)
		if i%3 == 2 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

var lines = [8][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}

func tttMove(t *commands.Turn[*tttState]) (*commands.Response, error) {
	s := *t.State
	if s.Won != "" {
		return nil, commands.Errorf("This game is over.")
	}
	if t.Req.User.ID != s.toMove().ID {
		return nil, commands.Errorf("It is not your turn.")
	}
	n, err := strconv.Atoi(t.Req.Str("move"))
	if err != nil || n < 1 || n > 9 || s.Cells[n-1] != 0 {
		return nil, commands.Errorf("Pick a free cell from 1 to 9.")
	}
	s.Cells[n-1] = s.mark()
	s.Moves++
	for _, l := range lines {
		if c := s.Cells[l[0]]; c != 0 && c == s.Cells[l[1]] && c == s.Cells[l[2]] {
			s.Won = string(c)
		}
	}
	if s.Won == "" && s.Moves == 9 {
		s.Won = "draw"
	}
	t.Save(&s)
	return &commands.Response{Message: commands.Message{Content: fmt.Sprintf("%s\nDeadline %d", s.grid(), t.Deadline().Unix())}}, nil
}

// TestToyGameThroughTheContract plays tic-tac-toe from the challenge to a
// win, through the framework only.
func TestToyGameThroughTheContract(t *testing.T) {
	t.Parallel()
	alice, bob := commandstest.Alice, commandstest.Bob
	a, p, store := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*tttState](a, ticTacToe{}) })
	r := commandstest.Cmd(alice, "ttt", "challenge", nil)
	r.ChannelID = "general"
	r.Options["opponent"] = commands.Option{User: &bob}
	ch, err := a.Handle(r)
	require.NoError(t, err)
	var accept string
	for _, c := range ch.Rows[0] {
		if b := c.(ui.Button); b.Label == "Accept" {
			accept = b.Route
		}
	}
	acc, err := a.Handle(commandstest.Click(bob, accept, "challenge-msg"))
	require.NoError(t, err)
	require.Contains(t, acc.Cards[0].Description, "<#challenge-msg>", "the thread starts from the challenge's message")
	commandstest.Deliver(t, a, commandstest.T0)
	require.Equal(t, []string{"challenge-msg"}, p.Threads)
	require.ElementsMatch(t, []string{alice.ID, bob.ID}, p.Members["challenge-msg"])
	posts, _ := p.Snapshot()
	require.Len(t, posts, 2, "the board and the first turn's ping")
	require.Equal(t, "challenge-msg", posts[0].Channel)
	require.Equal(t, "challenge-msg", posts[1].Channel)
	require.True(t, strings.HasPrefix(posts[1].Msg.Content, alice.Mention()+", your move"), "the ping: %q", posts[1].Msg.Content)

	move := func(u commands.User, cell string, at time.Duration) (*commands.Response, error) {
		r := commandstest.Cmd(u, "move", "", map[string]string{"move": cell})
		r.ChannelID, r.Now = "challenge-msg", commandstest.T0.Add(at)
		return a.Handle(r)
	}
	_, err = move(bob, "5", 0)
	require.Contains(t, commandstest.UserMsg(t, err), "not your turn")
	for i, m := range []string{"1", "4", "2", "5"} {
		u := []commands.User{alice, bob}[i%2]
		resp, err := move(u, m, time.Duration(i)*time.Minute)
		require.NoError(t, err)
		require.Contains(t, resp.Content, fmt.Sprint(commandstest.T0.Add(time.Duration(i)*time.Minute+time.Hour).Unix()), "the clock restarts with each move")
	}
	games, err := a.Handle(&commands.Request{Type: commands.CommandRequest, Command: "games", User: alice, Now: commandstest.T0})
	require.NoError(t, err)
	require.Contains(t, games.Cards[0].Description, "Tic-tac-toe")
	require.Contains(t, games.Cards[0].Description, "your move")

	_, err = move(alice, "3", 5*time.Minute)
	require.NoError(t, err)
	var g *storage.Game
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error { g, err = tx.Games().Get(g0(t, store)); return err }))
	require.False(t, g.Active)
	require.True(t, g.Deadline.IsZero())
	require.Equal(t, &storage.Outcome{Side: "X", Winners: []string{alice.ID}, Losers: []string{bob.ID}, Method: "three_in_a_row"}, g.Outcome)
	_, err = move(bob, "9", 6*time.Minute)
	require.Contains(t, commandstest.UserMsg(t, err), "over")
}

// g0 is the ID of the only game in store.
func g0(t *testing.T, store storage.Store) string {
	var id string
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		gs, err := tx.Games().Finished(commandstest.Alice.ID, time.Time{}, 10)
		act, _ := tx.Games().Active(commandstest.Alice.ID)
		gs = append(gs, act...)
		require.Len(t, gs, 1)
		id = gs[0].ID
		return err
	}))
	return id
}
