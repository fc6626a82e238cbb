package commands

import (
	"slices"

	"sandtable/commands/ui"
)

// WaitingValue is the value of the one autocomplete choice given to a user
// who may not act now, whose name says whose turn it is. Submitted with a
// thread command it plays nothing: the framework answers, privately, that
// the choice only said whose turn it is (App.handleCommand).
const WaitingValue = "(whose turn)"

// gateAutocomplete wraps a game's autocomplete route act: a user who may
// act with the command now (Spec.MayComplete, else one of the clock's
// Actors while the game is on) gets act's choices; anyone else one choice,
// Spec.WhoseTurn's line, valued WaitingValue. Without WhoseTurn, act
// answers everyone.
func gateAutocomplete[S any](k *kindOf[S], s Spec[S], act Action[S]) Action[S] {
	if s.WhoseTurn == nil {
		return act
	}
	return func(t *Turn[S]) (*Response, error) {
		may := false
		if s.MayComplete != nil {
			may = s.MayComplete(t)
		} else if !k.over(t.State) {
			may = slices.Contains(k.g.Clock(t.State).Actors, t.Req.User.ID)
		}
		if may {
			return act(t)
		}
		line := s.WhoseTurn(t.State)
		if line == "" {
			return &Response{}, nil
		}
		return &Response{Choices: []*ui.Choice{{Name: Clip(line, maxChoiceName), Value: WaitingValue}}}, nil
	}
}

// maxChoiceName is Discord's limit on an autocomplete choice's name.
const maxChoiceName = 100

// waitingChoiceSent reports whether req, a thread command, carries the
// value of the waiting choice in a string option.
func waitingChoiceSent(req *Request) bool {
	for _, o := range req.Options {
		if o.String == WaitingValue {
			return true
		}
	}
	return false
}
