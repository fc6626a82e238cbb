package commands

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"sandtable/commands/ui"
	"sandtable/storage"
)

// drawRepeat answers a draw offer's button clicked by the player whose
// answer to that very offer already took effect (answered is the game's
// stored Draw.Answer), privately and changing nothing: "Already
// done" for the same button (a double click), or what was done for the
// other one. It returns nil for any other request, and while a newer
// offer stands (standing is the game's Draw.Offer), whose buttons
// the player should use. Kinds call it before refusing a finished game.
func drawRepeat(req *Request, answered, standing string) *Response {
	if req.Type != ComponentRequest || answered == "" || standing != "" {
		return nil
	}
	id, err := ParseCustomID(req.CustomID)
	if err != nil {
		return nil
	}
	parts := strings.Fields(answered)
	if len(parts) != 3 || parts[0] != id.Arg || parts[2] != req.User.ID {
		return nil
	}
	what := "you declined this draw offer"
	if parts[1] == "accept" {
		what = "you accepted this draw offer: the game is drawn"
	}
	if strings.TrimPrefix(id.Action, "draw-") == parts[1] {
		return Private("Already done: %s.", what)
	}
	return Private("Nothing changed: %s.", what)
}

// Draw is the agreed draw of a two-player game as the game stores it: a
// player offers a draw, the opponent accepts or declines it; the game
// drops a standing offer (Offer = "") when play goes on.
type Draw struct {
	// Offer is the user ID of the player with a standing offer, "" for none.
	Offer string `json:"draw_offer,omitempty"`
	// Seq counts the offers made in the game: the standing offer's number,
	// which its message's buttons carry, so that the buttons of a declined
	// or lapsed offer cannot answer a later one.
	Seq int `json:"draw_seq,omitempty"`
	// Answer is the latest answer to an offer, "<offer number>
	// accept|decline <user ID>" (see Repeat).
	Answer string `json:"draw_answer,omitempty"`
}

// Repeat answers a repeated click on a draw offer's buttons (see
// drawRepeat), or returns nil.
func (d *Draw) Repeat(req *Request) *Response { return drawRepeat(req, d.Answer, d.Offer) }

// Act runs req's user's draw action "offer", "accept" or "decline" in the
// game gameID against opp, changing d. It returns the answer to post (an
// offer with its buttons, or the decline), or accepted when the game is to
// end in a draw by agreement (the caller ends it and answers). offerNote
// ends an offer's message ("(The offer lapses with the next move.)");
// noOfferNote ends the refusal to answer a lapsed offer ("(offers lapse
// when a move is made)"). Any other action, and every refusal, is a
// *UserError with d unchanged.
func (d *Draw) Act(req *Request, gameID string, opp User, action, offerNote, noOfferNote string) (resp *Response, accepted bool, err error) {
	switch action {
	case "offer":
		if d.Offer == req.User.ID {
			return nil, false, Errorf("You have already offered a draw; %s can accept or decline it.", opp.Mention())
		}
		if d.Offer == opp.ID {
			return nil, false, Errorf("%s has already offered you a draw: use /draw accept to agree.", opp.Mention())
		}
		d.Offer = req.User.ID
		d.Seq++
		n := strconv.Itoa(d.Seq)
		button := func(action, label string, style ui.ButtonStyle) ui.Button {
			return ui.Button{Label: label, Style: style, Route: CustomID{Scope: "g", ID: gameID, Action: action, Arg: n}.String()}
		}
		return &Response{Message: Message{
			Content: fmt.Sprintf("%s offers a draw. %s, do you accept? %s", req.User.Mention(), opp.Mention(), offerNote),
			Rows: []ui.Row{{
				button("draw-accept", "Accept draw", ui.Success),
				button("draw-decline", "Decline", ui.Danger),
			}},
		}}, false, nil
	case "accept", "decline":
		if err := d.Check(req, opp, action, noOfferNote); err != nil {
			return nil, false, err
		}
		d.Answer = fmt.Sprintf("%d %s %s", d.Seq, action, req.User.ID)
		if action == "decline" {
			d.Offer = ""
			return Reply("%s declined the draw offer. Play on!", req.User.Mention()), false, nil
		}
		return nil, true, nil
	}
	return nil, false, Errorf("Unknown draw action %q: use offer, accept or decline.", action)
}

// Check refuses req's user's answer action ("accept" or "decline") to the
// standing offer, as Act would, changing nothing: a game asks for a
// confirmation (Turn.Ask) only of an answer that can be given.
func (d *Draw) Check(req *Request, opp User, action, noOfferNote string) error {
	if req.Type == ComponentRequest {
		// A button answers the offer its message made, and no other.
		id, _ := ParseCustomID(req.CustomID)
		if d.Offer == "" || id.Arg != strconv.Itoa(d.Seq) {
			hint := ""
			if d.Offer != "" {
				hint = " A newer offer stands: answer it with its own message's buttons, or with /draw accept or /draw decline."
			}
			return Errorf("That draw offer is no longer open: it was declined, accepted or lapsed.%s", hint)
		}
	}
	if d.Offer == "" {
		return Errorf("There is no draw offer to %s %s.", action, noOfferNote)
	}
	if d.Offer == req.User.ID {
		return Errorf("You made this draw offer; only %s can %s it.", opp.Mention(), action)
	}
	return nil
}

// Arg is the standing offer's number as its buttons carry it.
func (d *Draw) Arg() string { return strconv.Itoa(d.Seq) }

// GameButton is a button of game g whose custom ID carries action.
func GameButton(g *storage.Game, action, label string, style ui.ButtonStyle) ui.Button {
	return GameArgButton(g, action, "", label, style)
}

// Stamp is a short identity of what a message shows, made of parts (a
// draft's turn and steps, a deployment's layout), for a button's arg: the
// button acts only while the stamp of the current thing is the same.
func Stamp(parts ...string) string {
	h := fnv.New32a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return fmt.Sprintf("%08x", h.Sum32())
}

// GameArgButton is a button of game g whose custom ID carries action and
// arg: the identity of what its message shows (an order's number, a
// draft's stamp), so that the button acts on that and nothing newer.
func GameArgButton(g *storage.Game, action, arg, label string, style ui.ButtonStyle) ui.Button {
	return ui.Button{Label: label, Style: style, Route: CustomID{Scope: "g", ID: g.ID, Action: action, Arg: arg}.String()}
}
