package teamchess

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"sandtable/games/chess"
	"sandtable/internal/playertext"
)

// Player-facing notation (docs/rules/teamchess.md, "Notation"):
//
//	ordinary moves   SAN as in chess: e4, Nf3, exd5, O-O, Qh5+
//	Royal Guard      e8=RoyalGuard        exd8=RoyalGuard+
//	Assassin         e8=Assassin:xd4      exd8=Assassin:xa5+
//	Political Agent  e8=PoliticalAgent
//	Saboteur         e8=Saboteur:Nf6      (the opponent's forced reply, in
//	                 its own notation; a forced Saboteur names the next
//	                 reply too: e8=Saboteur:d1=Saboteur:Kh1)
//
// A check or mate mark of the sacrifice itself follows the role (and the
// Assassin's target); a Saboteur's mark comes before the colon, since the
// forced reply carries its own: e8=Saboteur+:Kf7.

// SAN returns the player-facing notation of m, a legal move in p (see the
// notation summary above). Check and mate marks consider sacrifice roles.
// For a move that is not legal in p it returns the UCI-style form.
func SAN(p *chess.Position, m Move) string {
	if !isLegal(p, m) {
		return m.UCI()
	}
	return string(appendSAN(nil, p, m))
}

// isLegal reports whether m (with its forced chain) is legal in p.
func isLegal(p *chess.Position, m Move) bool {
	if m.IsSacrifice() {
		if !validRoleForm(p, m) || !p.IsLegal(m.Board) {
			return false
		}
	} else if !p.IsLegal(m.Board) {
		return false
	}
	if m.Role() == Saboteur {
		after, _ := p.Play(m.Board)
		return m.Forced != nil && isLegal(&after, *m.Forced)
	}
	return m.Forced == nil
}

// validRoleForm checks the role rules the chess core does not know: the
// tag names a role, the role's board effect matches it, Royal Guard exactly
// when the Queen is absent.
func validRoleForm(p *chess.Position, m Move) bool {
	r := m.Role()
	_, removes := m.Board.Removed()
	placed := m.Board.Promoted()
	if (r == RoyalGuard) != queenCaptured(p) {
		return false
	}
	switch r {
	case RoyalGuard:
		return placed == chess.Queen && !removes
	case Assassin:
		return placed == chess.NoRole && removes
	case Saboteur, PoliticalAgent:
		return placed == chess.NoRole && !removes
	}
	return false
}

func appendSAN(b []byte, p *chess.Position, m Move) []byte {
	if !m.IsSacrifice() {
		s := p.SAN(m.Board)
		s = strings.TrimRight(s, "+#")
		b = append(b, s...)
		after, _ := p.Play(m.Board)
		return appendMark(b, &after)
	}
	from, to := m.Board.From(), m.Board.To()
	if p.PieceAt(to) != chess.NoPiece {
		b = append(b, byte('a'+from.File()), 'x')
	}
	b = append(b, to.String()...)
	b = append(b, '=')
	b = append(b, m.Role().Notation()...)
	if sq, ok := m.Target(); ok {
		b = append(b, ':', 'x')
		b = append(b, sq.String()...)
	}
	after, _ := p.Play(m.Board)
	b = appendMark(b, &after)
	if m.Forced != nil {
		b = append(b, ':')
		b = appendSAN(b, &after, *m.Forced)
	}
	return b
}

// appendMark appends "+" or "#" when the side to move in p is in check.
func appendMark(b []byte, p *chess.Position) []byte {
	if p.InCheck() {
		if HasLegalMove(p) {
			return append(b, '+')
		}
		return append(b, '#')
	}
	return b
}

// MoveText is one legal move with its player notation (SAN) and UCI-style
// form.
type MoveText struct {
	Move Move
	SAN  string
	UCI  string
}

// MoveTexts returns every legal move of p with its texts, sorted by SAN.
// A Saboteur appears once per forced reply; Complete is the cheap way to
// list moves matching what a player has typed.
func MoveTexts(p *chess.Position) []MoveText {
	ms := LegalMoves(p)
	out := make([]MoveText, len(ms))
	for i, m := range ms {
		out[i] = MoveText{Move: m, SAN: string(appendSAN(nil, p, m)), UCI: m.UCI()}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SAN < out[j].SAN })
	return out
}

// Complete returns at most limit legal moves of p whose SAN or UCI-style
// text starts with prefix (compared ignoring case, spaces and the marks +
// and #), in case-insensitive SAN order, then any further matches of the
// UCI-style form in its order (a prefix of two characters or more that
// starts with a square: "e2" lists that square's moves). It expands a
// Saboteur's forced replies only as far as the prefix and the limit need,
// so it stays cheap for autocomplete (Discord shows at most 25 choices).
// limit <= 0 means no limit.
func Complete(p *chess.Position, prefix string, limit int) []MoveText {
	c := completer{want: normPrefix(prefix), limit: limit}
	c.walk(p, nil, nil, nil, c.want, false)
	if c.full() || len(c.want) < 2 || !isFile(c.want[0]) || !isRank(c.want[1]) {
		return c.out // not the start of a UCI-style text (from square first)
	}
	c.walk(p, nil, nil, nil, c.want, true)
	return c.out
}

type completer struct {
	want  string
	limit int
	out   []MoveText
	seen  map[string]bool
}

func (c *completer) full() bool { return c.limit > 0 && len(c.out) >= c.limit }

func normPrefix(s string) string {
	return strings.ToLower(strings.NewReplacer(" ", "", "\t", "", "+", "", "#", "").Replace(s))
}

// compatible reports whether text (normalised) can lead to a completion of
// want: one is a prefix of the other.
func compatible(text, want string) bool {
	if len(text) >= len(want) {
		return strings.HasPrefix(text, want)
	}
	return strings.HasPrefix(want, text)
}

// walk lists p's moves in order. outer holds the Saboteur heads above p
// and sanHead/uciHead their texts; rest is the part of the prefix still to
// match; uci selects which form is matched.
func (c *completer) walk(p *chess.Position, outer []Move, sanHead, uciHead []byte, rest string, uci bool) {
	type item struct {
		m        Move
		san, key string // san: display text; key: the text matched (normalised)
		uciText  string
		sab      bool
	}
	var items []item
	for _, m := range appendLegal(p, nil, false) {
		if m.Role() == Saboteur {
			head := m
			s := string(appendSAN(nil, p, head)) + ":"
			u := string(head.appendUCI(nil)) + ":"
			it := item{m: head, san: s, uciText: u, sab: true}
			it.key = normPrefix(s)
			if uci {
				it.key = u
			}
			items = append(items, it)
			continue
		}
		s := string(appendSAN(nil, p, m))
		u := m.UCI()
		it := item{m: m, san: s, uciText: u}
		it.key = normPrefix(s)
		if uci {
			it.key = u
		}
		items = append(items, it)
	}
	sort.Slice(items, func(i, j int) bool { return items[i].key < items[j].key })
	for _, it := range items {
		if c.full() {
			return
		}
		if !compatible(it.key, rest) {
			continue
		}
		san := append(append([]byte(nil), sanHead...), it.san...)
		ut := append(append([]byte(nil), uciHead...), it.uciText...)
		if it.sab {
			after, _ := p.Play(it.m.Board)
			sub := ""
			if len(rest) > len(it.key) {
				sub = rest[len(it.key):]
			}
			c.walk(&after, append(outer, it.m), san, ut, sub, uci)
			continue
		}
		if !strings.HasPrefix(it.key, rest) {
			continue
		}
		full := it.m
		for i := len(outer) - 1; i >= 0; i-- {
			f := full
			o := outer[i]
			o.Forced = &f
			full = o
		}
		if c.seen == nil {
			c.seen = map[string]bool{}
		}
		key := string(ut)
		if c.seen[key] {
			continue
		}
		c.seen[key] = true
		c.out = append(c.out, MoveText{Move: full, SAN: string(san), UCI: key})
	}
}

// ParseMove reads a move typed by a player for the side to move in p,
// leniently: everything chess.Position.ParseMove accepts for ordinary moves
// (e4, Nf3, exd5, O-O, e2e4), and sacrifices written as the pawn move, the
// role and the role's target:
//
//	e8=Assassin:xd4  e8 assassin:d4  e7e8a:d4  exd8=A:xNa5  e8=Assa:xd4
//	e8=Saboteur:Nf6  e8=sab:g8f6  e7e8s:g8f6  e8=Saboteur:d1=Agent
//	e8=RoyalGuard  e8=Q  e8=guard  e7e8g
//	e8=PoliticalAgent  e8=Agent  e8=PA  e7e8p
//
// Roles may be written in full (any case, spaces allowed), as the letters
// g/q, a, s (and p in the UCI-style form only: in SAN, a8=P is refused,
// since a P there reads as a pawn), or as an unambiguous prefix of two
// letters or more. Errors
// are *chess.MoveError values that say which roles are possible for that
// pawn move and why the others are not; a pawn move to the last rank
// without a role is refused the same way. A refusal's Legal field names
// the legal moves when there are at most chess.MaxListed (see Listing), in
// UCI-style form when s is written so (chess.IsUCIText) and in SAN
// otherwise.
func ParseMove(p *chess.Position, s string) (Move, error) {
	s = playertext.Clean(s) // invisible characters, as the echo removes them
	m, err := parseMove(p, s, 0)
	if me, ok := err.(*chess.MoveError); ok && p.Variant() == chess.TeamChess {
		me.Legal = Listing(p, chess.IsUCIText(s))
	}
	return m, err
}

const maxMoveText = 512

func parseMove(p *chess.Position, s string, depth int) (Move, error) {
	in := strings.TrimSpace(s)
	if in == "" {
		return Move{}, moveErr(s, nil, "type a move, for example e4, Nf3, e2e4 or e8=Assassin:xd4")
	}
	if len(s) > maxMoveText {
		return Move{}, moveErr(s, nil, "%q is too long to be a move", truncate(in, 30))
	}
	if p.Variant() != chess.TeamChess {
		return Move{}, moveErr(s, nil, "not a Team Chess position")
	}
	t := strings.NewReplacer(" ", "", "\t", "", "_", "").Replace(in)
	if pat, rest, ok := parseSacrificeHead(t); ok {
		if sq := pat.to; sq.Rank() == lastRank(p.Turn()) {
			return parseSacrifice(p, in, pat, rest, depth)
		}
	}
	return parseOrdinary(p, in)
}

func parseOrdinary(p *chess.Position, in string) (Move, error) {
	m, err := p.ParseMove(in)
	if err != nil {
		return Move{}, err
	}
	if m.IsSacrifice() { // the core found a bare sacrifice: a role is missing
		return Move{}, missingRole(p, in, m)
	}
	return Move{Board: m}, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func moveErr(in string, cands []string, format string, args ...any) *chess.MoveError {
	return &chess.MoveError{Input: in, Reason: fmt.Sprintf(format, args...), Candidates: cands}
}

func lastRank(c chess.Color) int {
	if c == chess.White {
		return 7
	}
	return 0
}

// pawnPattern is the pawn-move head of a sacrifice text.
type pawnPattern struct {
	fromFile, fromRank int // -1 when not written
	to                 chess.Square
	capture            bool
}

func (pat pawnPattern) matches(m chess.Move, p *chess.Position) bool {
	if m.To() != pat.to {
		return false
	}
	if pat.fromFile >= 0 && m.From().File() != pat.fromFile {
		return false
	}
	if pat.fromRank >= 0 && m.From().Rank() != pat.fromRank {
		return false
	}
	if pat.capture && p.PieceAt(pat.to) == chess.NoPiece {
		return false
	}
	return true
}

func isFile(c byte) bool { return c >= 'a' && c <= 'h' }
func isRank(c byte) bool { return c >= '1' && c <= '8' }

// parseSacrificeHead reads a pawn move at the start of t: "e8", "exd8",
// "ed8", "e7e8", "e7-e8", "e7xd8", with an optional "P". It returns the
// rest of the text. An upper-case B is a bishop, never a pawn's file.
func parseSacrificeHead(t string) (pawnPattern, string, bool) {
	pat := pawnPattern{fromFile: -1, fromRank: -1}
	if len(t) > 0 && (t[0] == 'P' || t[0] == 'p') {
		t = t[1:]
	}
	if len(t) < 2 || t[0] == 'B' {
		return pat, "", false
	}
	low := strings.ToLower(t[:min(len(t), 6)])
	sq := func(i int) (chess.Square, bool) {
		if i+1 < len(low) && isFile(low[i]) && isRank(low[i+1]) {
			return chess.SquareAt(int(low[i]-'a'), int(low[i+1]-'1')), true
		}
		return chess.NoSquare, false
	}
	// from square, optional - or x, to square
	if from, ok := sq(0); ok {
		i := 2
		capture := false
		if i < len(low) && (low[i] == '-' || low[i] == 'x') {
			capture = low[i] == 'x'
			i++
		}
		if to, ok := sq(i); ok {
			return pawnPattern{fromFile: from.File(), fromRank: from.Rank(), to: to, capture: capture}, t[i+2:], true
		}
		return pawnPattern{fromFile: -1, fromRank: -1, to: from}, t[2:], true
	}
	// file, optional x, to square
	if isFile(low[0]) {
		i := 1
		capture := false
		if i < len(low) && low[i] == 'x' {
			capture = true
			i++
		}
		if to, ok := sq(i); ok {
			return pawnPattern{fromFile: int(low[0] - 'a'), fromRank: -1, to: to, capture: capture}, t[i+2:], true
		}
	}
	return pat, "", false
}

// stripMarks removes check marks and annotations: + # ! ?
func stripMarks(s string) string { return strings.Trim(s, "+#!?") }

func parseSacrifice(p *chess.Position, in string, pat pawnPattern, rest string, depth int) (Move, error) {
	var cands []chess.Move
	var cb [32]chess.Move
	for _, c := range p.SacrificeCandidates(cb[:0]) {
		if pat.matches(c, p) {
			cands = append(cands, c)
		}
	}
	if len(cands) == 0 {
		if stripMarks(rest) == "" { // an ordinary move such as d1d8
			return parseOrdinary(p, in)
		}
		// Let the core explain (no pawn there, blocked, nothing to capture).
		head := strings.TrimSuffix(strings.NewReplacer(" ", "", "\t", "", "_", "").Replace(in), rest)
		if _, err := p.ParseMove(head); err != nil {
			return Move{}, err
		}
		return Move{}, moveErr(in, nil, "only a pawn move to the last rank is a sacrifice with a role; %s is not one", head)
	}
	if len(cands) > 1 {
		var opts []string
		for _, c := range cands {
			opts = append(opts, sanHead(p, c))
		}
		return Move{}, moveErr(in, opts, "ambiguous: %s", strings.Join(opts, " or "))
	}
	bare := cands[0]
	rest = strings.TrimLeft(rest, "=(/")
	rest = strings.Replace(rest, ")", "", 1)
	roleText, target, hasColon := strings.Cut(rest, ":")
	roleText = stripMarks(roleText)
	if roleText == "" && !hasColon {
		// A pawn move without its role fits no move, so a lower-case b is
		// then a bishop if that is legal (docs/rules/chess.md): bxc8.
		if strings.HasPrefix(in, "b") {
			if m, err := p.ParseMove("B" + in[1:]); err == nil && !m.IsSacrifice() {
				return Move{Board: m}, nil
			}
		}
		return Move{}, missingRole(p, in, bare)
	}
	role, ok := ParseRole(roleText)
	if !ok && !hasColon {
		role, target, ok = splitCompactRole(roleText)
	}
	if ok && pat.fromRank < 0 && strings.EqualFold(strings.TrimSpace(roleText), "p") {
		// In SAN a lone P reads as a pawn, or a promotion to one: it names
		// no role there. The UCI-style letter (e7e8p) stays (ruling A5).
		return Move{}, missingRoleMsg(p, in, bare, fmt.Sprintf("in a move written in SAN the letter P names no role (it reads as a pawn): for a Political Agent write %s=PA or %s=PoliticalAgent", sanHead(p, bare), sanHead(p, bare)))
	}
	if !ok {
		if len(roleText) == 1 && strings.ContainsRune("nbrkNBRK", rune(roleText[0])) {
			return Move{}, missingRoleMsg(p, in, bare, "Team Chess has no promotion: a pawn reaching "+bare.To().String()+" is consumed in a sacrifice")
		}
		return Move{}, missingRoleMsg(p, in, bare, fmt.Sprintf("%q is not a role (the roles are Royal Guard, Assassin, Saboteur and Political Agent)", roleText))
	}
	opts := RoleOptions(p, bare)
	opt := opts[role-1]
	if !opt.Legal {
		return Move{}, moveErr(in, possibleForms(p, bare, opts), "the pawn on %s cannot be %s here: %s.%s", bare.From(), role.withArticle(), opt.Reason, possibleText(p, bare, opts))
	}
	target = strings.TrimSpace(target)
	switch role {
	case RoyalGuard, PoliticalAgent:
		if stripMarks(target) != "" {
			return Move{}, moveErr(in, nil, "a %s names no target: write %s=%s", role, sanHead(p, bare), role.Notation())
		}
		return Move{Board: sacrifice(bare, role, 0)}, nil
	case Assassin:
		return parseAssassin(p, in, bare, target)
	}
	// Saboteur
	after, _ := p.Play(sacrifice(bare, Saboteur, 0))
	them := p.Turn().Other()
	if stripMarks(target) == "" {
		return Move{}, moveErr(in, nil, "a Saboteur names %s's next move in full, for example %s:%s (%s)",
			them.Title(), sanHead(p, bare)+"=Saboteur", exampleReply(&after), plural(opt.Choices, "legal reply", "legal replies"))
	}
	if depth > 16 {
		return Move{}, moveErr(in, nil, "too many nested Saboteur moves")
	}
	f, err := parseMove(&after, target, depth+1)
	if err != nil {
		reason := err.Error()
		var cands []string
		if me, ok := err.(*chess.MoveError); ok {
			cands = me.Candidates
			reason = me.Reason // the core's listing would be in its neutral forms
			if l := Listing(&after, chess.IsUCIText(target)).String(); l != "" {
				reason += " (for " + them.Title() + ", " + l + ")"
			}
		}
		return Move{}, moveErr(in, cands, "the move forced on %s after %s=Saboteur is not legal: %s", them.Title(), sanHead(p, bare), speakOf(reason, them))
	}
	return Move{Board: sacrifice(bare, Saboteur, 0), Forced: &f}, nil
}

// secondPerson matches the words by which a refusal addresses the side
// whose move it refuses.
var secondPerson = regexp.MustCompile(`\b(?:[Yy]ou (?:cannot|must|have|are)|[Yy]our)\b`)

// speakOf rewrites a refusal written to the side to move ("e7 is occupied
// by your own pawn", "you cannot castle ...") to speak of side instead
// ("by Black's own pawn", "Black cannot castle ..."): the reason why the
// move a Saboteur forces on the opponent is illegal is shown to the player
// who wrote it, not to the opponent.
func speakOf(reason string, side chess.Color) string {
	name := side.Title()
	return secondPerson.ReplaceAllStringFunc(reason, func(w string) string {
		switch strings.ToLower(w) {
		case "your":
			return name + "'s"
		case "you have":
			return name + " has"
		case "you are":
			return name + " is"
		}
		return name + w[3:] // "you cannot", "you must"
	})
}

// splitCompactRole reads "ad4", "sg8f6", "saboteurNf6": the longest role
// alias at the start, the rest as the target.
func splitCompactRole(s string) (Role, string, bool) {
	low := strings.ToLower(s)
	best, bestLen := NoRole, 0
	for alias, r := range roleAliases {
		if len(alias) > bestLen && strings.HasPrefix(low, alias) {
			best, bestLen = r, len(alias)
		}
	}
	if best == NoRole {
		return NoRole, "", false
	}
	return best, s[bestLen:], true
}

func parseAssassin(p *chess.Position, in string, bare chess.Move, target string) (Move, error) {
	us := p.Turn()
	t := strings.ToLower(stripMarks(target))
	t = strings.ReplaceAll(t, "x", "")
	var role chess.Role
	if len(t) == 3 {
		switch t[0] {
		case 'k':
			role = chess.King
		case 'q':
			role = chess.Queen
		case 'r':
			role = chess.Rook
		case 'b':
			role = chess.Bishop
		case 'n':
			role = chess.Knight
		case 'p':
			role = chess.Pawn
		}
		if role != chess.NoRole {
			t = t[1:]
		}
	}
	head := sanHead(p, bare) + "=Assassin"
	if t == "" {
		return Move{}, moveErr(in, nil, "an Assassin names the piece it removes: write %s:x<square>, for example %s:x%s", head, head, exampleTarget(p, bare))
	}
	sq, err := chess.ParseSquare(t)
	if err != nil {
		return Move{}, moveErr(in, nil, "%q is not a square for the Assassin's target (write for example %s:x%s)", target, head, exampleTarget(p, bare))
	}
	pc := p.PieceAt(sq)
	switch {
	case pc == chess.NoPiece:
		return Move{}, moveErr(in, nil, "there is no piece on %s for the Assassin to remove", sq)
	case pc.Color() == us:
		return Move{}, moveErr(in, nil, "the %s on %s is your own; an Assassin removes an opposing piece (rule 3.2)", pc.Role(), sq)
	case pc.Role() == chess.King:
		return Move{}, moveErr(in, nil, "an Assassin cannot remove the King (rule 3.2)")
	case sq == bare.To():
		return Move{}, moveErr(in, nil, "the pawn already captures the %s on %s; the Assassin must remove another piece", pc.Role(), sq)
	case role != chess.NoRole && pc.Role() != role:
		return Move{}, moveErr(in, nil, "the piece on %s is a %s, not a %s", sq, pc.Role(), role)
	}
	m := sacrifice(bare, Assassin, sq)
	if !p.IsLegal(m) {
		return Move{}, moveErr(in, nil, "removing the %s on %s would leave your king in check", pc.Role(), sq)
	}
	return Move{Board: m}, nil
}

// sanHead is the pawn part of a sacrifice's SAN: "e8" or "exd8".
func sanHead(p *chess.Position, bare chess.Move) string {
	if p.PieceAt(bare.To()) != chess.NoPiece {
		return string([]byte{byte('a' + bare.From().File()), 'x'}) + bare.To().String()
	}
	return bare.To().String()
}

// possibleForms lists a template per legal role of the pawn move.
func possibleForms(p *chess.Position, bare chess.Move, opts []RoleOption) []string {
	head := sanHead(p, bare)
	var out []string
	for _, o := range opts {
		if !o.Legal {
			continue
		}
		switch o.Role {
		case Assassin:
			out = append(out, head+"=Assassin:x"+exampleTarget(p, bare))
		case Saboteur:
			after, _ := p.Play(sacrifice(bare, Saboteur, 0))
			out = append(out, head+"=Saboteur:"+exampleReply(&after))
		default:
			out = append(out, head+"="+o.Role.Notation())
		}
	}
	return out
}

// possibleText says which roles are possible and why the others are not.
func possibleText(p *chess.Position, bare chess.Move, opts []RoleOption) string {
	var ok []string
	for _, o := range opts {
		if o.Legal {
			ok = append(ok, o.Role.String())
		}
	}
	s := ""
	if len(ok) > 0 {
		s += " Possible roles: " + strings.Join(ok, ", ") + " (for example " + strings.Join(possibleForms(p, bare, opts), ", ") + ")."
	} else {
		s += " No role is possible, so this pawn move is illegal."
	}
	return s
}

func missingRole(p *chess.Position, in string, bare chess.Move) error {
	return missingRoleMsg(p, in, bare, fmt.Sprintf("a pawn reaching %s does not promote: it is consumed in a sacrifice and you must name its role", bare.To()))
}

func missingRoleMsg(p *chess.Position, in string, bare chess.Move, lead string) error {
	opts := RoleOptions(p, bare)
	msg := lead + "."
	forms := possibleForms(p, bare, opts)
	if len(forms) > 0 {
		msg += " Write " + joinOr(forms) + "."
	}
	if no := impossibleText(opts); no != "" {
		msg += " " + no
	}
	if len(forms) == 0 {
		msg += " So this pawn move is illegal."
	}
	return moveErr(in, forms, "%s", msg)
}

// exampleTarget names one square an Assassin may legally remove.
func exampleTarget(p *chess.Position, bare chess.Move) string {
	if sq := exampleTargetSquare(p, bare); sq != chess.NoSquare {
		return sq.String()
	}
	return "<square>"
}

// exampleReply names one legal reply (for a Saboteur's forced move),
// preferring an ordinary move; it never expands Saboteur chains.
func exampleReply(p *chess.Position) string {
	ms := appendLegal(p, nil, false)
	if len(ms) == 0 {
		return "<move>"
	}
	for _, m := range ms {
		if !m.IsSacrifice() {
			return SAN(p, m)
		}
	}
	m := ms[0]
	if m.Role() == Saboteur {
		after, _ := p.Play(m.Board)
		return string(appendSAN(nil, p, m)) + ":" + exampleReply(&after)
	}
	return SAN(p, m)
}

// impossibleText says which roles are impossible and why, one sentence per
// reason: "Assassin, Saboteur and Political Agent are impossible: your
// Queen has been captured, ...".
func impossibleText(opts []RoleOption) string {
	var reasons []string
	byReason := map[string][]string{}
	for _, o := range opts {
		if o.Legal {
			continue
		}
		if _, ok := byReason[o.Reason]; !ok {
			reasons = append(reasons, o.Reason)
		}
		byReason[o.Reason] = append(byReason[o.Reason], o.Role.String())
	}
	parts := make([]string, len(reasons))
	for i, r := range reasons {
		verb := " is"
		if len(byReason[r]) > 1 {
			verb = " are"
		}
		parts[i] = joinAnd(byReason[r]) + verb + " impossible: " + r + "."
	}
	return strings.Join(parts, " ")
}

func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// joinOr joins items as "a, b or c".
func joinOr(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
