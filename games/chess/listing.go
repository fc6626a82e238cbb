package chess

import (
	"slices"
	"strings"
)

// MaxListed is the most legal moves a refused move's error names.
const MaxListed = 8

// Listing is what a refused move's error says is legal
// (docs/rules/chess.md, "Saying what is legal"): when a capture is
// mandatory (Survival Chess) the legal captures, otherwise the legal moves
// when there are at most MaxListed of them, in the notation the player
// typed. Moves holds at most MaxListed texts, captures first, then in
// case-insensitive text order; Total counts them all. An empty Moves means
// nothing is named (too many moves to list, or none).
type Listing struct {
	Moves       []string
	Total       int
	MustCapture bool // the moves are the captures a mandatory capture allows
}

// ListEntry is one legal move for NewListing: its text and whether it
// captures on its destination square (en passant included).
type ListEntry struct {
	Text    string
	Capture bool
}

// NewListing orders entries (captures first, then case-insensitive text
// order) and keeps what a refusal names: every entry when there are at
// most MaxListed, the first MaxListed when mustCapture is set, none
// otherwise. Variants with their own notation (Team Chess roles) build
// their entries and share this rule.
func NewListing(entries []ListEntry, mustCapture bool) Listing {
	l := Listing{Total: len(entries), MustCapture: mustCapture}
	if len(entries) == 0 || (len(entries) > MaxListed && !mustCapture) {
		return l
	}
	es := slices.Clone(entries)
	slices.SortStableFunc(es, func(a, b ListEntry) int {
		if a.Capture != b.Capture {
			if a.Capture {
				return -1
			}
			return 1
		}
		if c := strings.Compare(strings.ToLower(a.Text), strings.ToLower(b.Text)); c != 0 {
			return c
		}
		return strings.Compare(a.Text, b.Text)
	})
	for _, e := range es[:min(len(es), MaxListed)] {
		l.Moves = append(l.Moves, e.Text)
	}
	return l
}

// String says the listing in words: "the only legal move is exd3", "the
// legal moves are Kd1, Kd2 or Kf1", "capture is mandatory: the legal
// captures are exd5, Nxf6", "capture is mandatory: there are 11 legal
// captures, the first 8 are ..."; "" when nothing is named.
func (l Listing) String() string {
	if len(l.Moves) == 0 {
		return ""
	}
	noun, prefix := "move", ""
	if l.MustCapture {
		noun, prefix = "capture", "capture is mandatory: "
	}
	switch {
	case l.Total == 1:
		return prefix + "the only legal " + noun + " is " + l.Moves[0]
	case l.Total > len(l.Moves):
		return prefix + "there are " + itoa(l.Total) + " legal " + noun + "s, the first " + itoa(len(l.Moves)) + " are " + strings.Join(l.Moves, ", ")
	case l.MustCapture:
		return prefix + "the legal captures are " + strings.Join(l.Moves, ", ")
	}
	return "the legal moves are " + joinOr(l.Moves, MaxListed)
}

// IsUCIText reports whether a typed move is written in UCI, from square
// then to square ("e2e4", "E2E4", "e2-e4", "a7a8k", Team Chess's
// "e7e8a:d4"), so that an answer lists moves in UCI too; anything else
// (SAN, "Ng1f3", "exd5") is answered in SAN. A leading upper-case B is a
// bishop, as ParseMove reads it: "B2d3" is SAN.
func IsUCIText(s string) bool {
	t := separators.Replace(s)
	if len(t) < 4 || t[0] == 'B' {
		return false
	}
	t = strings.ToLower(t[:4])
	return isFile(t[0]) && isRank(t[1]) && isFile(t[2]) && isRank(t[3])
}

// Listing returns what a refused move in p names (see Listing), in UCI
// when uci is set and in SAN otherwise. A capture is mandatory in
// Survival Chess whenever one is legal; in FIDE chess and Team Chess no
// capture is ever forced. In Team Chess the core lists a pawn reaching the
// last rank in its neutral bare form ("e8", "e7e8"); the teamchess package
// lists one entry per role instead.
func (p *Position) Listing(uci bool) Listing {
	var buf [256]Move
	return p.listing(uci, p.AppendLegalMoves(buf[:0]))
}

func (p *Position) listing(uci bool, legal []Move) Listing {
	must := false
	if p.rules().mandatoryCapture {
		for _, m := range legal {
			must = must || p.IsCapture(m)
		}
	}
	if len(legal) > MaxListed && !must {
		return Listing{Total: len(legal)}
	}
	es := make([]ListEntry, len(legal))
	for i, m := range legal {
		t := m.UCI()
		if !uci {
			t = p.sanWith(m, legal, true)
		}
		es[i] = ListEntry{Text: t, Capture: p.IsCapture(m)}
	}
	return NewListing(es, must)
}
