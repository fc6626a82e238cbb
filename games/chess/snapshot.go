package chess

import (
	"errors"
	"fmt"
	"strconv"
)

// Snapshot is what a game's hot path needs to go on without replaying its
// history: the current position, the repetition keys since the last
// irreversible move, the ply count, the last move and the ending, if any.
// It is a plain JSON value; Game.Snapshot writes it and Resume reads it.
//
// Keys are Position.RepetitionKey values (fixed-seed Zobrist hashes) in
// 16 hexadecimal digits, oldest first, the last one the current
// position's: those of every position since the last capture or pawn move
// (at most HalfmoveClock+1), because no earlier position can occur again.
type Snapshot struct {
	// FEN is the current position. Its en passant field names the square
	// whenever a pawn could capture there, even when the capture is illegal
	// (a pinned pawn), so that Resume restores the Position exactly.
	FEN string `json:"fen"`
	// Keys are the repetition keys since the last irreversible move.
	Keys []string `json:"keys"`
	// Ply is the number of plies played in the whole game.
	Ply int `json:"ply"`
	// LastMove is the last move in UCI, empty before the first move, and
	// LastMoveKind its kind (omitted for a normal move), which the UCI
	// text alone does not say (an en passant capture).
	LastMove     string   `json:"last_move,omitempty"`
	LastMoveKind MoveKind `json:"last_move_kind,omitempty"`
	// Outcome is how the game ended, when it has.
	Outcome *Outcome `json:"outcome,omitempty"`
}

// SnapshotError is Resume's refusal of a corrupt or inconsistent
// snapshot: the field and what is wrong with it. Err is the cause when
// there is one (a *FENError).
type SnapshotError struct {
	Field string
	Msg   string
	Err   error
}

func (e *SnapshotError) Error() string { return "corrupt game snapshot: " + e.Field + ": " + e.Msg }

// Unwrap returns the cause, if any.
func (e *SnapshotError) Unwrap() error { return e.Err }

func snapErr(field, format string, args ...any) error {
	return &SnapshotError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Snapshot returns what Resume needs to go on with the game without its
// history. It does not change the game.
func (g *Game) Snapshot() Snapshot {
	from := max(0, len(g.keys)-1-int(g.pos.halfmove))
	s := Snapshot{
		FEN:  g.pos.fen(g.pos.ep),
		Keys: make([]string, 0, len(g.keys)-from),
		Ply:  g.Ply(),
	}
	for _, k := range g.keys[from:] {
		s.Keys = append(s.Keys, fmt.Sprintf("%016x", k))
	}
	if m, ok := g.LastMove(); ok {
		s.LastMove, s.LastMoveKind = m.UCI(), m.Kind()
	}
	if o, ok := g.Outcome(); ok {
		s.Outcome = &o
	}
	return s
}

// Resume rebuilds a game of variant v from a Snapshot without replaying
// its moves. The resumed game behaves exactly as the game the snapshot was
// taken of for Position, Play, PlayText, Status, Claims, ClaimsWithMove,
// ClaimDraw, RepetitionCount, Ply, LastMove, Outcome and Snapshot; its
// history (Moves, SANs, UCIs, PGN, Start) begins at the snapshot (see
// Game). A snapshot that is not consistent (a bad FEN, keys that do not
// end with the position's, more keys than the halfmove clock allows, a
// last move the position does not show, an outcome the position or the
// variant contradicts) is refused with a *SnapshotError.
func Resume(v Variant, s Snapshot) (*Game, error) {
	p, err := ParseFEN(v, s.FEN)
	if err != nil {
		return nil, &SnapshotError{Field: "fen", Msg: err.Error(), Err: err}
	}
	if s.Ply < 0 {
		return nil, snapErr("ply", "%d is negative", s.Ply)
	}
	keys, err := snapshotKeys(&p, s)
	if err != nil {
		return nil, err
	}
	g := &Game{start: p, pos: p, keys: keys, basePly: s.Ply}
	if s.LastMove != "" || s.LastMoveKind != Normal {
		if s.Ply == 0 {
			return nil, snapErr("last_move", "%s before the first ply", s.LastMove)
		}
		m, err := moveFromUCI(s.LastMove, s.LastMoveKind)
		if err != nil {
			return nil, snapErr("last_move", "%v", err)
		}
		if err := p.checkLastMove(m); err != nil {
			return nil, snapErr("last_move", "%s (%s): %v", s.LastMove, s.LastMoveKind, err)
		}
		g.baseLast = m
	} else if s.Ply > 0 {
		return nil, snapErr("last_move", "missing after %d plies", s.Ply)
	}
	if s.Outcome != nil {
		if err := g.resumeOutcome(*s.Outcome); err != nil {
			return nil, snapErr("outcome", "%v", err)
		}
	}
	return g, nil
}

func snapshotKeys(p *Position, s Snapshot) ([]uint64, error) {
	n := len(s.Keys)
	switch {
	case n == 0:
		return nil, snapErr("keys", "empty (the current position's key is needed)")
	case n-1 > int(p.halfmove):
		return nil, snapErr("keys", "%d positions since the last capture or pawn move, but the halfmove clock is %d", n, p.halfmove)
	case n-1 > s.Ply:
		return nil, snapErr("keys", "%d positions after %d plies", n, s.Ply)
	}
	keys := make([]uint64, n)
	for i, t := range s.Keys {
		k, err := strconv.ParseUint(t, 16, 64)
		if err != nil || len(t) != 16 {
			return nil, snapErr("keys", "%q is not 16 hexadecimal digits", t)
		}
		keys[i] = k
	}
	if keys[n-1] != p.RepetitionKey() {
		return nil, snapErr("keys", "the last key is not the position's (%016x)", p.RepetitionKey())
	}
	return keys, nil
}

// checkLastMove checks that p, the position after m, shows m: the kind is
// one the variant has and fits the squares, the origin is empty, the
// mover's piece (or nothing, for a bare sacrifice) stands on the
// destination, and a pawn move reset the halfmove clock.
func (p *Position) checkLastMove(m Move) error {
	r := p.rules()
	mover := p.turn.Other()
	from, to := m.From(), m.To()
	df, dr := to.File()-from.File(), to.Rank()-from.Rank()
	forward, lastRank := 1, 7
	if mover == Black {
		forward, lastRank = -1, 0
	}
	pc := p.board[to]
	switch k := m.Kind(); {
	case k == Sacrifice && !r.sacrifices, k == Promotion && len(r.promotions) == 0, m.IsCastle() && !r.castling:
		return errors.New("the variant has no such move")
	case k == DoublePush && (df != 0 || dr != 2*forward),
		k == EnPassant && (df*df != 1 || dr != forward || to.Rank() != 5-3*int(mover)),
		m.IsCastle() && (from.Rank() != 7-lastRank || from.File() != 4 || df*df != 4 || dr != 0),
		(k == Promotion || k == Sacrifice) && (to.Rank() != lastRank || dr != forward || df*df > 1):
		return errors.New("its squares do not fit its kind")
	case p.board[from] != NoPiece:
		return errors.New("its origin is not empty")
	case k == Sacrifice && m.Promoted() == NoRole:
		if pc != NoPiece {
			return errors.New("a bare sacrifice leaves its destination empty")
		}
	case pc == NoPiece || pc.Color() != mover:
		return errors.New("the mover's piece is not on its destination")
	case k == Promotion || k == Sacrifice:
		if pc.Role() != m.Promoted() {
			return errors.New("the promoted piece is not on its destination")
		}
	case k == DoublePush || k == EnPassant:
		if pc.Role() != Pawn {
			return errors.New("no pawn on its destination")
		}
	case m.IsCastle():
		if pc.Role() != King {
			return errors.New("no king on its destination")
		}
	}
	switch m.Kind() {
	case DoublePush, EnPassant, Promotion, Sacrifice:
		if p.halfmove != 0 {
			return fmt.Errorf("a pawn move, but the halfmove clock is %d", p.halfmove)
		}
	}
	return nil
}

// resumeOutcome checks the snapshot's ending against the position and
// records it when the board does not show it.
func (g *Game) resumeOutcome(o Outcome) error {
	if err := o.validate(); err != nil {
		return err
	}
	st := g.Status()
	r := g.pos.rules()
	switch o.Method {
	case MethodResignation:
	case MethodAgreement:
		if !r.draws {
			return fmt.Errorf("%s has no draw by agreement", r.prose)
		}
	case MethodTime:
		w, _ := r.endings.timeout(&g.pos, White)
		b, _ := r.endings.timeout(&g.pos, Black)
		if o != w && o != b {
			return fmt.Errorf("%v is not a loss on time in %s here", o, r.prose)
		}
	case MethodThreefoldRepetition:
		if !r.drawRules || g.RepetitionCount() < 3 {
			return fmt.Errorf("threefold repetition claimed, but the position has occurred %d time(s)", g.RepetitionCount())
		}
	case MethodFiftyMoveRule:
		if !r.drawRules || g.pos.halfmove < 100 {
			return fmt.Errorf("50-move rule claimed, but the halfmove clock is %d", g.pos.halfmove)
		}
	default: // a board ending: the position must show it
		if want := (Outcome{Result: st.Result, Method: st.Reason.Method()}); o != want {
			return fmt.Errorf("%v, but the position shows %v", o, st)
		}
		return nil
	}
	if st.Over() && !o.Claimed {
		return fmt.Errorf("%v, but the position had already ended the game: %v", o, st)
	}
	g.finish(o)
	return nil
}
