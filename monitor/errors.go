package monitor

import "errors"

// ErrBadStatus means an address answered /status with something that is
// not a seedcrawl status: a wrong HTTP code, a wrong content type, or JSON
// that does not decode.
var ErrBadStatus = errors.New("monitor: bad status response")
