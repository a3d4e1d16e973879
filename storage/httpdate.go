package storage

import "time"

// httpDateLayouts are the three forms of an HTTP date a recipient must
// accept (RFC 9110, section 5.6.7): IMF-fixdate, then the obsolete RFC 850
// and asctime forms.
var httpDateLayouts = [...]string{
	"Mon, 02 Jan 2006 15:04:05 GMT",
	"Monday, 02-Jan-06 15:04:05 GMT",
	"Mon Jan _2 15:04:05 2006",
}

// maxHTTPDate bounds what parseHTTPDate reads: the longest layout with a
// long weekday name, so a lying header costs no more than a date.
const maxHTTPDate = 40

// parseHTTPDate parses a Date or Last-Modified header value; a value
// that is none of the forms (or absurdly long) gives the zero time, which
// the fetch history stores as "unknown". It is net/http's ParseTime
// without importing net/http into storage.
func parseHTTPDate(v string) time.Time {
	if v == "" || len(v) > maxHTTPDate {
		return time.Time{}
	}
	for _, l := range httpDateLayouts {
		if t, err := time.Parse(l, v); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}
