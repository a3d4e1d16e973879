package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// preflightLockWait is how long preflight waits for the file's lock before
// leaving the file to the real open, which reports who holds it.
const preflightLockWait = 10 * time.Millisecond

// preflight checks an existing file before the read-write open, with
// bbolt's public API only. bbolt trusts the file's meta page: it maps the
// file up to the high-water mark recorded there and faults (SIGBUS, not a
// recoverable panic) on a page past the end of a truncated file, and it
// panics on a damaged freelist page while it holds the file lock. So:
//
//  1. a read-only open without the freelist reads and checksums the two
//     meta pages and nothing else: a file that is not a bbolt database is
//     refused here;
//  2. in a read transaction, Tx.Size (the high-water mark) against the
//     file's size: a truncated file is refused before any page past its end
//     is touched;
//  3. a second read-only open with PreLoadFreelist reads the freelist page
//     as the read-write open would; a panic there (or a fault, which
//     SetPanicOnFault turns into one) is a damaged file.
//
// After case 3 the aborted open's memory map keeps the file, and a shared
// lock on it, until the process exits: a later open of the same file in
// this process is refused by preflight again, as it should be. Free page
// ids are not checked one by one (bbolt offers no public reader for them);
// tx.Check would, at the cost of reading the whole file. A missing or empty
// file is fine (bbolt creates it); a file locked by another process is left
// to the read-write open, which reports ErrLocked.
func preflight(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// A new db: its directory must exist (bbolt's error would name the
		// file twice and not say which part is missing).
		dir := filepath.Dir(path)
		if di, err := os.Stat(dir); err != nil || !di.IsDir() {
			return fmt.Errorf("storage: create %s: directory %s: %w (create the directory first)", path, dir, fs.ErrNotExist)
		}
		return nil
	case err != nil:
		return fmt.Errorf("storage: open %s: %w", path, err)
	case fi.IsDir():
		return fmt.Errorf("storage: open %s: is a directory", path)
	case fi.Size() == 0:
		return nil
	}
	size := fi.Size()
	err = peek(path, false, func(tx *bolt.Tx) error {
		if need := tx.Size(); size < need {
			return fmt.Errorf("%w: %s: truncated: %d bytes, its meta page says %d", ErrCorrupt, path, size, need)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return peek(path, true, nil)
}

// peek opens path read-only (with the freelist loaded when freelist) and
// runs check, if any, in a read transaction. A file locked by another
// process is not an error here; any other failure to open that is not an
// unreadable file is ErrCorrupt.
func peek(path string, freelist bool, check func(tx *bolt.Tx) error) error {
	bdb, err := openBolt(path, &bolt.Options{ReadOnly: true, Timeout: preflightLockWait, PreLoadFreelist: freelist})
	switch {
	case err == nil:
	case errors.Is(err, ErrLocked):
		return nil
	case errors.Is(err, ErrCorrupt), errors.Is(err, fs.ErrPermission), errors.Is(err, fs.ErrNotExist):
		return err
	default:
		return fmt.Errorf("%w: %s: not a bbolt database: %w", ErrCorrupt, path, err)
	}
	defer bdb.Close()
	if check == nil {
		return nil
	}
	return bdb.View(check)
}

// statFile returns the size of the file at path.
func statFile(path string) (int64, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}
