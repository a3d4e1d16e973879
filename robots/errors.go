package robots

import "errors"

var (
	// ErrURL reports a URL Check cannot decide on: not absolute http(s).
	ErrURL = errors.New("robots: URL is not absolute http or https")
	// ErrOptions reports invalid Options given to New.
	ErrOptions = errors.New("robots: invalid options")
)

// errTooManyRedirects stops the robots.txt client after MaxRedirects hops;
// fetch turns it into StateAllowAll (RFC 9309 2.3.1.2), so it never reaches
// a caller.
var errTooManyRedirects = errors.New("robots: too many redirects")
