package sandtable

import (
	"sort"
	"strconv"
	"strings"

	"sandtable/commands"
	engine "sandtable/games/sandtable"
)

// Repeated clicks (ruling D12 in docs/rules/sandtable.md). A stamped
// control (deployment panel, draft message, Drone order message) acts only
// on what its message shows. A double click, or a click on the message
// before Discord showed the first click's answer, arrives with the same
// stamp after the first click has changed the thing, and would be refused
// as stale, or bring the message "up to date" with a "Nothing changed"
// text over the first click's success. So each side remembers its latest
// click that took effect (State.Done): a click with the same action and
// stamp is answered privately "Already done", and another control of the
// same message (Cancel after Confirm) is refused privately saying what was
// done; either way the message keeps what the first click showed and
// nothing changes.

// Done is a side's latest click on a stamped control that took effect:
// its action, the stamp it carried (for a form, followed by a stamp of the
// form's fields) and what it did, said to the player.
type Done struct {
	Action string `json:"action,omitempty"`
	Arg    string `json:"arg,omitempty"`
	What   string `json:"what,omitempty"`
}

// doneKey is a stamped control's action and its arg as Done keeps them: a
// form's arg is followed by "/" and a stamp of its fields, so that only
// the same form sent twice is a repeat.
func doneKey(req *commands.Request) (action, arg string) {
	id, err := commands.ParseCustomID(req.CustomID)
	if err != nil {
		return "", ""
	}
	arg = id.Arg
	if req.Type == commands.ModalRequest {
		keys := make([]string, 0, len(req.Fields))
		for k := range req.Fields {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, 0, 2*len(keys))
		for _, k := range keys {
			parts = append(parts, k, req.Fields[k])
		}
		arg += "/" + commands.Stamp(parts...)
	}
	return id.Action, arg
}

// family is the message a control belongs to: "dep" (deployment panel),
// "step" (draft message) or "drone" (Drone order message).
func family(action string) string {
	f, _, _ := strings.Cut(action, "-")
	return f
}

// markDone records req's click, which took effect for side, with what it
// did ("you confirmed this deployment"); the caller saves the state.
func (s *State) markDone(req *commands.Request, side engine.Side, what string) {
	action, arg := doneKey(req)
	s.Done[side] = Done{Action: action, Arg: arg, What: what}
}

// shownNow is the stamp of what a message of family shows when it is up
// to date ("" when there is nothing to show).
func (s *State) shownNow(side engine.Side, fam string) string {
	switch fam {
	case "dep":
		if s.pos.Phase() == engine.PhaseDeployment {
			return panelArg(s, side, true)
		}
	case "step":
		if s.pos.Phase() == engine.PhaseMain && len(s.Steps[side]) > 0 {
			return s.draftStamp(side)
		}
	case "drone":
		if s.Drone[side] != "" {
			return strconv.Itoa(s.DroneID[side])
		}
	}
	return ""
}

// repeatAnswer answers req when it repeats side's latest click that took
// effect (see the top of this file); nil when it does not. A click on a
// message that shows the thing as it is now is never a repeat: it acts.
func (s *State) repeatAnswer(req *commands.Request, side engine.Side) *response {
	d := s.Done[side]
	action, arg := doneKey(req)
	if d.Action == "" || action == "" || family(action) != family(d.Action) {
		return nil
	}
	base, _, _ := strings.Cut(arg, "/")
	doneBase, _, _ := strings.Cut(d.Arg, "/")
	if base == "" || base != doneBase || base == s.shownNow(side, family(action)) {
		return nil
	}
	if action == d.Action && arg == d.Arg {
		return commands.Private("Already done: %s.", d.What)
	}
	return commands.Private("Nothing changed: %s.", d.What)
}

// once wraps the action of a stamped control with repeatAnswer.
func once(act commands.Action[*State]) commands.Action[*State] {
	return func(t *turn) (*response, error) {
		if side, ok := t.State.sideOf(t.Req.User.ID); ok {
			if r := t.State.repeatAnswer(t.Req, side); r != nil {
				return r, nil
			}
		}
		return act(t)
	}
}
