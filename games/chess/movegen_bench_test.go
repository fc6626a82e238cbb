package chess

import "testing"

// benchmarkLegalMoves times one legal move generation (the Tartan Grid's
// 20 moves are all promotions).
func benchmarkLegalMoves(b *testing.B, v Variant, fen string) {
	p, err := ParseFEN(v, fen)
	if err != nil {
		b.Fatal(err)
	}
	var buf [256]Move
	b.ReportAllocs()
	for b.Loop() {
		_ = p.AppendLegalMoves(buf[:0])
	}
}

func BenchmarkLegalMovesTartan(b *testing.B) { benchmarkLegalMoves(b, Survival, TartanFEN) }
func BenchmarkLegalMovesStart(b *testing.B)  { benchmarkLegalMoves(b, Chess, StandardFEN) }
func BenchmarkLegalMovesKiwipete(b *testing.B) {
	benchmarkLegalMoves(b, Chess, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
}
