package teamchess

// Clone returns an independent copy of g without replaying it: actions on
// the copy leave g as it was, and the other way round. A flow clones the
// game it loaded to apply an action to the copy, keeping the game before
// the action (its clock, its board) for comparison.
func (g *Game) Clone() *Game {
	c := *g
	c.setup = g.Setup()
	for i := range g.teams {
		c.teams[i].queue = append([]Commander(nil), g.teams[i].queue...)
	}
	// Moves (g.forced, g.last and their Forced chains) are never changed
	// once made, so the copy shares them.
	c.events = g.Events()
	c.actions = append([]Action(nil), g.actions...)
	return &c
}
