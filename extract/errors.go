package extract

import "errors"

var (
	// ErrPageURL reports a page URL that is not an absolute URL, so no link
	// of the page can be resolved.
	ErrPageURL = errors.New("extract: invalid page URL")
	// ErrSelector reports an Options.LinkSelector that is not valid CSS.
	ErrSelector = errors.New("extract: invalid link selector")
	// ErrTooDeep reports a document nested too deeply for the tree builder
	// (more than 512 open elements), which the LinkSelector path needs; the
	// streaming path has no such limit.
	ErrTooDeep = errors.New("extract: document too deeply nested for a link selector")
	// ErrInternal reports a defect (a panic) met while extracting a page,
	// or in Options.Keep: the page's links are lost, the caller goes on.
	ErrInternal = errors.New("extract: internal error")
)
