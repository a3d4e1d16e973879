package urlnorm

import (
	"errors"
	"fmt"
	"strings"
)

// Seeds normalizes seed URLs and drops repeats (after normalization),
// keeping the first of each in order. A seed that cannot be normalized
// fails the whole list with an error that wraps ErrSeed and Normalize's
// error and quotes the seed; so does a seed with userinfo, which
// Normalize would drop (the error does not quote its password).
func Seeds(seeds []string) ([]string, error) {
	out := make([]string, 0, len(seeds))
	seen := map[string]bool{}
	for _, s := range seeds {
		n, err := NormalizeSeed(s)
		if errors.Is(err, ErrUserinfo) {
			return nil, fmt.Errorf("%w: %w", ErrSeed, err) // s holds a password
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %q: %w", ErrSeed, RedactUserinfo(s), err)
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

// NormalizeSeed is Normalize for a URL a user gave, which may carry
// userinfo on purpose: such a URL is refused (ErrUserinfo, the error names
// its host but not its password) rather than crawled without the
// credentials Normalize drops. Userinfo is what the WHATWG parser reads
// as such, as Normalize does.
func NormalizeSeed(raw string) (string, error) { return normalize(raw, true) }

// RedactUserinfo returns s with the userinfo of its authority (what comes
// before an '@' in it: a user and password) replaced by "…", for quoting
// a URL a user gave in an error; s itself when it has none.
func RedactUserinfo(s string) string {
	prefix, rest := "", s
	if i := strings.IndexByte(s, ':'); i > 0 && !strings.ContainsAny(s[:i], "/?#@\\") {
		prefix, rest = s[:i+1], s[i+1:]
	}
	auth := strings.TrimLeft(rest, "/\\")
	prefix += rest[:len(rest)-len(auth)]
	end := strings.IndexAny(auth, "/?#\\")
	if end < 0 {
		end = len(auth)
	}
	if at := strings.LastIndexByte(auth[:end], '@'); at >= 0 {
		return prefix + "…@" + auth[at+1:]
	}
	return s
}
