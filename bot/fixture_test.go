package bot_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/bot"
	"sandtable/games/sandtable"
	"sandtable/internal/discordsim"
)

// The fixture database (storage/testdata/fixture-v1) was written by the main
// of 2026-12-02 (before the rulings of the referee-grade issue and before the
// game-core redesign) with TestWriteFixture:
//
//	SANDTABLE_WRITE_FIXTURE=$PWD/../storage/testdata/fixture-v1 go test ./bot -run TestWriteFixture -count=1
//
// It holds games of all three kinds, running and finished, an open challenge
// and a Team Chess lobby. TestFixtureDatabase opens it with today's code and
// plays on; it must stay green through every later change of rules or
// storage. Never regenerate it: it stands for the databases users have.
const fixtureDir = "../storage/testdata/fixture-v1"

// fixtureMeta is what the generator knew: the IDs of what it made and the
// clock when it stopped.
type fixtureMeta struct {
	Now      time.Time         `json:"now"`
	Games    map[string]string `json:"games"`    // role -> game ID
	Threads  map[string]string `json:"threads"`  // role -> public thread ID
	Messages map[string]string `json:"messages"` // role -> message ID (challenge, lobby)
	Results  map[string]string `json:"results"`  // role -> result line shown at the end
}

// TestWriteFixture plays the fixture's games through the fake Discord and
// writes bot.db, discord.json (the fake Discord's state, attachments
// emptied) and meta.json into $SANDTABLE_WRITE_FIXTURE. It is skipped
// unless that variable is set.
func TestWriteFixture(t *testing.T) {
	t.Parallel()
	out := os.Getenv("SANDTABLE_WRITE_FIXTURE")
	if out == "" {
		t.Skip("set SANDTABLE_WRITE_FIXTURE=DIR to write the fixture database")
	}
	require.NoError(t, os.MkdirAll(out, 0o755))
	srv := discordsim.Start(t, discordsim.Options{Users: []string{"alice", "bob", "carol", "dave", "erin", "frank"}})
	dbPath := filepath.Join(t.TempDir(), "bot.db")
	h := startBot(t, srv, dbPath)
	alice, bob, carol, dave, erin, frank := srv.User("alice"), srv.User("bob"), srv.User("carol"), srv.User("dave"), srv.User("erin"), srv.User("frank")
	meta := fixtureMeta{Games: map[string]string{}, Threads: map[string]string{}, Messages: map[string]string{}, Results: map[string]string{}}
	step := func() { h.clock.Advance(time.Minute) }

	// Survival: one finished by elimination, one by resignation, one running.
	// play plays moves alternately as white and black, a minute apart, and
	// returns the last answer.
	play := func(th *discordsim.Channel, white, black *discordsim.User, moves []string) (last *discordsim.Message) {
		players := [2]*discordsim.User{white, black}
		for i, mv := range moves {
			last = h.move(players[i%2], th, mv)
			step()
		}
		return last
	}
	th := h.survivalGame(alice, bob)
	last := play(th, alice, bob, eliminationGame)
	meta.Threads["survival-elimination"] = th.ID
	meta.Games["survival-elimination"] = gameIDFromFooter(t, last)
	meta.Results["survival-elimination"] = "wins by elimination of the last piece"
	th = h.survivalGame(carol, dave)
	h.move(carol, th, "g7g8q")
	m := h.replyConfirmed(dave, th.ID, "resign")
	require.Contains(t, m.Text(), "wins by resignation")
	meta.Threads["survival-resigned"] = th.ID
	meta.Results["survival-resigned"] = "wins by resignation"
	th = h.survivalGame(alice, carol)
	last = play(th, alice, carol, eliminationGame[:6])
	meta.Threads["survival-running"] = th.ID
	meta.Games["survival-running"] = gameIDFromFooter(t, last)
	offer := h.reply(alice, th.ID, "draw offer") // a pending draw offer, White's
	require.Contains(t, offer.Text(), "offers a draw")

	// SandTable: one in Deployment (South confirmed), one in Main with a
	// pending Drone order, one finished by resignation.
	g := h.sandStart(alice, bob)
	p := g.dmPanel(alice)
	sel, err := srv.Select(alice, p, presetID(p), "phalanx")
	require.NoError(t, err)
	p = h.answerOf(sel, p.Version)
	g.press(alice, p, "Confirm")
	meta.Threads["sandtable-deployment"], meta.Games["sandtable-deployment"] = g.thread.ID, g.id
	step()

	g = h.sandStart(carol, dave)
	g.sandDeployBoth("phalanx", "fortress")
	for i := 0; i < 4; i++ {
		pos := g.pos()
		var acts []sandtable.Action
		for _, a := range pos.LegalActions() {
			if a.Kind != sandtable.ActDrone {
				acts = append(acts, a)
			}
		}
		require.NotEmpty(t, acts)
		g.move(g.user(pos.ToMove()), acts[0].String())
		step()
	}
	pos := g.pos()
	var drone *sandtable.Action
	for _, a := range pos.LegalActions() {
		if a.Kind == sandtable.ActDrone {
			a := a
			drone = &a
			break
		}
	}
	if drone != nil {
		g.drone(g.user(pos.ToMove()), drone.From.String(), drone.To.String())
	}
	meta.Threads["sandtable-running"], meta.Games["sandtable-running"] = g.thread.ID, g.id

	g = h.sandStart(erin, frank)
	g.sandDeployBoth("fortress", "phalanx")
	m = h.replyConfirmed(frank, g.thread.ID, "resign")
	require.False(t, m.Ephemeral(), m.Text())
	meta.Threads["sandtable-resigned"], meta.Games["sandtable-resigned"] = g.thread.ID, g.id
	meta.Results["sandtable-resigned"] = firstLine(t, m.Text(), "resign")
	step()

	// Team Chess: a Siege Win; a checkmate after a Political Agent (scored
	// honourable by this main's rulings 6 and A9); a 2 v 2 game running with a
	// tag-out and a suggestion.
	tb := h.tcStart("7k/5K2/8/6Q1/8/8/8/8 w - - 0 1", []*discordsim.User{alice}, []*discordsim.User{bob})
	tb.move(alice, "Qg6")
	m = tb.do(alice, tb.pub, "siege win")
	require.Contains(t, m.Text(), "Siege Win")
	meta.Threads["teamchess-siege"], meta.Games["teamchess-siege"] = tb.pub.ID, tb.id
	meta.Results["teamchess-siege"] = firstLine(t, m.Text(), "wins by")
	step()

	tb = h.tcStart("7k/P7/6K1/8/8/8/8/1Q6 w - - 0 1", []*discordsim.User{carol}, []*discordsim.User{dave, erin})
	tb.move(carol, "a8=PoliticalAgent")
	tb.move(erin, "Kg8")
	tb.move(carol, "Qc1")
	tb.move(erin, "Kh8")
	m = tb.move(carol, "Qc8#")
	require.Contains(t, m.Text(), "honourable")
	meta.Threads["teamchess-mate-after-sacrifice"], meta.Games["teamchess-mate-after-sacrifice"] = tb.pub.ID, tb.id
	meta.Results["teamchess-mate-after-sacrifice"] = firstLine(t, m.Text(), "wins by")
	step()

	tb = h.tcStart("", []*discordsim.User{alice, bob}, []*discordsim.User{carol, dave})
	tb.move(alice, "e4")
	tb.move(carol, "e5")
	h.tcReply(bob, tb.team[tcWhite].ID, "suggest", discordsim.Opt("move", "Nf3"), discordsim.Opt("comment", "develop"))
	tb.move(alice, "Nf3")
	tb.do(carol, tb.pub, "tagout")
	tb.move(dave, "Nc6")
	meta.Threads["teamchess-running"], meta.Games["teamchess-running"] = tb.pub.ID, tb.id
	step()

	// An open Survival challenge and an open Team Chess lobby.
	ch := h.reply(erin, h.gen.ID, "survival challenge", discordsim.Opt("opponent", frank), discordsim.Opt("color", "black"))
	require.False(t, ch.Ephemeral(), ch.Text())
	meta.Messages["survival-challenge"] = ch.ID
	lobby := h.tcOpen(bob)
	lobby = h.tcPress(bob, lobby, "Join White")
	lobby = h.tcPress(erin, lobby, "Join Black")
	meta.Messages["teamchess-lobby"] = lobby.ID

	meta.Now = h.clock.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, h.bot.Shutdown(ctx))
	require.NoError(t, h.store.Close())
	state, files, err := srv.ExportStateSplit()
	require.NoError(t, err)
	var st map[string]any
	require.NoError(t, json.Unmarshal(state, &st))
	_ = files // attachments are left out: the fixture test gives them empty bytes
	pretty, err := json.MarshalIndent(st, "", " ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(out, "discord.json"), pretty, 0o644))
	db, err := os.ReadFile(dbPath)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(out, "bot.db"), db, 0o644))
	mj, err := json.MarshalIndent(meta, "", " ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(out, "meta.json"), mj, 0o644))
}

// firstLine returns the first line of text containing sub.
func firstLine(t testing.TB, text, sub string) string {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, sub) {
			return strings.TrimSpace(regexp.MustCompile(`\s+`).ReplaceAllString(l, " "))
		}
	}
	t.Fatalf("no line with %q in %q", sub, text)
	return ""
}

// startFixture copies the fixture database, restores the fake Discord it
// was written against and starts today's bot on it, five minutes after the
// generator stopped.
func startFixture(t *testing.T) (*harness, fixtureMeta) {
	t.Helper()
	return startFixtureFrom(t, fixtureDir)
}

// startFixtureFrom is startFixture for the fixture in fixtureDir.
func startFixtureFrom(t *testing.T, fixtureDir string) (*harness, fixtureMeta) {
	t.Helper()
	var meta fixtureMeta
	raw, err := os.ReadFile(filepath.Join(fixtureDir, "meta.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &meta))
	state, err := os.ReadFile(filepath.Join(fixtureDir, "discord.json"))
	require.NoError(t, err)
	// The fixture keeps no image bytes: every attachment gets an empty file.
	var st struct {
		Messages []struct {
			Attachments []struct {
				ID string `json:"id"`
			} `json:"attachments"`
		} `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(state, &st))
	files := map[string][]byte{}
	for _, m := range st.Messages {
		for _, a := range m.Attachments {
			files[a.ID] = []byte{}
		}
	}
	db, err := os.ReadFile(filepath.Join(fixtureDir, "bot.db"))
	require.NoError(t, err)
	dbPath := filepath.Join(t.TempDir(), "bot.db")
	require.NoError(t, os.WriteFile(dbPath, db, 0o600))
	srv := discordsim.Start(t, discordsim.Options{State: state, Files: files})
	h := startBotAt(t, srv, dbPath, meta.Now.Add(5*time.Minute), bot.Options{})
	return h, meta
}

// TestFixtureDatabase opens the database written by an earlier main and
// plays on: running games of every kind take their next moves, finished
// games keep the result they were given, the open challenge is accepted
// and the lobby starts.
func TestFixtureDatabase(t *testing.T) {
	t.Parallel()
	h, meta := startFixture(t)
	srv := h.srv
	alice, bob, carol, dave, erin, frank := srv.User("alice"), srv.User("bob"), srv.User("carol"), srv.User("dave"), srv.User("erin"), srv.User("frank")
	thread := func(role string) *discordsim.Channel {
		c := srv.ChannelByID(meta.Threads[role])
		require.NotNil(t, c, role)
		return c
	}

	t.Run("finished games keep their results", func(t *testing.T) {
		// What the earlier main showed at the end of each game: the
		// result, and Team Chess's category under the rulings of that day
		// (the mate after a Political Agent was honourable then, and stays so).
		for _, c := range []struct {
			role   string
			u      *discordsim.User
			move   string
			result string
		}{
			{"survival-elimination", alice, "a1a2", "0-1: " + bob.Mention() + " (Black) wins by elimination of the last piece."},
			{"survival-resigned", carol, "a1a2", "1-0: " + carol.Mention() + " (White) wins by resignation."},
			{"sandtable-resigned", erin, "a1-a2", erin.Mention() + " (South) wins: North resigned."},
			{"teamchess-siege", alice, "Kg6", "**White wins by Siege Win.** A Siege Win is dishonourable (rule 5)."},
			{"teamchess-mate-after-sacrifice", carol, "Kg6", "**White wins by honourable checkmate.** An honourable win (rule 5)."},
		} {
			m := h.reply(c.u, thread(c.role).ID, "move", discordsim.Opt("move", c.move))
			require.Contains(t, mustBeEphemeral(t, m, c.u), "over", c.role)
			b := h.reply(c.u, thread(c.role).ID, "board")
			require.Contains(t, b.Text(), c.result, c.role)
		}
	})

	t.Run("Survival plays on, the draw offer stands", func(t *testing.T) {
		th := thread("survival-running")
		m := h.move(alice, th, eliminationGame[6])
		require.NotNil(t, m.Attachment("board.png"))
		m = h.move(carol, th, eliminationGame[7])
		require.NotNil(t, m.Attachment("board.png"))
	})

	t.Run("SandTable deployment completes", func(t *testing.T) {
		g := &sandGame{h: h, south: alice, north: bob, thread: thread("sandtable-deployment"), id: meta.Games["sandtable-deployment"]}
		p := g.dmPanel(bob)
		sel, err := srv.Select(bob, p, presetID(p), "fortress")
		require.NoError(t, err)
		p = h.answerOf(sel, p.Version)
		g.press(bob, p, "Confirm")
		require.Equal(t, 1, g.pos().Turn())
		pos := g.pos()
		for _, a := range pos.LegalActions() {
			if a.Kind != sandtable.ActDrone {
				g.move(g.user(pos.ToMove()), a.String())
				break
			}
		}
	})

	t.Run("SandTable plays on", func(t *testing.T) {
		g := &sandGame{h: h, south: carol, north: dave, thread: thread("sandtable-running"), id: meta.Games["sandtable-running"]}
		require.Len(t, g.pos().Drones(), 1, "the fixture's pending Drone order")
		for i := 0; i < 4; i++ {
			pos := g.pos()
			require.NotEqual(t, sandtable.PhaseFinished, pos.Phase())
			for _, a := range pos.LegalActions() {
				if a.Kind != sandtable.ActDrone {
					g.move(g.user(pos.ToMove()), a.String())
					break
				}
			}
		}
	})

	t.Run("Team Chess plays on", func(t *testing.T) {
		tb := &tcTable{h: h, t: t, pub: thread("teamchess-running"), id: meta.Games["teamchess-running"]}
		m := tb.move(alice, "Bc4")
		require.Contains(t, m.Text(), "Bc4")
		m = tb.move(dave, "Nf6")
		require.Contains(t, m.Text(), "Nf6")
		require.Contains(t, tb.refused(carol, tb.pub, "suggest", discordsim.Opt("move", "e5")), "personal loss")
	})

	t.Run("the open challenge is accepted", func(t *testing.T) {
		ch := srv.Message(meta.Messages["survival-challenge"])
		require.NotNil(t, ch)
		in := h.click(frank, ch, buttonID(t, ch, "Accept"))
		updated, err := in.WaitReply(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "accepted") })
		require.NoError(t, err)
		link := regexp.MustCompile(`<#(\d+)>`).FindStringSubmatch(updated.Text())
		require.NotNil(t, link)
		th := srv.ChannelByID(link[1])
		require.NotNil(t, th)
		h.move(frank, th, "g7g8q")
	})

	t.Run("the lobby starts", func(t *testing.T) {
		lobby := srv.Message(meta.Messages["teamchess-lobby"])
		require.NotNil(t, lobby)
		tb := h.tcBegin(bob, lobby, []*discordsim.User{bob}, []*discordsim.User{erin})
		tb.move(bob, "d4")
	})

	t.Run("records are as they were", func(t *testing.T) {
		// The records of the two finished Team Chess games, as the earlier
		// main ranked them (carol: the mate and the Political Agent's
		// personal win; carol's tag-out in the running game counts only when
		// that game ends).
		m := h.tcReply(dave, h.gen.ID, "teamchess leaderboard")
		require.False(t, m.Ephemeral())
		for _, line := range []string{
			"**1.** " + carol.Mention() + " · team 1-0 · personal 2-0 (ratio 2, no losses) · 1 game",
			"**2.** " + alice.Mention() + " · team 1-0 · personal 1-0 (ratio 1, no losses) · 1 game",
			"**3.** " + bob.Mention() + " · team 0-1 · personal 0-1 (ratio 0.00) · 1 game",
			"**4.** " + dave.Mention() + " · team 0-1 · personal 0-1 (ratio 0.00) · 1 game",
			"**5.** " + erin.Mention() + " · team 0-1 · personal 0-1 (ratio 0.00) · 1 game",
		} {
			require.Contains(t, m.Text(), line)
		}
		// /games lists alice's running games, each with its thread.
		m = h.tcReply(alice, h.gen.ID, "games")
		for _, role := range []string{"survival-running", "sandtable-deployment", "teamchess-running"} {
			require.Contains(t, m.Text(), "<#"+meta.Threads[role]+">", role)
		}
		require.NotContains(t, m.Text(), "<#"+meta.Threads["survival-elimination"]+">")
	})
}
