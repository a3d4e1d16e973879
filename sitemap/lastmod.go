package sitemap

import (
	"strings"
	"time"
)

// lastModLayouts are the W3C datetime forms sitemaps.org names (year,
// year-month, date, date with hours and minutes, with seconds, with a
// decimal fraction of a second; time zone Z or ±hh:mm), then lenient forms
// seen in real sitemaps: no time zone (read as UTC), ±hhmm, and a space
// instead of 'T'. time.Parse accepts a fraction after the seconds of any
// layout that has seconds.
var lastModLayouts = [...]string{
	"2006-01-02",
	"2006-01-02T15:04:05Z07:00",
	"2006-01-02T15:04Z07:00",
	"2006",
	"2006-01",
	"2006-01-02T15:04:05",
	"2006-01-02T15:04",
	"2006-01-02T15:04:05Z0700",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05",
}

// ParseLastMod parses a sitemap lastmod value (a W3C datetime, or one of
// the lenient forms real sitemaps use) and returns it in UTC.
func ParseLastMod(v string) (time.Time, bool) {
	v = strings.TrimSpace(v)
	if len(v) < 4 || len(v) > 40 {
		return time.Time{}, false
	}
	for _, l := range lastModLayouts {
		if t, err := time.Parse(l, v); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
