package chess

import (
	"fmt"
	"slices"
	"strings"

	"sandtable/internal/playertext"
)

// MoveError says, in words for a player, why a move text or move was not
// accepted. Candidates lists the SANs the message refers to (ambiguous
// matches, promotion choices). Legal names what is legal instead when a
// capture is mandatory or there are few legal moves (see Listing); a typed
// move's refusal by ParseMove fills it.
type MoveError struct {
	Input      string
	Reason     string
	Candidates []string
	Legal      Listing
	err        error // the cause, when there is one (a *GameOverError)
}

// Unwrap returns the cause of the refusal, if any: a *GameOverError when
// Game.Play refused a move because the game has ended.
func (e *MoveError) Unwrap() error { return e.err }

// Error returns the reason, followed by the listing when it names moves:
// "...; the only legal move is exd3", or after a reason that ends a
// sentence "... (rule 3.1). The legal moves are ...".
func (e *MoveError) Error() string {
	l := e.Legal.String()
	switch {
	case l == "":
		return e.Reason
	case strings.HasSuffix(e.Reason, "."):
		return e.Reason + " " + strings.ToUpper(l[:1]) + l[1:] + "."
	}
	return e.Reason + "; " + l
}

func moveErr(input string, cands []string, format string, args ...any) *MoveError {
	return &MoveError{Input: input, Reason: fmt.Sprintf(format, args...), Candidates: cands}
}

// sanPattern is a parsed SAN or UCI text before it is matched to a move.
type sanPattern struct {
	role       Role // NoRole: unspecified (SAN without letter means a pawn)
	from       Square
	fromFile   int // -1 when not given
	fromRank   int // -1 when not given
	to         Square
	capture    bool // an 'x' was written
	promo      Role
	promoGiven bool
	castle     MoveKind // CastleShort/CastleLong when castling was written
	uci        bool     // from and to were both given as squares
}

// ParseMove reads a move typed by a player, in SAN or UCI, leniently: it
// accepts "e4", "Nf3", "exd5", "ed5" (missing x), "e8Q", "e8=q", "e8=K"
// (Survival Chess), "0-0", "o-o-o", "O-O+", "Nxe5!?", "e2e4", "e2-e4",
// "Ng1-f3", "e7e8q", "e7e8k", "exd6 e.p.". A lower-case "b" is read as a
// pawn's file first and as a bishop if no pawn move fits. In Team Chess a
// pawn move to the last rank is written without a piece ("e8", "e7e8") and
// yields the bare Sacrifice. On failure the *MoveError says why the move is
// illegal (for example "the pawn on e2 cannot move to e5", "ambiguous: Nbd2
// or Nfd2", "that move does not capture"), and its Legal field names what
// is legal when a capture is mandatory or there are at most MaxListed legal
// moves, in UCI when s is UCI (IsUCIText) and in SAN otherwise (so that
// Error reads "that move does not capture; capture is mandatory: the legal
// captures are exd5, Nxf7"). When no reading of the text fits a legal
// move, the reason comes from the reading about a piece that could make
// that move but may not (a pinned bishop for "bd3"), rather than from one
// about a piece that is not there.
func (p *Position) ParseMove(s string) (Move, error) {
	s = playertext.Clean(s) // invisible characters, as the echo removes them
	legal := p.LegalMoves()
	m, err := p.parseMove(s, legal)
	if me, ok := err.(*MoveError); ok {
		me.Legal = p.listing(IsUCIText(s), legal)
	}
	return m, err
}

func (p *Position) parseMove(s string, legal []Move) (Move, error) {
	in := strings.TrimSpace(s)
	if in == "" {
		return NullMove, moveErr(s, nil, "type a move, for example e4, Nf3 or e2e4")
	}
	if len(in) > 24 {
		return NullMove, moveErr(s, nil, "%q is too long to be a move", in)
	}
	pats, err := parsePatterns(in, p.rules().moveHint)
	if err != nil {
		return NullMove, err
	}
	var best error
	bestRank := -1
	for _, pat := range pats {
		m, err := p.resolve(in, pat, legal)
		if err == nil {
			return m, nil
		}
		if r := p.relevance(pat); r > bestRank {
			best, bestRank = err, r
		}
	}
	return NullMove, best
}

// relevance ranks the readings of a text that no legal move fits, to
// choose whose reason to give: 2 when a piece could make the move by its
// movement but a rule forbids it (pin, check, mandatory capture), 1 when
// the piece it names is on the board (on the file or rank written), 0
// otherwise. Ties keep the earlier reading (for a lower-case b, the
// pawn's file).
func (p *Position) relevance(pat sanPattern) int {
	for _, m := range p.pseudoMoves(nil) {
		if p.matches(pat, m) && (!pat.capture || p.IsCapture(m)) {
			return 2
		}
	}
	switch {
	case pat.castle != Normal:
		return 1
	case pat.uci && pat.role == NoRole:
		if pc := p.board[pat.from]; pc != NoPiece && pc.Color() == p.turn {
			return 1
		}
		return 0
	}
	role := pat.role
	if role == NoRole {
		role = Pawn
	}
	for b := p.Pieces(p.turn, role); b != 0; b &= b - 1 {
		sq := b.First()
		if (pat.fromFile < 0 || sq.File() == pat.fromFile) && (pat.fromRank < 0 || sq.Rank() == pat.fromRank) {
			return 1
		}
	}
	return 0
}

// ParseUCI parses a strict UCI move ("e2e4", "e7e8q", "e1g1") legal in p.
func (p *Position) ParseUCI(s string) (Move, error) {
	pat, ok := parseUCIPattern(s)
	if !ok || strings.ToLower(s) != s || strings.Contains(s, "=") {
		return NullMove, moveErr(s, nil, "%q is not a UCI move (expected for example e2e4 or e7e8q)", s)
	}
	return p.resolve(s, pat, p.LegalMoves())
}

func isFile(c byte) bool { return c >= 'a' && c <= 'h' }
func isRank(c byte) bool { return c >= '1' && c <= '8' }

func parseUCIPattern(t string) (sanPattern, bool) {
	t = strings.ToLower(t)
	if len(t) < 4 || len(t) > 6 || !isFile(t[0]) || !isRank(t[1]) || !isFile(t[2]) || !isRank(t[3]) {
		return sanPattern{}, false
	}
	pat := sanPattern{
		from: SquareAt(int(t[0]-'a'), int(t[1]-'1')), to: SquareAt(int(t[2]-'a'), int(t[3]-'1')),
		fromFile: -1, fromRank: -1, uci: true,
	}
	rest := strings.TrimPrefix(t[4:], "=")
	if len(rest) > 1 {
		return sanPattern{}, false
	}
	if len(rest) == 1 {
		pat.promo = roleFromLetter(rest[0])
		pat.promoGiven = true
		if pat.promo == NoRole {
			return sanPattern{}, false
		}
	}
	return pat, true
}

// Built once: a strings.Replacer builds lookup tables (kilobytes) when it
// is created, and is safe for concurrent use.
var (
	// separators are removed from a move text: "e2-e4", "Ng1 f3".
	separators = strings.NewReplacer(" ", "", "-", "", "\t", "")
	// promotionMarks are removed before the promotion letter: "e8=Q", "e8(Q)", "e8/Q".
	promotionMarks = strings.NewReplacer("(", "", ")", "", "/", "", "=", "")
)

// parsePatterns turns the cleaned text into one or two readings; hint
// says how to write a move of the variant, for the error.
func parsePatterns(in string, hint string) ([]sanPattern, error) {
	t := in
	// Annotations and check marks.
	for len(t) > 0 && strings.ContainsRune("+#!?", rune(t[len(t)-1])) {
		t = t[:len(t)-1]
	}
	low := strings.ToLower(t)
	for _, suf := range []string{" e.p.", "e.p.", " ep", " e.p"} {
		if strings.HasSuffix(low, suf) {
			t = t[:len(t)-len(suf)]
			low = low[:len(low)-len(suf)]
			break
		}
	}
	t = separators.Replace(t)
	// Castling: O-O, 0-0, o-o (hyphens already removed).
	switch strings.ToUpper(strings.ReplaceAll(t, "0", "O")) {
	case "OO":
		return []sanPattern{{castle: CastleShort, fromFile: -1, fromRank: -1}}, nil
	case "OOO":
		return []sanPattern{{castle: CastleLong, fromFile: -1, fromRank: -1}}, nil
	}
	var pats []sanPattern
	if pat, ok := parseUCIPattern(t); ok {
		// "B2d3" is a bishop move in SAN, not the UCI move b2d3: an upper-
		// case piece letter is tried as SAN first.
		if san, ok := parseSAN(t, false); ok && t[0] == 'B' {
			return []sanPattern{san, pat}, nil
		}
		pats = append(pats, pat)
	}
	// Long algebraic with a piece letter: Ng1f3, Pe2e4.
	if len(t) >= 5 && roleFromLetter(t[0]) != NoRole && (t[0] < 'a' || t[0] > 'h') {
		if pat, ok := parseUCIPattern(t[1:]); ok {
			pat.role = roleFromLetter(t[0])
			pat.fromFile, pat.fromRank = pat.from.File(), pat.from.Rank()
			return []sanPattern{pat}, nil
		}
	}
	if pat, ok := parseSAN(t, false); ok {
		pats = append(pats, pat)
	}
	if len(t) > 0 && t[0] == 'b' {
		if pat, ok := parseSAN(t, true); ok {
			pats = append(pats, pat)
		}
	}
	if len(pats) == 0 {
		return nil, moveErr(in, nil, "%q is not a move: write it in %s", in, hint)
	}
	return pats, nil
}

// parseSAN parses t; bishopB reads a leading lower-case "b" as a bishop.
func parseSAN(t string, bishopB bool) (sanPattern, bool) {
	pat := sanPattern{fromFile: -1, fromRank: -1}
	if t == "" {
		return pat, false
	}
	c := t[0]
	switch {
	case c >= 'A' && c <= 'Z':
		pat.role = roleFromLetter(c)
		if pat.role == NoRole {
			return pat, false
		}
		t = t[1:]
	case c == 'b' && bishopB:
		pat.role = Bishop
		t = t[1:]
	case c == 'k' || c == 'q' || c == 'r' || c == 'n' || c == 'p':
		pat.role = roleFromLetter(c)
		t = t[1:]
	}
	t = strings.ToLower(t)
	// Promotion at the end: "q", "=q", "(q)", "/q".
	t = promotionMarks.Replace(t)
	if n := len(t); n > 0 && !isRank(t[n-1]) {
		r := roleFromLetter(t[n-1])
		if r == NoRole {
			return pat, false
		}
		pat.promo, pat.promoGiven = r, true
		t = t[:n-1]
	}
	if len(t) < 2 || !isFile(t[len(t)-2]) || !isRank(t[len(t)-1]) {
		return pat, false
	}
	pat.to = SquareAt(int(t[len(t)-2]-'a'), int(t[len(t)-1]-'1'))
	t = t[:len(t)-2]
	if strings.HasSuffix(t, "x") || strings.HasSuffix(t, ":") {
		pat.capture = true
		t = t[:len(t)-1]
	}
	if len(t) > 0 && isFile(t[0]) {
		pat.fromFile = int(t[0] - 'a')
		t = t[1:]
	}
	if len(t) > 0 && isRank(t[0]) {
		pat.fromRank = int(t[0] - '1')
		t = t[1:]
	}
	if t != "" {
		return pat, false
	}
	if pat.fromFile >= 0 && pat.fromRank >= 0 {
		pat.from = SquareAt(pat.fromFile, pat.fromRank)
		pat.uci = true
	}
	return pat, true
}

// matches reports whether legal move m fits the pattern (ignoring the
// capture mark and promotion, checked separately).
func (p *Position) matches(pat sanPattern, m Move) bool {
	if pat.castle != Normal {
		return m.Kind() == pat.castle
	}
	from, to := m.From(), m.To()
	if pat.uci && !pat.capture && pat.role == NoRole && pat.fromFile < 0 {
		// pure UCI; the king's two-square move is castling, and we also
		// accept king-takes-own-rook (e1h1) for castling.
		if from != pat.from {
			return false
		}
		if to == pat.to {
			return true
		}
		if m.IsCastle() && p.board[pat.to] == MakePiece(p.turn, Rook) {
			return (m.Kind() == CastleShort && pat.to == from+3) || (m.Kind() == CastleLong && pat.to == from-4)
		}
		return false
	}
	if m.IsCastle() || to != pat.to {
		return false
	}
	role := pat.role
	if role == NoRole && !pat.uci {
		role = Pawn
	}
	if role != NoRole && p.board[from].Role() != role {
		return false
	}
	if pat.fromFile >= 0 && from.File() != pat.fromFile {
		return false
	}
	if pat.fromRank >= 0 && from.Rank() != pat.fromRank {
		return false
	}
	return true
}

// resolve finds the unique legal move fitting pat, or explains why none does.
func (p *Position) resolve(in string, pat sanPattern, legal []Move) (Move, error) {
	var found []Move
	captureMismatch := false
	for _, m := range legal {
		if !p.matches(pat, m) {
			continue
		}
		if pat.capture && !p.IsCapture(m) {
			captureMismatch = true
			continue
		}
		found = append(found, m)
	}
	// Promotion choice.
	if len(found) > 0 && pat.castle == Normal {
		switch {
		case found[0].IsPromotion():
			if !pat.promoGiven {
				return NullMove, moveErr(in, p.sans(found), "a pawn reaching %s must promote: write %s", found[0].To(), joinOr(p.sans(found), 8))
			}
			var keep []Move
			for _, m := range found {
				if m.Promoted() == pat.promo {
					keep = append(keep, m)
				}
			}
			if len(keep) == 0 {
				return NullMove, p.badPromotion(in, pat.promo, found)
			}
			found = keep
		case found[0].IsSacrifice() && pat.promoGiven:
			return NullMove, moveErr(in, nil, "in Team Chess a pawn reaching the last rank does not promote: it makes a sacrificial move (write %s)", p.sans(found[:1])[0])
		case pat.promoGiven:
			return NullMove, moveErr(in, nil, "only a pawn reaching the last rank can promote")
		}
	}
	if len(found) == 1 {
		return found[0], nil
	}
	if len(found) > 1 {
		s := p.sans(found)
		return NullMove, moveErr(in, s, "ambiguous: %s", joinOr(s, 10))
	}
	return NullMove, p.explainPattern(in, pat, legal, captureMismatch)
}

func (p *Position) badPromotion(in string, r Role, found []Move) error {
	switch {
	case r == King && !slices.Contains(p.rules().promotions, King):
		return moveErr(in, p.sans(found), "a pawn cannot promote to a king in %s: choose %s", p.rules().prose, joinOr(p.sans(found), 8))
	case r == Pawn:
		return moveErr(in, p.sans(found), "a pawn cannot promote to a pawn: choose %s", joinOr(p.sans(found), 8))
	}
	return moveErr(in, p.sans(found), "a pawn can promote only to %s", joinOr(p.sans(found), 8))
}

// explainMove says why m, given as a Move rather than typed, is not legal
// in p, naming what is legal as a typed UCI move's refusal does.
func (p *Position) explainMove(m Move) error {
	in := m.UCI()
	if m.IsSacrifice() {
		if !p.rules().sacrifices {
			return moveErr(in, nil, "sacrificial moves exist only in Team Chess")
		}
		return moveErr(in, nil, "that sacrifice is not legal here: it must be a pawn move to the last rank, remove only an opposing piece other than the king, and leave your king out of check")
	}
	pat := sanPattern{from: m.From(), to: m.To(), fromFile: -1, fromRank: -1, uci: true}
	if m.IsPromotion() {
		pat.promo, pat.promoGiven = m.Promoted(), true
	}
	legal := p.LegalMoves()
	_, err := p.resolve(in, pat, legal)
	if err == nil {
		err = moveErr(in, nil, "%s is not a legal move here", in)
	}
	if me, ok := err.(*MoveError); ok {
		me.Legal = p.listing(true, legal) // a Move is named in UCI
	}
	return err
}

// explainPattern builds the message for a pattern no legal move fits.
func (p *Position) explainPattern(in string, pat sanPattern, legal []Move, captureMismatch bool) error {
	us := p.turn
	if len(legal) == 0 && p.rules().elimination && p.byColor[us.Other()] == 0 {
		return moveErr(in, nil, "the game is over: %s has no pieces left", us.Other().Title())
	}
	if len(legal) == 0 {
		return moveErr(in, nil, "%s has no legal move", us.Title())
	}
	// Pseudo-legal moves fitting the pattern: the move follows the piece's
	// movement but a rule forbids it.
	var pseudo []Move
	for _, m := range p.pseudoMoves(nil) {
		if p.matches(pat, m) && (!pat.capture || p.IsCapture(m)) {
			if pat.promoGiven && m.IsPromotion() && m.Promoted() != pat.promo {
				continue
			}
			pseudo = append(pseudo, m)
		}
	}
	if len(pseudo) > 0 {
		m := pseudo[0]
		if p.rules().mandatoryCapture {
			// Only captures are legal when any capture is; the listing
			// ParseMove adds names them.
			return moveErr(in, nil, "that move does not capture")
		}
		return moveErr(in, nil, "%s", p.whyUnsafe(m))
	}
	if pat.castle != Normal {
		return p.explainCastle(in, pat.castle)
	}
	if captureMismatch {
		return moveErr(in, nil, "there is nothing to capture on %s", pat.to)
	}
	if pat.uci && pat.role == NoRole {
		pc := p.board[pat.from]
		switch {
		case pc == NoPiece:
			return moveErr(in, nil, "there is no piece on %s", pat.from)
		case pc.Color() != us:
			return moveErr(in, nil, "the %s on %s is %s's; it is %s's move", pc.Role(), pat.from, pc.Color().Title(), us.Title())
		case pc.Role() == King && p.rules().castling && (pat.to == pat.from+2 || pat.to+2 == pat.from) && pat.from.Rank() == pat.to.Rank():
			kind := CastleShort
			if pat.to < pat.from {
				kind = CastleLong
			}
			return p.explainCastle(in, kind)
		}
		if pat.promoGiven && pc.Role() != Pawn {
			return moveErr(in, nil, "only a pawn reaching the last rank can promote")
		}
		return moveErr(in, nil, "the %s on %s cannot move to %s%s", pc.Role(), pat.from, pat.to, p.hintTo(pat.to, legal))
	}
	role := pat.role
	if role == NoRole {
		role = Pawn
	}
	if p.Pieces(us, role) == 0 {
		return moveErr(in, nil, "%s has no %s%s", us.Title(), plural(role), p.hintTo(pat.to, legal))
	}
	if pc := p.board[pat.to]; pc != NoPiece && pc.Color() == us {
		return moveErr(in, nil, "%s is occupied by your own %s", pat.to, pc.Role())
	}
	which := "no " + role.String()
	switch {
	case pat.fromFile >= 0 && pat.fromRank >= 0:
		which = "no " + role.String() + " on " + SquareAt(pat.fromFile, pat.fromRank).String()
	case pat.fromFile >= 0:
		which = "no " + role.String() + " on the " + string(rune('a'+pat.fromFile)) + "-file"
	case pat.fromRank >= 0:
		which = "no " + role.String() + " on rank " + string(rune('1'+pat.fromRank))
	}
	verb := "move to"
	if pat.capture {
		verb = "capture on"
	}
	anyTo := false
	for _, m := range legal {
		if m.To() == pat.to && !m.IsCastle() {
			anyTo = true
		}
	}
	if !anyTo && pat.fromFile < 0 && pat.fromRank < 0 && pat.role == NoRole {
		return moveErr(in, nil, "no piece can %s %s", verb, pat.to)
	}
	return moveErr(in, nil, "%s can %s %s%s", which, verb, pat.to, p.hintTo(pat.to, legal))
}

// hintTo lists the legal moves reaching sq, as a suffix for messages.
func (p *Position) hintTo(sq Square, legal []Move) string {
	var to []Move
	for _, m := range legal {
		if m.To() == sq && !m.IsCastle() {
			to = append(to, m)
		}
	}
	if len(to) == 0 {
		return ""
	}
	return " (legal moves to " + sq.String() + ": " + joinList(p.sans(to), 8) + ")"
}

func plural(r Role) string {
	if r == Pawn {
		return "pawns"
	}
	return r.String()
}

// whyUnsafe explains why the pseudo-legal move m is illegal in a variant
// with check: it would leave or put the mover's king in check.
func (p *Position) whyUnsafe(m Move) string {
	ksq, _ := p.KingSquare(p.turn)
	them := p.turn.Other()
	inCheck := p.InCheck()
	pc := p.board[m.From()]
	switch {
	case m.IsCastle():
		if inCheck {
			return "you cannot castle while your king is in check"
		}
		step := 1
		if m.Kind() == CastleLong {
			step = -1
		}
		for _, sq := range []Square{Square(int(ksq) + step), Square(int(ksq) + 2*step)} {
			if p.attacked(sq, them, p.occupied()) {
				return fmt.Sprintf("you cannot castle through or into check: %s is attacked", sq)
			}
		}
	case pc.Role() == King:
		return fmt.Sprintf("the king cannot move to %s: it would be in check there", m.To())
	case m.IsSacrifice():
		return "that sacrifice would leave your king in check"
	case inCheck:
		return fmt.Sprintf("your king on %s is in check, and that move does not end the check", ksq)
	case m.Kind() == EnPassant:
		return "that en passant capture would expose your king to check"
	default:
		return fmt.Sprintf("the %s on %s is pinned: moving it would expose your king to check", pc.Role(), m.From())
	}
	return "that move would leave your king in check"
}

func (p *Position) explainCastle(in string, kind MoveKind) error {
	us := p.turn
	if !p.rules().castling {
		return moveErr(in, nil, "there is no castling in %s", p.rules().prose)
	}
	side, right, rook := "kingside", WhiteKingside, H1
	if kind == CastleLong {
		side, right, rook = "queenside", WhiteQueenside, A1
	}
	home := E1
	if us == Black {
		right <<= 2
		rook += 56
		home = E8
	}
	if p.castling&right == 0 {
		return moveErr(in, nil, "%s can no longer castle %s: the king or that rook has moved (or the rook was captured)", us.Title(), side)
	}
	if betweenBB[home][rook]&p.occupied() != 0 {
		return moveErr(in, nil, "cannot castle %s: the squares between the king and the rook must be empty", side)
	}
	return moveErr(in, nil, "cannot castle %s here", side)
}
