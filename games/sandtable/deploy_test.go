package sandtable

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestPresetsAreValid(t *testing.T) {
	t.Parallel()
	names := PresetNames()
	if strings.Join(names, ",") != "fortress,phalanx,skirmish" {
		t.Fatalf("presets %v", names)
	}
	for _, n := range names {
		for _, s := range []Side{South, North} {
			d, err := Preset(s, n)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Validate(); err != nil {
				t.Errorf("%s %s: %v", s, n, err)
			}
			for sq := Square(0); sq < NumSquares; sq++ {
				if d.At(sq) != NoKind && !InZone(s, sq) {
					t.Errorf("%s %s: piece outside zone on %s", s, n, sq)
				}
			}
		}
	}
	// North's preset mirrors South's.
	s, _ := Preset(South, "phalanx")
	n, _ := Preset(North, "phalanx")
	if s.At(Sq(5, 0)) != Base || n.At(Sq(5, 19)) != Base || n.At(Sq(0, 11)) != Infantry {
		t.Errorf("North's phalanx is not South's mirrored")
	}
}

func TestRandomDeploymentsAreValidAndSeeded(t *testing.T) {
	t.Parallel()
	for seed := range uint64(200) {
		for _, s := range []Side{South, North} {
			d := RandomDeployment(s, rand.New(rand.NewPCG(seed, 1)))
			if err := d.Validate(); err != nil {
				t.Fatalf("seed %d %s: %v\n%s", seed, s, err, d.Layout())
			}
		}
	}
	a := RandomDeployment(South, rand.New(rand.NewPCG(7, 1))).Layout()
	b := RandomDeployment(South, rand.New(rand.NewPCG(7, 1))).Layout()
	c := RandomDeployment(South, rand.New(rand.NewPCG(8, 1))).Layout()
	if a != b || a == c {
		t.Fatalf("random deployments are not determined by the seed")
	}
}

func TestLayoutRoundTripAndLenience(t *testing.T) {
	t.Parallel()
	d, _ := Preset(North, "skirmish")
	e, err := ParseLayout(North, d.Layout())
	if err != nil || e.Layout() != d.Layout() {
		t.Fatalf("layout round trip: %v", err)
	}
	// Spaces between cells, lower case, '-' for empty, a header and a full
	// board of empty rows are accepted.
	text := "   a b c d e f g h i j k l m n o p q r s t\n20 - - - - - - - - - - - - - - - - - - - -\n10 . . . . . . . . . . . . . . . . . . . .\n 9 i m a - . . . . . . . . . . . . . . . b\n"
	s, err := ParseLayout(South, text)
	if err != nil {
		t.Fatal(err)
	}
	if s.At(Sq(0, 8)) != Infantry || s.At(Sq(1, 8)) != Mine || s.At(Sq(2, 8)) != AntiAir || s.At(Sq(19, 8)) != Base || s.Len() != 4 {
		t.Fatalf("lenient layout read wrong:\n%s", s.Layout())
	}
	for in, want := range map[string]string{
		"21 ....................": "rank 21 is not on the board",
		"9 ...":                   "has 3 cells",
		"9 ...................X":  "unknown piece",
		"10 I...................": "outside the deployment zone",
		"9 ....................\n9 ....................": "given twice",
		"x9 ....................":                        "starts with its rank number",
	} {
		_, err := ParseLayout(South, in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}

func TestDeploymentEditing(t *testing.T) {
	t.Parallel()
	d := NewDeployment(North)
	if err := d.Place(Tank, Sq(0, 10)); err == nil || !strings.Contains(err.Error(), "outside the deployment zone") {
		t.Errorf("rank 11: %v", err)
	}
	if err := d.Place(Tank, Sq(0, 11)); err != nil {
		t.Fatal(err)
	}
	if err := d.Place(Mine, Sq(0, 11)); err == nil || !strings.Contains(err.Error(), "already holds a Tank") {
		t.Errorf("occupied: %v", err)
	}
	if err := d.Move(Sq(0, 11), Sq(0, 19)); err != nil || d.At(Sq(0, 19)) != Tank || d.At(Sq(0, 11)) != NoKind {
		t.Fatalf("move: %v", err)
	}
	if err := d.Move(Sq(0, 19), Sq(0, 9)); err == nil {
		t.Errorf("moved out of the zone")
	}
	if err := d.Remove(Sq(5, 15)); err == nil {
		t.Errorf("removed nothing without error")
	}
	for i := range 3 {
		if err := d.Place(Tank, Sq(i+1, 12)); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Place(Tank, Sq(9, 12)); err == nil || !strings.Contains(err.Error(), "all 4 Tanks are already placed") {
		t.Errorf("fifth Tank: %v", err)
	}
	if err := d.Place(Mine, Sq(10, 15)); err != nil {
		t.Fatal(err)
	}
	ps := d.Problems()
	var msgs []string
	for _, p := range ps {
		msgs = append(msgs, p.Msg)
	}
	want := "0 of 2 Bases placed|0 of 2 Airplanes placed|0 of 30 Infantry placed|1 of 15 Mines placed|0 of 15 Anti-Air placed|Mine on k16 is not adjacent to any Infantry"
	if strings.Join(msgs, "|") != want {
		t.Errorf("problems\n%s\nwant\n%s", strings.Join(msgs, "|"), want)
	}
	d.Clear()
	if d.Len() != 0 {
		t.Errorf("clear left pieces")
	}
}

func TestRevealAssignsIDsInSquareOrder(t *testing.T) {
	t.Parallel()
	p := NewGame(3)
	for _, a := range []string{"S preset phalanx", "N preset phalanx", "S confirm", "N confirm"} {
		if _, err := p.ApplyString(a); err != nil {
			t.Fatal(err)
		}
	}
	checks := map[string]string{"SB1": "f1", "SB2": "o1", "ST1": "a6", "SI1": "b7", "SI11": "a9", "SM1": "b6", "NB1": "f20", "NI1": "a12", "NI21": "b14"}
	for id, sq := range checks {
		i, _ := ParseID(id)
		pc, ok := p.Piece(i)
		if !ok || pc.Square.String() != sq {
			t.Errorf("%s on %v, want %s", id, pc.Square, sq)
		}
	}
	if st, _ := p.Piece(ID{South, Tank, 1}); st.Owner != NoSide {
		t.Errorf("Vehicles must start neutral")
	}
	if p.nextHazard[South] != [2]int32{16, 16} || p.phase != PhaseMain || p.turn != 1 || p.first != p.toMove {
		t.Errorf("after reveal: next %v phase %s turn %d first %s to move %s", p.nextHazard[South], p.phase, p.turn, p.first, p.toMove)
	}
}

func TestConfirmOnlyValidAndCoinIsFair(t *testing.T) {
	t.Parallel()
	counts := map[Side]int{}
	for seed := range uint64(400) {
		counts[coin(seed)]++
	}
	if counts[South] < 150 || counts[North] < 150 {
		t.Fatalf("coin over 400 seeds: %v", counts)
	}
	p := NewGame(1)
	if _, err := p.ApplyString("S confirm"); err == nil {
		t.Fatal("an empty deployment was confirmed")
	}
	if p.confirmed[South] {
		t.Fatal("refused confirmation changed the position")
	}
	if err := p.SetDraft(South, RandomDeployment(South, rand.New(rand.NewPCG(1, 2)))); err != nil {
		t.Fatal(err)
	}
	if err := p.SetDraft(South, NewDeployment(North)); err == nil {
		t.Fatal("North's draft accepted for South")
	}
	if _, err := p.ApplyString("S confirm"); err != nil {
		t.Fatal(err)
	}
	if err := p.SetDraft(South, NewDeployment(South)); err == nil {
		t.Fatal("a confirmed draft was replaced")
	}
}
