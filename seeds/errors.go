package seeds

import "errors"

var (
	// ErrUnknownAlgo is returned for a selector name that Algos does not list.
	ErrUnknownAlgo = errors.New("seeds: unknown selector")
	// ErrOptions is wrapped by errors about invalid Options or Input.
	ErrOptions = errors.New("seeds: invalid options")
	// ErrNoHosts is returned when PerHost is set on a graph without hosts.
	ErrNoHosts = errors.New("seeds: graph has no host names")
	// ErrWeights is wrapped by errors about a malformed weights file.
	ErrWeights = errors.New("seeds: malformed weights file")
)
