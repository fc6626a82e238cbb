package sandtable

import (
	"os"
	"strings"
	"testing"
)

func TestFormatRoundTripStartedGame(t *testing.T) {
	t.Parallel()
	p := startRandomGame(t, 42)
	text := p.Format()
	q, err := ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	if q.Format() != text {
		t.Fatalf("round trip differs:\n%s\n---\n%s", text, q.Format())
	}
	if len(q.Pieces()) != 2*RequiredTotal {
		t.Fatalf("%d pieces after parse, want %d", len(q.Pieces()), 2*RequiredTotal)
	}
	// Deployment positions with drafts round-trip too.
	g := NewGame(9)
	for _, a := range []string{"S preset fortress", "N place Ia20", "S confirm"} {
		if _, err := g.ApplyString(a); err != nil {
			t.Fatal(err)
		}
	}
	text = g.Format()
	q, err = ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	if q.Format() != text || !q.confirmed[South] || q.confirmed[North] || q.Draft(North).At(Sq(0, 19)) != Infantry {
		t.Fatalf("deployment round trip differs:\n%s\n---\n%s", text, q.Format())
	}
}

func TestParsePositionErrors(t *testing.T) {
	t.Parallel()
	base := "sandtable-position 1\nphase main\nto-move south\n"
	cases := map[string]string{
		"":                                                       "empty position",
		"sandtable-position 2\n":                                 "first line must be",
		base + "phase main\n":                                    `"phase" is given twice`,
		base + "piece SI1 d4\npiece SI2 d4\n":                    "both on d4",
		base + "piece SI1 d4\npiece SI1 d5\n":                    "given twice",
		base + "piece ST1 d4 SI1\npiece SI1 d5\n":                "given twice",
		base + "piece ST1 d4 SI1 SI2 SI3 SI4 SI5\n":              "at most 4",
		base + "piece ST1 d4 SI1 NI2\n":                          "mixes South and North",
		base + "piece SI1 d4 SI2\n":                              "cannot have crew",
		base + "piece ST1 d4 SM1\n":                              "not an Infantry",
		base + "piece SI1 u4\n":                                  "file must be a–t",
		base + "drone SI1 d4\n":                                  "not on the board",
		base + "drone SB1 d4\n":                                  "must be an Infantry",
		base + "crater d4 south\npiece SI1 d4\n":                 "Craters are empty",
		base + "crater d4 south\ncrater d4 north\n":              "two Craters",
		base + "bogus 1\n":                                       "unknown line",
		base + "turn -1\n":                                       "whole number",
		base + "turn 0\n":                                        "turn must be 1 or more",
		base + "hazard-uses 1\n":                                 "hazard-uses is 0 outside PostTurn",
		base + "result south win\n":                              "a win has reason",
		base + "result draw no-bases\n":                          "a win has reason",
		base + "next-hazard SM1 SA1 NM1\n":                       "takes 4 value(s)",
		base + "next-hazard SA1 SM1 NM1 NA1\n":                   "next-hazard wants four IDs",
		base + "piece SM3 d4\nnext-hazard SM2 SA1 NM1 NA1\n":     "already in use",
		base + "view south\ndrone south hidden\n":                "hidden Drone appears only",
		"sandtable-position 1\nphase main\n":                     "to-move",
		"sandtable-position 1\nturn 3\n":                         "phase line is missing",
		"sandtable-position 1\nphase deployment\npiece SI1 d4\n": "only draft lines",
		"sandtable-position 1\nphase deployment\ndraft south\n10 I...................\n":         "outside the deployment zone",
		"sandtable-position 1\nphase deployment\ndraft south\n 9 I..\n":                          "has 3 cells",
		"sandtable-position 1\nphase deployment\ndraft south confirmed\ndraft north confirmed\n": "both drafts are confirmed",
		"sandtable-position 1\nphase deployment\n 9 I...................\n":                      "must follow a draft line",
		"sandtable-position 1\nphase deployment\ndraft south hidden\ndraft north\n":              "only a redacted view",
		"sandtable-position 1\nphase main\nto-move south\ndraft south\n":                         "Deployment only",
		"sandtable-position 1\nphase finished\nto-move south\n":                                  "has a result",
		"sandtable-position 1\nphase fin\n":                                                      "unknown phase",
		"sandtable-position 1\nphase Main\n":                                                     "unknown phase",
		"sandtable-position 1\nphase main\nto-move S\n":                                          "want south or north",
	}
	for in, want := range cases {
		_, err := ParsePosition(in)
		if err == nil {
			t.Errorf("%q parsed", in)
			continue
		}
		if _, ok := err.(*SyntaxError); !ok {
			t.Errorf("%q: error %T", in, err)
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q:\n  %v\nwant %q", in, err, want)
		}
	}
}

func TestParsePositionLineNumbers(t *testing.T) {
	t.Parallel()
	_, err := ParsePosition("sandtable-position 1\n# comment\nphase main\nto-move south\npiece SI1 zz\n")
	se, ok := err.(*SyntaxError)
	if !ok || se.Line != 5 {
		t.Fatalf("error %v, want a SyntaxError on line 5", err)
	}
}

// TestDocExamplesParse parses every position example in the rules document.
func TestDocExamplesParse(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../docs/rules/sandtable.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(data), "```")
	n := 0
	for i := 1; i < len(blocks); i += 2 {
		b := strings.TrimPrefix(blocks[i], "\n")
		if strings.HasPrefix(b, FormatHeader) {
			n++
			p, err := ParsePosition(b)
			if err != nil {
				t.Errorf("doc example %d: %v\n%s", n, err, b)
				continue
			}
			if q, err := ParsePosition(p.Format()); err != nil || q.Format() != p.Format() {
				t.Errorf("doc example %d does not round-trip", n)
			}
		}
		if strings.HasPrefix(b, "#  abcdefghijklmnopqrst") {
			d, err := ParseLayout(South, b)
			if err != nil || d.Validate() != nil {
				t.Errorf("doc layout: %v %v", err, d.Validate())
			}
		}
	}
	if n < 2 {
		t.Fatalf("found %d position examples in the doc", n)
	}
}

// FuzzParsePosition: the parser never panics; whatever it accepts formats
// to a text that parses to the same text again.
func FuzzParsePosition(f *testing.F) {
	f.Add("sandtable-position 1\nphase main\nto-move south\npiece SB1 a1\npiece ST1 c3 SI1\npiece NI1 t19\ndrone SI2 d4 cancelled\ncrater e5 south\n")
	f.Add("sandtable-position 1\nphase deployment\nseed 3\ndraft south confirmed\n 9 IIII................\n 8 M...................\ndraft north\n")
	f.Add("sandtable-position 1\nview north\nphase postturn\nturn 4\nto-move north\nhazard-uses 2\ndrone south hidden\npiece NI1 a20\n")
	f.Add("sandtable-position 1\nphase finished\nto-move south\nresult draw deadlock\ndead-turns 4\n")
	p := NewGame(1)
	p.ApplyString("S preset skirmish")
	f.Add(p.Format())
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePosition(s)
		if err != nil {
			return
		}
		text := p.Format()
		q, err := ParsePosition(text)
		if err != nil {
			t.Fatalf("formatted position does not parse: %v\n%s", err, text)
		}
		if q.Format() != text {
			t.Fatalf("format not stable:\n%s\n---\n%s", text, q.Format())
		}
		// Advancing or acting on a parsed position never panics, and a
		// refused action changes nothing.
		q.Advance()
		q.LegalActions()
		for _, a := range []string{"d4-d5", "c3-c4 d4-d5", "SI1-d5", "Tc3-c8/d9", "Pa1-h8", "Mf5", "Af5", "Dd4-f6",
			"S place Ia5", "S confirm", "N preset fortress", "resign", "draw"} {
			r := q.Clone()
			before := r.Format()
			if _, err := r.ApplyString(a); err != nil && r.Format() != before {
				t.Fatalf("refused %q changed the position", a)
			}
		}
	})
}
