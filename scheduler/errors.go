package scheduler

import "errors"

var (
	// ErrUnknown is returned by ByName for a name that selects no scheduler.
	ErrUnknown = errors.New("scheduler: unknown scheduler")
	// ErrBadParam is returned by ByName for a bad parameter: fpr@M with M < 1,
	// rankmass-window@P with P outside (0, 100], a damping outside (0, 1).
	ErrBadParam = errors.New("scheduler: bad parameter")
	// ErrNoTruth is returned by ByName for omniscient without Options.Truth.
	ErrNoTruth = errors.New("scheduler: omniscient needs Options.Truth")
	// ErrState is returned by UnmarshalState for state it cannot read.
	ErrState = errors.New("scheduler: bad saved state")
)
