package commands

import (
	"fmt"
	"strconv"
	"strings"

	"sandtable/commands/ui"
	"sandtable/storage"
)

// The move picker (issue 15, item 4): an alternative to typing a move. A
// "Pick a move" button on a game's board opens, privately, a select menu
// of the pieces that can move; each choice updates that private message
// with the next select (destinations, then a sacrifice's role and target
// where one applies), until the choices make a whole move, which the game
// plays through the same code as /move. This file holds what games share:
// the state a picker's custom IDs carry (Pick) and the picker message
// (PickerMessage), with pages when a step offers more than Discord's 25
// options. Which options a step offers is the game's (its rules).
//
// A picker's state travels in its custom IDs, "g:<game>:<action>:<arg>",
// arg being Pick.String: the game's stamp (its ply or clock key when the
// picker was shown: a picker of an older position is refused), whether it
// is the select (whose chosen value is the next path) or a button, the
// page shown, and the path chosen so far (a prefix of the move's
// UCI-style text, e.g. "e7", "e7e8", "e7e8a"). The board's button carries
// the stamp alone.

// PickPageSize is how many options one page of a picker's select shows
// (Discord's limit for a select menu).
const PickPageSize = 25

// Pick is the state a picker's custom ID carries.
type Pick struct {
	// Stamp is the game's position stamp when the picker was shown.
	Stamp string
	// Open: the board's "Pick a move" button (a new private picker),
	// rather than a control of a picker (which updates it).
	Open bool
	// Select: the picker's select menu, whose chosen value is the next
	// path (Path is the path the menu was shown for).
	Select bool
	// Page is the page of options shown (from 0).
	Page int
	// Path is what was chosen so far: a prefix of the move's UCI-style
	// text.
	Path string
}

// String encodes p for a custom ID's arg.
func (p Pick) String() string {
	if p.Open {
		return p.Stamp
	}
	page := strconv.Itoa(p.Page)
	if p.Select {
		page = "s"
	}
	return p.Stamp + "." + page + "." + p.Path
}

// ParsePick decodes a picker's custom ID arg (Pick.String).
func ParsePick(arg string) (Pick, error) {
	bad := Errorf("This picker button is damaged: open a new one with the board's Pick a move button.")
	parts := strings.SplitN(arg, ".", 3)
	if parts[0] == "" {
		return Pick{}, bad
	}
	if len(parts) == 1 {
		return Pick{Stamp: parts[0], Open: true}, nil
	}
	if len(parts) != 3 {
		return Pick{}, bad
	}
	p := Pick{Stamp: parts[0], Path: parts[2]}
	if parts[1] == "s" {
		p.Select = true
		return p, nil
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil || n < 0 {
		return Pick{}, bad
	}
	p.Page = n
	return p, nil
}

// Chosen is the path the click on p's control chose: the select's value
// (which must extend the path it was shown for), or the button's path.
func (p Pick) Chosen(req *Request) (string, error) {
	if !p.Select {
		return p.Path, nil
	}
	if len(req.Values) != 1 || !strings.HasPrefix(req.Values[0], p.Path) || len(req.Values[0]) <= len(p.Path) {
		return "", Errorf("That choice is not one this picker offered: nothing was played.")
	}
	return req.Values[0], nil
}

// PickButton is the board's button that opens a picker for game g at the
// position stamp, handled by the game's component action.
func PickButton(g *storage.Game, action, stamp string) ui.Button {
	return GameArgButton(g, action, Pick{Stamp: stamp, Open: true}.String(), "Pick a move", ui.Primary)
}

// PickOption is one option of a picker's step: Value is the path once it
// is chosen (the path so far extended), Label what the menu shows (at
// most 100 characters), Description a line under it.
type PickOption struct {
	Label, Value, Description string
}

// PickStep is one step of a picker: the text above the menu, its
// placeholder, the options, and where Back leads ("" and HasBack false:
// no Back button).
type PickStep struct {
	Text        string
	Placeholder string
	Options     []PickOption
	Back        string
	HasBack     bool
}

// PickerMessage is the picker of game g showing step at page p.Page (the
// page is clamped to the pages there are), its controls routed to action
// with p's stamp and path: the select, then a row with Previous and Next
// when the options fill more than one page, Back when the step has one,
// and Start over past the first step. When a custom ID would exceed
// Discord's 100 characters (a very long chain of Saboteurs), or an option's
// value its 100, the step gets no menu but a note to type the move with
// /move instead.
func PickerMessage(g *storage.Game, action string, p Pick, step PickStep) Message {
	pages := max((len(step.Options)+PickPageSize-1)/PickPageSize, 1)
	page := min(max(p.Page, 0), pages-1)
	fits := true
	route := func(q Pick) string {
		q.Stamp, q.Open = p.Stamp, false
		id := CustomID{Scope: "g", ID: g.ID, Action: action, Arg: q.String()}.String()
		if len(id) > 100 {
			fits = false
		}
		return id
	}
	text := step.Text
	var rows []ui.Row
	if len(step.Options) > 0 {
		lo, hi := page*PickPageSize, min((page+1)*PickPageSize, len(step.Options))
		opts := make([]ui.SelectOption, 0, hi-lo)
		for _, o := range step.Options[lo:hi] {
			// The chosen value is the next step's path: its controls must fit.
			route(Pick{Select: true, Path: o.Value})
			if len(o.Value) > 100 {
				fits = false
			}
			opts = append(opts, ui.SelectOption{Label: Clip(o.Label, 100), Value: o.Value, Description: Clip(o.Description, 100)})
		}
		placeholder := step.Placeholder
		if pages > 1 {
			placeholder += fmt.Sprintf(" (page %d of %d)", page+1, pages)
			text += fmt.Sprintf("\nPage %d of %d: options %d to %d of %d.", page+1, pages, lo+1, hi, len(step.Options))
		}
		rows = append(rows, ui.Row{ui.Select{Route: route(Pick{Select: true, Path: p.Path}), Placeholder: Clip(placeholder, 150), Options: opts}})
	}
	var nav ui.Row
	if pages > 1 {
		nav = append(nav,
			ui.Button{Label: "◀ Previous", Style: ui.Secondary, Route: route(Pick{Page: max(page-1, 0), Path: p.Path}), Disabled: page == 0},
			ui.Button{Label: "Next ▶", Style: ui.Secondary, Route: route(Pick{Page: min(page+1, pages-1), Path: p.Path}), Disabled: page == pages-1})
	}
	if step.HasBack {
		nav = append(nav, ui.Button{Label: "Back", Style: ui.Secondary, Route: route(Pick{Path: step.Back})})
		if step.Back != "" {
			nav = append(nav, ui.Button{Label: "Start over", Style: ui.Secondary, Route: route(Pick{Path: ""})})
		}
	}
	if len(nav) > 0 {
		rows = append(rows, nav)
	}
	if !fits {
		return Message{Content: step.Text + "\nThis move is too long to pick from menus: type it with `/move` (autocomplete lists it)."}
	}
	return Message{Content: text, Rows: rows}
}

// PickStale is the refusal of a picker (or a board's Pick a move button)
// shown for an older position of the game.
func PickStale(p Pick) error {
	if p.Open {
		return Errorf("This board is out of date: the game moved on since it was shown, so nothing was played. Use Pick a move on the latest board.")
	}
	return Errorf("The game moved on since this picker was shown: nothing was played. Use Pick a move on the latest board.")
}

// PickAnswer shapes a picker's answer: a picker step updates the picker
// (a private message) in place; the board's button opens a new private
// picker. answer is the step's message.
func PickAnswer(p Pick, answer Message) *Response {
	if p.Open {
		return &Response{Ephemeral: true, Message: answer}
	}
	return &Response{Update: true, Message: answer}
}

// PickPlayed shapes the answer of the move a picker completed: resp is
// exactly what /move answered. A private answer replaces the picker in
// place; a public one is posted as /move's is (the picker then stays as
// it was, and refuses further clicks since the game moved on).
func PickPlayed(resp *Response) *Response {
	if resp != nil && resp.Ephemeral {
		resp.Ephemeral, resp.Update = false, true
	}
	return resp
}
