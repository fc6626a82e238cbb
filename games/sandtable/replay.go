package sandtable

import "fmt"

// Replay rebuilds a game's history: it applies the actions recorded in
// log, the turn log that follows start (every EntryAction entry's
// Notation, secret Drone orders included, in order; Deployment entries
// are skipped, as no action there follows a start taken after the
// reveal), to a copy of start and returns the position after the last
// action of turn upTo, the board as it stood when turn upTo+1 began (its
// PreTurn resolved). An upTo below start's turn returns a copy of start;
// one past the log's last turn returns the position after the whole log.
//
// An action that does not apply returns an error naming it: the log does
// not follow from start. The positions returned hold every secret; show a
// viewer their View.
func Replay(start *Position, log []Entry, upTo int) (*Position, error) {
	if start.redacted {
		return nil, fmt.Errorf("cannot replay on a redacted view")
	}
	p := start.Clone()
	for i, e := range log {
		if e.Kind != EntryAction || e.Phase == PhaseDeployment {
			continue
		}
		if e.Turn > upTo {
			break
		}
		if e.Turn < p.turn {
			return nil, fmt.Errorf("log entry %d (%s) is of turn %d, before the position's turn %d: the log does not follow from this position", i+1, quote(e.Notation), e.Turn, p.turn)
		}
		if _, err := p.applyNotation(e.Notation); err != nil {
			return nil, fmt.Errorf("log entry %d, turn %d action %s does not apply: %w", i+1, e.Turn, quote(e.Notation), err)
		}
	}
	return p, nil
}
