package robots

import "errors"

var (
	// ErrURL reports a URL Check cannot decide on: not absolute http(s).
	ErrURL = errors.New("robots: URL is not absolute http or https")
	// ErrOptions reports invalid Options given to New.
	ErrOptions = errors.New("robots: invalid options")
)
