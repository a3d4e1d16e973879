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
)

// Defaults for Guard's zero fields.
const (
	DefaultMaxLen         = 2048
	DefaultMaxSegments    = 32
	DefaultMaxRepeats     = 3
	DefaultMaxQueryParams = 32
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
	maxSeg := pick(g.MaxSegments, DefaultMaxSegments)
	maxRep := pick(g.MaxRepeats, DefaultMaxRepeats)
	if maxSeg <= 0 && maxRep <= 0 {
		return "", true
	}
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if maxSeg > 0 && len(segs) > maxSeg {
		return ReasonTooManySegments, false
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
