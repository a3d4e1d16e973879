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
	// ErrUnrecovered reports a file named as the Writer names its files,
	// found without an index, that Open could not recover: it is left
	// without an index, unchanged unless a partial last record pair was
	// cut before its index failed (Writer.Unrecovered).
	ErrUnrecovered = errors.New("warc: a file left without an index")
	// errDate reports a response or revisit record whose WARC-Date is not
	// a date as the Writer writes them: a whole record, of another
	// writer, that recovery never cuts.
	errDate = errors.New("WARC-Date not in RFC 3339")
)
