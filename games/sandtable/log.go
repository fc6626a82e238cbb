package sandtable

import (
	"fmt"
	"strings"
)

// EntryKind says what a turn log Entry records.
type EntryKind int8

// The kinds of log entries.
const (
	EntryNone            EntryKind = iota
	EntryDraft                     // secret to Side: its deployment draft changed
	EntryConfirmed                 // Side confirmed its deployment (public)
	EntryUnconfirmed               // Side withdrew its confirmation (public)
	EntryRevealed                  // both deployments revealed (public)
	EntryCoin                      // the coin chose Side to move first
	EntryTurn                      // turn Turn of Side begins
	EntryAction                    // Side took the action in Notation
	EntryMove                      // Piece moved From→To (To may be short of the declared square, see Count)
	EntryBoard                     // Infantry Piece joined the crew of Vehicle Other on To
	EntryLeave                     // Infantry Piece left Vehicle Other on From
	EntryDestroy                   // Piece (owned by Side) destroyed on To by Other because of Cause
	EntryCapture                   // Vehicle Piece captured on To by Infantry Other for Side
	EntryNeutral                   // Vehicle Piece on To lost its last crew and is neutral
	EntryPlace                     // Side placed hazard Piece on To
	EntryDroneDeclared             // Side declared a Drone; Count = Side's pending Drones (public)
	EntryDroneOrder                // the Drone's spotter Piece and target To (secret to Side)
	EntryDroneResolved             // Side's Drone spotted by Piece hit To (public)
	EntryDroneCancelled            // Side's Drone spotted by Piece had no effect: spotter lost (public; target only in secret entry)
	EntrySpotterLost               // Side's Infantry Piece, a Drone spotter, was destroyed; Count Drones cancelled (public)
	EntryCrater                    // a Crater appears on To until the end of Side's turn
	EntryCraterGone                // the Crater on To is gone
	EntryMainSkipped               // Side had no legal Main action
	EntryPostTurnSkipped           // Side had no hazard use (no Infantry on the ground)
	EntryHazardUses                // Side's PostTurn begins with Count hazard uses
	EntryGameOver                  // the game ended: Side won (NoSide: draw) because of Cause's Reason
)

// Cause says why a piece was destroyed.
type Cause int8

// The causes of destruction.
const (
	CauseNone     Cause = iota
	CauseInfantry       // an enemy Infantry entered its square (ruling 4)
	CauseTank           // a Tank passed or landed on it (ruling 5)
	CauseAirplane       // an Airplane landed on it, or passed over this Mine (ruling 5)
	CauseMine           // this Tank entered an enemy Mine (ruling 5)
	CauseAntiAir        // this Airplane entered an enemy Anti-Air (ruling 5)
	CauseCrew           // it crewed a Vehicle that was destroyed or captured
	CauseDrone          // a Drone resolved on its square (ruling 7)
)

// Entry is one effect in the turn log. Entries with Secret == NoSide are
// public; the others may be shown only to the side named in Secret.
//
// Its JSON form (stored by the bot) has snake_case keys and string enums,
// squares and IDs: {"kind":"move","turn":3,"phase":"main","mover":"south",
// "side":"south","piece":"SI4","from":"e4","to":"e5","text":"..."}; a
// zero secret, piece, other, cause, reason, count or notation is left
// out. The form stored before (Go field names, integers) is read too
// (json.go).
type Entry struct {
	Kind     EntryKind `json:"kind"`
	Turn     int       `json:"turn"`
	Phase    Phase     `json:"phase"`
	Mover    Side      `json:"mover"` // side to move when the entry was made
	Side     Side      `json:"side"`  // the side the entry is about
	Secret   Side      `json:"secret,omitzero"`
	Piece    ID        `json:"piece,omitzero"`
	Other    ID        `json:"other,omitzero"`
	From     Square    `json:"from"`
	To       Square    `json:"to"`
	Cause    Cause     `json:"cause,omitzero"`
	Reason   Reason    `json:"reason,omitzero"`
	Count    int       `json:"count,omitzero"`
	Notation string    `json:"notation,omitempty"`
	// Text is the entry as one plain English sentence.
	Text string `json:"text"`
}

// VisibleTo reports whether viewer (NoSide: public/spectators) may see e.
func (e Entry) VisibleTo(viewer Side) bool { return e.Secret == NoSide || e.Secret == viewer }

// String returns the entry as one log line: "turn 3 South main: Text",
// prefixed with "[secret South] " for secret entries.
func (e Entry) String() string {
	var b strings.Builder
	if e.Secret != NoSide {
		fmt.Fprintf(&b, "[secret %s] ", e.Secret)
	}
	switch {
	case e.Phase == PhaseDeployment:
		b.WriteString("deployment: ")
	case e.Turn > 0:
		fmt.Fprintf(&b, "turn %d %s %s: ", e.Turn, e.Mover, e.Phase.Title())
	}
	b.WriteString(e.Text)
	return b.String()
}

// FilterLog returns the entries viewer may see.
func FilterLog(entries []Entry, viewer Side) []Entry {
	var out []Entry
	for _, e := range entries {
		if e.VisibleTo(viewer) {
			out = append(out, e)
		}
	}
	return out
}

// describe names a piece as it is now: "South Infantry SI4", "neutral Tank NT2".
func describe(owner Side, id ID) string {
	if owner == NoSide {
		return "neutral " + id.Kind.String() + " " + id.String()
	}
	return owner.String() + " " + id.Kind.String() + " " + id.String()
}

var causeText = [...]string{
	CauseNone:     "",
	CauseInfantry: "by the Infantry entering its square",
	CauseTank:     "by the Tank",
	CauseAirplane: "by the Airplane",
	CauseMine:     "by an enemy Mine",
	CauseAntiAir:  "by an enemy Anti-Air",
	CauseCrew:     "with its Vehicle",
	CauseDrone:    "by a Drone",
}

// logger collects entries for one action.
type logger struct {
	p       *Position
	entries []Entry
	// quiet leaves every entry's Text empty (PlayForSearch).
	quiet bool
}

func (l *logger) add(e Entry) {
	e.Turn = l.p.turn
	e.Phase = l.p.phase
	e.Mover = l.p.toMove
	l.entries = append(l.entries, e)
}

func (l *logger) addf(e Entry, format string, args ...any) {
	if !l.quiet {
		e.Text = fmt.Sprintf(format, args...)
	}
	l.add(e)
}
