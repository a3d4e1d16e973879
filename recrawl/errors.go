package recrawl

import "errors"

var (
	// ErrOptions reports invalid Options given to New.
	ErrOptions = errors.New("recrawl: invalid options")
	// ErrNoSeeds reports a first cycle without seeds.
	ErrNoSeeds = errors.New("recrawl: no seeds for the first cycle")
)

// ErrCorrupt reports a stored recrawl state that cannot be decoded.
var ErrCorrupt = errors.New("recrawl: corrupt stored state")

// errFrontierHasEntry stops LoadFrontier at its first entry (Runner.crawlPlan
// only asks whether the frontier is empty).
var errFrontierHasEntry = errors.New("recrawl: frontier has an entry")
