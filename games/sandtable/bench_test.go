package sandtable

import (
	"math/rand/v2"
	"testing"
)

// midgame returns a position after some random turns.
func midgame(b *testing.B) *Position {
	p := startRandomGame(b, 77)
	r := rand.New(rand.NewPCG(77, 1))
	for p.turn < 20 && p.phase != PhaseFinished {
		if _, err := p.Apply(randomAction(b, p, r)); err != nil {
			b.Fatal(err)
		}
	}
	for p.phase != PhaseMain {
		p.Apply(randomAction(b, p, r))
	}
	return p
}

func BenchmarkLegalNextStepsEmpty(b *testing.B) {
	p := midgame(b)
	b.ResetTimer()
	for b.Loop() {
		p.LegalNextSteps(nil)
	}
}

func BenchmarkLegalVehicleMoves(b *testing.B) {
	p := midgame(b)
	b.ResetTimer()
	for b.Loop() {
		p.LegalVehicleMoves()
	}
}

func BenchmarkApplyInfantryStep(b *testing.B) {
	p := midgame(b)
	steps, _ := p.LegalNextSteps(nil)
	a := Action{Kind: ActInfantry, Steps: steps[:1]}
	b.ResetTimer()
	for b.Loop() {
		q := p.Clone()
		if _, err := q.Apply(a); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFormatParse(b *testing.B) {
	p := midgame(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := ParsePosition(p.Format()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRandomTurn(b *testing.B) {
	p := midgame(b)
	r := rand.New(rand.NewPCG(1, 2))
	b.ResetTimer()
	for b.Loop() {
		q := p.Clone()
		for q.toMove == p.toMove && q.phase != PhaseFinished {
			q.Apply(randomAction(b, q, r))
		}
	}
}
