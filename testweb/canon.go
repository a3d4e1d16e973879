package testweb

import (
	"fmt"
	"strings"
)

// The canonical form of a URL in the test web is what seedcrawl's urlnorm
// package produces: lower-case scheme and host, default port dropped, empty
// path written "/", fragment and empty query dropped, dot segments removed,
// escapes of unreserved characters decoded, other escapes in upper-case hex,
// and bytes outside the RFC 3986 path (query) characters escaped. It is
// re-implemented here, without importing the crawler's code, so the truth is
// an independent oracle for the crawler's normalizer.

// byteSet is a 256-bit set of bytes.
type byteSet [4]uint64

func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

func makeSet(chars string) byteSet {
	var s byteSet
	for i := 0; i < len(chars); i++ {
		c := chars[i]
		s[c>>6] |= 1 << (c & 63)
	}
	return s
}

const (
	alnumChars      = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	unreservedChars = alnumChars + "-._~"
	upperHex        = "0123456789ABCDEF"
)

// Character classes of RFC 3986. They are immutable after initialisation.
var (
	unreservedSet = makeSet(unreservedChars)
	// pathKeep: pchar and '/' (RFC 3986 section 3.3).
	pathKeep = makeSet(unreservedChars + "!$&'()*+,;=" + ":@/")
	// queryKeep: pchar, '/' and '?' minus the apostrophe, which the WHATWG
	// URL parser escapes in the query of http(s) URLs.
	queryKeep = makeSet(unreservedChars + "!$&()*+,;=" + ":@/?")
)

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

// componentIsNormal reports whether s needs no percent-encoding changes.
func componentIsNormal(s string, keep *byteSet) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' {
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			a, b := s[i+1], s[i+2]
			if 'a' <= a && a <= 'f' || 'a' <= b && b <= 'f' || unreservedSet.has(unhex(a)<<4|unhex(b)) {
				return false
			}
			i += 2
			continue
		}
		if !keep.has(c) {
			return false
		}
	}
	return true
}

// normalizePercent returns s with escapes of unreserved bytes decoded, other
// escapes in upper-case hex, a '%' that starts no escape written "%25" and
// every byte outside keep escaped.
func normalizePercent(s string, keep *byteSet) string {
	if componentIsNormal(s, keep) {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			d := unhex(s[i+1])<<4 | unhex(s[i+2])
			if unreservedSet.has(d) {
				sb.WriteByte(d)
			} else {
				sb.WriteByte('%')
				sb.WriteByte(upperHex[d>>4])
				sb.WriteByte(upperHex[d&15])
			}
			i += 2
			continue
		}
		if c != '%' && keep.has(c) {
			sb.WriteByte(c)
			continue
		}
		sb.WriteByte('%')
		sb.WriteByte(upperHex[c>>4])
		sb.WriteByte(upperHex[c&15])
	}
	return sb.String()
}

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
	path = removeDotSegments(normalizePercent(path, &pathKeep))
	if path == "" || path[0] != '/' {
		path = "/" + path
	}
	if !hasQuery || query == "" {
		return path
	}
	return path + "?" + normalizePercent(query, &queryKeep)
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
	if j := strings.LastIndexByte(auth, '@'); j >= 0 {
		auth = auth[j+1:]
	}
	host = auth
	if j := strings.LastIndexByte(auth, ':'); j >= 0 && !strings.HasSuffix(auth, "]") {
		host, port = auth[:j], auth[j+1:]
	}
	host = strings.ToLower(host)
	if host == "" {
		return "", "", "", "", fmt.Errorf("%w: %q has no host", ErrNotHTTP, raw)
	}
	if port == defaultPort(scheme) {
		port = ""
	}
	return scheme, host, port, rest, nil
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
