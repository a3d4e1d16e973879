package frontier

import "errors"

var (
	// ErrExhausted is returned by Next when nothing is queued, nothing is
	// in flight and nothing is held: no completion can add URLs any more,
	// so the crawl is over. A Next stopped on a dry frontier wraps it with
	// its ctx's error.
	// It is "never", as opposed to "not now", for which Next blocks.
	ErrExhausted = errors.New("frontier: exhausted")

	// ErrNotInFlight is returned by Complete and Requeue for a job that the
	// frontier did not hand out, or that was already completed or requeued.
	ErrNotInFlight = errors.New("frontier: job not in flight")

	// ErrNotEmpty is returned by Restore when the frontier already holds
	// URLs or hosts: a snapshot is loaded into a fresh frontier only.
	ErrNotEmpty = errors.New("frontier: restore into a non-empty frontier")

	// ErrNoScheduler is returned by New when Options.Scheduler is nil.
	ErrNoScheduler = errors.New("frontier: no scheduler")
)
