package sandtable

import (
	"fmt"

	"sandtable/internal/playertext"
)

// Rule names a rule that can forbid an action: the ruling number of
// docs/rules/sandtable.md (which quotes the rule text it rests on), a short
// topic and the rule itself in one sentence.
type Rule struct {
	Ruling int
	Topic  string
	Text   string
}

// String returns "ruling N, Topic: text".
func (r Rule) String() string { return fmt.Sprintf("ruling %d, %s: %s", r.Ruling, r.Topic, r.Text) }

// The rules that actions can break.
var (
	RuleBoard          = Rule{1, "Board", "the board has files a–t and ranks 1–20"}
	RuleDeployZone     = Rule{2, "Deployment", "pieces are deployed one per square in the own zone (South ranks 1–9, North 12–20)"}
	RuleDeployCounts   = Rule{2, "Deployment", "each side deploys exactly 2 Bases, 4 Tanks, 2 Airplanes, 30 Infantry, 15 Mines and 15 Anti-Air"}
	RuleDeployHazard   = Rule{2, "Deployment", "every Mine and Anti-Air must stand adjacent to one of its side's Infantry"}
	RuleDeploySecret   = Rule{2, "Deployment", "a confirmed deployment cannot be changed; both are revealed together"}
	RulePhase          = Rule{3, "Turn", "Main actions are taken in Main, hazard uses in PostTurn, deployment in Deployment"}
	RuleTurn           = Rule{3, "Turn", "only the side to move acts"}
	RuleOneKind        = Rule{3, "Turn", "in Main the mover makes one Vehicle move or one or more Infantry moves, never both and never nothing"}
	RuleGameOver       = Rule{9, "Victory", "no action is possible once the game is over"}
	RuleInfantryOnce   = Rule{4, "Infantry", "each Infantry moves at most once per turn"}
	RuleInfantryStep   = Rule{4, "Infantry", "Infantry move one square in any of the 8 directions"}
	RuleInfantryOwn    = Rule{4, "Infantry", "Infantry may not move onto a friendly Infantry, Mine or Anti-Air"}
	RuleOwnBase        = Rule{8, "Base", "no friendly Unit may move onto its own Base"}
	RuleCrater         = Rule{7, "Crater", "no Unit may move through or onto a Crater, and no hazard may be placed on one"}
	RuleCrewMax        = Rule{4, "Vehicles", "a friendly or neutral Vehicle holds at most 4 crew"}
	RulePiece          = Rule{3, "Turn", "an action must name one of the mover's own pieces"}
	RuleVehicleCrew    = Rule{5, "Vehicles", "a Vehicle moves only with at least one crew"}
	RuleVehicleLine    = Rule{5, "Vehicles", "a Vehicle moves one or more squares in one straight line: Tanks orthogonally, Airplanes orthogonally or diagonally"}
	RuleTankVehicle    = Rule{5, "Tank", "a Tank may not pass through any Vehicle and may land only on an enemy one"}
	RuleVehicleHazard  = Rule{5, "Vehicles", "a Vehicle may pass its own Mines and Anti-Air but not land on them"}
	RuleVehicleOwnInf  = Rule{5, "Vehicles", "a Vehicle may land on its own Infantry only by picking it up, which needs room in the crew"}
	RuleAirplaneLand   = Rule{5, "Airplane", "an Airplane never lands on a friendly piece (other than its own Infantry, picked up) or a neutral Vehicle"}
	RuleDismount       = Rule{5, "Dismount", "after a Vehicle's move one crew member of the surviving Vehicle may step to an adjacent square"}
	RuleHazardUse      = Rule{6, "PostTurn", "each Base the mover controls gives exactly one hazard use: a Mine, an Anti-Air or a Drone"}
	RuleHazardPlace    = Rule{6, "PostTurn", "a Mine or Anti-Air goes on an empty, crater-free square adjacent to a friendly Infantry on the ground"}
	RuleHazardCap      = Rule{6, "Hazard Cap", "a player's Mines plus Anti-Air may not exceed 40; at the cap only Drones may be used"}
	RuleDroneSpotter   = Rule{7, "Drones", "a Drone's spotter is a friendly Infantry on the ground"}
	RuleDroneTarget    = Rule{7, "Drones", "a Drone's target is within two squares of its spotter and never a Base square"}
	RuleBaseNeverMoves = Rule{8, "Base", "Bases never move"}
	RuleTurnLimit      = Rule{3, "Turn", "a game lasts at most 999999999 turns, the most the position format holds (G21)"}
	RuleHazardNumbers  = Rule{6, "PostTurn", "a placed Mine or Anti-Air takes the next number of its kind, and numbers end at 2147483647 (G12)"}
)

// RuleError is an illegal action: Msg says what is wrong with this action
// and Rule names the rule that forbids it. An action that fails with a
// RuleError changed nothing.
type RuleError struct {
	Rule Rule
	Msg  string
}

func (e *RuleError) Error() string { return e.Msg + " (" + e.Rule.String() + ")" }

func illegal(r Rule, format string, args ...any) error {
	return &RuleError{Rule: r, Msg: fmt.Sprintf(format, args...)}
}

// SyntaxError is text that cannot be read: an action in the notation, a
// position or a layout. Line is 1-based for multi-line input (0 otherwise).
type SyntaxError struct {
	What string // "action", "position" or "layout"
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s line %d: %s", e.What, e.Line, e.Msg)
	}
	return e.What + ": " + e.Msg
}

// MaxQuoted is the most characters (runes) of one input that an error
// message quotes; longer input is clipped (see quote).
const MaxQuoted = 60

// quote returns s quoted as %q would, clipped to MaxQuoted characters
// (playertext.Quote).
func quote(s string) string { return playertext.Quote(s, MaxQuoted) }
