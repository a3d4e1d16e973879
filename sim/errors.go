package sim

import "errors"

var (
	// ErrNoSeeds is returned when a seed specification selects no node.
	ErrNoSeeds = errors.New("sim: no seeds")
	// ErrSeedSpec is wrapped by errors about a malformed --seeds value or
	// seed file.
	ErrSeedSpec = errors.New("sim: bad seed specification")
	// ErrHosts is wrapped by errors about a malformed host map.
	ErrHosts = errors.New("sim: bad host map")
	// ErrEmptyGraph is returned for a graph without nodes.
	ErrEmptyGraph = errors.New("sim: graph has no nodes")
	// ErrOptions is wrapped by errors about other invalid Options (damping,
	// a PageRank vector of the wrong length).
	ErrOptions = errors.New("sim: invalid options")
)
