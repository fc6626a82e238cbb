package bot_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
)

// fixtureOutboxDir holds a database written by the main of 2026-12-06
// (commit 2c5a9f2, storage schema 6: ratings, an outbox without a due
// index) with effects still pending in its outbox: the due index of schema
// 7 is built over them when today's bot opens it.
const fixtureOutboxDir = "../storage/testdata/fixture-v6-outbox"

// TestWriteFixtureOutbox writes fixtureOutboxDir's files into
// $SANDTABLE_WRITE_FIXTURE_OUTBOX: a rated Survival game won by
// resignation (carol over dave), and a running one (alice and bob) whose
// last move's board Discord refused with 500s, so that the board's post
// and the compaction of the board before it wait in the outbox. It is
// skipped unless the variable is set; run it in a worktree of the commit
// that is to write the fixture (storage/testdata/README.md).
func TestWriteFixtureOutbox(t *testing.T) {
	t.Parallel()
	out := os.Getenv("SANDTABLE_WRITE_FIXTURE_OUTBOX")
	if out == "" {
		t.Skip("set SANDTABLE_WRITE_FIXTURE_OUTBOX=DIR to write the fixture database")
	}
	require.NoError(t, os.MkdirAll(out, 0o755))
	srv := discordsim.Start(t, discordsim.Options{Users: []string{"alice", "bob", "carol", "dave"}})
	dbPath := filepath.Join(t.TempDir(), "bot.db")
	h := startBot(t, srv, dbPath)
	alice, bob, carol, dave := srv.User("alice"), srv.User("bob"), srv.User("carol"), srv.User("dave")
	meta := fixtureMeta{Games: map[string]string{}, Threads: map[string]string{}, Messages: map[string]string{}, Results: map[string]string{}}

	th := h.survivalGame(carol, dave)
	h.move(carol, th, "g7g8q")
	m := h.replyConfirmed(dave, th.ID, "resign")
	require.Contains(t, m.Text(), "wins by resignation")
	meta.Threads["survival-resigned"] = th.ID

	th = h.survivalGame(alice, bob)
	h.move(alice, th, "g7g8q")
	require.NoError(t, srv.WaitFor(wait, func() bool {
		return len(srv.CallsTo("PATCH /channels/"+th.ID+"/messages/*")) > 0
	}), "the first board is compacted")
	srv.ServerErrorNext("POST /channels/"+th.ID+"/messages", 1000)
	srv.ServerErrorNext("PATCH /channels/"+th.ID+"/messages/*", 1000)
	h.move(bob, th, "e2e1k")
	require.NoError(t, srv.WaitFor(wait, func() bool {
		for _, c := range srv.CallsTo("POST /channels/" + th.ID + "/messages") {
			if c.Status == 500 {
				return true
			}
		}
		return false
	}), "the board's post was refused")
	meta.Threads["survival-pending"] = th.ID
	meta.Now = h.clock.Now()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, h.bot.Shutdown(ctx))
	require.NoError(t, h.store.Close())
	state, _, err := srv.ExportStateSplit()
	require.NoError(t, err)
	var st map[string]any
	require.NoError(t, json.Unmarshal(state, &st))
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

// TestFixtureOutboxDatabase opens fixtureOutboxDir's database (schema 6,
// effects pending) with today's bot: the board Discord refused is posted
// once and becomes the one live board (an effect of the earlier version,
// which posted every board anew: the board before it is deleted, where the
// earlier version compacted it), the game plays on with the live board
// edited in place, and the finished game's ratings stand.
func TestFixtureOutboxDatabase(t *testing.T) {
	t.Parallel()
	h, meta := startFixtureFrom(t, fixtureOutboxDir)
	srv := h.srv
	alice, carol := srv.User("alice"), srv.User("carol")
	th := srv.ChannelByID(meta.Threads["survival-pending"])
	require.NotNil(t, th)
	with := func(sub string) (n int) {
		for _, m := range srv.Messages(th.ID) {
			if !m.Ephemeral() && strings.Contains(m.Text(), sub) {
				n++
			}
		}
		return n
	}
	images := func() (n int) {
		for _, m := range srv.Messages(th.ID) {
			if !m.Ephemeral() && hasImage(m) {
				n++
			}
		}
		return n
	}
	// The downtime credit moved the retries' due times with the clocks (5
	// minutes): they fall due a few seconds after the restart.
	h.clock.Advance(10 * time.Second)
	require.NoError(t, srv.WaitFor(wait, func() bool {
		return with("played **e1=K**") > 0 && images() == 1
	}), "the pending board is posted and the one before it deleted")
	live := h.liveBoard(th)
	require.Contains(t, live.Text(), "played **e1=K**", "the pending board is the live one")
	require.Equal(t, 1, with("played **e1=K**"), "the pending board is posted once")

	m := h.reply(alice, th.ID, "move", discordsim.Opt("move", "g8g6"))
	require.Contains(t, mustBeEphemeral(t, m, alice), "You played")
	require.NoError(t, srv.WaitFor(wait, func() bool { return with("played **e1=K**") == 0 }), "the next move edits the live board")
	next := h.liveBoard(th)
	require.Equal(t, live.ID, next.ID, "edited in place")
	require.Equal(t, 1, images())

	st := h.tcReply(alice, h.gen.ID, "stats", discordsim.Opt("user", carol))
	require.Contains(t, st.Text(), "1 W · 0 L · 0 D", "the rated game of schema 6 is still counted")
}
