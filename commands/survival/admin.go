package survival

import (
	"fmt"

	"sandtable/commands"
	"sandtable/commands/ui"
	"sandtable/games/chess"
	"sandtable/storage"
)

// results are what a server manager may declare (Spec.Results): a side
// wins, or a draw.
func results(s *State) []ui.Choice {
	return []ui.Choice{
		{Name: "White wins (" + s.White.Name + ")", Value: "white"},
		{Name: "Black wins (" + s.Black.Name + ")", Value: "black"},
		{Name: "Draw", Value: "draw"},
	}
}

// adjudicate ends t's game with result (one of results), as a server
// manager declared it, saying why.
func adjudicate(t *commands.Turn[*State], result, why string) error {
	s := t.State.clone()
	switch result {
	case "white":
		s.Result = chess.WhiteWins.String()
	case "black":
		s.Result = chess.BlackWins.String()
	case "draw":
		s.Result = chess.Draw.String()
	default:
		return fmt.Errorf("survival: no result %q", result)
	}
	s.End, s.Offer = &End{Method: storage.Adjudicated, Reason: why}, ""
	t.Save(s)
	note := s.resultLine()
	msg, err := message(t, s, note)
	if err != nil {
		return err
	}
	t.Board(commands.ChannelOfGame, msg, commands.Message{Content: note})
	return nil
}
