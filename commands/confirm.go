package commands

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"sandtable/commands/ui"
	"sandtable/storage"
)

// ConfirmTTL is how long a confirmation's Confirm button acts after it was
// shown. The expiry travels in the button's custom ID and is checked
// against the framework clock when the button is clicked, so nothing needs
// sweeping: an expired prompt's buttons stay on screen (an ephemeral
// message the bot cannot reach once its interaction token lapses) but a
// click on them changes nothing and says so.
const ConfirmTTL = 60 * time.Second

// Confirmation actions, reserved in every game's Components: "confirm"
// runs the confirmed route, "confirm-cancel" drops the prompt.
const (
	confirmAction = "confirm"
	cancelAction  = "confirm-cancel"
)

// Ask makes the action ask its user first, privately, with Confirm and
// Cancel buttons: it returns that prompt, or nil when t is the confirmed
// run (the user clicked Confirm in time), and the action goes on. route is
// the game's component route that performs the action once confirmed (it
// runs again with the click as its request: a ComponentRequest whose
// custom ID is CustomID{Scope: "g", ID: game, Action: route, Arg: arg}),
// so a slash command and a button that do one thing share one route. An
// action calls Ask after its own checks (the user plays, the game is on)
// and before changing anything.
func (t *Turn[S]) Ask(route, arg, prompt string) *Response {
	if t.confirmed {
		return nil
	}
	expires := t.Now.Add(ConfirmTTL)
	button := func(action, label string, style ui.ButtonStyle) ui.Button {
		a := fmt.Sprintf("%d.%s.%s.%s.%s", expires.Unix(), t.Req.User.ID, t.moment(), route, arg)
		return ui.Button{Label: label, Style: style, Route: CustomID{Scope: "g", ID: t.Game.ID, Action: action, Arg: a}.String()}
	}
	return &Response{Ephemeral: true, Message: Message{
		Content: fmt.Sprintf("%s\nConfirm within %d seconds (<t:%d:R>), or cancel.", prompt, int(ConfirmTTL/time.Second), expires.Unix()),
		Rows: []ui.Row{{
			button(confirmAction, "Confirm", ui.Danger),
			button(cancelAction, "Cancel", ui.Secondary),
		}},
	}}
}

// moment is a stamp of the game's clock key (the ply, the turn, the
// phase): what a prompt was asked about, so that a Confirm after play went
// on changes nothing. Effects' results recorded meanwhile (Spec.Delivered)
// and draw offers do not change it.
func (t *Turn[S]) moment() string {
	if t.kind == nil {
		return Stamp("")
	}
	return Stamp(t.kind.clock(t.State).Key)
}

// Confirmed reports whether t is the confirmed run of an action that
// asked (see Ask).
func (t *Turn[S]) Confirmed() bool { return t.confirmed }

// confirmArg is what a confirmation button carries.
type confirmArg struct {
	expires time.Time
	user    string
	moment  string // the game's moment when the user was asked (Turn.moment)
	route   string
	arg     string
}

func parseConfirmArg(s string) (confirmArg, error) {
	parts := strings.SplitN(s, ".", 5)
	if len(parts) != 5 {
		return confirmArg{}, Errorf("This confirmation button is damaged; use the command again.")
	}
	sec, err := strconv.ParseInt(parts[0], 10, 64)
	if err != nil || parts[1] == "" || parts[3] == "" {
		return confirmArg{}, Errorf("This confirmation button is damaged; use the command again.")
	}
	return confirmArg{expires: time.Unix(sec, 0), user: parts[1], moment: parts[2], route: parts[3], arg: parts[4]}, nil
}

// confirmRoutes adds the framework's confirmation routes to a game's
// component table: Confirm runs the route the prompt names, as a click of
// that route, once checked that the clicker is the user who was asked and
// that the prompt has not expired; Cancel answers by updating the prompt.
// The prompt carries the game's moment (Turn.moment: its clock key): a
// Confirm after play went on is refused, so the user confirms what they
// saw. A Confirm goes through the game's one action path (dedupe by
// interaction, version compare at the commit), so a double click is two
// actions: the second finds the game changed (over) and says so.
func confirmRoutes[S any](k *kindOf[S], table map[string]gameHandler, routes map[string]Action[S]) {
	table[confirmAction] = func(a *App, req *Request, rec *storage.Game) (*Response, error) {
		id, _ := ParseCustomID(req.CustomID)
		c, err := parseConfirmArg(id.Arg)
		if err != nil {
			return nil, err
		}
		act, ok := routes[c.route]
		if !ok {
			return nil, Errorf("This confirmation is not one of mine (unknown action %q).", c.route)
		}
		if c.user != req.User.ID {
			return nil, Errorf("This confirmation is <@%s>'s, not yours: nothing changed.", c.user)
		}
		if !req.Now.Before(c.expires) {
			return nil, Errorf("This confirmation expired (a confirmation lasts %d seconds): nothing changed. Use the command or button again.", int(ConfirmTTL/time.Second))
		}
		if !rec.Active {
			return nil, Errorf("Nothing changed: this game is already over.")
		}
		again := *req
		again.CustomID = CustomID{Scope: "g", ID: rec.ID, Action: c.route, Arg: c.arg}.String()
		return k.run(a, &again, rec, func(t *Turn[S]) (*Response, error) {
			if t.moment() != c.moment {
				return nil, Errorf("The game moved on since you were asked: nothing changed. Use the command or button again if you still want to.")
			}
			t.confirmed = true
			return act(t)
		})
	}
	table[cancelAction] = func(a *App, req *Request, rec *storage.Game) (*Response, error) {
		return &Response{Ephemeral: true, Update: true, Message: Message{Content: "Cancelled: nothing changed."}}, nil
	}
}
