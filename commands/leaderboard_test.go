package commands_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/storage"
)

// TestLeaderboardEstablishedFirst: /leaderboard lists the established
// ratings first, by rating, then the provisional ones ("?"), by rating;
// a rating whose deviation has grown past 110 since its last game (400
// days idle) moves to the provisional group at the time of the question,
// not when it was written; /stats and the invoker's private line give the
// same ranks; the list stops at 15 players while the ranks count them all.
func TestLeaderboardEstablishedFirst(t *testing.T) {
	t.Parallel()
	a, _, mem := ratingApp(t)
	t0 := commandstest.T0
	put := func(u string, r, rd float64, last time.Time) {
		require.NoError(t, mem.Update(t.Context(), func(tx storage.Tx) error {
			return tx.Ratings().Put("ttt", "g", u, &storage.PlayerRating{Rating: r, Deviation: rd, Volatility: 0.06, Last: last, Games: 10})
		}))
	}
	put("est1700", 1700, 60, t0.Add(-24*time.Hour))
	put("est1650", 1650, 70, t0.Add(-time.Hour))
	put("new1900", 1900, 200, t0.Add(-time.Hour))
	put("idle1800", 1800, 50, t0.Add(-500*24*time.Hour)) // 50 grown past 110 after about 412 days
	put("est1800", 1800, 95, t0.Add(-100*24*time.Hour))  // turns provisional about 32 days later
	for i := range 15 {
		put(fmt.Sprintf("low%02d", i), 1000+float64(i), 300, t0)
	}
	order := func(now time.Time, who commands.User) ([]string, string) {
		r := commandstest.Cmd(who, "leaderboard", "", map[string]string{"game": "ttt"})
		r.Now = now
		lb, err := a.Handle(r)
		require.NoError(t, err)
		var users []string
		for i, line := range strings.Split(lb.Cards[0].Description, "\n") {
			require.True(t, strings.HasPrefix(line, fmt.Sprintf("**%d.** <@", i+1)), line)
			u := line[strings.Index(line, "<@")+2 : strings.Index(line, ">")]
			if strings.Contains(line, "?") {
				u += "?"
			}
			users = append(users, u)
		}
		return users, lb.PrivateNote.Content
	}
	got, note := order(t0, commands.User{ID: "idle1800"})
	require.Equal(t, []string{"est1800", "est1700", "est1650", "new1900?", "idle1800?",
		"low14?", "low13?", "low12?", "low11?", "low10?", "low09?", "low08?", "low07?", "low06?", "low05?"}, got)
	require.Contains(t, note, "Your rank in Tic-tac-toe: 5 of 20")
	_, note = order(t0, commands.User{ID: "low00"})
	require.Contains(t, note, "Your rank in Tic-tac-toe: 20 of 20")
	later := t0.Add(40 * 24 * time.Hour)
	got, note = order(later, commands.User{ID: "est1800"})
	require.Equal(t, []string{"est1700", "est1650", "new1900?", "idle1800?", "est1800?"}, got[:5], "rating, then the lower deviation")
	require.Contains(t, note, "Your rank in Tic-tac-toe: 5 of 20")

	st := commandstest.Cmd(commandstest.Alice, "stats", "", map[string]string{"game": "ttt"})
	st.Options["user"] = commands.Option{User: &commands.User{ID: "est1800", Name: "e"}}
	st.Now = later
	sr, err := a.Handle(st)
	require.NoError(t, err)
	require.Contains(t, sr.Cards[0].Fields[0].Value, "rank 5 of 20")
	st.Now = t0
	sr, err = a.Handle(st)
	require.NoError(t, err)
	require.Contains(t, sr.Cards[0].Fields[0].Value, "rank 1 of 20")
}
