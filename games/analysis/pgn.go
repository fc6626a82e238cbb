package analysis

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"sandtable/games/chess"
)

// Summary tags: the analysis's own PGN tags, written after the game's (a
// game's own tags of these names are replaced).
var summaryTags = []string{"Annotator",
	"WhiteAccuracy", "BlackAccuracy",
	"WhiteInaccuracies", "WhiteMistakes", "WhiteBlunders",
	"BlackInaccuracies", "BlackMistakes", "BlackBlunders",
}

// Percent rounds an accuracy as lichess shows it (Percent.toInt: nearest
// integer).
func Percent(a float64) int { return int(math.Round(a)) }

// SummaryLine is a side's summary in words: "White: accuracy 87%, 2
// inaccuracies, 1 mistake, 0 blunders".
func (r *Report) SummaryLine(side chess.Color) string {
	s := r.Sides[side]
	acc := "no accuracy (no move)"
	if s.HasAccuracy {
		acc = fmt.Sprintf("accuracy %d%%", Percent(s.Accuracy))
	}
	return fmt.Sprintf("%s: %s, %s, %s, %s", side.Title(), acc,
		plural(s.Inaccuracies, "inaccuracy", "inaccuracies"), plural(s.Mistakes, "mistake", "mistakes"),
		plural(s.Blunders, "blunder", "blunders"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// SummaryTags returns the summary as PGN tags: Annotator (the engine and
// its time a position), WhiteAccuracy and BlackAccuracy (lichess's game
// accuracy, rounded to an integer percent; "-" for a side without a move),
// and each side's Inaccuracies, Mistakes and Blunders counts.
func (r *Report) SummaryTags() []chess.Tag {
	acc := func(c chess.Color) string {
		if !r.Sides[c].HasAccuracy {
			return "-"
		}
		return strconv.Itoa(Percent(r.Sides[c].Accuracy))
	}
	ann := fmt.Sprintf("sandtable analyse, %d ms a position", r.MoveTime.Milliseconds())
	if r.Curve.Scale != 1 {
		ann += fmt.Sprintf(", centipawns x%.2f on lichess's curve", r.Curve.Scale)
	}
	tags := []chess.Tag{{Name: "Annotator", Value: ann},
		{Name: "WhiteAccuracy", Value: acc(chess.White)}, {Name: "BlackAccuracy", Value: acc(chess.Black)}}
	for _, c := range []chess.Color{chess.White, chess.Black} {
		s := r.Sides[c]
		tags = append(tags,
			chess.Tag{Name: c.Title() + "Inaccuracies", Value: strconv.Itoa(s.Inaccuracies)},
			chess.Tag{Name: c.Title() + "Mistakes", Value: strconv.Itoa(s.Mistakes)},
			chess.Tag{Name: c.Title() + "Blunders", Value: strconv.Itoa(s.Blunders)})
	}
	return tags
}

// PGN writes the analysed game: the Seven Tag Roster and the game's other
// tags (chess.WritePGNHeader; tags named like the summary's are dropped),
// then SummaryTags, then the movetext. Every move carries its judgement's
// glyph ("Qxd5??") and a comment in lichess's form: "{ [%eval 0.35] }"
// (White's point of view; "#3", "#-3" a forced mate, "#0" a game won at
// that position), a judged move adding lichess's words and the engine's
// move: "{ [%eval -4.20] Blunder. Nf6 was best. }". result is the game's
// PGN result ("*" when empty).
func (r *Report) PGN(tags []chess.Tag, result string) string {
	if result == "" {
		result = "*"
	}
	var b strings.Builder
	chess.WritePGNHeader(&b, tags, nil, result, r.SummaryTags())
	var tokens []string
	for _, m := range r.Moves {
		// Every move follows a comment, so Black's are numbered too ("1... e5").
		tokens = append(tokens, m.Number)
		tokens = append(tokens, m.SAN+m.Judgement.Glyph())
		c := "[%eval " + m.Eval.PGN() + "]"
		if m.Judgement != Good {
			c += " " + m.Judgement.String() + "."
			if m.Best != "" {
				c += " " + m.Best + " was best."
			}
		}
		tokens = append(tokens, "{ "+strings.NewReplacer("{", "(", "}", ")").Replace(c)+" }")
	}
	chess.WrapPGN(&b, append(tokens, result))
	return b.String()
}
