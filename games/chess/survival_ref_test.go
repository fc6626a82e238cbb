package chess

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"sandtable/games/chess/perfttest"
	"sandtable/internal/testkit"
)

// refBoard is a deliberately naive Survival Chess model, written apart from
// the bitboard engine, used to cross-check it: squares hold +role for White
// and -role for Black; moves are listed by walking rays square by square.
type refBoard struct {
	sq   [64]int
	turn int // +1 White, -1 Black
	ep   int // en passant target or -1
}

type refMove struct {
	from, to, promo int
	ep, double      bool
}

func (m refMove) uci() string {
	s := Square(m.from).String() + Square(m.to).String()
	if m.promo != 0 {
		s += strings.ToLower(string(Role(m.promo).Letter()))
	}
	return s
}

func refFromPosition(p *Position) refBoard {
	var r refBoard
	for s := 0; s < 64; s++ {
		pc := p.PieceAt(Square(s))
		if pc != NoPiece {
			r.sq[s] = int(pc.Role())
			if pc.Color() == Black {
				r.sq[s] = -r.sq[s]
			}
		}
	}
	r.turn = 1
	if p.Turn() == Black {
		r.turn = -1
	}
	r.ep = -1
	if e := p.EnPassantSquare(); e != NoSquare {
		r.ep = int(e)
	}
	return r
}

func onBoard(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

func (b *refBoard) moves() []refMove {
	opponent := false
	for _, v := range b.sq {
		opponent = opponent || v*b.turn < 0
	}
	if !opponent {
		return nil // the opponent has no piece left: the game is over
	}
	var caps, quiet []refMove
	add := func(m refMove, capture bool) {
		if capture {
			caps = append(caps, m)
		} else {
			quiet = append(quiet, m)
		}
	}
	for s := 0; s < 64; s++ {
		v := b.sq[s] * b.turn
		if v <= 0 {
			continue
		}
		f, r := s%8, s/8
		target := func(f2, r2 int) (int, bool, bool) { // square, empty, enemy
			t := r2*8 + f2
			return t, b.sq[t] == 0, b.sq[t]*b.turn < 0
		}
		switch Role(v) {
		case Pawn:
			dir, start, last := 1, 1, 7
			if b.turn < 0 {
				dir, start, last = -1, 6, 0
			}
			addPawn := func(to int, capture, ep bool) {
				if to/8 == last {
					for _, pr := range []int{5, 4, 3, 2, 6} {
						add(refMove{from: s, to: to, promo: pr}, capture)
					}
				} else {
					add(refMove{from: s, to: to, ep: ep}, capture)
				}
			}
			if onBoard(f, r+dir) {
				if t, empty, _ := target(f, r+dir); empty {
					addPawn(t, false, false)
					if r == start {
						if t2, empty2, _ := target(f, r+2*dir); empty2 {
							add(refMove{from: s, to: t2, double: true}, false)
						}
					}
				}
			}
			for _, df := range []int{-1, 1} {
				if !onBoard(f+df, r+dir) {
					continue
				}
				t, _, enemy := target(f+df, r+dir)
				if enemy {
					addPawn(t, true, false)
				} else if t == b.ep {
					addPawn(t, true, true)
				}
			}
		case Knight, King:
			steps := [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
			if Role(v) == King {
				steps = [][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
			}
			for _, d := range steps {
				if onBoard(f+d[0], r+d[1]) {
					t, empty, enemy := target(f+d[0], r+d[1])
					if empty || enemy {
						add(refMove{from: s, to: t}, enemy)
					}
				}
			}
		default:
			var dirs [][2]int
			if Role(v) != Bishop {
				dirs = append(dirs, [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}...)
			}
			if Role(v) != Rook {
				dirs = append(dirs, [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}...)
			}
			for _, d := range dirs {
				for k := 1; onBoard(f+k*d[0], r+k*d[1]); k++ {
					t, empty, enemy := target(f+k*d[0], r+k*d[1])
					if empty {
						add(refMove{from: s, to: t}, false)
						continue
					}
					if enemy {
						add(refMove{from: s, to: t}, true)
					}
					break
				}
			}
		}
	}
	if len(caps) > 0 {
		return caps
	}
	return quiet
}

func (b refBoard) play(m refMove) refBoard {
	v := b.sq[m.from]
	b.sq[m.from] = 0
	if m.ep {
		b.sq[m.to-8*b.turn] = 0
	}
	if m.promo != 0 {
		v = m.promo * b.turn
	}
	b.sq[m.to] = v
	b.ep = -1
	if m.double {
		b.ep = (m.from + m.to) / 2
	}
	b.turn = -b.turn
	return b
}

func (b *refBoard) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range b.moves() {
		c := b.play(m)
		n += c.perft(depth - 1)
	}
	return n
}

func refUCIs(b *refBoard) []string {
	var out []string
	for _, m := range b.moves() {
		out = append(out, m.uci())
	}
	slices.Sort(out)
	return out
}

func engineUCIs(p *Position) []string {
	var out []string
	for _, m := range p.LegalMoves() {
		out = append(out, m.UCI())
	}
	slices.Sort(out)
	return out
}

// TestSurvivalReferencePerft compares the engine with the reference on the
// Tartan Grid start and the hand-built positions.
func TestSurvivalReferencePerft(t *testing.T) {
	t.Parallel()
	depth := 5
	if !testkit.Long() {
		depth = 4
	}
	for _, c := range perfttest.Read(t, "testdata/survival.perft") {
		if c.Depth != 1 {
			continue
		}
		p, err := ParseFEN(Survival, c.FEN)
		if err != nil {
			t.Fatal(err)
		}
		r := refFromPosition(&p)
		for d := 1; d <= depth; d++ {
			if got, want := Perft(&p, d), r.perft(d); got != want {
				t.Errorf("%s perft(%d): engine %d, reference %d", c.ID, d, got, want)
			}
		}
	}
}

// TestSurvivalReferenceRandomGames plays random Survival games from the
// Tartan start and from the standard start and compares the legal move
// lists of engine and reference at every ply.
func TestSurvivalReferenceRandomGames(t *testing.T) {
	t.Parallel()
	games := 300
	if !testkit.Long() {
		games = 40
	}
	rng := rand.New(rand.NewSource(7))
	for g := 0; g < games; g++ {
		fen := TartanFEN
		if g%3 == 2 {
			fen = StandardFEN
		}
		p, err := ParseFEN(Survival, fen)
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 300; ply++ {
			r := refFromPosition(&p)
			got, want := engineUCIs(&p), refUCIs(&r)
			if !slices.Equal(got, want) {
				t.Fatalf("game %d ply %d %s:\nengine    %v\nreference %v", g, ply, p.FEN(), got, want)
			}
			if len(got) == 0 {
				break
			}
			m, err := p.ParseUCI(got[rng.Intn(len(got))])
			if err != nil {
				t.Fatal(err)
			}
			if p, err = p.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
}
