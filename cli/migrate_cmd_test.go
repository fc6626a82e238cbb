package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/internal/etcdtest"
	"sandtable/storage"
)

var migrateT0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// shardDB writes a bbolt file holding the given games (ID → kind), each
// with a thread of its own, as one shard's bot would have.
func shardDB(t *testing.T, name string, games map[string]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".db")
	s, err := storage.Open(path, time.Second)
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.Update(context.Background(), func(tx storage.Tx) error {
		for id, kind := range games {
			g := &storage.Game{ID: id, Kind: kind, ThreadID: "th-" + id, Players: []string{"alice"}, Active: true}
			if err := tx.Games().Put(g, migrateT0); err != nil {
				return err
			}
		}
		return tx.Meta().SetHeartbeat(migrateT0)
	}))
	return path
}

// runMigrate runs sandtable migrate an hour after the sources' heartbeat
// (migrateT0): their bots are stopped.
func runMigrate(args ...string) (code int, stdout, stderr string) {
	return runMigrateAt(migrateT0.Add(time.Hour), args...)
}

// runMigrateAt runs sandtable migrate with now as the clock.
func runMigrateAt(now time.Time, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = migrateAt(context.Background(), func() time.Time { return now }, args, &out, &errb)
	return code, out.String(), errb.String()
}

// gamesIn lists the games of a store by thread.
func gamesIn(t *testing.T, s storage.Store, threads ...string) []string {
	t.Helper()
	var kinds []string
	require.NoError(t, s.View(context.Background(), func(tx storage.Tx) error {
		for _, th := range threads {
			g, err := tx.Games().ByChannel(th)
			if err != nil {
				return err
			}
			kinds = append(kinds, g.ID+" "+g.Kind)
		}
		return nil
	}))
	return kinds
}

// TestMigrateShardsToEtcdAndBack: two shards' files merged into etcd by
// `sandtable migrate`, read back there; then etcd into a new bbolt file.
func TestMigrateShardsToEtcdAndBack(t *testing.T) {
	t.Parallel()
	a := shardDB(t, "a", map[string]string{"g1": "survival", "g2": "teamchess"})
	b := shardDB(t, "b", map[string]string{"g3": "sandtable"})
	c := etcdtest.Start(t)
	eps := strings.Join(c.Endpoints(), ",")
	code, out, errOut := runMigrate("-from", "bbolt:"+a+","+b, "-to", "etcd:"+eps, "-prefix", "bot/")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "verified")

	e, err := storage.OpenEtcd(context.Background(), storage.EtcdOptions{Endpoints: c.Endpoints(), Prefix: "bot/"})
	require.NoError(t, err)
	require.Equal(t, []string{"g1 survival", "g2 teamchess", "g3 sandtable"}, gamesIn(t, e, "th-g1", "th-g2", "th-g3"))
	e.Close()

	back := filepath.Join(t.TempDir(), "back.db")
	// The cluster's heartbeat (the files', migrateT0) 10 s old: its bots
	// may be running, so it is refused, nothing created.
	code, _, errOut = runMigrateAt(migrateT0.Add(10*time.Second), "-from", "etcd:"+eps, "-to", "bbolt:"+back, "-prefix", "bot/")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "10s ago")
	require.NoFileExists(t, back)
	code, _, errOut = runMigrate("-from", "etcd:"+eps, "-to", "bbolt:"+back, "-prefix", "bot/")
	require.Equal(t, 0, code, errOut)
	s, err := storage.Open(back, time.Second)
	require.NoError(t, err)
	defer s.Close()
	require.Equal(t, []string{"g1 survival", "g2 teamchess", "g3 sandtable"}, gamesIn(t, s, "th-g1", "th-g2", "th-g3"))

	// An etcd source must hold a store: a wrong prefix is refused, and
	// nothing is created there.
	code, _, errOut = runMigrate("-from", "etcd:"+eps, "-to", "bbolt:"+filepath.Join(t.TempDir(), "x.db"), "-prefix", "typo/")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "no SandTable store")

	// A second copy into the same destination is refused: it is not empty.
	code, _, errOut = runMigrate("-from", "bbolt:"+a, "-to", "etcd:"+eps, "-prefix", "bot/")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "not empty")
}

// TestMigrateRefusesConflicts: two files holding one game ID with
// different games are refused, the key and both files named, and nothing
// is written.
func TestMigrateRefusesConflicts(t *testing.T) {
	t.Parallel()
	a := shardDB(t, "a", map[string]string{"g1": "survival"})
	b := shardDB(t, "b", map[string]string{"g1": "sandtable", "g9": "survival"})
	dst := filepath.Join(t.TempDir(), "merged.db")
	code, _, errOut := runMigrate("-from", "bbolt:"+a+","+b, "-to", "bbolt:"+dst)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "nothing was written")
	require.Contains(t, errOut, "games g1: in "+a+", "+b)
	s, err := storage.Open(dst, time.Second)
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.View(context.Background(), func(tx storage.Tx) error {
		_, err := tx.Games().Get("g9")
		require.ErrorIs(t, err, storage.ErrNotFound, "nothing written")
		return nil
	}))
}

func TestMigrateBadFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := filepath.Join(dir, "a.db")
	cases := []struct {
		args []string
		want string
	}{
		{nil, "-from is required"},
		{[]string{"-from", "bbolt:" + a}, "-to is required"},
		{[]string{"-from", "mysql:x", "-to", "bbolt:y"}, "start with bbolt: or etcd:"},
		{[]string{"-from", "bbolt:" + a + ",", "-to", "etcd:http://127.0.0.1:2379"}, "an empty path"},
		{[]string{"-from", "bbolt:" + a, "-to", "etcd:127.0.0.1:2379"}, "is not an etcd client URL"},
		{[]string{"-from", "etcd:http://a:2379", "-to", "etcd:http://b:2379"}, "both etcd"},
		{[]string{"-from", "etcd:http://a:2379", "-to", "bbolt:x.db,y.db"}, "takes one file"},
		{[]string{"-from", "bbolt:" + a, "-to", "bbolt:" + a}, "is also a source"},
		{[]string{"-from", "bbolt:" + a, "-to", "etcd:http://a:2379", "-prefix", ""}, "-prefix must not be empty"},
		{[]string{"-from", "bbolt:" + a, "-to", "etcd:http://a:2379", "-prefix", "bot1"}, "-prefix must end with /"},
		{[]string{"-from", "bbolt:" + a, "-to", "etcd:http://a:2379", "extra"}, "unexpected argument"},
		{[]string{"-form", "x"}, "flag provided but not defined"},
		{[]string{"-from", "bbolt:" + filepath.Join(dir, "typo.db"), "-to", "etcd:http://a:2379"}, "no such file"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			code, _, errOut := runMigrate(c.args...)
			require.Equal(t, 2, code)
			require.Contains(t, errOut, c.want)
		})
	}
	code, _, errOut := runMigrate("-h")
	require.Equal(t, 0, code)
	require.Contains(t, errOut, "usage: sandtable migrate")
}

// TestMigrateRefusesOneFileTwice: a source named twice (the same path, a link to it), or a
// destination that is a source under another name, is refused as such, not reported as a
// database locked by another process; an empty file is not taken for a database and stays empty.
func TestMigrateRefusesOneFileTwice(t *testing.T) {
	t.Parallel()
	a := shardDB(t, "a", map[string]string{"g1": "survival"})
	dir := t.TempDir()
	hard, sym, empty := filepath.Join(dir, "hard.db"), filepath.Join(dir, "sym.db"), filepath.Join(dir, "empty.db")
	require.NoError(t, os.Link(a, hard))
	require.NoError(t, os.Symlink(a, sym))
	require.NoError(t, os.WriteFile(empty, nil, 0o600))
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-from", "bbolt:" + a + "," + a, "-to", "bbolt:" + filepath.Join(dir, "out1.db")}, "one file twice"},
		{[]string{"-from", "bbolt:" + a + "," + hard, "-to", "bbolt:" + filepath.Join(dir, "out2.db")}, "one file twice"},
		{[]string{"-from", "bbolt:" + sym + "," + a, "-to", "etcd:http://127.0.0.1:1"}, "one file twice"},
		{[]string{"-from", "bbolt:" + a, "-to", "bbolt:" + hard}, "is also a source"},
		{[]string{"-from", "bbolt:" + a, "-to", "bbolt:" + sym}, "is also a source"},
		{[]string{"-from", "bbolt:" + empty, "-to", "bbolt:" + filepath.Join(dir, "out3.db")}, "empty file"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			code, _, errOut := runMigrate(c.args...)
			require.Equal(t, 2, code, errOut)
			require.Contains(t, errOut, c.want)
			require.NotContains(t, errOut, "in use by another process")
		})
	}
	fi, err := os.Stat(empty)
	require.NoError(t, err)
	require.Zero(t, fi.Size(), "the empty source was written to")
	for _, out := range []string{"out1.db", "out2.db", "out3.db"} {
		require.NoFileExists(t, filepath.Join(dir, out))
	}
}

// TestMigrateLeavesItsSourcesUnchanged: migrating a bbolt file of an older
// schema (the fixture of schema 1) copies it without rewriting it, so the
// file still opens with the bot it came from; a refused merge changes no
// source either.
func TestMigrateLeavesItsSourcesUnchanged(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("..", "storage", "testdata", "fixture-v1", "bot.db"))
	require.NoError(t, err)
	dir := t.TempDir()
	old := filepath.Join(dir, "old.db")
	require.NoError(t, os.WriteFile(old, raw, 0o600))
	code, out, errOut := runMigrate("-from", "bbolt:"+old, "-to", "bbolt:"+filepath.Join(dir, "new.db"))
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "verified")
	after, err := os.ReadFile(old)
	require.NoError(t, err)
	require.Equal(t, raw, after, "the source was rewritten")

	// Two files disagreeing on a game: refused, and neither file changes.
	a := shardDB(t, "a", map[string]string{"g1": "survival"})
	b := shardDB(t, "b", map[string]string{"g1": "teamchess"})
	rawA, err := os.ReadFile(a)
	require.NoError(t, err)
	code, _, errOut = runMigrate("-from", "bbolt:"+a+","+b+","+old, "-to", "bbolt:"+filepath.Join(dir, "merged.db"))
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "differ")
	afterA, err := os.ReadFile(a)
	require.NoError(t, err)
	require.Equal(t, rawA, afterA)
	after, err = os.ReadFile(old)
	require.NoError(t, err)
	require.Equal(t, raw, after)
}

// TestMigrateRefusesASourceInUse: a source whose heartbeat is recent (its
// bot may be running) is refused, saying how recent and naming -force, and
// nothing is written; -force copies it; an old heartbeat is copied without.
func TestMigrateRefusesASourceInUse(t *testing.T) {
	t.Parallel()
	old := shardDB(t, "old", map[string]string{"g1": "survival"})
	live := shardDB(t, "live", map[string]string{"g2": "survival"})
	s, err := storage.Open(live, time.Second)
	require.NoError(t, err)
	require.NoError(t, s.Update(context.Background(), func(tx storage.Tx) error {
		return tx.Meta().SetHeartbeat(migrateT0.Add(time.Hour))
	}))
	require.NoError(t, s.Close())
	dir := t.TempDir()
	now := migrateT0.Add(time.Hour + 25*time.Second) // live's heartbeat is 25 s old, old's over an hour

	for i, c := range []struct {
		from, want string
	}{
		{live, "25s ago"},
		{old + "," + live, "the source " + live + " is in use"},
	} {
		dst := filepath.Join(dir, fmt.Sprintf("refused%d.db", i))
		code, out, errOut := runMigrateAt(now, "-from", "bbolt:"+c.from, "-to", "bbolt:"+dst)
		require.Equal(t, 1, code, errOut)
		require.Contains(t, errOut, c.want)
		require.Contains(t, errOut, "-force")
		require.Empty(t, out)
		require.NoFileExists(t, dst, "nothing written")
	}
	// A heartbeat ahead of this machine's clock (clocks that disagree) is
	// no proof the bot stopped either.
	code, _, errOut := runMigrateAt(migrateT0.Add(time.Hour-5*time.Second), "-from", "bbolt:"+live, "-to", "bbolt:"+filepath.Join(dir, "skew.db"))
	require.Equal(t, 1, code, errOut)
	require.Contains(t, errOut, "ahead")

	code, out, errOut := runMigrateAt(now, "-from", "bbolt:"+old, "-to", "bbolt:"+filepath.Join(dir, "old.db"))
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "verified")
	code, out, errOut = runMigrateAt(now, "-force", "-from", "bbolt:"+old+","+live, "-to", "bbolt:"+filepath.Join(dir, "forced.db"))
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "verified")
	require.Contains(t, errOut, "-force")
	// Once the heartbeat is old enough, no -force is needed.
	code, _, errOut = runMigrateAt(now.Add(2*time.Minute), "-from", "bbolt:"+live, "-to", "bbolt:"+filepath.Join(dir, "later.db"))
	require.Equal(t, 0, code, errOut)
}
