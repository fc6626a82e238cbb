package teamchess

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/games/chess"
	tc "sandtable/games/teamchess"
	"sandtable/storage"
)

func statsByID(t *testing.T, a *commands.App) map[string]tc.PlayerStats {
	t.Helper()
	stats, err := allStats(a, "g")
	require.NoError(t, err)
	out := map[string]tc.PlayerStats{}
	for _, s := range stats {
		out[s.ID] = s
	}
	return out
}

// TestTeamChessHonourAnnounced: a team's first sacrifice is announced as
// the end of its honour, but for a siege continuation's mate; its siege
// continuation is announced as an honourable mate (rule 2.1's upgrade,
// ruling 4 since issue 26); the mate is scored and recorded as an
// honourable checkmate.
func TestTeamChessHonourAnnounced(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	_, pub, _ := startGame(t, a, store, "7k/P4K2/8/6Q1/8/8/8/8 w - - 0 1", []commands.User{alice, carol}, []commands.User{bob, dan})
	play := func(u commands.User, move string) string {
		t.Helper()
		resp, err := a.Handle(in(u, pub, "move", "", map[string]string{"move": move}))
		require.NoError(t, err)
		require.True(t, resp.Ephemeral)
		return text(t, boardIn(t, a, p, pub))
	}
	require.Contains(t, play(alice, "a8=PoliticalAgent"), "White has made an 8th-rank sacrifice: its checkmate can no longer be honourable (rule 5), except one made by continuing a siege (rule 2.1).")
	play(dan, "Kh7")
	require.NotContains(t, play(alice, "Kf8"), "8th-rank sacrifice")
	play(dan, "Kh8")
	require.Contains(t, play(alice, "Qg6"), "a checkmate upgrades the win to an honourable checkmate, even after White's 8th-rank sacrifice (rule 2.1)")
	_, err := a.Handle(in(alice, pub, "siege", "continue", nil))
	require.NoError(t, err)
	require.Contains(t, text(t, boardIn(t, a, p, pub)), "declines the Siege Win and makes one more move: a checkmate upgrades the win to an honourable checkmate")
	got := play(alice, "Qh6#")
	require.Contains(t, got, "White wins by honourable checkmate")
	require.Contains(t, got, "Honourable despite White's 8th-rank sacrifice: a siege continuation's mate (rule 2.1).")
	require.NotContains(t, got, "(rule 5).", "the result names the rule that made it honourable")
	require.Contains(t, got, `[WinCategory "honourable_checkmate"]`)
	require.Equal(t, map[string]int{"honourable_checkmate": 1}, statsByID(t, a)[alice.ID].WinsBy)

	resp, err := a.Handle(in(alice, pub, "teamchess", "rules", nil))
	require.NoError(t, err)
	require.Contains(t, text(t, resp.Message), "honourable only if the mating team made no 8th-rank sacrifice in the whole game")

	// Without a sacrifice the siege prompt promises the honourable upgrade.
	_, pub, _ = startGame(t, a, store, "7k/5K2/8/6Q1/8/8/8/8 w - - 0 1", []commands.User{alice}, []commands.User{bob})
	_, err = a.Handle(in(alice, pub, "move", "", map[string]string{"move": "Qg6"}))
	require.NoError(t, err)
	require.Contains(t, text(t, boardIn(t, a, p, pub)), "a checkmate upgrades the win to an honourable checkmate")
}

// TestTeamChessOldFinishedGameKeepsItsCategory: a game finished and stored
// by the code before the honour ruling changed (engine state version 1, no
// stored result) keeps the category it was given, on its board, its
// record and its PGN, and loading it rewrites neither the game nor the
// players' records.
func TestTeamChessOldFinishedGameKeepsItsCategory(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	// Black's own Saboteur forces White's mate: honourable today (White
	// never sacrificed), dishonourable by the old ruling A9.
	g, pub, _ := startGame(t, a, store, "7k/8/6K1/8/8/8/2p5/qQ6 b - - 0 1", []commands.User{alice}, []commands.User{bob})
	_, err := a.Handle(in(bob, pub, "move", "", map[string]string{"move": "c1=Saboteur:Qb8#"}))
	require.NoError(t, err)
	resp, err := a.Handle(in(alice, pub, "move", "", map[string]string{"move": "Qb8"}))
	require.NoError(t, err)
	require.Contains(t, text(t, resp.Message), "White wins by honourable checkmate")
	require.Equal(t, map[string]int{"honourable_checkmate": 1}, statsByID(t, a)[alice.ID].WinsBy)

	// Rewrite storage as the old code left it: the state without the
	// result (and without a codec version), and the records it tallied.
	stored := commandstest.Game(t, store, g.ID)
	var st State
	require.NoError(t, json.Unmarshal(stored.State, &st))
	var es map[string]any
	require.NoError(t, json.Unmarshal(st.Game, &es))
	require.Equal(t, map[string]any{"category": "honourable_checkmate", "winner": "white"}, es["result"])
	es["version"] = 1
	delete(es, "result")
	st.Game, err = json.Marshal(es)
	require.NoError(t, err)
	stored.State, err = json.Marshal(&st)
	require.NoError(t, err)
	stored.StateVersion = 0
	old := map[string]tc.PlayerStats{
		alice.ID: {ID: alice.ID, Name: "alice", Games: 1, TeamWins: 1, PersonalWins: 1, WinsBy: map[string]int{"dishonourable_checkmate": 1}},
		bob.ID:   {ID: bob.ID, Name: "bob", Games: 1, TeamLosses: 1, PersonalLosses: 1, LossesBy: map[string]int{"dishonourable_checkmate": 1}},
	}
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
		for id, ps := range old {
			if err := tx.Records().Put(Kind, "g", id, ps); err != nil {
				return err
			}
		}
		return tx.Games().Put(stored, t0)
	}))
	before := commandstest.Game(t, store, g.ID)

	resp, err = a.Handle(in(bob, pub, "board", "", nil))
	require.NoError(t, err)
	got := text(t, resp.Message)
	require.Contains(t, got, "White wins by dishonourable checkmate")
	require.Contains(t, got, `[WinCategory "dishonourable_checkmate"]`)
	require.NotContains(t, got, "An honourable win")
	resp, err = a.Handle(in(alice, pub, "record", "", nil))
	require.NoError(t, err)
	require.Contains(t, text(t, resp.Message), "White wins by dishonourable checkmate")
	_, err = a.Handle(in(alice, pub, "resign", "", nil))
	require.Contains(t, commandstest.UserMsg(t, err), "White wins by dishonourable checkmate")
	resp, err = a.Handle(in(alice, "general", "teamchess", "stats", nil))
	require.NoError(t, err)
	require.Contains(t, text(t, resp.Message), "dishonourable checkmate: 1")

	require.Equal(t, old, statsByID(t, a), "the records stay as they were tallied")
	after := commandstest.Game(t, store, g.ID)
	require.Equal(t, before.State, after.State, "the stored game is not rewritten")
	require.Equal(t, before.Version, after.Version)
	require.Equal(t, 0, after.StateVersion)
	s := load(t, store, g.ID)
	require.Equal(t, tc.Result{Category: tc.DishonourableCheckmate, Winner: chess.White}, s.game.Result())
}
