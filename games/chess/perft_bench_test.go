package chess

import "testing"

// BenchmarkPerftStart5 runs perft(5) from the standard start position
// (4,865,609 nodes, CPW Perft Results) making every move, leaves included.
func BenchmarkPerftStart5(b *testing.B) {
	p := StartPosition(Chess)
	b.ReportAllocs()
	var n uint64
	for i := 0; i < b.N; i++ {
		n = Perft(&p, 5)
	}
	if n != 4865609 {
		b.Fatalf("perft(5) = %d, want 4865609", n)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkPerftBulkStart5 is perft(5) with bulk counting at the last ply.
func BenchmarkPerftBulkStart5(b *testing.B) {
	p := StartPosition(Chess)
	b.ReportAllocs()
	var n uint64
	for i := 0; i < b.N; i++ {
		n = PerftBulk(&p, 5)
	}
	if n != 4865609 {
		b.Fatalf("perft(5) = %d, want 4865609", n)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkPerftTartan4 runs perft(4) from the Tartan Grid start (Survival).
func BenchmarkPerftTartan4(b *testing.B) {
	p := StartPosition(Survival)
	b.ReportAllocs()
	var n uint64
	for i := 0; i < b.N; i++ {
		n = Perft(&p, 4)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}
