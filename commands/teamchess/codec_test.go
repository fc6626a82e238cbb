package teamchess

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/games/chess"
	"sandtable/storage"
)

// rewriteStored changes the stored state of game id (as JSON maps: the
// flow's state and the engine's state in it) and saves it back.
func rewriteStored(t *testing.T, store storage.Store, id string, change func(st, engine map[string]any)) []byte {
	t.Helper()
	g := commandstest.Game(t, store, id)
	var st, engine map[string]any
	require.NoError(t, json.Unmarshal(g.State, &st))
	raw, err := json.Marshal(st["game"])
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &engine))
	change(st, engine)
	st["game"] = engine
	g.State, err = json.Marshal(st)
	require.NoError(t, err)
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error { return tx.Games().Put(g, t0) }))
	return g.State
}

// TestVersion2ResumesWithoutReplay: a stored game is resumed from its
// engine snapshot: a history that no longer replays does not matter to a
// move (it is replayed only for the whole record), and a snapshot that
// disagrees with the history's length, or its absence, is refused.
func TestVersion2ResumesWithoutReplay(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	g, pub, _ := startGame(t, a, store, "", []commands.User{alice}, []commands.User{bob})
	play := func(u commands.User, move string) (*commands.Response, error) {
		return a.Handle(in(u, pub, "move", "", map[string]string{"move": move}))
	}
	for _, m := range []struct {
		u    commands.User
		move string
	}{{alice, "e4"}, {bob, "e5"}} {
		_, err := play(m.u, m.move)
		require.NoError(t, err)
	}
	stored := commandstest.Game(t, store, g.ID)
	require.Equal(t, 2, stored.StateVersion)
	var m map[string]any
	require.NoError(t, json.Unmarshal(stored.State, &m))
	require.NotNil(t, m["position"], "version 2 stores the snapshot")

	// Corrupt the history: replaying it fails, resuming does not replay.
	bad := rewriteStored(t, store, g.ID, func(_, engine map[string]any) {
		engine["actions"].([]any)[0].(map[string]any)["move"] = "e2e5"
	})
	_, err := Game{}.Decode(1, bad)
	require.ErrorContains(t, err, "replay")
	resp, err := play(alice, "Nf3")
	require.NoError(t, err)
	require.Contains(t, text(t, resp.Message), "**alice** (White) played **Nf3**")
	req := in(bob, pub, "move", "", map[string]string{"move": "Nc"})
	req.Type, req.Focused = commands.AutocompleteRequest, "move"
	resp, err = a.Handle(req)
	require.NoError(t, err)
	require.NotEmpty(t, resp.Choices, "autocomplete resumes too")
	s := load(t, store, g.ID)
	require.Equal(t, 3, s.game.ActionCount())
	require.Equal(t, "e2e5", s.game.State().Actions[0].Move, "the history is kept as stored")
	// The whole record needs the replay, which now fails.
	_, err = a.Handle(in(bob, pub, "record", "", nil))
	require.ErrorContains(t, err, "replay")

	// A snapshot that disagrees with the history's length is refused.
	rewriteStored(t, store, g.ID, func(_, engine map[string]any) {
		engine["actions"] = engine["actions"].([]any)[:2]
	})
	_, err = play(bob, "Nc6")
	var se *chess.SnapshotError
	require.ErrorAs(t, err, &se)
	require.Equal(t, "actions", se.Field)
	stored = commandstest.Game(t, store, g.ID)
	_, err = Game{}.Decode(2, stored.State)
	require.ErrorContains(t, err, "3 actions, but the stored state has 2")

	none := rewriteStored(t, store, g.ID, func(st, _ map[string]any) { delete(st, "position") })
	_, err = Game{}.Decode(2, none)
	require.ErrorContains(t, err, "without a position")
}

// TestResumedGameKnowsEarlierSacrifices: a team's second sacrifice is not
// announced as its first, though its first is older than the resumed
// record (the flow asks the engine whether the team had sacrificed,
// instead of searching the record).
func TestResumedGameKnowsEarlierSacrifices(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	_, pub, _ := startGame(t, a, store, "1n2k1n1/PP4PP/8/3q4/3Q4/8/pp4pp/1N2K1N1 w - - 0 1", []commands.User{alice}, []commands.User{bob})
	play := func(u commands.User, move string) string {
		t.Helper()
		resp, err := a.Handle(in(u, pub, "move", "", map[string]string{"move": move}))
		require.NoError(t, err)
		return text(t, resp.Message)
	}
	const first = "White has made an 8th-rank sacrifice"
	require.Contains(t, play(alice, "a8=Assassin:xd5"), first)
	play(bob, "Nc6")
	got := play(alice, "h8=Assassin:xa2")
	require.Contains(t, got, "consumed as an **Assassin**")
	require.NotContains(t, got, first)
}

// TestResumedGameRecordsTheWholeGame: /record and the final PGN of a game
// resumed at every move hold every move from the first, not only those
// since the last save.
func TestResumedGameRecordsTheWholeGame(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	_, pub, _ := startGame(t, a, store, "", []commands.User{alice}, []commands.User{bob})
	moves := []struct {
		u    commands.User
		move string
	}{{alice, "e4"}, {bob, "e5"}, {alice, "Qh5"}, {bob, "Nc6"}, {alice, "Bc4"}, {bob, "Nf6"}}
	for _, m := range moves {
		_, err := a.Handle(in(m.u, pub, "move", "", map[string]string{"move": m.move}))
		require.NoError(t, err)
	}
	resp, err := a.Handle(in(bob, pub, "record", "", nil))
	require.NoError(t, err)
	rec := string(resp.Files[0].Data)
	require.Equal(t, len(moves), strings.Count(rec, "\n"), rec)
	require.Contains(t, rec, "1. White (alice): e4")

	_, err = a.Handle(in(alice, pub, "move", "", map[string]string{"move": "Qxf7#"}))
	require.NoError(t, err)
	pgn := text(t, boardIn(t, a, p, pub))
	require.Contains(t, pgn, "White wins by honourable checkmate")
	require.Contains(t, pgn, "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#")
}
