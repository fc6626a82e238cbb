package chess

import (
	"fmt"
	"strings"
)

// Variant selects a rule set on the shared 8x8 core.
type Variant uint8

// The variants.
const (
	// Chess is standard FIDE chess (FIDE Laws of Chess, Basic and Competition Rules).
	Chess Variant = iota
	// Survival is Survival Chess: Tartan Grid (shared/seeds/001): no check,
	// capture is mandatory, promotion to king allowed, last piece loses.
	Survival
	// TeamChess is the Team Chess base (shared/seeds/003): FIDE movement
	// and check, but a pawn reaching the last rank makes a sacrificial move
	// instead of promoting.
	TeamChess
)

// Variants lists every variant.
var Variants = []Variant{Chess, Survival, TeamChess}

// Start positions.
const (
	StandardFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	// TartanFEN is the Tartan Grid start (rule text, "Setup").
	TartanFEN = "8/PpPpPpPp/pPpPpPpP/PpPpPpPp/pPpPpPpP/PpPpPpPp/pPpPpPpP/8 w - - 0 1"
)

// rules are one variant's hooks: what differs from the shared core. Each
// variant fills them in its own file (variant_standard.go,
// variant_survival.go, variant_teamchess.go); the engine reads them and
// never tests which variant it is playing. The flags are plain fields
// because move generation reads them on its hot path.
type rules struct {
	name     string   // command-line name ("chess")
	title    string   // PGN Variant tag and messages ("Standard")
	prose    string   // inside sentences ("standard chess")
	aliases  []string // other names ParseVariant accepts, lower case
	startFEN string
	moveHint string // how to write a move, for "is not a move"

	// royalKing: exactly one king per side, check, checkmate, pins and
	// castling. Without it kings are ordinary pieces: every pseudo-legal
	// move is legal, and a side may have any number of kings.
	royalKing bool
	// castling: the FEN castling field is read and castling is legal.
	castling bool
	// mandatoryCapture: when any capture is legal only captures are.
	mandatoryCapture bool
	// promotions are the roles a pawn reaching the last rank promotes to,
	// in generation order.
	promotions []Role
	// sacrifices: a pawn reaching the last rank makes a Sacrifice instead
	// of promoting.
	sacrifices bool
	// pass: a side with no legal move that is not in check may pass
	// (PassTurn).
	pass bool
	// elimination: a side with no pieces has lost; there is no king to
	// mate. Dead positions are those where no capture can happen again.
	elimination bool
	// maxPieces is the most pieces one side may have in a FEN.
	maxPieces int
	// draws: the game can end drawn by agreement.
	draws bool
	// drawRules: the FIDE repetition and move-count draws (claims under
	// 9.2 and 9.3, fivefold repetition and the 75-move rule).
	drawRules bool
	// endings decides the endings the shared core cannot.
	endings endings

	// lastRank[:lastRankN] are the moves of a pawn reaching the last rank
	// with from and to left zero (derived from promotions and sacrifices).
	lastRank  [5]Move
	lastRankN int
}

// endings are a variant's hooks for how a game ends.
type endings interface {
	// status returns the variant's board ending of p (or Besieged); the
	// shared core adds the 75-move rule when the variant has drawRules.
	status(p *Position) Status
	// timeout returns the outcome when side c runs out of time on p
	// (FIDE 6.9 as the variant reads it), or an error when the variant's
	// clock does not end the game.
	timeout(p *Position, c Color) (Outcome, error)
}

// variantRules holds each variant's hooks, indexed by Variant.
var variantRules = [...]*rules{
	Chess:     &standardRules,
	Survival:  &survivalRules,
	TeamChess: &teamChessRules,
}

func init() {
	for _, r := range variantRules {
		var l []Move
		for _, role := range r.promotions {
			l = append(l, NewMove(0, 0, Promotion, role))
		}
		if r.sacrifices {
			l = append(l, NewSacrifice(0, 0))
		}
		r.lastRankN = copy(r.lastRank[:], l)
	}
}

// rules returns the variant's hooks, nil for an unknown variant.
func (v Variant) rules() *rules {
	if int(v) < len(variantRules) {
		return variantRules[v]
	}
	return nil
}

// rules returns the position's variant hooks (a Position always has a
// known variant).
func (p *Position) rules() *rules { return variantRules[p.variant] }

// String returns the command-line name: "chess", "survival" or "teamchess".
func (v Variant) String() string {
	if r := v.rules(); r != nil {
		return r.name
	}
	return fmt.Sprintf("variant(%d)", uint8(v))
}

// Title returns the name used in PGN Variant tags and messages.
func (v Variant) Title() string {
	if r := v.rules(); r != nil {
		return r.title
	}
	return v.String()
}

// ParseVariant accepts "chess" (also "standard", "fide"), "survival"
// (also "tartan") and "teamchess" (also "team"), in any case.
func ParseVariant(s string) (Variant, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	for _, v := range Variants {
		r := v.rules()
		if name == r.name {
			return v, nil
		}
		for _, a := range r.aliases {
			if name == a {
				return v, nil
			}
		}
	}
	return Chess, fmt.Errorf("unknown variant %q (expected chess, survival or teamchess)", s)
}

// StartFEN returns the variant's initial position.
func (v Variant) StartFEN() string {
	if r := v.rules(); r != nil {
		return r.startFEN
	}
	return StandardFEN
}

// HasCheck reports whether kings are royal (check, checkmate, castling).
func (v Variant) HasCheck() bool {
	if r := v.rules(); r != nil {
		return r.royalKing
	}
	return true
}
