package warc

// The test helpers the external tests (package warc_test, which may
// import packages that import warc, such as fetch) share with the
// package's own tests.
var (
	OpenWriter = openWriter
	ReadAll    = readAll
	Types      = types
)
