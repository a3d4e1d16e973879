package testweb

import "errors"

var (
	// ErrOptions is wrapped by every error about invalid generator, graph or
	// server options.
	ErrOptions = errors.New("testweb: invalid options")
	// ErrNotHTTP is wrapped by errors about URLs that are not absolute http
	// or https URLs with a host.
	ErrNotHTTP = errors.New("testweb: not an absolute http(s) URL")
	// ErrUnknownURL is wrapped when a URL is not served by the test web.
	ErrUnknownURL = errors.New("testweb: URL not in the test web")
	// ErrEpoch is wrapped when an epoch is out of range.
	ErrEpoch = errors.New("testweb: epoch out of range")
	// ErrLogFormat is wrapped by ParseEntry errors.
	ErrLogFormat = errors.New("testweb: malformed access log line")
)
