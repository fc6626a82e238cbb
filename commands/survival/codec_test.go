package survival

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/storage"
)

// v0State is a Survival state as the flow stored it before the game core
// (commands.survivalState, codec version 0): users without JSON tags, the
// draw offer's three fields, and the end as prose in reason.
func v0State(fen string, moves []string, result, reason string) []byte {
	m := map[string]any{
		"start_fen": fen,
		"moves":     moves,
		"white":     map[string]any{"ID": alice.ID, "Name": alice.Name, "Bot": false},
		"black":     map[string]any{"ID": bob.ID, "Name": bob.Name, "Bot": false},
		"move_time": int64(time.Hour),
		"started":   t0,
	}
	if result != "" {
		m["result"], m["reason"] = result, reason
	}
	raw, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return raw
}

// oldResultLine is the result line the flow wrote before the game core,
// from the stored result and reason.
func oldResultLine(result, reason string) string {
	switch result {
	case "1-0":
		return fmt.Sprintf("%s (White) wins by %s.", alice.Mention(), reason)
	case "0-1":
		return fmt.Sprintf("%s (Black) wins by %s.", bob.Mention(), reason)
	}
	return fmt.Sprintf("Draw by %s.", reason)
}

// TestDecodeVersion0Ends: every end reason the old flow wrote as prose
// decodes into the typed End, whose Outcome is typed, and the game shows
// the same result line and PGN termination as before.
func TestDecodeVersion0Ends(t *testing.T) {
	t.Parallel()
	white := &storage.Outcome{Winners: []string{alice.ID}, Losers: []string{bob.ID}, Side: "white"}
	black := &storage.Outcome{Winners: []string{bob.ID}, Losers: []string{alice.ID}, Side: "black"}
	draw := &storage.Outcome{}
	for _, c := range []struct {
		fen     string
		moves   []string
		result  string
		reason  string
		end     End
		outcome *storage.Outcome
		claimed bool
	}{
		{kingsShuffle, []string{"a1a2"}, "1-0", "resignation", End{Method: storage.Resignation}, white, false},
		{kingsShuffle, []string{"a1a2", "h8g8"}, "1/2-1/2", "agreement", End{Method: storage.Agreement}, draw, false},
		{kingsShuffle, nil, "0-1", "time (the per-move limit ran out)", End{Method: storage.Time}, black, false},
		{kingsShuffle, []string{"a1a2", "h8g8", "a2a1", "g8h8", "a1a2", "h8g8", "a2a1", "g8h8"}, "1/2-1/2", "threefold repetition (claimed)",
			End{Method: storage.Repetition, Reason: "threefold repetition"}, draw, true},
		{"7k/8/8/8/8/8/8/K7 w - - 99 80", []string{"a1b1"}, "1/2-1/2", "the 50-move rule (claimed)",
			End{Method: storage.FiftyMoves, Reason: "the 50-move rule"}, draw, true},
		{"8/8/8/8/8/8/1b6/B7 w - - 0 1", []string{"a1b2"}, "1-0", "elimination of the last piece",
			End{Method: storage.Elimination, Reason: "elimination of the last piece"}, white, false},
		{"8/8/4p3/8/4P3/8/2b5/B7 w - - 0 1", []string{"e4e5"}, "1/2-1/2", "dead position (no capture is possible any more)",
			End{Method: storage.DeadPosition, Reason: "dead position (no capture is possible any more)"}, draw, false},
		// A reason no flow wrote: kept as said, the game aborted.
		{kingsShuffle, nil, "1/2-1/2", "a meteor", End{Method: storage.Aborted, Reason: "a meteor"}, draw, false},
	} {
		t.Run(c.reason, func(t *testing.T) {
			s, err := Game{}.Decode(0, v0State(c.fen, c.moves, c.result, c.reason))
			require.NoError(t, err)
			require.Equal(t, c.result, s.Result)
			require.Equal(t, &c.end, s.End)
			o, over := Game{}.Outcome(s)
			require.True(t, over)
			want := *c.outcome
			want.Method, want.Claimed = c.end.Method, c.claimed
			require.Equal(t, want, o)
			require.Equal(t, oldResultLine(c.result, c.reason), s.resultLine())

			// Shown as before: /board on the stored game.
			a, _, store := newApp(t)
			putRaw(t, store, v0State(c.fen, c.moves, c.result, c.reason), 0, false)
			r, err := a.Handle(cmd(carol, "board", "", nil))
			require.NoError(t, err)
			require.Equal(t, c.result+": "+oldResultLine(c.result, c.reason), fieldOf(r.Message, "Result"))
			pgn := fileOf(r.Message, ".pgn")
			require.NotNil(t, pgn)
			require.Contains(t, string(pgn.Data), fmt.Sprintf("[Termination %q]", c.reason))
			require.Contains(t, string(pgn.Data), fmt.Sprintf("[Result %q]", c.result))
			_, err = a.Handle(cmd(alice, "resign", "", nil))
			require.Contains(t, userMsg(t, err), "This game is over: "+oldResultLine(c.result, c.reason))

			// Encoded again, it is version 1 and says the same.
			raw, err := Game{}.Encode(s)
			require.NoError(t, err)
			var top map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(raw, &top))
			require.NotContains(t, top, "reason", "no prose at the top any more")
			require.Contains(t, top, "end")
			s1, err := Game{}.Decode(Game{}.Version(), raw)
			require.NoError(t, err)
			require.Equal(t, s.End, s1.End)
			require.Equal(t, s.resultLine(), s1.resultLine())
		})
	}
}

// TestDecodeVersion0Running: a running version-0 game, with a standing
// draw offer, plays on: the offer is still there, and the next action
// stores the state at the current version.
func TestDecodeVersion0Running(t *testing.T) {
	t.Parallel()
	var m map[string]any
	require.NoError(t, json.Unmarshal(v0State(kingsShuffle, []string{"a1a2"}, "", ""), &m))
	m["draw_offer"], m["draw_seq"], m["draw_answer"] = alice.ID, 2, "1 decline "+bob.ID
	raw, err := json.Marshal(m)
	require.NoError(t, err)

	s, err := Game{}.Decode(0, raw)
	require.NoError(t, err)
	require.Nil(t, s.End)
	require.Equal(t, []string{"a1a2"}, s.Moves)
	require.Equal(t, alice.ID, s.Offer)
	require.Equal(t, 2, s.Seq)
	require.Equal(t, "1 decline "+bob.ID, s.Answer)
	_, over := Game{}.Outcome(s)
	require.False(t, over)

	a, _, store := newApp(t)
	id := putRaw(t, store, raw, 0, true)
	r, err := a.Handle(cmd(bob, "board", "", nil))
	require.NoError(t, err)
	require.Equal(t, alice.Mention()+" offers a draw.", fieldOf(r.Message, "Draw offer"))
	r, err = a.Handle(cmd(bob, "move", "", map[string]string{"move": "Kg8"}))
	require.NoError(t, err)
	require.Contains(t, r.Content, "played **Kg8**")
	g, st := load(t, store, id)
	require.Equal(t, Game{}.Version(), g.StateVersion)
	require.Equal(t, []string{"a1a2", "h8g8"}, st.Moves)
	require.Empty(t, st.Offer, "the move lapsed the offer")
	require.Equal(t, 2, st.Seq)
	require.True(t, g.Active)
}

// TestDecodeRefusals: an unknown version, broken JSON and moves that do not
// replay are errors.
func TestDecodeRefusals(t *testing.T) {
	t.Parallel()
	good := v0State(kingsShuffle, []string{"a1a2"}, "", "")
	_, err := Game{}.Decode(Game{}.Version()+1, good)
	require.ErrorContains(t, err, "unknown Survival state version")
	_, err = Game{}.Decode(1, []byte(`{"start_fen":`))
	require.Error(t, err)
	_, err = Game{}.Decode(1, v0State(kingsShuffle, []string{"a1a3"}, "", ""))
	require.ErrorContains(t, err, "replay")
	_, err = Game{}.Decode(0, v0State("not a fen", nil, "", ""))
	require.ErrorContains(t, err, "replay")
}

// TestDecodeFixtureStates: the Survival games of the fixture database
// (written before the game core; storage/testdata/fixture-v1) decode, and
// the finished ones show the result line their stored reason gave.
func TestDecodeFixtureStates(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "storage", "testdata", "fixture-v1")
	db, err := os.ReadFile(filepath.Join(dir, "bot.db"))
	require.NoError(t, err)
	var meta struct {
		Threads map[string]string `json:"threads"`
		Results map[string]string `json:"results"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &meta))
	path := filepath.Join(t.TempDir(), "bot.db")
	require.NoError(t, os.WriteFile(path, db, 0o600))
	store, err := storage.Open(path, time.Second)
	require.NoError(t, err)
	defer store.Close()

	n := 0
	for name, thread := range meta.Threads {
		if !strings.HasPrefix(name, "survival-") {
			continue
		}
		n++
		var g *storage.Game
		require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
			var err error
			g, err = tx.Games().ByChannel(thread)
			return err
		}))
		require.Zero(t, g.StateVersion, name)
		s, err := Game{}.Decode(g.StateVersion, g.State)
		require.NoError(t, err, name)
		_, over := Game{}.Outcome(s)
		require.Equal(t, !g.Active, over, name)
		if g.Active {
			continue
		}
		var old struct {
			Result string `json:"result"`
			Reason string `json:"reason"`
		}
		require.NoError(t, json.Unmarshal(g.State, &old))
		require.Equal(t, old.Result, s.Result, name)
		line := s.resultLine()
		require.True(t, strings.HasSuffix(line, " by "+old.Reason+"."), "%s: %q from reason %q", name, line, old.Reason)
		require.Contains(t, line, meta.Results[name], name)
	}
	require.Equal(t, 3, n, "the fixture's Survival games")
}

// TestVersion2ResumesWithoutReplay: a version-2 state is resumed from its
// stored position: a history that no longer replays does not matter to a
// move (it is read only for records), and a position that disagrees with
// the history's length is refused.
func TestVersion2ResumesWithoutReplay(t *testing.T) {
	t.Parallel()
	s, err := Game{}.Decode(1, v0State(kingsShuffle, []string{"a1a2", "h8g8"}, "", ""))
	require.NoError(t, err)
	raw, err := Game{}.Encode(s)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	require.NotNil(t, m["position"], "version 2 stores the position")
	require.Equal(t, "1... Kg8", m["last_move"])

	// Corrupt the history: replaying it fails, resuming does not replay.
	m["moves"] = []string{"a1a3", "h8h1"}
	bad, err := json.Marshal(m)
	require.NoError(t, err)
	_, err = Game{}.Decode(1, bad)
	require.ErrorContains(t, err, "replay")
	got, err := Game{}.Decode(2, bad)
	require.NoError(t, err)
	require.Equal(t, s.game.Position().FEN(), got.game.Position().FEN())
	require.Equal(t, "1... Kg8", got.LastMove)
	_, san, err := got.game.PlayText("Kb3")
	require.NoError(t, err)
	require.Equal(t, "Kb3", san)

	m["moves"] = []string{"a1a2"}
	short, err := json.Marshal(m)
	require.NoError(t, err)
	_, err = Game{}.Decode(2, short)
	require.ErrorContains(t, err, "plies")
	delete(m, "position")
	none, err := json.Marshal(m)
	require.NoError(t, err)
	_, err = Game{}.Decode(2, none)
	require.ErrorContains(t, err, "without a position")
}
