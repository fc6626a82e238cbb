package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Bolt is the Store in one bbolt file: what the bot runs on. Only one
// process may open a file at a time.
type Bolt struct {
	db     *bolt.DB
	path   string
	copyOf string // OpenCopy's original; path is then the copy
}

var _ Store = (*Bolt)(nil)

// Open opens (creating if needed) the database at path, waiting at most
// timeout for another process's file lock; then it fails with ErrLocked. A
// database of an earlier schema is migrated (migrate.go); a newer one is
// refused.
func Open(path string, timeout time.Duration) (*Bolt, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout})
	if err != nil {
		if errors.Is(err, bolt.ErrTimeout) {
			return nil, fmt.Errorf("open %s: %w (waited %s; stop the other bot or use another storage.path)", path, ErrLocked, timeout)
		}
		if _, ok := errors.AsType[*fs.PathError](err); ok {
			return nil, err // it names the file already
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	s := &Bolt{db: db, path: path}
	if err := s.migrate(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return s, nil
}

// OpenCopy opens a private copy of the database at path, for reading it
// without changing it: the file is copied under a shared lock (waiting at
// most timeout for a bot holding it: ErrLocked), and the copy, migrated to
// the current schema if older, is what the store reads and writes. Close
// deletes the copy. A missing file is an error, not a new database.
func OpenCopy(path string, timeout time.Duration) (*Bolt, error) {
	src, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout, ReadOnly: true})
	if err != nil {
		if errors.Is(err, bolt.ErrTimeout) {
			return nil, fmt.Errorf("open %s: %w (waited %s; stop the bot that uses it)", path, ErrLocked, timeout)
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	tmp, err := os.CreateTemp("", "sandtable-copy-*.db")
	if err == nil {
		err = src.View(func(tx *bolt.Tx) error { _, err := tx.WriteTo(tmp); return err })
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
	}
	src.Close()
	if err != nil {
		if tmp != nil {
			os.Remove(tmp.Name())
		}
		return nil, fmt.Errorf("copying %s: %w", path, err)
	}
	s, err := Open(tmp.Name(), timeout)
	if err != nil {
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.copyOf = path
	return s, nil
}

// Close closes the database file (and deletes it if it is OpenCopy's copy).
func (s *Bolt) Close() error {
	err := s.db.Close()
	if s.copyOf != "" {
		if rerr := os.Remove(s.path); err == nil {
			err = rerr
		}
	}
	return err
}

// Path is the database file's path.
func (s *Bolt) Path() string { return s.path }

// Update runs fn in one bbolt read-write transaction.
func (s *Bolt) Update(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var t *txImpl
	err := s.db.Update(func(btx *bolt.Tx) error { t = newTx(boltKV{btx}); return fn(t) })
	if err != nil && t != nil {
		t.rollback()
	}
	return err
}

// View runs fn in a bbolt read-only transaction.
func (s *Bolt) View(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.View(func(btx *bolt.Tx) error { return fn(newTx(boltKV{btx})) })
}

// SchemaVersion reads the stored schema version.
func (s *Bolt) SchemaVersion() (int, error) {
	var v int
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		v, err = strconv.Atoi(string(tx.Bucket([]byte(bMeta)).Get([]byte("schema"))))
		return err
	})
	return v, err
}

// boltKV is kv over a bbolt transaction; every bucket exists (migrate).
type boltKV struct{ tx *bolt.Tx }

func (k boltKV) bucket(b string) *bolt.Bucket {
	bk := k.tx.Bucket([]byte(b))
	if bk == nil {
		panic("storage: no bucket " + b) // the schema creates every bucket
	}
	return bk
}

func (k boltKV) get(b, key string) []byte { return k.bucket(b).Get([]byte(key)) }

func (k boltKV) put(b, key string, v []byte) error {
	if !k.tx.Writable() {
		return ErrReadOnly
	}
	if v == nil {
		v = []byte{}
	}
	return k.bucket(b).Put([]byte(key), v)
}

// putBound is put: one process opens a bbolt file, so nothing is bound to
// a lease (a lease could not be granted).
func (k boltKV) putBound(b, key string, v []byte, lease int64) error {
	if lease != 0 {
		return fmt.Errorf("%w: a bbolt file has no leases", ErrLeaseLost)
	}
	return k.put(b, key, v)
}

func (k boltKV) del(b, key string) error {
	if !k.tx.Writable() {
		return ErrReadOnly
	}
	return k.bucket(b).Delete([]byte(key))
}

func (k boltKV) scan(b, from, to string, fn func(string, []byte) error) error {
	c := k.bucket(b).Cursor()
	end := []byte(to)
	for key, v := c.Seek([]byte(from)); key != nil && (to == "" || bytes.Compare(key, end) < 0); key, v = c.Next() {
		if err := fn(string(key), v); err != nil {
			if errors.Is(err, errStop) {
				return nil
			}
			return err
		}
	}
	return nil
}
