package graph

import "errors"

// ErrFormat is wrapped by every error about malformed graph input: the
// dataset format, SNAP edge lists and BVGraph files alike.
var ErrFormat = errors.New("graph: malformed graph file")

// ErrUnknownFormat is wrapped when a graph format name is not one ReadFile
// knows.
var ErrUnknownFormat = errors.New("graph: unknown graph format")
