package sandtable

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	engine "sandtable/games/sandtable"
)

// endedWithPendingDrone stores "sand1" played as playedGame does, then on to
// a PostTurn in which one spotter may order Drones on two squares: it
// orders the Drone on the k-th (k 0 or 1), and the side to move resigns,
// so that Drone never resolves. It returns the order and the delivered
// public artefacts: the final board's files and the replay GIF.
func endedWithPendingDrone(t *testing.T, k int) (a *commands.App, p *commandstest.Platform, order engine.Entry, final map[string][]byte) {
	t.Helper()
	a, p, store := newApp(t)
	playedGame(t, store)
	g, s := load(t, store)
	for s.pos.Phase() != engine.PhaseFinished {
		var drones []engine.Action
		for _, l := range s.pos.LegalActions() {
			if l.Kind == engine.ActDrone && (len(drones) == 0 || l.From == drones[0].From && l.Who == drones[0].Who) {
				drones = append(drones, l)
			}
		}
		act := s.pos.LegalActions()[0]
		if len(drones) >= 2 {
			act = drones[k]
		}
		entries, err := s.apply(act)
		require.NoError(t, err)
		putState(t, store, g, s)
		if len(drones) >= 2 {
			for _, e := range entries {
				if e.Kind == engine.EntryDroneOrder {
					order = e
				}
			}
			break
		}
	}
	require.Equal(t, engine.EntryDroneOrder, order.Kind, "a Drone was ordered")
	_, err := commandsResign(t, a, s.player(s.pos.ToMove()))
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0.Add(commands.ReplayDelay+time.Second))
	final = map[string][]byte{}
	for _, sent := range p.Shown() { // the final board is the live board edited
		for _, f := range sent.Msg.Files {
			if strings.HasSuffix(f.Name, ".gif") || strings.HasSuffix(f.Name, ".json") || strings.HasSuffix(f.Name, ".txt") {
				final[f.Name] = f.Data
			}
		}
	}
	require.Contains(t, final, "sandtable-sand1-record.json")
	require.Contains(t, final, "sandtable-sand1.txt")
	require.Contains(t, final, "sandtable-sand1-replay.gif")
	return a, p, order, final
}

// TestSandUnresolvedDroneStaysSecret (ruling D6): two games that differ
// only in the target of a Drone still pending at the end have the same
// public record files, replay and history (for a spectator and for the
// opponent, in every frame); the owner's history shows it; the final
// board's My full record gives each player their own record, the
// owner's with the target, the opponent's without, and refuses anyone
// else.
func TestSandUnresolvedDroneStaysSecret(t *testing.T) {
	t.Parallel()
	a0, _, order0, final0 := endedWithPendingDrone(t, 0)
	a1, _, order1, final1 := endedWithPendingDrone(t, 1)
	require.Equal(t, order0.Piece, order1.Piece)
	require.NotEqual(t, order0.To, order1.To, "the two games differ in the target")
	for name, data := range final0 {
		require.True(t, bytes.Equal(data, final1[name]), "%s differs between the two games", name)
	}
	require.Contains(t, string(final0["sandtable-sand1-record.json"]), `"action": "D?"`, "the Drone pending at the end is hidden")

	owner, opp := alice, bob
	if order0.Side == engine.North {
		owner, opp = bob, alice
	}
	n := order0.Turn + 2 // frame 0 the reveal, frame k the end of turn k, the last the final position
	for _, u := range []commands.User{carol, opp} {
		for i := 0; i < n; i++ {
			r0, r1 := viewer(t, a0, u, i), viewer(t, a1, u, i)
			require.Equal(t, r0.Cards[0].Description, r1.Cards[0].Description, "%s, frame %d: the log", u.Name, i)
			require.Equal(t, fieldValue(r0.Message, "Turns"), fieldValue(r1.Message, "Turns"), "%s, frame %d: the turns", u.Name, i)
			if len(r0.Files) > 0 {
				require.True(t, bytes.Equal(r0.Files[0].Data, r1.Files[0].Data), "%s, frame %d: the board", u.Name, i)
			}
		}
	}
	// /history in the thread opens the same viewer, at the last frame.
	for _, u := range []commands.User{carol, opp} {
		r0, err := a0.Handle(cmd(u, "history", "", nil))
		require.NoError(t, err)
		r1, err := a1.Handle(cmd(u, "history", "", nil))
		require.NoError(t, err)
		require.True(t, r0.Ephemeral)
		require.Equal(t, r0.Cards[0].Description, r1.Cards[0].Description, "%s's /history: the log", u.Name)
		require.True(t, bytes.Equal(r0.Files[0].Data, r1.Files[0].Data), "%s's /history: the final board", u.Name)
	}
	mine := viewer(t, a0, owner, order0.Turn)
	require.Contains(t, mine.Cards[0].Description, "target "+order0.To.String(), "the owner sees their own order")

	// My full record: each player's own, privately; nobody else's.
	for _, c := range []struct {
		u     commands.User
		shown bool
	}{{owner, true}, {opp, false}} {
		r, err := a0.Handle(click(c.u, "g:sand1:fullrecord"))
		require.NoError(t, err)
		require.True(t, r.Ephemeral, "a full record is private")
		require.Len(t, r.Files, 1)
		rec, err := engine.ParseRecord(r.Files[0].Data)
		require.NoError(t, err, "a full record reads back")
		var got *engine.RecordDrone
		for _, act := range rec.Actions {
			if act.Drone != nil && act.Turn == order0.Turn && act.Side == order0.Side {
				got = act.Drone
			}
		}
		require.NotNil(t, got)
		if c.shown {
			require.Equal(t, order0.To, got.Target, "%s's full record has their own Drone's target", c.u.Name)
		} else {
			require.True(t, got.Hidden, "%s's full record hides the opponent's unresolved Drone", c.u.Name)
			require.True(t, bytes.Equal(r.Files[0].Data, mustFullRecord(t, a1, c.u)), "the opponent's full record does not depend on the target")
		}
	}
	_, err := a0.Handle(click(carol, "g:sand1:fullrecord"))
	require.Contains(t, userMsg(t, err), "Only the players", "a spectator has no full record")
}

func mustFullRecord(t *testing.T, a *commands.App, u commands.User) []byte {
	t.Helper()
	r, err := a.Handle(click(u, "g:sand1:fullrecord"))
	require.NoError(t, err)
	return r.Files[0].Data
}
