package chess

import (
	"errors"
	"strings"
	"testing"
)

func TestFENRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v   Variant
		fen string
	}{
		{Chess, StandardFEN},
		{Chess, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
		{Chess, "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"},
		{Chess, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"},
		{Survival, TartanFEN},
		{Survival, "8/8/8/8/8/8/1p6/K7 w - - 0 1"},
		{TeamChess, StandardFEN},
	} {
		p, err := ParseFEN(c.v, c.fen)
		if err != nil {
			t.Fatalf("%s: %v", c.fen, err)
		}
		if got := p.FEN(); got != c.fen {
			t.Errorf("FEN round trip: got %q, want %q", got, c.fen)
		}
	}
}

func TestFENNormalisation(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v        Variant
		in, want string
	}{
		// Missing clocks default to 0 1.
		{Chess, "4k3/8/8/8/8/8/8/4K3 w - -", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
		// An en passant square no pawn can use is dropped (FIDE 9.2.3).
		{Chess, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
		// Pseudo-legal but illegal en passant (pinned on the rank) is dropped.
		{Chess, "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", "8/8/8/KPp4r/8/8/8/4k3 w - - 0 1"},
		// Survival ignores castling rights.
		{Survival, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "4k3/8/8/8/8/8/8/R3K2R w - - 0 1"},
		{Survival, "4k3/8/8/8/8/8/8/4K3 w whatever - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
		// Fullmove 0 is read as 1.
		{Chess, "4k3/8/8/8/8/8/8/4K3 w - - 3 0", "4k3/8/8/8/8/8/8/4K3 w - - 3 1"},
	} {
		p, err := ParseFEN(c.v, c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := p.FEN(); got != c.want {
			t.Errorf("%s: FEN() = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFENErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v        Variant
		fen, msg string
	}{
		{Chess, "", "expected 6 space-separated fields"},
		{Chess, "8/8/8/8/8/8/8/8 w", "got 2"},
		{Chess, StandardFEN + " extra", "got 7"},
		{Chess, "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "expected 8 ranks"},
		{Chess, "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7 describes 7 squares"},
		{Chess, "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 squares"},
		{Chess, "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unknown piece letter '9'"},
		{Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "unknown piece letter 'X'"},
		{Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move field: expected w or b"},
		{Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", "castling field: unexpected 'x'"},
		{Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1", "appears twice"},
		{Chess, "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "castling right k needs the black king on e8 and a rook on h8"},
		{Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en passant field: \"e9\" is not - or a square"},
		{Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "not on rank 6"},
		{Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "needs a black pawn on e5"},
		{Chess, "4k3/8/4p3/4p3/8/8/8/4K3 w - e6 0 1", "needs e6 and e7 empty"},
		{Chess, StandardFEN[:len(StandardFEN)-3] + "x 1", "halfmove clock field"},
		{Chess, StandardFEN[:len(StandardFEN)-3] + "0 -1", "fullmove number field"},
		{Chess, "8/8/8/8/8/8/8/4K3 w - - 0 1", "black has 0 kings"},
		{Chess, "4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "white has 2 kings"},
		{Chess, "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn stands on the first or last rank"},
		{Chess, "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "the side not to move (black) is in check"},
		{Chess, "QQQQkQQQ/QQQQQQQQ/QQ6/8/8/8/8/4K3 b - - 0 1", "at most 16"},
		{Survival, "8/8/8/8/8/8/8/8 w - - 0 1", "the board is empty"},
		{Survival, "7p/8/8/8/8/8/8/8 w - - 0 1", "pawn stands on the first or last rank"},
		{Variant(9), StandardFEN, "unknown variant"},
	} {
		_, err := ParseFEN(c.v, c.fen)
		if err == nil {
			t.Errorf("%s %q: accepted, want error containing %q", c.v, c.fen, c.msg)
			continue
		}
		var fe *FENError
		if !errors.As(err, &fe) {
			t.Errorf("%q: error is %T, want *FENError", c.fen, err)
		}
		if !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: error %q does not contain %q", c.fen, err, c.msg)
		}
	}
}

func TestSurvivalFENNeedsNoKings(t *testing.T) {
	t.Parallel()
	p, err := ParseFEN(Survival, "8/8/8/8/8/8/P7/8 b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.KingSquare(White); ok {
		t.Error("KingSquare reported a king that is not there")
	}
	if p.Status().Result != WhiteWins {
		t.Errorf("Black has no pieces: status %v, want White wins", p.Status())
	}
}
