package urlnorm

import (
	"fmt"
	"net/url"
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
		if u, err := url.Parse(s); err == nil && u.User != nil {
			return nil, fmt.Errorf("%w: %q: %w: credentials in a URL are not sent (remove the user:password@ part)", ErrSeed, u.Redacted(), ErrUserinfo)
		}
		n, err := Normalize(s)
		if err != nil {
			return nil, fmt.Errorf("%w: %q: %w", ErrSeed, s, err)
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}
