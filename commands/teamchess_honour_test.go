package commands

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/games/chess"
	"sandtable/games/teamchess"
	"sandtable/storage"
)

// tcText is everything a Team Chess message says: content, embed
// descriptions and fields, and the text files (PGN, record) attached.
func tcText(t *testing.T, m Message) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(m.Content + "\n")
	for _, e := range m.Cards {
		b.WriteString(e.Description + "\n")
		for _, f := range e.Fields {
			b.WriteString(f.Name + ": " + f.Value + "\n")
		}
	}
	for _, f := range m.Files {
		if strings.HasSuffix(f.Name, ".pgn") || strings.HasSuffix(f.Name, ".txt") {
			b.Write(f.Data)
		}
	}
	return b.String()
}

func tcStatsByID(t *testing.T, a *App) map[string]teamchess.PlayerStats {
	t.Helper()
	stats, err := a.tcGuildStats("g")
	require.NoError(t, err)
	out := map[string]teamchess.PlayerStats{}
	for _, s := range stats {
		out[s.ID] = s
	}
	return out
}

// TestTeamChessHonourAnnounced: a team's first sacrifice is announced as
// the end of its honour; its siege continuation is announced as a
// dishonourable mate (rule 2.1's upgrade, rule 5); the mate is scored and
// recorded as a dishonourable checkmate (ruling 6).
func TestTeamChessHonourAnnounced(t *testing.T) {
	a, p := testApp(t)
	_, pub, _ := tcTestGame(t, a, p, "7k/P4K2/8/6Q1/8/8/8/8 w - - 0 1", []User{alice, carol}, []User{bob, tcDan})
	play := func(u User, move string) string {
		t.Helper()
		resp, err := a.Handle(tcCmd(u, pub, "move", "", map[string]string{"move": move}))
		require.NoError(t, err)
		return tcText(t, resp.Message)
	}
	require.Contains(t, play(alice, "a8=PoliticalAgent"), "White has made an 8th-rank sacrifice: its checkmate can no longer be honourable (rule 5).")
	play(tcDan, "Kh7")
	require.NotContains(t, play(alice, "Kf8"), "8th-rank sacrifice")
	play(tcDan, "Kh8")
	require.Contains(t, play(alice, "Qg6"), "a checkmate wins, as a dishonourable checkmate since White has made an 8th-rank sacrifice (rule 5)")
	resp, err := a.Handle(tcCmd(alice, pub, "siege", "continue", nil))
	require.NoError(t, err)
	require.Contains(t, tcText(t, resp.Message), "declines the Siege Win and makes one more move: a checkmate wins, as a dishonourable checkmate")
	text := play(alice, "Qh6#")
	require.Contains(t, text, "White wins by dishonourable checkmate")
	require.Contains(t, text, `[WinCategory "dishonourable_checkmate"]`)
	require.Equal(t, map[string]int{"dishonourable_checkmate": 1}, tcStatsByID(t, a)[alice.ID].WinsBy)

	resp, err = a.Handle(tcCmd(alice, pub, "teamchess", "rules", nil))
	require.NoError(t, err)
	require.Contains(t, tcText(t, resp.Message), "honourable only if the mating team made no 8th-rank sacrifice in the whole game")

	// Without a sacrifice the siege prompt promises the honourable upgrade.
	_, pub, _ = tcTestGame(t, a, p, "7k/5K2/8/6Q1/8/8/8/8 w - - 0 1", []User{alice}, []User{bob})
	resp, err = a.Handle(tcCmd(alice, pub, "move", "", map[string]string{"move": "Qg6"}))
	require.NoError(t, err)
	require.Contains(t, tcText(t, resp.Message), "a checkmate upgrades the win to an honourable checkmate")
}

// TestTeamChessOldFinishedGameKeepsItsCategory: a game finished and stored
// by the code before the honour ruling changed (state version 1, no
// stored result) keeps the category it was given, on its board, its
// record and its PGN, and loading it rewrites neither the game nor the
// players' records.
func TestTeamChessOldFinishedGameKeepsItsCategory(t *testing.T) {
	a, p := testApp(t)
	// Black's own Saboteur forces White's mate: honourable today (White
	// never sacrificed), dishonourable by the old ruling A9.
	g, pub, _ := tcTestGame(t, a, p, "7k/8/6K1/8/8/8/2p5/qQ6 b - - 0 1", []User{alice}, []User{bob})
	_, err := a.Handle(tcCmd(bob, pub, "move", "", map[string]string{"move": "c1=Saboteur:Qb8#"}))
	require.NoError(t, err)
	resp, err := a.Handle(tcCmd(alice, pub, "move", "", map[string]string{"move": "Qb8"}))
	require.NoError(t, err)
	require.Contains(t, tcText(t, resp.Message), "White wins by honourable checkmate")
	require.Equal(t, map[string]int{"honourable_checkmate": 1}, tcStatsByID(t, a)[alice.ID].WinsBy)

	// Rewrite storage as the old code left it: the state without the
	// result, and the records it tallied.
	stored, err := a.snapshot(g.ID)
	require.NoError(t, err)
	var st tcState
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
	old := map[string]teamchess.PlayerStats{
		alice.ID: {ID: alice.ID, Name: "alice", Games: 1, TeamWins: 1, PersonalWins: 1, WinsBy: map[string]int{"dishonourable_checkmate": 1}},
		bob.ID:   {ID: bob.ID, Name: "bob", Games: 1, TeamLosses: 1, PersonalLosses: 1, LossesBy: map[string]int{"dishonourable_checkmate": 1}},
	}
	require.NoError(t, a.update(func(tx storage.Tx) error {
		for id, ps := range old {
			if err := tx.Records().Put(kindTeamChess, "g", id, ps); err != nil {
				return err
			}
		}
		return tx.Games().Put(stored, t0)
	}))
	before, err := a.snapshot(g.ID)
	require.NoError(t, err)

	resp, err = a.Handle(tcCmd(bob, pub, "board", "", nil))
	require.NoError(t, err)
	text := tcText(t, resp.Message)
	require.Contains(t, text, "White wins by dishonourable checkmate")
	require.Contains(t, text, `[WinCategory "dishonourable_checkmate"]`)
	require.NotContains(t, text, "An honourable win")
	resp, err = a.Handle(tcCmd(alice, pub, "record", "", nil))
	require.NoError(t, err)
	require.Contains(t, tcText(t, resp.Message), "White wins by dishonourable checkmate")
	_, err = a.Handle(tcCmd(alice, pub, "resign", "", nil))
	require.Contains(t, userMsg(t, err), "White wins by dishonourable checkmate")
	resp, err = a.Handle(tcCmd(alice, "general", "teamchess", "stats", nil))
	require.NoError(t, err)
	require.Contains(t, tcText(t, resp.Message), "dishonourable checkmate: 1")

	require.Equal(t, old, tcStatsByID(t, a), "the records stay as they were tallied")
	after, err := a.snapshot(g.ID)
	require.NoError(t, err)
	require.Equal(t, before.State, after.State, "the stored game is not rewritten")
	require.Equal(t, before.Version, after.Version)
	tg := tcLoad(t, a, g.ID)
	require.Equal(t, teamchess.Result{Category: teamchess.DishonourableCheckmate, Winner: chess.White}, tg.game.Result())
}
