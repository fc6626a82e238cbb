package storage

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// TestMigrationFromSchema7Analyses: a bbolt database of schema 7 (no analyses
// bucket) opens at the current schema with no analysis, its games intact,
// and stores one.
func TestMigrationFromSchema7Analyses(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "v7.db")
	s, err := Open(path, time.Second)
	require.NoError(t, err)
	update(t, s, func(tx Tx) error {
		return tx.Games().Put(&Game{ID: "g1", Kind: "survival", ThreadID: "th", Players: []string{"a"}}, t0)
	})
	require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte(bAnalyses)); err != nil {
			return err
		}
		return tx.Bucket([]byte(bMeta)).Put([]byte("schema"), []byte("7"))
	}))
	require.NoError(t, s.Close())
	s, err = Open(path, time.Second)
	require.NoError(t, err)
	defer s.Close()
	v, err := s.SchemaVersion()
	require.NoError(t, err)
	require.Equal(t, SchemaVersion, v)
	view(t, s, func(tx Tx) {
		g, err := tx.Games().ByChannel("th")
		require.NoError(t, err)
		require.False(t, g.Active)
		_, err = tx.Analyses().Get("g1")
		require.ErrorIs(t, err, ErrNotFound)
	})
	update(t, s, func(tx Tx) error { return tx.Analyses().Put("g1", map[string]int{"v": 1}) })
}

// TestEtcdMigrationFromSchema7Analyses: an etcd store of schema 7 opens at the
// current schema and stores an analysis.
func TestEtcdMigrationFromSchema7Analyses(t *testing.T) {
	t.Parallel()
	s := openEtcd(t)
	cli, err := clientv3.New(clientv3.Config{Endpoints: sharedEtcd().Endpoints()})
	require.NoError(t, err)
	defer cli.Close()
	_, err = cli.Put(ctx, s.opts.Prefix+bMeta+"/schema", "7")
	require.NoError(t, err)
	s2, err := OpenEtcd(ctx, s.opts)
	require.NoError(t, err)
	defer s2.Close()
	resp, err := cli.Get(ctx, s.opts.Prefix+bMeta+"/schema")
	require.NoError(t, err)
	require.Equal(t, fmt.Sprint(SchemaVersion), string(resp.Kvs[0].Value))
	update(t, s2, func(tx Tx) error { return tx.Analyses().Put("g1", map[string]int{"v": 1}) })
	view(t, s2, func(tx Tx) {
		raw, err := tx.Analyses().Get("g1")
		require.NoError(t, err)
		require.JSONEq(t, `{"v":1}`, string(raw))
	})
}
