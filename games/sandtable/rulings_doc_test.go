package sandtable

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"testing"
)

// TestRulingRangesCurrent: docs/rules/sandtable.md names its ruling
// ranges ("G1–G23", "D1–D27") in its introduction and contents; each
// range ends at the last ruling of that letter the document holds (issue
// 26: they said G1–G22 and D1–D14 long after G23 and D27 were written).
func TestRulingRangesCurrent(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../docs/rules/sandtable.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, letter := range []string{"G", "D"} {
		last := 0
		for _, m := range regexp.MustCompile(`(?m)^\*\*`+letter+`(\d+)\.`).FindAllSubmatch(data, -1) {
			n, _ := strconv.Atoi(string(m[1]))
			last = max(last, n)
		}
		if last == 0 {
			t.Fatalf("no ruling %s1 in the document", letter)
		}
		want := fmt.Sprintf("%s1–%s%d", letter, letter, last)
		ranges := regexp.MustCompile(letter+`1[–-]`+letter+`\d+`).FindAll(data, -1)
		if len(ranges) == 0 {
			t.Errorf("no range %s in the document", want)
		}
		for _, r := range ranges {
			if string(r) != want {
				t.Errorf("the document names the range %s; its rulings run %s", r, want)
			}
		}
	}
}
