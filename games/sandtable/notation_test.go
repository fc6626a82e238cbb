package sandtable

import (
	"strings"
	"testing"
)

func TestParseActionForms(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in, canon string
		kind      ActionKind
	}{
		{"d4-d5", "d4-d5", ActInfantry},
		{"d4xd5, e4-e5", "d4-d5 e4-e5", ActInfantry},
		{"SI12-c4", "SI12-c4", ActInfantry},
		{"t19-t20 a1xb2", "t19-t20 a1-b2", ActInfantry},
		{"Tc3-c8", "Tc3-c8", ActVehicle},
		{"T c3-c8", "Tc3-c8", ActVehicle},
		{"Pa1xh8/SI4-h9", "Pa1-h8/SI4-h9", ActVehicle},
		{"Tc3-c8/d9", "Tc3-c8/d9", ActVehicle},
		{"Mf5", "Mf5", ActMine},
		{"A t20", "At20", ActAntiAir},
		{"Dd4-f6", "Dd4-f6", ActDrone},
		{"DSI12-f6", "DSI12-f6", ActDrone},
		{"resign", "resign", ActResign},
		{"North Resign", "N resign", ActResign},
		{"DRAW", "draw", ActDraw},
		{"s place Ia5", "S place Ia5", ActDeployPlace},
		{"N move a13-b13", "N move a13-b13", ActDeployMove},
		{"S remove a5", "S remove a5", ActDeployRemove},
		{"S CLEAR", "S clear", ActDeployClear},
		{"south preset Phalanx", "S preset phalanx", ActDeployPreset},
		{"N random 18446744073709551615", "N random 18446744073709551615", ActDeployRandom},
		{"S confirm", "S confirm", ActDeployConfirm},
		{"n unconfirm", "N unconfirm", ActDeployUnconfirm},
	}
	for _, c := range cases {
		a, err := ParseAction(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if a.Kind != c.kind || a.String() != c.canon {
			t.Errorf("%q: kind %d %q, want %d %q", c.in, a.Kind, a.String(), c.kind, c.canon)
		}
	}
	a, _ := ParseAction("SI12-c4")
	if a.Steps[0].Who != (ID{South, Infantry, 12}) || a.Steps[0].To != Sq(2, 3) {
		t.Errorf("SI12-c4 parsed as %+v", a.Steps[0])
	}
}

func TestParseActionErrors(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"":             "empty action",
		"d4":           "an Infantry step is FROM-TO",
		"d4-u5":        "file must be a–t",
		"d4-d21":       "rank must be 1–20",
		"d4-d05":       "rank must be 1–20",
		"Tc3":          "like Tc3-c8",
		"Tc3-c8/z9":    "dismount",
		"Mz5":          "file must be a–t",
		"Dd4":          "cannot read Drone",
		"XI1-d4":       "file must be a–t",
		"SX1-d4":       "second letter must be one of",
		"SI0-d4":       "number must be 1 or more",
		"d4-d5 Tc3-c5": "cannot be combined",
		"S place Z5":   "like Ia5",
		"S place Za5":  "unknown piece letter",
		"S place":      "takes 1 argument",
		"S random x":   "random wants a seed",
		"S fly":        "unknown command",
		"resign now":   "resign takes no arguments",
	}
	for in, want := range cases {
		_, err := ParseAction(in)
		if err == nil {
			t.Errorf("%q parsed", in)
			continue
		}
		if _, ok := err.(*SyntaxError); !ok {
			t.Errorf("%q: error %T, want *SyntaxError", in, err)
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}

// FuzzParseAction: the parser never panics, and what it accepts prints in
// canonical form, which parses back to the same canonical form.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"d4-d5", "d4xd5,e4-e5", "SI12-c4", "Tc3-c8/d9", "Pa1-h8/SI4-h9", "Mf5", "Af5",
		"Dd4-f6", "DSI1-t20", "resign", "N resign", "draw", "S place Ia5", "S random 3", "N move a13-b13", "T c3-c8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAction(s)
		if err != nil {
			return
		}
		c := a.String()
		b, err := ParseAction(c)
		if err != nil {
			t.Fatalf("canonical %q of %q does not parse: %v", c, s, err)
		}
		if b.String() != c {
			t.Fatalf("canonical %q reparses as %q", c, b.String())
		}
	})
}
