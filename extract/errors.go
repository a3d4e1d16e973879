package extract

import "errors"

// ErrPageURL reports a page URL that is not an absolute URL, so no link of
// the page can be resolved.
var ErrPageURL = errors.New("extract: invalid page URL")
