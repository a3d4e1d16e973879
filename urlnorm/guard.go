package urlnorm

import "strings"

// Rejection reasons returned by Guard.Check. They are stable strings meant
// to be counted and stored ("rejections by reason").
const (
	// ReasonTooLong: the URL is longer than Guard.MaxLen bytes.
	ReasonTooLong = "url-too-long"
	// ReasonTooManySegments: the path has more than Guard.MaxSegments segments.
	ReasonTooManySegments = "too-many-segments"
	// ReasonRepeatedSegments: a run of 1 to 3 path segments repeats more than
	// Guard.MaxRepeats times in a row ("/a/b/a/b/a/b/..."), the shape of
	// relative-link loops and session-id traps.
	ReasonRepeatedSegments = "repeated-segments"
	// ReasonTooManyParams: the query has more than Guard.MaxQueryParams
	// parameters.
	ReasonTooManyParams = "too-many-params"
	// ReasonCalendarDate: the URL names a date (see Dated) outside the
	// years Guard.MinYear..Guard.MaxYear, the signature of an infinite
	// calendar walked month by month into the past or the future.
	ReasonCalendarDate = "calendar-date"
)

// Defaults for Guard's zero fields.
const (
	DefaultMaxLen         = 2048
	DefaultMaxSegments    = 32
	DefaultMaxRepeats     = 3
	DefaultMaxQueryParams = 32
	// DefaultMinYear is the earliest year a dated URL may name: nothing on
	// the web predates it, while calendars happily link to year 1.
	DefaultMinYear = 1990
)

// Guard rejects URLs shaped like crawler traps. A zero field means its
// default; a negative field turns that check off. The zero Guard applies
// every check with its default. Guard is a value type, safe to share.
//
// The checks follow Heritrix's decide rules: TooManyPathSegmentsDecideRule
// (path depth) and PathologicalPathDecideRule (a segment repeated in a row),
// generalized here to runs of up to three segments so "/a/b/a/b/a/b" is
// caught as well as "/a/a/a".
type Guard struct {
	// MaxLen is the longest URL accepted, in bytes. Default 2048.
	MaxLen int
	// MaxSegments is the most path segments accepted. Default 32.
	MaxSegments int
	// MaxRepeats is how many times in a row a run of 1 to 3 segments may
	// occur. Default 3 ("/a/a/a" passes, "/a/a/a/a" does not).
	MaxRepeats int
	// MaxQueryParams is the most '&'-separated query parameters accepted.
	// Default 32.
	MaxQueryParams int
	// MinYear and MaxYear bound the year of a dated URL (Dated). MinYear
	// defaults to DefaultMinYear; MaxYear 0 means no upper bound, so the
	// caller that knows the date sets it (the crawl sets next year + 1: a
	// calendar's pages years ahead are empty and endless).
	MinYear int
	MaxYear int
}

func pick(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// Check reports whether the normalized URL u passes the guard; when it does
// not, reason is one of the Reason constants.
func (g Guard) Check(u string) (reason string, ok bool) {
	if max := pick(g.MaxLen, DefaultMaxLen); max > 0 && len(u) > max {
		return ReasonTooLong, false
	}
	path, query := splitPathQuery(u)
	if max := pick(g.MaxQueryParams, DefaultMaxQueryParams); max > 0 && query != "" {
		if strings.Count(query, "&")+1 > max {
			return ReasonTooManyParams, false
		}
	}
	if minY := pick(g.MinYear, DefaultMinYear); minY > 0 || g.MaxYear > 0 {
		if y, _, ok := datedParts(path, query); ok && ((minY > 0 && y < minY) || (g.MaxYear > 0 && y > g.MaxYear)) {
			return ReasonCalendarDate, false
		}
	}
	maxSeg := pick(g.MaxSegments, DefaultMaxSegments)
	maxRep := pick(g.MaxRepeats, DefaultMaxRepeats)
	if maxSeg <= 0 && maxRep <= 0 {
		return "", true
	}
	// The segments are substrings of u, gathered in an array on the
	// stack: the crawler checks every link of every page, and a slice
	// per check was the largest count of allocations in a crawl. Paths
	// deeper than the array (only when MaxSegments is above its default
	// or off) grow onto the heap.
	var buf [DefaultMaxSegments + 1]string
	segs := buf[:0]
	for rest := strings.TrimPrefix(path, "/"); ; {
		seg, after, more := strings.Cut(rest, "/")
		segs = append(segs, seg)
		if maxSeg > 0 && len(segs) > maxSeg {
			return ReasonTooManySegments, false
		}
		if !more {
			break
		}
		rest = after
	}
	if maxRep > 0 && repeatedRun(segs, maxRep) {
		return ReasonRepeatedSegments, false
	}
	return "", true
}

// repeatedRun reports whether some run of period 1..3 segments occurs more
// than max times consecutively. Empty segments (from "//" or a trailing
// slash) do not count as a run.
func repeatedRun(segs []string, max int) bool {
	for period := 1; period <= 3; period++ {
		// reps counts how many consecutive periods equal the previous one,
		// ending at position i.
		run := 0
		for i := period; i < len(segs); i++ {
			if segs[i] != "" && segs[i] == segs[i-period] {
				run++
				// run segments matched their predecessor one period back, so
				// the pattern has occurred run/period + 1 times in a row.
				if run/period+1 > max {
					return true
				}
			} else {
				run = 0
			}
		}
	}
	return false
}

// splitPathQuery returns the path and query of an absolute URL string,
// without parsing it: the part after the authority up to '?', and the part
// after '?' up to '#'.
func splitPathQuery(u string) (path, query string) {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
		if j := strings.IndexByte(u, '/'); j >= 0 {
			u = u[j:]
		} else if j := strings.IndexByte(u, '?'); j >= 0 {
			u = u[j:]
		} else {
			u = ""
		}
	}
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u = u[:i]
	}
	if i := strings.IndexByte(u, '?'); i >= 0 {
		return u[:i], u[i+1:]
	}
	return u, ""
}

// Dated reports whether the URL u names a year and month, as calendar and
// archive pages do, and returns them. Recognised forms, in the path:
// ".../YYYY/MM/..." (a four-digit year segment followed by a month
// segment), a segment "YYYY-MM", "YYYY-MM-DD", "YYYY_MM" or "YYYYMMDD"; in
// the query: a value of one of those forms, or parameters year=YYYY with
// month=MM. A lone four-digit segment is not a date: ids and version
// numbers look the same.
func Dated(u string) (year, month int, ok bool) {
	return datedParts(splitPathQuery(u))
}

func datedParts(path, query string) (year, month int, ok bool) {
	prevYear := -1
	for seg := range strings.SplitSeq(path, "/") {
		if prevYear >= 0 {
			if m, ok := num(seg, 1, 2); ok && m >= 1 && m <= 12 {
				return prevYear, m, true
			}
		}
		prevYear = -1
		if y, ok := num(seg, 4, 4); ok {
			prevYear = y
			continue
		}
		if y, m, ok := compactDate(seg); ok {
			return y, m, true
		}
	}
	if query == "" {
		return 0, 0, false
	}
	qy, qm := -1, -1
	for kv := range strings.SplitSeq(query, "&") {
		k, v, _ := strings.Cut(kv, "=")
		if y, m, ok := compactDate(v); ok {
			return y, m, true
		}
		switch strings.ToLower(k) {
		case "year", "y":
			qy, _ = numOr(v, 4, 4)
		case "month", "m", "mon":
			qm, _ = numOr(v, 1, 2)
		}
	}
	if qy >= 0 && qm >= 1 && qm <= 12 {
		return qy, qm, true
	}
	return 0, 0, false
}

// compactDate parses "YYYY-MM", "YYYY-MM-DD", "YYYY_MM" and "YYYYMMDD".
func compactDate(s string) (year, month int, ok bool) {
	switch {
	case len(s) == 8:
		y, ok1 := num(s[:4], 4, 4)
		m, ok2 := num(s[4:6], 2, 2)
		d, ok3 := num(s[6:], 2, 2)
		if ok1 && ok2 && ok3 && m >= 1 && m <= 12 && d >= 1 && d <= 31 {
			return y, m, true
		}
	case len(s) >= 7 && (s[4] == '-' || s[4] == '_'):
		y, ok1 := num(s[:4], 4, 4)
		m, ok2 := num(s[5:7], 2, 2)
		if !ok1 || !ok2 || m < 1 || m > 12 {
			return 0, 0, false
		}
		if len(s) == 7 {
			return y, m, true
		}
		if len(s) == 10 && s[7] == s[4] {
			if d, ok := num(s[8:], 2, 2); ok && d >= 1 && d <= 31 {
				return y, m, true
			}
		}
	}
	return 0, 0, false
}

// num parses s as a decimal of minLen to maxLen digits.
func num(s string, minLen, maxLen int) (int, bool) {
	if len(s) < minLen || len(s) > maxLen {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func numOr(s string, minLen, maxLen int) (int, bool) {
	n, ok := num(s, minLen, maxLen)
	if !ok {
		return -1, false
	}
	return n, true
}

// DateTemplate returns u with the date it names (see Dated) replaced by
// placeholders, so the pages of one calendar or archive share a template
// ("http://h/calendar/{y}/{m}/") while dated pages with their own names
// ("/2019/05/21/a-post/") keep distinct ones; ok is false when u is not
// dated.
func DateTemplate(u string) (template string, ok bool) {
	if _, _, ok := Dated(u); !ok {
		return "", false
	}
	head, rest := u, ""
	if i := strings.Index(u, "://"); i >= 0 {
		if j := strings.IndexAny(u[i+3:], "/?#"); j >= 0 {
			head, rest = u[:i+3+j], u[i+3+j:]
		} else {
			return u, true
		}
	}
	path, query := splitPathQuery("x://h" + rest)
	var b strings.Builder
	b.WriteString(head)
	segs := strings.Split(path, "/")
	prevYear := false
	for i, seg := range segs {
		if i > 0 {
			b.WriteByte('/')
		}
		if m, isMonth := num(seg, 1, 2); prevYear && isMonth && m >= 1 && m <= 12 {
			b.WriteString("{m}")
			prevYear = false
			continue
		}
		if _, ok := num(seg, 4, 4); ok {
			b.WriteString("{y}")
			prevYear = true
			continue
		}
		prevYear = false
		if _, _, ok := compactDate(seg); ok {
			b.WriteString("{date}")
			continue
		}
		b.WriteString(seg)
	}
	if query != "" {
		b.WriteByte('?')
		for i, kv := range strings.Split(query, "&") {
			if i > 0 {
				b.WriteByte('&')
			}
			k, v, _ := strings.Cut(kv, "=")
			if _, _, ok := compactDate(v); ok {
				v = "{date}"
			}
			switch strings.ToLower(k) {
			case "year", "y", "month", "m", "mon":
				v = "{" + strings.ToLower(k) + "}"
			}
			b.WriteString(k + "=" + v)
		}
	}
	return b.String(), true
}
