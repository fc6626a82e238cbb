package sandtable

import (
	"encoding/json"
	"math/rand/v2"
	"os"
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

// BenchmarkCompleteMove is one autocomplete answer with nothing typed on
// a real first turn (the most choices to rank).
func BenchmarkCompleteMove(b *testing.B) {
	p := firstTurn(b, 1, "phalanx", "phalanx")
	lim := Limits{Max: 25, MaxLen: 100}
	for b.Loop() {
		p.CompleteMove(p.ToMove(), "", lim)
	}
}

// BenchmarkEntryJSON writes and reads back a turn log of 107 entries.
func BenchmarkEntryJSON(b *testing.B) {
	data, err := os.ReadFile("testdata/legacy/entries.json")
	if err != nil {
		b.Fatal(err)
	}
	var entries []Entry
	if err := json.Unmarshal(data, &entries); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		out, _ := json.Marshal(entries)
		var back []Entry
		if err := json.Unmarshal(out, &back); err != nil {
			b.Fatal(err)
		}
	}
}
