package graph

import "errors"

// ErrFormat is wrapped by every error about malformed dataset input.
var ErrFormat = errors.New("graph: malformed dataset")
