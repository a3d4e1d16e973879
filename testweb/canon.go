package testweb

import (
	"fmt"
	"strings"

	"github.com/seedcrawl/seedcrawl/internal/percent"
)

// The canonical form of a URL in the test web is what seedcrawl's urlnorm
// package produces: lower-case scheme and host, default port dropped, empty
// path written "/", fragment and empty query dropped, dot segments removed,
// escapes of unreserved characters decoded, other escapes in upper-case hex,
// and bytes outside the RFC 3986 path (query) characters escaped. It is
// re-implemented here, without importing urlnorm, so the truth is an
// independent oracle for the crawler's normalizer; only the percent-encoding
// rule is shared, from internal/percent, which tests it on its own.

// The bytes kept as they are in each component; any other byte is escaped,
// a '%' that starts no escape as "%25".
var (
	// pathKeep: pchar and '/' (RFC 3986 section 3.3).
	pathKeep = percent.MakeSet(percent.Unreserved + "!$&'()*+,;=" + ":@/")
	// queryKeep: pchar, '/' and '?' minus the apostrophe, which the WHATWG
	// URL parser escapes in the query of http(s) URLs.
	queryKeep = percent.MakeSet(percent.Unreserved + "!$&()*+,;=" + ":@/?")
)

// hasDotSegment reports whether path has a "." or ".." segment.
func hasDotSegment(p string) bool {
	for i := 0; i < len(p); i++ {
		if p[i] != '.' || (i > 0 && p[i-1] != '/') {
			continue
		}
		j := i + 1
		if j < len(p) && p[j] == '.' {
			j++
		}
		if j == len(p) || p[j] == '/' {
			return true
		}
	}
	return false
}

// removeDotSegments implements RFC 3986 section 5.2.4 for an absolute path.
func removeDotSegments(p string) string {
	if !hasDotSegment(p) {
		return p
	}
	segs := strings.Split(p, "/")
	out := make([]string, 0, len(segs))
	for i, s := range segs {
		last := i == len(segs)-1
		switch s {
		case ".":
			if last {
				out = append(out, "")
			}
		case "..":
			if len(out) > 1 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	r := strings.Join(out, "/")
	if !strings.HasPrefix(r, "/") {
		r = "/" + r
	}
	return r
}

// canonicalTarget returns the canonical path-and-query of a request target
// or of the part of a URL after its authority (fragment already removed).
func canonicalTarget(target string) string {
	path, query, hasQuery := strings.Cut(target, "?")
	path = removeDotSegments(percent.Normalize(path, &pathKeep))
	if path == "" || path[0] != '/' {
		path = "/" + path
	}
	if !hasQuery || query == "" {
		return path
	}
	return path + "?" + percent.Normalize(query, &queryKeep)
}

// splitURL splits an absolute http(s) URL into lower-case scheme, lower-case
// host without port or user info, the port ("" when default or absent) and
// the part after the authority without the fragment.
func splitURL(raw string) (scheme, host, port, rest string, err error) {
	i := strings.IndexByte(raw, ':')
	if i <= 0 {
		return "", "", "", "", fmt.Errorf("%w: %q has no scheme", ErrNotHTTP, raw)
	}
	scheme = strings.ToLower(raw[:i])
	if scheme != "http" && scheme != "https" {
		return "", "", "", "", fmt.Errorf("%w: %q", ErrNotHTTP, raw)
	}
	r := raw[i+1:]
	if !strings.HasPrefix(r, "//") {
		return "", "", "", "", fmt.Errorf("%w: %q has no host", ErrNotHTTP, raw)
	}
	r = r[2:]
	end := strings.IndexAny(r, "/?#")
	if end < 0 {
		end = len(r)
	}
	auth := r[:end]
	rest = r[end:]
	if j := strings.IndexByte(rest, '#'); j >= 0 {
		rest = rest[:j]
	}
	host, port = hostPort(auth)
	if host == "" {
		return "", "", "", "", fmt.Errorf("%w: %q has no host", ErrNotHTTP, raw)
	}
	if port == defaultPort(scheme) {
		port = ""
	}
	return scheme, host, port, rest, nil
}

// hostPort splits a URL's authority into its host, lower-cased, and port:
// userinfo is dropped, and a bracketed IPv6 literal keeps its brackets and
// its colons ("[::1]:8080" is "[::1]" and "8080"; "[::1]" has no port).
func hostPort(auth string) (host, port string) {
	if j := strings.LastIndexByte(auth, '@'); j >= 0 {
		auth = auth[j+1:]
	}
	host = auth
	if j := strings.LastIndexByte(auth, ':'); j > strings.LastIndexByte(auth, ']') {
		host, port = auth[:j], auth[j+1:]
	}
	return strings.ToLower(host), port
}

func defaultPort(scheme string) string {
	if scheme == "https" {
		return "443"
	}
	return "80"
}

// Canonical returns the canonical form of an absolute http or https URL, the
// form every URL of a Truth is written in. It errors on other schemes and on
// URLs without a host.
func Canonical(raw string) (string, error) {
	scheme, host, port, rest, err := splitURL(raw)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	sb.Grow(len(raw))
	sb.WriteString(scheme)
	sb.WriteString("://")
	sb.WriteString(host)
	if port != "" {
		sb.WriteByte(':')
		sb.WriteString(port)
	}
	sb.WriteString(canonicalTarget(rest))
	return sb.String(), nil
}
