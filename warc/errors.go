package warc

import "errors"

var (
	// ErrClosed reports a write to a closed Writer.
	ErrClosed = errors.New("warc: writer closed")
	// ErrOptions reports invalid Options.
	ErrOptions = errors.New("warc: invalid options")
	// ErrExchange reports an Exchange that cannot be written (no URL, no
	// response bytes).
	ErrExchange = errors.New("warc: invalid exchange")
	// ErrFormat reports input that is not a well-formed WARC record.
	ErrFormat = errors.New("warc: malformed record")
	// ErrTooLarge reports a record longer than the reader's limit.
	ErrTooLarge = errors.New("warc: record too large")
	// ErrDigest reports a record whose block or payload does not match
	// its declared digest.
	ErrDigest = errors.New("warc: digest mismatch")
	// ErrUnrecovered reports a file a killed Writer left without an
	// index that Open could not recover: it is left without an index,
	// unchanged unless a partial last exchange was cut before its index
	// failed (Writer.Unrecovered).
	ErrUnrecovered = errors.New("warc: an earlier writer's file left without an index")
)
