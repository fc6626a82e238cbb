package sandtable_test

import (
	"fmt"

	"sandtable/games/sandtable"
)

// A whole game starts with two deployments; the seed decides the coin.
func ExampleNewGame() {
	p := sandtable.NewGame(7)
	for _, a := range []string{"S preset phalanx", "N random 3", "S confirm", "N confirm"} {
		entries, err := p.ApplyString(a)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, e := range sandtable.FilterLog(entries, sandtable.NoSide) {
			fmt.Println(e)
		}
	}
	fmt.Println(p.Phase(), p.ToMove(), len(p.Pieces()))
	// Output:
	// deployment: South confirmed its deployment.
	// deployment: North confirmed its deployment.
	// deployment: Both deployments are revealed.
	// deployment: The coin chose South to move first.
	// turn 1 South PreTurn: Turn 1: South to move.
	// main South 136
}

// Apply takes one action and reports every effect; an illegal action names
// the rule and changes nothing.
func ExamplePosition_Apply() {
	p, _ := sandtable.ParsePosition(`sandtable-position 1
phase main
to-move south
piece SB1 a1
piece ST1 c3 SI1
piece NP1 c7
piece NI1 c5
piece NB1 t20
piece NI2 t19
`)
	if _, err := p.ApplyString("Tc3-c9"); err != nil {
		fmt.Println(err)
	}
	entries, _ := p.ApplyString("Tc3-c6/d7")
	for _, e := range entries {
		fmt.Println(e.Text)
	}
	// Output:
	// Tank ST1 on c3 cannot pass through the Airplane on c7 (ruling 5, Tank: a Tank may not pass through any Vehicle and may land only on an enemy one)
	// South played Tc3-c6/d7.
	// South Tank ST1 moved c3-c6.
	// North Infantry NI1 on c5 was destroyed by Tank ST1.
	// South Infantry SI1 left South Tank ST1 on c6 for d7.
	// Tank ST1 on c6 has no crew left and is neutral.
	// South's PostTurn: 1 hazard use (one per Base).
}

// LegalNextSteps drives autocomplete for Infantry turns built step by step.
func ExamplePosition_LegalNextSteps() {
	p, _ := sandtable.ParsePosition(`sandtable-position 1
phase main
to-move south
piece SB1 a1
piece SI1 a2
piece SM1 b3
piece NB1 t20
piece NI1 t19
`)
	steps, _ := p.LegalNextSteps(nil)
	fmt.Println(steps)
	steps, _ = p.LegalNextSteps(steps[:1])
	fmt.Println(len(steps))
	// Output:
	// [a2-b1 a2-b2 a2-a3]
	// 0
}

// View hides the other side's Drone orders.
func ExamplePosition_View() {
	p, _ := sandtable.ParsePosition(`sandtable-position 1
phase main
turn 2
to-move north
piece SB1 a1
piece SI1 d4
piece NB1 t20
piece NI1 t19
drone SI1 f6
`)
	fmt.Println(p.View(sandtable.North).Drones()[0].Hidden, p.View(sandtable.South).Drones()[0].Target)
	// Output: true f6
}
