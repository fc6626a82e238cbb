package chessui

import (
	"fmt"
	"strings"

	"sandtable/commands"
	"sandtable/games/chess"
)

// MoveRefused refuses the move text a player typed with the engine's
// refusal: its reason, and on a line of its own what the engine says is
// legal instead (chess.Listing: the forced captures, or the legal moves
// when there are few), each move in a code span as the engine wrote it.
// The engine decides which moves and in which notation; this only formats.
// The answer stays far below Discord's 2000 characters: the reason is
// clipped to 500, the echo to 100, and at most chess.MaxListed moves of at
// most 100 characters each are shown.
func MoveRefused(text string, me *chess.MoveError) error {
	msg := fmt.Sprintf("%s is not a legal move: %s", commands.QuoteInput(text), commands.EngineText(me.Reason))
	if l := listingLine(me.Legal); l != "" {
		msg += "\n" + l
	}
	return &commands.UserError{Msg: msg}
}

// listingLine is the listing in words, "" when it names no move.
func listingLine(l chess.Listing) string {
	if len(l.Moves) == 0 {
		return ""
	}
	spans := make([]string, len(l.Moves))
	for i, m := range l.Moves {
		spans[i] = commands.QuoteInput(m)
	}
	list := strings.Join(spans, ", ")
	switch {
	case l.MustCapture && l.Total == 1:
		return "Capture is mandatory: the only legal capture is " + list + "."
	case l.MustCapture && l.Total > len(l.Moves):
		return fmt.Sprintf("Capture is mandatory: %d legal captures, the first %d: %s.", l.Total, len(l.Moves), list)
	case l.MustCapture:
		return "Capture is mandatory: the legal captures are " + list + "."
	case l.Total == 1:
		return "The only legal move is " + list + "."
	}
	return "The legal moves are " + list + "."
}
