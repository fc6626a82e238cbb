package chessui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"sandtable/commands"
	"sandtable/commands/ui"
	"sandtable/games/analysis"
	"sandtable/games/chess"
	"sandtable/render"
)

// The analysis of a finished 8x8 game (the Analysis button,
// commands.Analysis): computed by games/analysis, stored as its Report
// (plain data, JSON), shown as a private answer with an evaluation graph.

// AnalysisVersion is the version of the stored analysis (a Report as
// games/analysis writes it): raise it when the Report's form changes.
const AnalysisVersion = 1

// Analysis graph size in pixels.
const analysisGraphWidth, analysisGraphHeight = 800, 300

// Analyse analyses the game g within opt's bounds (commands.Analysis's
// Analyse): its Report.
func Analyse(ctx context.Context, g analysis.Game, opt commands.AnalysisOptions) (*analysis.Report, error) {
	return analysis.Analyse(ctx, g, analysis.Options{MoveTime: opt.MoveTime, Depth: opt.Depth})
}

// AnalysisAnswer is the private answer showing the stored analysis raw of
// a game: each side's accuracy and counts, the three worst moves with the
// engine's better move, and the evaluation graph. title names the game
// ("Survival Chess game 12"); sides names each side for the text
// (mentions, already safe to show).
func AnalysisAnswer(r *render.Renderer, title string, sides [2]string, raw json.RawMessage) (commands.Message, error) {
	var rep analysis.Report
	if err := json.Unmarshal(raw, &rep); err != nil {
		return commands.Message{}, fmt.Errorf("a stored analysis: %w", err)
	}
	for _, m := range rep.Moves {
		if m.Judgement > analysis.Blunder || m.Side > chess.Black {
			return commands.Message{}, fmt.Errorf("a stored analysis: ply %d judged %d, side %d", m.Ply, m.Judgement, m.Side)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "📈 **Analysis** of %s: the engine searched every position for %s; moves judged as lichess judges them.\n",
		title, rep.MoveTime)
	for _, c := range []chess.Color{chess.White, chess.Black} {
		fmt.Fprintf(&b, "%s (%s)%s\n", sides[c], c.Title(), strings.TrimPrefix(rep.SummaryLine(c), c.Title()))
	}
	worst := rep.Worst(3)
	if len(worst) == 0 {
		b.WriteString("No inaccuracy, mistake or blunder.")
	} else {
		b.WriteString("**Worst moves**")
		for _, m := range worst {
			fmt.Fprintf(&b, "\n- %s %s%s: %s (−%.0f%% winning chances; evaluation after it %s)", m.Number, m.SAN,
				m.Judgement.Glyph(), strings.ToLower(m.Judgement.String()), m.Drop, evalText(m.Eval))
			if m.Best != "" {
				fmt.Fprintf(&b, "; **%s** was better", m.Best)
			}
		}
	}
	graph, err := AnalysisGraph(r, &rep, title)
	if err != nil {
		return commands.Message{}, err
	}
	return commands.Message{Content: b.String(), Files: []*ui.File{graph}}, nil
}

// evalText is an evaluation for the text: "+1.35" in pawns from White's
// point of view, "mate in 3 for White", "won by Black".
func evalText(s analysis.Score) string {
	switch {
	case s.Won > 0:
		return "won by White"
	case s.Won < 0:
		return "won by Black"
	case s.Mate > 0:
		return fmt.Sprintf("White mates in %d", s.Mate)
	case s.Mate < 0:
		return fmt.Sprintf("Black mates in %d", -s.Mate)
	}
	return fmt.Sprintf("%+.2f", float64(s.CP)/100)
}

// AnalysisGraph draws the report's evaluation graph: White's winning
// chances on the variant's curve (lichess's graph), the judged moves
// marked.
func AnalysisGraph(r *render.Renderer, rep *analysis.Report, title string) (*ui.File, error) {
	g := &render.EvalGraph{Title: title}
	win := func(s analysis.Score) float64 {
		return min(max(analysis.WinPercent(float64(s.ForceCP())*rep.Curve.Scale), 0), 100)
	}
	g.WinPercents = append(g.WinPercents, win(rep.Start))
	for _, m := range rep.Moves {
		g.WinPercents = append(g.WinPercents, win(m.Eval))
		if sev := int(m.Judgement); sev > 0 {
			g.Marks = append(g.Marks, render.EvalMark{Ply: m.Ply, Severity: min(sev, 3)})
		}
	}
	if len(rep.Moves) > 0 {
		g.BlackFirst = rep.Moves[0].Side == chess.Black
		var n int
		if _, err := fmt.Sscanf(rep.Moves[0].Number, "%d", &n); err == nil {
			g.FirstMove = n
		}
	}
	for _, c := range []chess.Color{chess.White, chess.Black} {
		s := rep.Sides[c]
		line := c.Title()
		if s.HasAccuracy {
			line += fmt.Sprintf(": accuracy %d%%", analysis.Percent(s.Accuracy))
		}
		g.Sides[c] = line
	}
	for i, p := range g.WinPercents {
		if math.IsNaN(p) {
			g.WinPercents[i] = 50
		}
	}
	var buf bytes.Buffer
	if err := r.EvalGraphPNG(&buf, g, analysisGraphWidth, analysisGraphHeight); err != nil {
		return nil, err
	}
	return &ui.File{Name: "analysis.png", ContentType: "image/png", Data: buf.Bytes()}, nil
}
