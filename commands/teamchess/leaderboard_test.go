package teamchess

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	tc "sandtable/games/teamchess"
	"sandtable/storage"
)

// TestLeaderboardKeepsRule61: /teamchess leaderboard lists the first 15
// players in rule 6.1's order (games/teamchess.Rank over every record,
// ties of each part included), with each listed player's rating beside
// and nobody else's; the invoker's private rank and /teamchess stats count
// every player. (The same test passes on the code before the index.)
func TestLeaderboardKeepsRule61(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	rng := rand.New(rand.NewPCG(61, 1))
	names := []string{"Ann", "ann", "anna", "Bob", "bob b", "Zed"}
	var all []tc.PlayerStats
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
		for i := range 40 {
			ps := tc.PlayerStats{ID: fmt.Sprint(200000 + i), Name: names[rng.IntN(len(names))], TeamWins: rng.IntN(3),
				PersonalWins: rng.IntN(5), PersonalLosses: rng.IntN(3)}
			ps.Games = ps.TeamWins + 1
			ps.TeamLosses = 1
			all = append(all, ps)
			if err := tx.Records().Put(Kind, "g", ps.ID, &ps); err != nil {
				return err
			}
			if i%2 == 0 {
				r := &storage.PlayerRating{Rating: 1400 + float64(i), Deviation: 60, Volatility: 0.06, Last: t0, Games: 3}
				if err := tx.Ratings().Put(Kind, "g", ps.ID, r); err != nil {
					return err
				}
			}
		}
		return nil
	}))
	want := tc.Rank(all)
	for _, who := range []int{0, 20, 39} {
		me := want[who]
		r, err := a.Handle(commandstest.Cmd(commands.User{ID: me.ID, Name: me.Name}, "teamchess", "leaderboard", nil))
		require.NoError(t, err)
		lines := strings.Split(r.Cards[0].Description, "\n")
		require.Len(t, lines, 15)
		for i, line := range lines {
			ps := want[i]
			require.True(t, strings.HasPrefix(line, fmt.Sprintf("**%d.** <@%s> · team %d-%d · personal %d-%d", i+1, ps.ID,
				ps.TeamWins, ps.TeamLosses, ps.PersonalWins, ps.PersonalLosses)), "line %d: %s", i+1, line)
			n := 0
			fmt.Sscan(ps.ID[len(ps.ID)-2:], &n)
			require.Equal(t, n%2 == 0, strings.Contains(line, fmt.Sprintf("· rating %d", 1400+n)), line)
		}
		require.Contains(t, r.PrivateNote.Content, fmt.Sprintf("Your rank: %d of 40", who+1))

		st, err := a.Handle(commandstest.Cmd(commands.User{ID: me.ID, Name: me.Name}, "teamchess", "stats", nil))
		require.NoError(t, err)
		require.Equal(t, fmt.Sprintf("%d of 40", who+1), st.Cards[0].Fields[0].Value)
	}
}
