package fetch

import "errors"

var (
	// ErrPrivateAddress reports a dial refused by the SSRF guard: the host
	// resolved to a special-purpose address (loopback, private, link-local,
	// multicast, documentation, ...) and was not allowed to.
	ErrPrivateAddress = errors.New("fetch: refusing private address")
	// ErrResolve reports a malformed resolve entry or file.
	ErrResolve = errors.New("fetch: bad resolve entry")
	// ErrOptions reports invalid Options.
	ErrOptions = errors.New("fetch: invalid options")
	// ErrBomb reports a compressed body that expands beyond the limits.
	ErrBomb = errors.New("fetch: decompression bomb refused")
	// ErrEncoding reports a Content-Encoding that cannot be decoded.
	ErrEncoding = errors.New("fetch: unsupported content encoding")
	// ErrNotRecording reports a Fetcher asked to Record on a transport
	// that was not built with Options.Record, so no bytes were captured.
	ErrNotRecording = errors.New("fetch: transport does not record; build it with Options.Record")
)
