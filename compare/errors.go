package compare

import "errors"

var (
	// ErrOptions is wrapped by errors about invalid Options (no seeds, no
	// schedulers, a repeated or unknown scheduler, a budget below 1).
	ErrOptions = errors.New("compare: invalid options")
	// ErrProgress is wrapped when a stored download sequence does not
	// replay: it names a URL the crawl could not have downloaded next, or a
	// page the store does not hold. The comparison was made with other
	// options (seeds, schedulers, window, damping) or the store is damaged.
	ErrProgress = errors.New("compare: stored progress does not replay")
	// ErrWebClosed is returned when the Web's Results channel closes while
	// crawls still wait for pages.
	ErrWebClosed = errors.New("compare: web closed its results")
	// ErrUnknownPage is wrapped when a download sequence given to Score
	// names a URL that is not among the fetched pages.
	ErrUnknownPage = errors.New("compare: downloaded URL is not a fetched page")
)
