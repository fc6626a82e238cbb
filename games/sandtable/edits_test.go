package sandtable

import (
	"errors"
	"strings"
	"testing"
)

func TestParseDeployEdits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"place T c3", []string{"S place Tc3"}},
		{"PLACE tc3", []string{"S place Tc3"}},
		{"place I a5 b5, c5", []string{"S place Ia5", "S place Ib5", "S place Ic5"}},
		{"place Ia5 Mb5", []string{"S place Ia5", "S place Mb5"}},
		{"add T c3; put Ic4", []string{"S place Tc3", "S place Ic4"}},
		{"move c3-d3; move d3 e3", []string{"S move c3-d3", "S move d3-e3"}},
		{"remove a1 b1\n\ndelete c1\nclear", []string{"S remove a1", "S remove b1", "S remove c1", "S clear"}},
		{"S place Ia5", []string{"S place Ia5"}},
		{"south remove a5", []string{"S remove a5"}},
		{"place T\u200b c3\u2060; move\u00a0c3-d3\x00\nremove \ufeffd3", []string{"S place Tc3", "S move c3-d3", "S remove d3"}},
	} {
		edits, err := ParseDeployEdits(South, c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		var got []string
		for _, e := range edits {
			got = append(got, e.Action.String())
			// What Apply reads is what was parsed.
			back, err := ParseAction(e.Action.String())
			if err != nil || back.String() != e.Action.String() {
				t.Errorf("%q: %s does not read back: %v", c.in, e.Action, err)
			}
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%q: got %v, want %v", c.in, got, c.want)
		}
	}
	edits, _ := ParseDeployEdits(North, "place I a15\n\nmove a15-b15; remove b15")
	for i, want := range []struct {
		line int
		text string
	}{{1, "place I a15"}, {3, "move a15-b15"}, {4, " remove b15"}} {
		if edits[i].Line != want.line || edits[i].Text != want.text || edits[i].Action.Side != North {
			t.Errorf("edit %d: %+v, want line %d %q", i, edits[i], want.line, want.text)
		}
	}
}

func TestParseDeployEditsErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		line int
		want string
	}{
		{"", 0, "no change given"},
		{"place", 1, "place needs a piece letter and at least one square"},
		{"place c3", 1, "say which piece to place first"},
		{"place Q c3", 1, `unknown piece letter "q"`},
		{"place T zz9", 1, `cannot read "zz9"`},
		{"move c3", 1, "move needs FROM-TO"},
		{"move c3-z9", 1, "move needs two squares"},
		{"remove", 1, "remove needs a square"},
		{"remove z9", 1, "file must be a–t"},
		{"clear all", 1, "clear takes nothing after it"},
		{"N place Ia15", 1, "you deploy as South"},
		{"place T c3\nfly c4", 2, `unknown change "fly"`},
		{strings.Repeat("remove a1\n", 201), 0, "at most 200 changes at once, got 201"},
	} {
		_, err := ParseDeployEdits(South, c.in)
		var ee *EditError
		if !errors.As(err, &ee) {
			t.Errorf("%q: error %v, want an *EditError", c.in, err)
			continue
		}
		if ee.Line != c.line || !strings.Contains(ee.Msg, c.want) {
			t.Errorf("%q: line %d %q, want line %d containing %q", c.in, ee.Line, ee.Msg, c.line, c.want)
		}
	}
	if _, err := ParseDeployEdits(NoSide, "clear"); err == nil {
		t.Error("edits for no side")
	}
}
