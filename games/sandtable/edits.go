package sandtable

import (
	"fmt"
	"strings"
	"unicode"

	"sandtable/internal/playertext"
)

// MaxDeployEdits is the most deployment edits ParseDeployEdits reads at
// once (a whole zone has 180 squares).
const MaxDeployEdits = 200

// DeployEdit is one deployment action read by ParseDeployEdits, with the
// line it came from, to name in an error when applying it fails.
type DeployEdit struct {
	Action Action
	Line   int // 1-based number of the line, counting ';'-separated parts as lines

	Text string // that line, cleaned of invisible characters
}

// EditError is deployment-edit text that cannot be read. Line is 0 for an
// error of the whole text (nothing given, too many edits); else Text is
// the line that cannot be read.
type EditError struct {
	Line int
	Text string
	Msg  string
}

func (e *EditError) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d (%s): %s", e.Line, quote(e.Text), e.Msg)
}

// ParseDeployEdits reads side's deployment edits, one per line or
// separated by ';': "place K sq [sq...]" (also "place Ksq", and "add" or
// "put" for "place"), "move a-b" (or "move a b"), "remove sq [sq...]" (or
// "delete"), "clear". Piece letters and squares may be in either case,
// and a line may start with the side as the notation does ("S place Ia5").
// Invisible characters are removed first (playertext.Clean). It returns
// the deployment actions in order, or an *EditError naming the first line
// that cannot be read; whether the actions are legal is Apply's to say.
func ParseDeployEdits(side Side, text string) ([]DeployEdit, error) {
	if side != South && side != North {
		return nil, &EditError{Msg: "edits are for South or North"}
	}
	var edits []DeployEdit
	text = playertext.Clean(text)
	// Blank parts count, so that a line number is the line's place in the
	// text (parts separated by ';' count as lines).
	lines := strings.Split(strings.ReplaceAll(text, ";", "\n"), "\n")
	for n, line := range lines {
		acts, err := parseEditLine(side, line)
		if err != nil {
			return nil, &EditError{Line: n + 1, Text: line, Msg: err.Error()}
		}
		for _, a := range acts {
			edits = append(edits, DeployEdit{Action: a, Line: n + 1, Text: line})
		}
	}
	if len(edits) == 0 {
		return nil, &EditError{Msg: "no change given: write lines like place T c3, move c3-d3, remove d3"}
	}
	if len(edits) > MaxDeployEdits {
		return nil, &EditError{Msg: fmt.Sprintf("at most %d changes at once, got %d", MaxDeployEdits, len(edits))}
	}
	return edits, nil
}

// parseEditLine reads one line of edits (nil for a blank one).
func parseEditLine(side Side, line string) ([]Action, error) {
	toks := strings.FieldsFunc(strings.ToLower(line), func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	if len(toks) == 0 {
		return nil, nil
	}
	if len(toks) > 1 && isDeployWord(toks[1]) {
		// The engine's notation names the side first: "S place Ia5".
		if s, err := ParseSide(toks[0]); err == nil {
			if s != side {
				return nil, fmt.Errorf("you deploy as %s", side)
			}
			toks = toks[1:]
		}
	}
	var acts []Action
	cmd, args := toks[0], toks[1:]
	switch cmd {
	case "place", "add", "put":
		kind := NoKind
		for _, t := range args {
			if len(t) == 1 {
				k, ok := KindFromLetter(t[0])
				if !ok {
					return nil, fmt.Errorf("unknown piece letter %s (B Base, T Tank, P Airplane, I Infantry, M Mine, A Anti-Air)", quote(t))
				}
				kind = k
				continue
			}
			sq, err := ParseSquare(t)
			if err != nil {
				k, ok := KindFromLetter(t[0])
				sq2, err2 := ParseSquare(t[1:])
				if !ok || err2 != nil {
					return nil, fmt.Errorf("cannot read %s: write a piece letter and squares, like place T c3 or place Tc3", quote(t))
				}
				kind, sq = k, sq2
			}
			if kind == NoKind {
				return nil, fmt.Errorf("say which piece to place first, like place T c3")
			}
			acts = append(acts, Action{Kind: ActDeployPlace, Side: side, Piece: kind, To: sq, From: NoSquare})
		}
		if len(acts) == 0 {
			return nil, fmt.Errorf("place needs a piece letter and at least one square, like place T c3")
		}
	case "move":
		var from, to string
		switch {
		case len(args) == 1:
			var ok bool
			from, to, ok = strings.Cut(args[0], "-")
			if !ok {
				return nil, fmt.Errorf("move needs FROM-TO, like move c3-d3")
			}
		case len(args) == 2:
			from, to = args[0], args[1]
		default:
			return nil, fmt.Errorf("move needs FROM-TO, like move c3-d3")
		}
		f, err1 := ParseSquare(from)
		t, err2 := ParseSquare(to)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("move needs two squares, like move c3-d3")
		}
		acts = append(acts, Action{Kind: ActDeployMove, Side: side, From: f, To: t})
	case "remove", "delete":
		if len(args) == 0 {
			return nil, fmt.Errorf("remove needs a square, like remove d3")
		}
		for _, t := range args {
			sq, err := ParseSquare(t)
			if err != nil {
				return nil, err
			}
			acts = append(acts, Action{Kind: ActDeployRemove, Side: side, To: sq, From: NoSquare})
		}
	case "clear":
		if len(args) != 0 {
			return nil, fmt.Errorf("clear takes nothing after it")
		}
		acts = append(acts, Action{Kind: ActDeployClear, Side: side, From: NoSquare, To: NoSquare})
	default:
		return nil, fmt.Errorf("unknown change %s: use place, move, remove or clear", quote(cmd))
	}
	return acts, nil
}

func isDeployWord(s string) bool {
	switch s {
	case "place", "add", "put", "move", "remove", "delete", "clear":
		return true
	}
	return false
}
