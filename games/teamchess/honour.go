package teamchess

import "sandtable/games/chess"

// Honour of a checkmate (rule 5; docs/rules/teamchess.md, ruling 6 and
// A9): a checkmate is honourable only if the mating team performed no
// 8th-rank sacrifice at any point in the game, whichever of its commanders
// made it, whatever the role, and also when the sacrifice was mandatory (a
// Royal Guard) or forced by an opposing Saboteur. Otherwise it is a
// dishonourable checkmate. Who forced the mating move does not matter.
// The one exception is rule 2.1's own case: a mate by the attacker's one
// more move of a siege continuation is honourable whatever the team
// sacrificed (ruling 4).
//
// States of version 1 were scored by the earlier rule (the mating move was
// a sacrifice, or the mating team's first move after one of its own
// sacrifices, or a Saboteur's forced move) and did not store the result;
// Restore gives their finished games the category that rule gave them.

// Sacrificed reports whether side's team has performed an 8th-rank
// sacrifice in this game (rule 3: every pawn move to the last rank, of any
// role, by any of its commanders, forced or not). Such a team can no longer
// win by honourable checkmate (rule 5, ruling 6).
func (g *Game) Sacrificed(side chess.Color) bool { return g.sacrificed[side&1] }

// mateCategory returns the category of a checkmate: dishonourable when
// dishonoured.
func mateCategory(dishonoured bool) Category {
	if dishonoured {
		return DishonourableCheckmate
	}
	return HonourableCheckmate
}

// isMate reports whether c is one of the two checkmate categories.
func isMate(c Category) bool { return c == HonourableCheckmate || c == DishonourableCheckmate }

// setCategory changes the category of a finished game's result, in the
// result and in the record's final entry.
func (g *Game) setCategory(c Category) {
	g.result.Category = c
	for i := len(g.events) - 1; i >= 0; i-- {
		if g.events[i].Kind == GameOverEvent {
			g.events[i].Result.Category = c
			break
		}
	}
}
