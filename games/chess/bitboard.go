package chess

import "math/bits"

// Bitboard is a set of squares, bit i standing for Square i (a1 = bit 0).
type Bitboard uint64

// Has reports whether sq is in the set.
func (b Bitboard) Has(sq Square) bool { return b&(1<<sq) != 0 }

// Count returns the number of squares in the set.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// First returns the lowest square of a non-empty set (NoSquare if empty).
func (b Bitboard) First() Square {
	if b == 0 {
		return NoSquare
	}
	return Square(bits.TrailingZeros64(uint64(b)))
}

// More reports whether the set holds more than one square.
func (b Bitboard) More() bool { return b&(b-1) != 0 }

// Squares returns the squares of the set in ascending order.
func (b Bitboard) Squares() []Square {
	out := make([]Square, 0, b.Count())
	for ; b != 0; b &= b - 1 {
		out = append(out, b.First())
	}
	return out
}

func bb(sq Square) Bitboard { return 1 << sq }

const (
	rank1 Bitboard = 0xff
	rank2 Bitboard = rank1 << 8
	rank3 Bitboard = rank1 << 16
	rank6 Bitboard = rank1 << 40
	rank7 Bitboard = rank1 << 48
	rank8 Bitboard = rank1 << 56
	fileA Bitboard = 0x0101010101010101
	fileH Bitboard = fileA << 7

	lightSquares Bitboard = 0x55aa55aa55aa55aa
)

var (
	knightAttacks [64]Bitboard
	kingAttacks   [64]Bitboard
	pawnAttacks   [2][64]Bitboard
	betweenBB     [64][64]Bitboard // squares strictly between two aligned squares
	lineBB        [64][64]Bitboard // whole line through two aligned squares
)

type magicEntry struct {
	mask   Bitboard
	magic  uint64
	shift  uint8
	offset uint32
}

var (
	rookMagics   [64]magicEntry
	bishopMagics [64]magicEntry
	rookTable    []Bitboard
	bishopTable  []Bitboard
)

var rookDirs = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
var bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

// slidingAttacks is the slow reference used to build the magic tables.
func slidingAttacks(sq Square, occ Bitboard, dirs *[4][2]int) Bitboard {
	var att Bitboard
	for _, d := range dirs {
		f, r := sq.File()+d[0], sq.Rank()+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			s := SquareAt(f, r)
			att |= bb(s)
			if occ.Has(s) {
				break
			}
			f += d[0]
			r += d[1]
		}
	}
	return att
}

func stepAttacks(sq Square, deltas [][2]int) Bitboard {
	var att Bitboard
	for _, d := range deltas {
		f, r := sq.File()+d[0], sq.Rank()+d[1]
		if f >= 0 && f < 8 && r >= 0 && r < 8 {
			att |= bb(SquareAt(f, r))
		}
	}
	return att
}

func init() {
	knightD := [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	kingD := [][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	for sq := Square(0); sq < 64; sq++ {
		knightAttacks[sq] = stepAttacks(sq, knightD)
		kingAttacks[sq] = stepAttacks(sq, kingD)
		pawnAttacks[White][sq] = stepAttacks(sq, [][2]int{{-1, 1}, {1, 1}})
		pawnAttacks[Black][sq] = stepAttacks(sq, [][2]int{{-1, -1}, {1, -1}})
	}
	rookTable = initMagics(&rookMagics, &rookDirs, rookMagicNumbers[:])
	bishopTable = initMagics(&bishopMagics, &bishopDirs, bishopMagicNumbers[:])
	for a := Square(0); a < 64; a++ {
		for _, dirs := range []*[4][2]int{&rookDirs, &bishopDirs} {
			full := slidingAttacks(a, 0, dirs)
			for b := Square(0); b < 64; b++ {
				if a == b || !full.Has(b) {
					continue
				}
				betweenBB[a][b] = slidingAttacks(a, bb(b), dirs) & slidingAttacks(b, bb(a), dirs)
				lineBB[a][b] = (full & slidingAttacks(b, 0, dirs)) | bb(a) | bb(b)
			}
		}
	}
}

// initMagics builds a fancy-magic attack table from precomputed magic numbers
// (found once with magicgen_test.go; verified exhaustively by TestMagics).
func initMagics(entries *[64]magicEntry, dirs *[4][2]int, magics []uint64) []Bitboard {
	var table []Bitboard
	for sq := Square(0); sq < 64; sq++ {
		edges := ((rank1 | rank8) &^ (rank1 << (8 * uint(sq.Rank())))) |
			((fileA | fileH) &^ (fileA << uint(sq.File())))
		mask := slidingAttacks(sq, 0, dirs) &^ edges
		n := mask.Count()
		e := &entries[sq]
		e.mask = mask
		e.magic = magics[sq]
		e.shift = uint8(64 - n)
		e.offset = uint32(len(table))
		table = append(table, make([]Bitboard, 1<<n)...)
		// Enumerate all subsets of mask (Carry-Rippler).
		var sub Bitboard
		for {
			idx := e.offset + uint32((uint64(sub)*e.magic)>>e.shift)
			table[idx] = slidingAttacks(sq, sub, dirs)
			sub = (sub - mask) & mask
			if sub == 0 {
				break
			}
		}
	}
	return table
}

func rookAttacks(sq Square, occ Bitboard) Bitboard {
	e := &rookMagics[sq]
	return rookTable[e.offset+uint32((uint64(occ&e.mask)*e.magic)>>e.shift)]
}

func bishopAttacks(sq Square, occ Bitboard) Bitboard {
	e := &bishopMagics[sq]
	return bishopTable[e.offset+uint32((uint64(occ&e.mask)*e.magic)>>e.shift)]
}

func queenAttacks(sq Square, occ Bitboard) Bitboard {
	return rookAttacks(sq, occ) | bishopAttacks(sq, occ)
}

// attacksOf returns the squares attacked by a piece of role r and colour c on sq.
func attacksOf(r Role, c Color, sq Square, occ Bitboard) Bitboard {
	switch r {
	case Pawn:
		return pawnAttacks[c][sq]
	case Knight:
		return knightAttacks[sq]
	case Bishop:
		return bishopAttacks(sq, occ)
	case Rook:
		return rookAttacks(sq, occ)
	case Queen:
		return queenAttacks(sq, occ)
	case King:
		return kingAttacks[sq]
	}
	return 0
}

// AttacksFrom returns the squares a piece pc on sq attacks when the board's
// occupied squares are occ (a pawn's diagonal captures; sliders stop at the
// first occupied square, which they attack). Empty for NoPiece.
func AttacksFrom(pc Piece, sq Square, occ Bitboard) Bitboard {
	if sq >= NoSquare {
		return 0
	}
	return attacksOf(pc.Role(), pc.Color(), sq, occ)
}
