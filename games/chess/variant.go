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

// String returns the command-line name: "chess", "survival" or "teamchess".
func (v Variant) String() string {
	switch v {
	case Chess:
		return "chess"
	case Survival:
		return "survival"
	case TeamChess:
		return "teamchess"
	}
	return fmt.Sprintf("variant(%d)", uint8(v))
}

// Title returns the name used in PGN Variant tags and messages.
func (v Variant) Title() string {
	switch v {
	case Chess:
		return "Standard"
	case Survival:
		return "Survival Chess: Tartan Grid"
	case TeamChess:
		return "Team Chess"
	}
	return v.String()
}

// ParseVariant accepts "chess" (also "standard", "fide"), "survival"
// (also "tartan") and "teamchess" (also "team"), in any case.
func ParseVariant(s string) (Variant, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "chess", "standard", "fide":
		return Chess, nil
	case "survival", "tartan", "survivalchess":
		return Survival, nil
	case "teamchess", "team", "team-chess":
		return TeamChess, nil
	}
	return Chess, fmt.Errorf("unknown variant %q (expected chess, survival or teamchess)", s)
}

// StartFEN returns the variant's initial position.
func (v Variant) StartFEN() string {
	if v == Survival {
		return TartanFEN
	}
	return StandardFEN
}

// HasCheck reports whether kings are royal (check, checkmate, castling).
func (v Variant) HasCheck() bool { return v != Survival }

// promotionRoles returns the roles a pawn may promote to.
func (v Variant) promotionRoles() []Role {
	switch v {
	case Survival:
		return []Role{Queen, Rook, Bishop, Knight, King}
	case TeamChess:
		return nil
	}
	return []Role{Queen, Rook, Bishop, Knight}
}

// rules are one variant's hooks: what differs from the shared core. Each
// variant fills them in its own file (variant_standard.go,
// variant_survival.go, variant_teamchess.go); the engine reads them and
// never tests which variant it is playing.
type rules struct {
	// prose names the variant inside sentences ("standard chess").
	prose string
	// draws: the game can end drawn by agreement.
	draws bool
	// drawRules: the FIDE repetition and move-count draws (claims under
	// 9.2 and 9.3, fivefold repetition and the 75-move rule).
	drawRules bool
	// endings decides how games end that the shared core cannot.
	endings endings
}

// endings are a variant's hooks for how a game ends.
type endings interface {
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

// rules returns the position's variant hooks.
func (p *Position) rules() *rules { return variantRules[p.variant] }
