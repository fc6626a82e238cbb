package teamchess

import (
	"regexp"
	"strings"
	"testing"

	"sandtable/games/chess"
)

// TestForcedReplyRefusalSpeaksOfTheOpponent: the reason why the move a
// Saboteur forces is illegal concerns the opponent's pieces, and the
// refusal goes to the player who wrote the Saboteur, so it names the
// opponent ("Black's own pawn"), never "your".
func TestForcedReplyRefusalSpeaksOfTheOpponent(t *testing.T) {
	t.Parallel()
	you := regexp.MustCompile(`(?i)\byou(r)?\b`)
	for _, c := range []struct{ fen, move, want string }{
		{"4k2r/4p1P1/8/8/8/8/8/Q3K3 w - - 0 1", "gxh8=Saboteur:Ke7", "Black's own pawn"},
		{"4k2r/4b1P1/8/8/8/8/Q7/4RK2 w - - 0 1", "gxh8=Saboteur:Bd6", "Black's king"},
		{"4k2r/4b1P1/8/8/8/8/Q7/4RK2 w - - 0 1", "g7h8s:e7d6", "Black's king"},
		{"2n1k2r/1P6/8/8/8/8/Q7/4K3 w k - 0 1", "bxc8=Saboteur:O-O", "Black cannot castle"},
		{"4k3/q7/8/8/8/8/1p2P3/R3K2R b KQ - 0 1", "b1=Saboteur:Ke2", "White's own pawn"},
		{"4k3/q7/8/8/8/8/1p2P3/R3K2R b KQ - 0 1", "b1=Saboteur:O-O", "White cannot castle"},
		// The forced reply is itself a sacrifice, refused for a role reason.
		{"4k3/P7/8/8/8/8/1p6/Q3K3 w - - 0 1", "a8=Saboteur:b1=Saboteur:Kd2", "Black's Queen"},
	} {
		p, err := chess.ParseFEN(chess.TeamChess, c.fen)
		if err != nil {
			t.Fatal(c.fen, err)
		}
		_, err = ParseMove(&p, c.move)
		me, ok := err.(*chess.MoveError)
		if !ok {
			t.Fatalf("%s %s: want a *chess.MoveError, got %v", c.fen, c.move, err)
		}
		if !strings.Contains(me.Reason, "forced on") || !strings.Contains(me.Reason, c.want) || you.MatchString(me.Reason) {
			t.Errorf("%s %s: reason %q should speak of the opponent (%q), not of \"you\"", c.fen, c.move, me.Reason, c.want)
		}
	}
}

func TestSpeakOf(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"e7 is occupied by your own pawn":                 "e7 is occupied by Black's own pawn",
		"you cannot castle while your king is in check":   "Black cannot castle while Black's king is in check",
		"a pawn ... and you must name its role":           "a pawn ... and Black must name its role",
		"you have a personal loss; you are out; youth ok": "Black has a personal loss; Black is out; youth ok",
		"Your Queen is still on the board":                "Black's Queen is still on the board",
	} {
		if got := speakOf(in, chess.Black); got != want {
			t.Errorf("speakOf(%q) = %q, want %q", in, got, want)
		}
	}
}
