package storage

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Options configure Open. A nil *Options is the zero value; every zero
// field has the documented default.
type Options struct {
	// ReadOnly opens with a shared lock and refuses writes (ErrReadOnly).
	// The file must exist and be a seedcrawl database. Readers and a writer
	// still exclude each other (bbolt's flock), so stats on a db that a
	// crawl holds gets ErrLocked.
	ReadOnly bool

	// LockTimeout is how long Open waits for the file lock before failing
	// with ErrLocked. Zero means 1 s; negative means wait indefinitely.
	LockTimeout time.Duration

	// NoSync skips fsync at commit. Only for benchmarks and tests: after a
	// power loss (not a process kill) recent commits may be lost or the file
	// corrupted.
	NoSync bool

	// Verify runs bbolt's full consistency check (every page) at Open and
	// fails with ErrCorrupt if it finds anything. Off by default: it reads
	// the whole file.
	Verify bool

	// InitialMmapSize is passed to bbolt: the size of the first memory map,
	// which avoids remapping (and the writer waiting for readers) while the
	// file grows below it. Zero means bbolt's default (32 KiB, doubling);
	// a large value also makes bbolt grow the file in 16 MiB steps.
	InitialMmapSize int

	// URLCache is the number of committed URLs whose ids Intern and Lookup
	// remember, so that links repeated on many pages (a site's navigation)
	// are found without a bbolt lookup. Zero means DefaultURLCache;
	// negative turns the cache off. A URL is cached the second time a
	// lookup finds it committed (so URLs linked once or twice are not),
	// only if at most 512 bytes long, and copied: the cache holds at most
	// URLCache × (40 + 512) bytes, URLCache rounded up to a power of two.
	URLCache int
}

const defaultLockTimeout = time.Second

// DB is an open seedcrawl database: one bbolt file. All methods are safe
// for concurrent use. Commits are serialised by bbolt; reads run in their
// own read transactions and see the last commit.
type DB struct {
	path     string
	bolt     *bolt.DB
	readOnly bool
	closed   atomic.Bool

	advertised atomic.Bool // Advertise wrote a holder record; Close removes it

	// mu guards the id allocator: ids below committed are in the file; ids
	// committed..committed+len(pend)-1 are interned and waiting for the next
	// Commit (pend[i] has id committed+i). byURL indexes pend.
	mu        sync.Mutex
	committed uint64
	pend      []pending
	byURL     map[string]uint64
	recent    *urlCache   // committed URL -> id, for repeated links; nil if off
	seen      *seenFilter // every URL interned, while that is all the db holds; else nil
	cycle     uint32      // current cycle (1 if none was ever started)

	commitMu sync.Mutex // one Commit at a time (the allocator snapshot)
}

// pending is an interned URL not yet committed.
type pending struct {
	url   string
	from  uint64
	depth uint32
}

// Open opens (creating when needed) the seedcrawl database at path.
//
// Errors: ErrLocked (another process or DB holds it; the message names the
// path, the holder's pid when /proc/locks tells it and its status address
// when it advertised one), ErrCorrupt (not a bbolt file, truncated, or
// pages bbolt cannot read), ErrSchema (a bbolt file that is not a
// seedcrawl database, or a newer schema).
func Open(path string, opts *Options) (*DB, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	timeout := o.LockTimeout
	switch {
	case timeout == 0:
		timeout = defaultLockTimeout
	case timeout < 0:
		timeout = 0 // bbolt: wait indefinitely
	}
	if o.ReadOnly {
		fi, err := os.Stat(path)
		if err != nil {
			return nil, fmt.Errorf("storage: open %s read-only: %w", path, err)
		}
		if fi.Size() == 0 {
			// bbolt would try to initialise it and fail on the read-only
			// descriptor ("bad file descriptor").
			return nil, fmt.Errorf("storage: open %s read-only: %w: the file is empty, not a seedcrawl db", path, ErrCorrupt)
		}
	}
	if err := preflight(path); err != nil {
		return nil, err
	}
	bo := &bolt.Options{
		Timeout:         timeout,
		ReadOnly:        o.ReadOnly,
		NoSync:          o.NoSync,
		FreelistType:    bolt.FreelistMapType,
		InitialMmapSize: o.InitialMmapSize,
	}
	bdb, err := openBolt(path, bo)
	if err != nil {
		return nil, err
	}
	cache := o.URLCache
	if cache == 0 {
		cache = DefaultURLCache
	}
	db := &DB{path: path, bolt: bdb, readOnly: o.ReadOnly, byURL: make(map[string]uint64), recent: newURLCache(cache)}
	if err := db.init(o.Verify); err != nil {
		_ = bdb.Close()
		return nil, err
	}
	if !db.readOnly && db.committed == 0 {
		db.seen = newSeenFilter()
	}
	return db, nil
}

// openBolt opens the bbolt file, turning its errors (and panics on garbage)
// into ours. preflight has checked the meta and freelist pages that
// bbolt.Open reads; should it still panic, the file is closed here, but the
// memory map bbolt made keeps the file (and its lock) referenced until the
// process exits.
func openBolt(path string, bo *bolt.Options) (bdb *bolt.DB, err error) {
	var file *os.File
	bo.OpenFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag, perm)
		file = f
		return f, err
	}
	defer func() {
		if r := recover(); r != nil {
			if file != nil {
				_ = file.Close()
			}
			bdb, err = nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, path, r)
		}
	}()
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	bdb, err = bolt.Open(path, 0o644, bo)
	switch {
	case err == nil:
		return bdb, nil
	case errors.Is(err, berrors.ErrTimeout):
		return nil, lockedError(path)
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrChecksum),
		errors.Is(err, berrors.ErrVersionMismatch):
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, path, err)
	default:
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
}

// Path returns the file name the DB was opened with.
func (db *DB) Path() string { return db.path }

// Close releases the file and its lock. Interned URLs that were not
// committed are dropped (their ids are allocated again after reopening).
// Close is idempotent.
func (db *DB) Close() error {
	if db.closed.Swap(true) {
		return nil
	}
	uerr := db.unadvertise() // while the lock still makes the record ours
	if err := db.bolt.Close(); err != nil {
		return fmt.Errorf("storage: close %s: %w", db.path, err)
	}
	return uerr
}

// view runs fn in a read transaction. A panic inside bbolt (a corrupt page)
// becomes ErrCorrupt; a panic in a caller's callback (run through
// callback) is re-raised unchanged.
func (db *DB) view(fn func(tx *bolt.Tx) error) error {
	if db.closed.Load() {
		return ErrClosed
	}
	return db.guard(func() error { return db.bolt.View(fn) })
}

// viewBucket runs fn on bucket bkt in a read transaction, like view. A
// bucket created on first write is absent from a file written before it
// was used, and reads as empty: fn is not called.
func (db *DB) viewBucket(bkt []byte, fn func(b *bolt.Bucket) error) error {
	return db.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bkt)
		if b == nil {
			return nil
		}
		return fn(b)
	})
}

// update runs fn in a write transaction, like view.
func (db *DB) update(fn func(tx *bolt.Tx) error) error {
	if db.closed.Load() {
		return ErrClosed
	}
	if db.readOnly {
		return ErrReadOnly
	}
	return db.guard(func() error { return db.bolt.Update(fn) })
}

// userPanic wraps a panic raised by a caller's callback so guard can tell it
// from a bbolt panic and re-raise it.
type userPanic struct{ v any }

// callback runs a caller's function inside a transaction.
func callback(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			panic(userPanic{r})
		}
	}()
	return fn()
}

func (db *DB) guard(fn func() error) (err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if u, ok := r.(userPanic); ok {
			panic(u.v)
		}
		err = fmt.Errorf("%w: %s: %v", ErrCorrupt, db.path, r)
	}()
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	return fn()
}
