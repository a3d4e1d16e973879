package crawler

import (
	"errors"

	"github.com/seedcrawl/seedcrawl/urlnorm"
)

var (
	// ErrOptions reports invalid Options given to New.
	ErrOptions = errors.New("crawler: invalid options")
	// ErrNoSeeds reports a crawl with nothing to do: no seed and nothing
	// pending in the stored frontier.
	ErrNoSeeds = errors.New("crawler: no seeds and nothing pending")
	// ErrSeed reports a seed URL that cannot be normalized; it is
	// urlnorm.ErrSeed, which Run's seeds are checked with (urlnorm.Seeds).
	ErrSeed = urlnorm.ErrSeed
	// ErrStopped is returned by Loop.Post once the crawl has
	// stopped.
	ErrStopped = errors.New("crawler: crawl stopped")
)
