package teamchess

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/games/chess"
	"sandtable/internal/glicko2"
	"sandtable/storage"
)

// TestTeamChessGameIsRated (ruling D28): alice and carol (White) beat bob
// and dan (Black). alice and carol made one move each: each gets half the
// change of a whole game against Black as one opponent; bob made every
// Black move and gets a whole game's change (dan none: not rated). The
// final public board announces the changes; the Team Chess leaderboard
// keeps rule 6.1's order with the rating beside it.
func TestTeamChessGameIsRated(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	g, pub, team := startGame(t, a, store, "", []commands.User{alice, carol}, []commands.User{bob, dan})
	require.False(t, g.Unrated, "rated by default")
	board := boardIn(t, a, p, pub)
	require.Contains(t, text(t, board), alice.Mention()+" (1500?)", "each commander's rating in the header")
	require.Contains(t, board.Cards[0].Footer, "· rated ·")
	for _, step := range []struct {
		u       commands.User
		ch, cmd string
		move    string
	}{
		{alice, team[chess.White], "move", "e4"},
		{bob, team[chess.Black], "move", "e5"},
		{alice, team[chess.White], "tagout", ""},
		{carol, team[chess.White], "move", "Nf3"},
	} {
		opts := map[string]string{}
		if step.move != "" {
			opts["move"] = step.move
		}
		req := in(step.u, step.ch, step.cmd, "", opts)
		var err error
		if step.cmd == "tagout" {
			_, err = commandstest.Confirm(t, a, req)
		} else {
			_, err = a.Handle(req)
		}
		require.NoError(t, err, "%s %s", step.cmd, step.move)
	}
	_, err := commandstest.Confirm(t, a, in(bob, team[chess.Black], "resign", "", nil))
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0)

	one := glicko2.Update(glicko2.New(), []glicko2.Result{glicko2.Win(glicko2.New())}, t0).Rating
	get := func(id string) *storage.PlayerRating {
		var r *storage.PlayerRating
		require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
			var err error
			r, err = tx.Ratings().Get(Kind, "g", id)
			if errors.Is(err, storage.ErrNotFound) {
				return nil
			}
			return err
		}))
		return r
	}
	require.InDelta(t, 1500+(one-1500)/2, get(alice.ID).Rating, 1e-9)
	require.InDelta(t, 1500+(one-1500)/2, get(carol.ID).Rating, 1e-9)
	require.InDelta(t, 3000-one, get(bob.ID).Rating, 1e-9)
	require.Nil(t, get(dan.ID), "no move, not rated")

	posts := p.Shown()
	var final string
	for _, s := range posts {
		if s.Channel == pub {
			final = s.Msg.Content
		}
	}
	require.Contains(t, final, "Ratings: ")
	require.Contains(t, final, "<@"+bob.ID+"> 1500? → 1338? (−162)")

	lb, err := a.Handle(commandstest.Cmd(alice, "leaderboard", "", map[string]string{"game": Kind}))
	require.NoError(t, err)
	require.Contains(t, lb.Cards[0].Title, "Team Chess leaderboard")
	require.Contains(t, lb.Cards[0].Description, "<@"+alice.ID+"> · team 1-0")
	require.Contains(t, lb.Cards[0].Description, "rating 1581?")
	require.Contains(t, lb.Cards[0].Footer, "rule 6.1")
}

// TestCasualLobby: /teamchess new casual:true opens a casual lobby; its
// game changes no rating.
func TestCasualLobby(t *testing.T) {
	t.Parallel()
	a, _, _ := newApp(t)
	r := commandstest.Cmd(alice, "teamchess", "new", nil)
	r.ChannelID = "general"
	r.Options["casual"] = commands.Option{Bool: true}
	resp, err := a.Handle(r)
	require.NoError(t, err)
	require.Contains(t, resp.Cards[0].Description, "**Casual** game")
	r = commandstest.Cmd(alice, "teamchess", "new", nil)
	r.ChannelID = "general"
	resp, err = a.Handle(r)
	require.NoError(t, err)
	require.Contains(t, resp.Cards[0].Description, "**Rated** game")
}

// TestMutualLossInStats: /stats shows a Team Chess mutual loss as a mutual
// loss, not a draw (rule 4.3; rated as a draw, ruling D28), also for a
// rating stored before it was shown so (its draw count: Team Chess has no
// draws); other games keep "D".
func TestMutualLossInStats(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	_, pub, _ := startGame(t, a, store, "", []commands.User{alice}, []commands.User{bob})
	for i, m := range []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"} {
		u := alice
		if i%2 == 1 {
			u = bob
		}
		_, err := a.Handle(in(u, pub, "move", "", map[string]string{"move": m}))
		require.NoError(t, err)
	}
	commandstest.Deliver(t, a, t0)
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
		r := storage.PlayerRating{Rating: 1500, Deviation: 300, Volatility: 0.06, Games: 3, Wins: 1, Draws: 2, Last: t0}
		return tx.Ratings().Put(Kind, "g", carol.ID, &r)
	}))
	stats := func(u commands.User) string {
		r := commandstest.Cmd(u, "stats", "", map[string]string{"game": Kind})
		r.GuildID = "g"
		resp, err := a.Handle(r)
		require.NoError(t, err)
		return text(t, resp.Message)
	}
	got := stats(alice)
	require.Contains(t, got, "0 W · 0 L · 1 mutual loss")
	require.NotContains(t, got, " D")
	require.Contains(t, got, "**lost**: a mutual loss")
	require.Contains(t, stats(carol), "1 W · 0 L · 2 mutual losses")
}

// TestStatsNamesPartners: /stats's last games name a Team Chess player's
// teammates as partners, never as opponents.
func TestStatsNamesPartners(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	_, pub, _ := startGame(t, a, store, "", []commands.User{alice, carol}, []commands.User{bob})
	r := in(alice, pub, "resign", "", nil)
	_, err := commandstest.Confirm(t, a, r)
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0)
	st := commandstest.Cmd(alice, "stats", "", map[string]string{"game": Kind})
	st.GuildID = "g"
	resp, err := a.Handle(st)
	require.NoError(t, err)
	got := text(t, resp.Message)
	require.Contains(t, got, "with "+carol.Mention())
	require.Contains(t, got, "vs "+bob.Mention())
	require.NotContains(t, got, "vs "+carol.Mention())
	require.NotContains(t, got, carol.Mention()+", "+bob.Mention())
}
