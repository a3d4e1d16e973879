package storage

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// SchemaVersion is the bucket layout this package reads and writes (doc.go).
const SchemaVersion = 1

var (
	bktMeta       = []byte("meta")
	bktURLs       = []byte("urls")
	bktPages      = []byte("pages")
	bktLinks      = []byte("links")
	bktHashes     = []byte("hashes")
	bktFetches    = []byte("fetches")
	bktFrontier   = []byte("frontier")
	bktHosts      = []byte("hosts")
	bktRobots     = []byte("robots")
	bktCounters   = []byte("counters")
	bktState      = []byte("state")
	bktRuns       = []byte("runs")
	bktCycles     = []byte("cycles")
	bktCycleStats = []byte("cyclestats")

	allBuckets = [][]byte{
		bktMeta, bktURLs, bktPages, bktLinks, bktHashes, bktFetches, bktFrontier,
		bktHosts, bktRobots, bktCounters, bktState, bktRuns, bktCycles, bktCycleStats,
	}

	keyApp     = []byte("app")
	keySchema  = []byte("schema")
	keyCreated = []byte("created")
	keyNextID  = []byte("next_id")
	keyCycle   = []byte("cycle")
	keyNextRun = []byte("next_run")

	appName = []byte("seedcrawl")
)

// init creates the buckets of a new file, checks the schema of an existing
// one and loads the allocator state.
func (db *DB) init(verify bool) error {
	fresh := false
	err := db.guard(func() error {
		return db.bolt.View(func(tx *bolt.Tx) error {
			if err := db.checkSize(tx); err != nil {
				return err
			}
			m := tx.Bucket(bktMeta)
			if m == nil {
				empty := true
				_ = tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
				if !empty {
					return fmt.Errorf("%w: %s: a bbolt file without seedcrawl's meta bucket", ErrSchema, db.path)
				}
				fresh = true
				return nil
			}
			if !bytes.Equal(m.Get(keyApp), appName) {
				return fmt.Errorf("%w: %s: meta bucket does not name seedcrawl", ErrSchema, db.path)
			}
			v := m.Get(keySchema)
			if len(v) != 4 {
				return fmt.Errorf("%w: %s: no schema version", ErrSchema, db.path)
			}
			if s := getU32(v); s != SchemaVersion {
				return fmt.Errorf("%w: %s: schema version %d, this seedcrawl reads %d", ErrSchema, db.path, s, SchemaVersion)
			}
			for _, b := range allBuckets {
				if tx.Bucket(b) == nil {
					return fmt.Errorf("%w: %s: bucket %q missing", ErrCorrupt, db.path, b)
				}
			}
			return db.loadMeta(m)
		})
	})
	if err != nil {
		return err
	}
	if fresh {
		if db.readOnly {
			return fmt.Errorf("%w: %s: empty file, not a seedcrawl database", ErrSchema, db.path)
		}
		err = db.update(func(tx *bolt.Tx) error {
			// The admitted index is optional (older files have none) but a
			// new file has it from the start, so it never needs building.
			for _, b := range append(allBuckets, bktAdmitted) {
				if _, err := tx.CreateBucketIfNotExists(b); err != nil {
					return fmt.Errorf("create bucket %s: %w", b, err)
				}
			}
			m := tx.Bucket(bktMeta)
			puts := []struct{ k, v []byte }{
				{keyApp, appName},
				{keySchema, u32key(SchemaVersion)},
				{keyCreated, u64key(uint64(time.Now().UnixNano()))},
				{keyNextID, u64key(0)},
				{keyCycle, u32key(1)},
				{keyNextRun, u64key(0)},
			}
			for _, p := range puts {
				if err := m.Put(p.k, p.v); err != nil {
					return fmt.Errorf("put meta %s: %w", p.k, err)
				}
			}
			return db.loadMeta(m)
		})
		if err != nil {
			return fmt.Errorf("storage: initialise %s: %w", db.path, err)
		}
	}
	if verify {
		if err := db.verify(); err != nil {
			return err
		}
	}
	return nil
}

func (db *DB) loadMeta(m *bolt.Bucket) error {
	v := m.Get(keyNextID)
	c := m.Get(keyCycle)
	if len(v) != 8 || len(c) != 4 {
		return fmt.Errorf("%w: %s: meta next_id/cycle missing", ErrCorrupt, db.path)
	}
	db.committed = getU64(v)
	db.cycle = getU32(c)
	return nil
}

// checkSize compares the file size with the size the meta page claims; the
// pre-open check did the same before bbolt mapped the file, this catches a
// file truncated between the two.
func (db *DB) checkSize(tx *bolt.Tx) error {
	fi, err := statFile(db.path)
	if err != nil {
		return fmt.Errorf("storage: stat %s: %w", db.path, err)
	}
	if fi < tx.Size() {
		return fmt.Errorf("%w: %s: file has %d bytes, its meta page says %d (truncated?)", ErrCorrupt, db.path, fi, tx.Size())
	}
	return nil
}

// verify runs bbolt's consistency check.
func (db *DB) verify() error {
	return db.view(func(tx *bolt.Tx) error {
		var errs []error
		// Drain the channel: the check goroutine reads the tx until it ends.
		for err := range tx.Check() {
			if len(errs) < 10 {
				errs = append(errs, err)
			}
		}
		if len(errs) > 0 {
			return fmt.Errorf("%w: %s: consistency check: %w", ErrCorrupt, db.path, errors.Join(errs...))
		}
		return nil
	})
}
