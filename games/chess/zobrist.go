package chess

// Zobrist keys, from a fixed-seed splitmix64 so hashes are stable across runs.
var (
	zobristPiece    [16][64]uint64
	zobristCastling [16]uint64
	zobristEP       [8]uint64
	zobristBlack    uint64
)

func init() {
	s := uint64(0x5a4e_d7ab_1e00_0001)
	next := func() uint64 {
		s += 0x9e3779b97f4a7c15
		z := s
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	for p := range zobristPiece {
		for sq := range zobristPiece[p] {
			zobristPiece[p][sq] = next()
		}
	}
	for i := range zobristCastling {
		zobristCastling[i] = next()
	}
	zobristCastling[0] = 0
	for i := range zobristEP {
		zobristEP[i] = next()
	}
	zobristBlack = next()
}
