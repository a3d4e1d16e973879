package sitemap

import (
	"net/http"
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

// maxClockSkew is how far a server's Date may lie from the crawler's
// clock and still be taken as the server's clock (ServerTime). Clocks off
// by hours are common; a Date years away is a lie (a server that sends
// the year 9000 would otherwise let every lastmod up to it count).
const maxClockSkew = 30 * 24 * time.Hour

// ServerTime is the time on the server's clock when it answered: its
// Date header (RFC 9110's HTTP-date), else fetchedAt, the crawler's clock
// at the fetch, for a server that sent none, a malformed one, or one more
// than 30 days from fetchedAt (maxClockSkew).
func ServerTime(date string, fetchedAt time.Time) time.Time {
	if t, err := http.ParseTime(date); err == nil && t.Sub(fetchedAt).Abs() <= maxClockSkew {
		return t.UTC()
	}
	return fetchedAt.UTC()
}

// lastModSlack is how far a lastmod may lie after the server's time and
// still count: a Date header has whole seconds, so a lastmod of the same
// second with a fraction sorts after it.
const lastModSlack = time.Second

// firstLastMod is the earliest lastmod ClampLastMod keeps: 1990, before the
// Web. Earlier values are placeholders ("0001-01-01") or mistakes, and the
// years before 1678 do not even fit a time in nanoseconds since 1970, how
// storage keeps a lastmod: stored, they would read back in the future.
func firstLastMod() time.Time { return time.Date(1990, 1, 1, 0, 0, 0, 0, time.UTC) }

// ClampLastMod holds the lastmod values of r to what a crawl can use,
// given now, the server's clock when it sent the file (ServerTime). A
// value later than now by more than a second (the Date header's
// resolution) says a page changed in the future, often a template's
// placeholder or a misset clock: kept, it would make the page look changed
// after every fetch, due in every cycle. A value before 1990 is no date a
// page changed (firstLastMod). Both are dropped, as if the file gave none,
// flagged (Listed.DroppedLastMod) and counted (FutureLastMods,
// PastLastMods); a value within the second after now becomes now. It
// returns how many it dropped.
func (r *FileRead) ClampLastMod(now time.Time) int {
	first := firstLastMod()
	n := 0
	for i := range r.URLs {
		l := &r.URLs[i]
		switch lm := l.LastMod; {
		case lm.IsZero():
			continue
		case lm.After(now.Add(lastModSlack)):
			r.FutureLastMods++
		case lm.Before(first):
			r.PastLastMods++
		case lm.After(now):
			l.LastMod = now
			continue
		default:
			continue
		}
		l.LastMod, l.DroppedLastMod = time.Time{}, true
		n++
	}
	return n
}
