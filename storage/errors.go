package storage

import "errors"

// Sentinel errors. Every error returned by this package wraps one of these or
// an underlying I/O or bbolt error, together with the db path or the key
// involved; test with errors.Is.
var (
	// ErrLocked means another process (or another open DB in this process)
	// holds the database file. The wrapping error names the path and, when it
	// can be found, the holder's pid.
	ErrLocked = errors.New("storage: database in use")

	// ErrCorrupt means the file is not a usable bbolt database: no valid
	// meta page, shorter than its own meta page says, or a page that bbolt
	// could not decode. The wrapping error names the path.
	ErrCorrupt = errors.New("storage: database corrupt")

	// ErrSchema means the file is a bbolt database but not a seedcrawl one,
	// or one written by a newer seedcrawl with a schema this code does not
	// know.
	ErrSchema = errors.New("storage: unsupported schema")

	// ErrReadOnly is returned by every write on a DB opened with
	// Options.ReadOnly.
	ErrReadOnly = errors.New("storage: database opened read-only")

	// ErrClosed is returned by every method called after Close.
	ErrClosed = errors.New("storage: database closed")

	// ErrNotFound is returned by single-record reads (Page, PageByURL,
	// Cycle) when the record does not exist.
	ErrNotFound = errors.New("storage: not found")

	// ErrUnknownID means a batch or a call referenced a page id that was
	// neither committed nor interned before the commit started.
	ErrUnknownID = errors.New("storage: unknown page id")

	// ErrBadURL means a URL cannot be stored: empty, or longer than
	// MaxURLLen bytes (a bbolt key limit).
	ErrBadURL = errors.New("storage: bad url")

	// ErrCycleOrder means a batch started a cycle that is not the current
	// cycle or the one after it.
	ErrCycleOrder = errors.New("storage: cycle out of order")

	// ErrBadStatus means Batch.AddFetch was given a status that is not the
	// outcome of a fetch (fetched, not-modified, redirect, http-error,
	// fetch-error, gone); use Batch.SetStatus for the others.
	ErrBadStatus = errors.New("storage: not a fetch status")

	// ErrBadRecord means a record given to a Batch is out of range (a
	// sitemap mark deeper than 255 or with an over-long origin), or a
	// stored side record has the wrong size.
	ErrBadRecord = errors.New("storage: bad record")
)
