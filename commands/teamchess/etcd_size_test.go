package teamchess

import (
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/games/chess"
	"sandtable/internal/etcdtest"
	"sandtable/storage"
)

// teamW and teamB are large teams whose game's end fits one etcd
// transaction of 128 operations (the end writes about 6 keys per rated
// player: a 10 v 10 end does not fit, see TestLargeGameStartFitsEtcd).
const teamW, teamB = 8, 7

// TestLargeGameStartFitsEtcd: a 10 v 10 lobby, the largest a lobby takes,
// starts on etcd within half of etcd's default 128 operations per
// transaction, and every player is added to the public thread and to
// their team's. Each member added was an effect of its own (envelope, body
// and claim: 3 keys): the start of 8 v 8 was 133 writes and refused.
func TestLargeGameStartFitsEtcd(t *testing.T) {
	t.Parallel()
	cluster := etcdtest.Start(t)
	store, err := storage.OpenEtcd(t.Context(), storage.EtcdOptions{Endpoints: cluster.Endpoints()})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	p := commandstest.NewPlatform()
	a := commands.New(store, p, commands.Settings{BoardSize: 320, MoveTime: 24 * time.Hour, ChallengeTTL: time.Hour, LobbyTTL: 24 * time.Hour},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	a.Now = func() time.Time { return t0 }
	a.AnswerCopies, a.DeliverInline = false, false
	a.SetSelf(commandstest.Computer.ID)
	t.Cleanup(a.StopComputers)
	Register(a)
	const n = 10
	var teams [2][]commands.User
	var all []string
	for side := range teams {
		for i := range n {
			u := commands.User{ID: fmt.Sprint(400000 + 1000*side + i), Name: fmt.Sprint("p", side, "-", i)}
			teams[side] = append(teams[side], u)
			all = append(all, u.ID)
		}
	}
	g, pub, team := startGame(t, a, store, "", teams[0], teams[1])
	require.True(t, g.Active)
	require.Len(t, g.Players, 2*n)
	ops, size := store.Largest()
	t.Logf("largest transaction: %d writes, %d bytes", ops, size)
	require.LessOrEqual(t, ops, 64, "the start's transaction leaves etcd's 128 operations a margin")
	require.ElementsMatch(t, all, p.Members[pub])
	s := load(t, store, g.ID)
	for side, th := range team {
		require.NotEmpty(t, s.InThread[side])
		require.ElementsMatch(t, s.InThread[side], p.Members[th], "team thread %d", side)
	}
}

// TestLargeGameEndFitsEtcd: the end of an 8 v 7 game in which every
// commander moved, whose players all have ratings and records already,
// rates and tallies all 15 in one etcd transaction within etcd's default
// 128 operations, the ratings' ranking keys included (a ranking index of
// the records too would not fit: 140 writes at 7 v 7).
func TestLargeGameEndFitsEtcd(t *testing.T) {
	t.Parallel()
	cluster := etcdtest.Start(t)
	store, err := storage.OpenEtcd(t.Context(), storage.EtcdOptions{Endpoints: cluster.Endpoints()})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	a := commands.New(store, commandstest.NewPlatform(), commands.Settings{BoardSize: 320, MoveTime: 24 * time.Hour, ChallengeTTL: time.Hour, LobbyTTL: 24 * time.Hour},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	a.Now = func() time.Time { return t0 }
	a.AnswerCopies, a.DeliverInline = false, false
	a.SetSelf(commandstest.Computer.ID)
	t.Cleanup(a.StopComputers)
	Register(a)
	var teams [2][]commands.User
	for i := range teamW {
		teams[0] = append(teams[0], commands.User{ID: fmt.Sprint(300000 + i), Name: fmt.Sprint("w", i)})
	}
	for i := range teamB {
		teams[1] = append(teams[1], commands.User{ID: fmt.Sprint(310000 + i), Name: fmt.Sprint("b", i)})
	}
	const players = teamW + teamB
	rng := rand.New(rand.NewPCG(10, 10))
	for game := range 2 {
		g, _, team := startGame(t, a, store, "", teams[0], teams[1])
		moved := map[string]bool{}
		for len(moved) < players {
			s := load(t, store, g.ID)
			require.Equal(t, "playing", fmt.Sprint(s.game.Phase()), "game %d ended early", game)
			side := s.game.Turn()
			active, _ := s.game.Active(side)
			u := commands.User{ID: active.ID, Name: active.Name}
			ch := team[0]
			if side == chess.Black {
				ch = team[1]
			}
			if moved[active.ID] {
				_, err := commandstest.Confirm(t, a, in(u, ch, "tagout", "", nil))
				require.NoError(t, err)
				continue
			}
			texts := s.game.MoveTexts()
			var san string
			for san == "" || len(san) > 0 && (san[len(san)-1] == '#') {
				san = texts[rng.IntN(len(texts))].SAN
			}
			_, err := a.Handle(in(u, ch, "move", "", map[string]string{"move": san}))
			require.NoError(t, err, san)
			moved[active.ID] = true
		}
		s := load(t, store, g.ID)
		active, _ := s.game.Active(s.game.Turn())
		ch := team[0]
		if s.game.Turn() == chess.Black {
			ch = team[1]
		}
		_, err := commandstest.Confirm(t, a, in(commands.User{ID: active.ID, Name: active.Name}, ch, "resign", "", nil))
		require.NoError(t, err)
		commandstest.Deliver(t, a, t0)
		ops, size := store.Largest()
		t.Logf("game %d: largest transaction so far: %d writes, %d bytes", game+1, ops, size)
	}
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		st, err := tx.Ratings().Standings(Kind, "g", t0, 0, teams[0][0].ID)
		require.NoError(t, err)
		require.Equal(t, players, st.Total)
		require.Equal(t, 2, st.User.Rating.Games)
		n := 0
		require.NoError(t, tx.Records().Each(Kind, "g", func(string, []byte) error { n++; return nil }))
		require.Equal(t, players, n)
		return nil
	}))
}
