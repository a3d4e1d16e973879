package changerate

import "errors"

// ErrInput is wrapped by the errors of every function here for input
// outside its domain: negative counts, more changes than accesses,
// intervals or budgets that are not positive finite numbers, slices of
// different lengths.
var ErrInput = errors.New("changerate: invalid input")
