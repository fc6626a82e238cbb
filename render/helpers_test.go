package render

import (
	"strings"
	"testing"
)

// placement builds a ChessBoard from the piece-placement field of a FEN
// (test helper; the real FEN parser lives in games/chess).
func placement(t testing.TB, field string) ChessBoard {
	t.Helper()
	var b ChessBoard
	ranks := strings.Split(field, "/")
	if len(ranks) != 8 {
		t.Fatalf("placement %q: want 8 ranks", field)
	}
	kinds := map[rune]ChessPieceKind{'p': Pawn, 'n': Knight, 'b': Bishop, 'r': Rook, 'q': Queen, 'k': King}
	for i, r := range ranks {
		rank := 7 - i
		file := 0
		for _, c := range r {
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				continue
			}
			lc := c | 0x20
			k, ok := kinds[lc]
			if !ok || file > 7 {
				t.Fatalf("placement %q: bad rank %q", field, r)
			}
			col := White
			if c == lc {
				col = Black
			}
			b.Squares[rank*8+file] = ChessPiece{k, col}
			file++
		}
		if file != 8 {
			t.Fatalf("placement %q: rank %q has %d files", field, r, file)
		}
	}
	return b
}

// sq parses a square name like "e4" on the 8x8 board or "t20" on the
// SandTable board (width 8 or 20).
func sq(t testing.TB, name string, width int) Square {
	t.Helper()
	if len(name) < 2 {
		t.Fatalf("bad square %q", name)
	}
	f := int(name[0] - 'a')
	r := 0
	for _, c := range name[1:] {
		r = r*10 + int(c-'0')
	}
	if f < 0 || f >= width || r < 1 || r > width {
		t.Fatalf("bad square %q", name)
	}
	return Square(f + (r-1)*width)
}

// deployment returns one side's full deployment (2 Bases, 4 Tanks,
// 2 Airplanes, 30 Infantry, 15 Mines, 15 Anti-Air: 68 pieces) inside its
// zone, mirrored for North; every Mine and Anti-Air touches an Infantry.
// With crewed set, Vehicles get crews 1..4 as in a game under way.
func deployment(side Side, crewed bool) []SandPiece {
	var ps []SandPiece
	at := func(file, rank int) Square {
		if side == North {
			rank = 21 - rank
		}
		return Square(file + (rank-1)*SandTableFiles)
	}
	add := func(k SandPieceKind, file, rank, crew int) {
		owner := side
		if k.IsVehicle() && crew == 0 {
			owner = Neutral
		}
		ps = append(ps, SandPiece{Square: at(file, rank), Kind: k, Owner: owner, Crew: crew})
	}
	crew := func(i int) int {
		if !crewed {
			return 0
		}
		return i % 5 // 0 (neutral) .. 4
	}
	add(Base, 5, 1, 0)
	add(Base, 14, 1, 0)
	for i, f := range []int{2, 7, 12, 17} {
		add(Tank, f, 3, crew(i+1))
	}
	add(Airplane, 4, 4, crew(2))
	add(Airplane, 15, 4, crew(0))
	for f := 0; f < 20; f++ {
		add(Infantry, f, 6, 0)
	}
	for f := 0; f < 20; f += 2 {
		add(Infantry, f, 8, 0)
	}
	for f := 0; f < 20; f++ {
		if f%2 == 0 {
			add(Mine, f, 7, 0)
		} else {
			add(AntiAir, f, 7, 0)
		}
	}
	for f := 1; f < 20; f += 2 {
		if f%4 == 1 {
			add(Mine, f, 9, 0)
		} else {
			add(AntiAir, f, 9, 0)
		}
	}
	return ps
}

func fullBoard(crewed bool) SandTableBoard {
	var b SandTableBoard
	b.Pieces = append(deployment(South, crewed), deployment(North, crewed)...)
	return b
}
