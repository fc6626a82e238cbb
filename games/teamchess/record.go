package teamchess

import (
	"fmt"
	"strings"

	"sandtable/games/chess"
)

// EventKind is the kind of an entry of the game record (rule 7.2).
type EventKind uint8

// The event kinds.
const (
	// MoveEvent: a move (sacrifices and forced moves included).
	MoveEvent EventKind = iota + 1
	// PassEvent: a besieged side passes (rule 2.1, ruling 4).
	PassEvent
	// TagOutEvent: a commander leaves with a personal loss (rules 1.2, 1.3).
	TagOutEvent
	// SiegeContinueEvent: the attacker declines the Siege Win and makes one
	// more move (rule 2.1).
	SiegeContinueEvent
	// GameOverEvent: the result, with the end-of-game personal win and
	// loss (rule 6.2).
	GameOverEvent
)

// TagOutReason says why a commander was tagged out.
type TagOutReason uint8

// The tag-out reasons.
const (
	// Voluntary: the active commander tagged out at the start of the turn (rule 1.2).
	Voluntary TagOutReason = iota + 1
	// Fatigue: 4 stagnant turns at the end of a round (rule 4.2, ruling 5).
	Fatigue
	// Revolution: an opposing Political Agent (rule 3.4).
	Revolution
	// SiegeFailure: a siege continuation gave the besieged side a legal
	// move without mating (rule 2.1, ruling 4).
	SiegeFailure
	// Timeout: the bot's move timer ran out (docs/rules/teamchess.md, ruling B1).
	Timeout
)

// String names the reason ("voluntary", "fatigue").
func (r TagOutReason) String() string {
	switch r {
	case Voluntary:
		return "voluntary"
	case Fatigue:
		return "fatigue"
	case Revolution:
		return "Political Agent"
	case SiegeFailure:
		return "failed siege continuation"
	case Timeout:
		return "move time ran out"
	}
	return "unknown"
}

// Event is one entry of the game record, with the stagnation counters
// (White, Black) after it.
type Event struct {
	Seq        int          // 1-based position in the record
	Kind       EventKind    //
	Side       chess.Color  // the side that moved, passed, chose or was tagged out; GameOver: the winner (White for a mutual loss)
	MoveNumber int          // fullmove number of the turn
	Commander  Member       // the acting commander (the outgoing one for a tag-out)
	SAN, UCI   string       // MoveEvent: the move in player notation and UCI-style
	Role       Role         // MoveEvent: the sacrifice role, or NoRole
	Forced     bool         // MoveEvent: the move was forced by a Saboteur
	Reason     TagOutReason // TagOutEvent
	Incoming   Member       // TagOutEvent: the new commander (zero when the team is exhausted)
	Exhausted  bool         // TagOutEvent: no commander left
	Credited   Member       // TagOutEvent, GameOverEvent: the commander credited with the personal win (zero if none)
	Debited    []Member     // GameOverEvent: commanders charged the end-of-game personal loss
	Stagnation [2]int       // stagnation counters after the event, index White, Black
	Result     Result       // GameOverEvent
}

// String is a one-line description for /record and PGN comments:
// "12. White (Ann): e8=Assassin:xd4 [stagnation W 0/4, B 2/4]".
func (e Event) String() string {
	var b strings.Builder
	dots := "."
	if e.Side == chess.Black {
		dots = "..."
	}
	switch e.Kind {
	case MoveEvent:
		fmt.Fprintf(&b, "%d%s %s (%s): %s", e.MoveNumber, dots, e.Side.Title(), e.Commander.Label(), e.SAN)
		if e.Forced {
			b.WriteString(" (forced by Saboteur)")
		}
	case PassEvent:
		fmt.Fprintf(&b, "%d%s %s (%s) is besieged and passes", e.MoveNumber, dots, e.Side.Title(), e.Commander.Label())
	case TagOutEvent:
		fmt.Fprintf(&b, "%s: %s tagged out (%s), personal loss", e.Side.Title(), e.Commander.Label(), e.Reason)
		if e.Credited.ID != "" {
			fmt.Fprintf(&b, "; personal win to %s", e.Credited.Label())
		}
		if e.Exhausted {
			b.WriteString("; no commander left")
		} else {
			fmt.Fprintf(&b, "; %s takes command", e.Incoming.Label())
		}
	case SiegeContinueEvent:
		fmt.Fprintf(&b, "%s (%s) declines the Siege Win and makes one more move", e.Side.Title(), e.Commander.Label())
	case GameOverEvent:
		b.WriteString(e.Result.String())
		if e.Credited.ID != "" {
			fmt.Fprintf(&b, "; personal win to %s", e.Credited.Label())
		}
		for _, m := range e.Debited {
			fmt.Fprintf(&b, "; personal loss to %s", m.Label())
		}
		return b.String()
	}
	fmt.Fprintf(&b, " [stagnation W %d/4, B %d/4]", e.Stagnation[chess.White], e.Stagnation[chess.Black])
	return b.String()
}

// Events returns the game record (a copy): moves, sacrifices, passes,
// tag-outs with their reasons and personal wins and losses, siege choices,
// the result, and the stagnation counters after each entry (rule 7.2).
// For a game resumed from a Snapshot (Resume), the record begins at the
// latest move before the snapshot (Seq says where); Replay gives the whole
// record.
func (g *Game) Events() []Event {
	out := make([]Event, len(g.events))
	for i, e := range g.events {
		e.Debited = append([]Member(nil), e.Debited...)
		out[i] = e
	}
	return out
}

// RecordLines returns the record as text lines (Event.String), for /record
// (for a resumed game, as Events, from the latest move before the snapshot).
func (g *Game) RecordLines() []string {
	out := make([]string, len(g.events))
	for i, e := range g.events {
		out[i] = e.String()
	}
	return out
}
