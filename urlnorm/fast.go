package urlnorm

import (
	"strings"

	wurl "github.com/nlnwa/whatwg-url/url"

	"github.com/seedcrawl/seedcrawl/internal/percent"
)

// The WHATWG parser costs about 3-4 µs and 50-70 allocations per URL; a
// crawler resolves every link of every page, so most links take this fast
// path instead: plain printable-ASCII http(s) URLs with a simple host,
// handled with net/url and percent.Write. Anything the two parsers could
// disagree on (non-ASCII, spaces, backslashes, tabs, userinfo, IP or
// punycode hosts, odd ports, dot segments spelled with escapes, references
// with other schemes) goes to the WHATWG parser. FuzzFastPath checks that
// whenever the fast path answers, the answer equals the WHATWG path's.

// plainASCII reports whether s is printable ASCII without space and
// backslash, the bytes both parsers treat alike.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || c == '\\' {
			return false
		}
	}
	return true
}

// refSafe holds the bytes of references net/url resolves without
// re-escaping anything: unreserved, reserved and '%'. With any other byte
// net/url re-escapes the whole path, sub-delims included, which would
// differ from WHATWG.
var refSafe = percent.MakeSet(percent.Unreserved + ":/?#[]@" + "!$&'()*+,;=" + "%")

func refSafeOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if !refSafe.Has(s[i]) {
			return false
		}
	}
	return true
}

// fastNormalize handles the common simple absolute URL without the WHATWG
// parser. It reports false when the input needs the full parser.
func fastNormalize(raw string) (string, bool) {
	scheme, rest, ok := httpPrefix(raw)
	if !ok {
		return "", false
	}
	if !plainASCII(rest) {
		return "", false
	}
	end := authorityEnd(rest)
	auth, tail := rest[:end], rest[end:]
	host, port, hasPort := strings.Cut(auth, ":")
	if !fastHost(host) {
		return "", false
	}
	// same tells whether the normal form is raw itself, as most links
	// written absolute are: then raw is returned without a copy.
	same := raw[len(scheme)] == ':' && !hasUpper(raw[:len(scheme)]) && !hasUpper(host)
	if hasPort {
		if !simplePort(port) {
			return "", false
		}
		if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
			port, same = "", false
		}
	}
	if i := strings.IndexByte(tail, '#'); i >= 0 {
		tail, same = tail[:i], false
	}
	path, query, hasQuery := strings.Cut(tail, "?")
	if path == "" {
		path, same = "/", false
	}
	if hasDotSegment(path) {
		return "", false
	}
	if same && (!hasQuery || query != "") && percent.IsNormal(path, &pathKeep) &&
		percent.IsNormal(query, &queryKeep) {
		return raw, true
	}
	var sb strings.Builder
	sb.Grow(len(raw) + 8)
	sb.WriteString(scheme)
	sb.WriteString("://")
	for i := 0; i < len(host); i++ {
		c := host[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		sb.WriteByte(c)
	}
	if port != "" {
		sb.WriteByte(':')
		sb.WriteString(port)
	}
	percent.Write(&sb, path, &pathKeep)
	if query != "" {
		sb.WriteByte('?')
		percent.Write(&sb, query, &queryKeep)
	}
	return sb.String(), true
}

// authorityEnd returns the length of the authority at the start of rest
// (what follows "scheme://"): up to the first '/', '?' or '#', or all of
// it. A loop, as strings.IndexAny builds its set of bytes on every call.
func authorityEnd(rest string) int {
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; c == '/' || c == '?' || c == '#' {
			return i
		}
	}
	return len(rest)
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// httpPrefix splits "http://" or "https://", in any case (the scheme is
// ASCII case-insensitive; pages write "HTTP://"), from the rest of raw.
func httpPrefix(raw string) (scheme, rest string, ok bool) {
	switch {
	case len(raw) >= len("http://") && strings.EqualFold(raw[:len("http://")], "http://"):
		return "http", raw[len("http://"):], true
	case len(raw) >= len("https://") && strings.EqualFold(raw[:len("https://")], "https://"):
		return "https", raw[len("https://"):], true
	}
	return "", "", false
}

// fastHost accepts host names the WHATWG host parser returns lower-cased
// and otherwise unchanged: ASCII letters, digits, '-' and '.', no punycode
// label (UTS #46 validates those) and a last label that starts with a
// letter (WHATWG tries other last labels as IPv4 numbers).
func fastHost(h string) bool {
	if h == "" || h[len(h)-1] == '.' { // a trailing dot is dropped by the full path
		return false
	}
	labelStart := 0
	lastLabel := ""
	for i := 0; i <= len(h); i++ {
		if i < len(h) && h[i] != '.' {
			c := h[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
			continue
		}
		label := h[labelStart:i]
		if len(label) >= 4 && (label[0]|0x20) == 'x' && (label[1]|0x20) == 'n' && label[2] == '-' && label[3] == '-' {
			return false
		}
		if label != "" {
			lastLabel = label
		}
		labelStart = i + 1
	}
	if c := lastLabel; c == "" || !('a' <= c[0]|0x20 && c[0]|0x20 <= 'z') {
		return false
	}
	return true
}

// simplePort accepts a port of 1 to 5 digits without a leading zero, at
// most 65535; "" (as in "host:") is left to the WHATWG parser.
func simplePort(p string) bool {
	if p == "" || len(p) > 5 || p[0] == '0' {
		return false
	}
	n := 0
	for i := 0; i < len(p); i++ {
		if p[i] < '0' || p[i] > '9' {
			return false
		}
		n = n*10 + int(p[i]-'0')
	}
	return n <= 65535
}

// hasDotSegment reports whether a path holds a "." or ".." segment,
// spelled plainly or with %2e escapes (WHATWG removes all of them).
func hasDotSegment(p string) bool {
	for p != "" {
		var seg string
		seg, p, _ = strings.Cut(p, "/")
		if len(seg) == 0 || len(seg) > 6 {
			continue
		}
		for _, d := range [...]string{".", "..", "%2e", ".%2e", "%2e.", "%2e%2e"} {
			if strings.EqualFold(seg, d) {
				return true
			}
		}
	}
	return false
}

// fastBase is a base URL in normal form, split once so that relative
// references are resolved by string operations on its parts, without
// net/url and with one allocation (the result).
type fastBase struct {
	prefix string // "scheme://host[:port]"
	scheme string
	path   string // normalized, starts with '/'
	query  string // normalized, without '?'; "" if none
	s      string // the whole base: prefix + path [+ "?" + query]
	dirEnd int    // s[:dirEnd] is prefix + path up to its last '/'
}

// newFastBase returns the fast form of a base, nil when fastResolve may
// not use it: not http(s), with userinfo, or with an empty path segment
// (WHATWG keeps those, RFC 3986 dot-segment removal treats them
// differently).
func newFastBase(u *wurl.Url) *fastBase {
	s, err := serialize(u)
	if err != nil || u.Username() != "" || u.Password() != "" {
		return nil
	}
	return splitFastBase(s)
}

// splitFastBase splits a URL in normal form without userinfo into a
// fastBase; nil if its path has an empty segment.
func splitFastBase(s string) *fastBase {
	scheme, rest, _ := strings.Cut(s, "://")
	slash := strings.IndexByte(rest, '/')
	if slash < 0 {
		return nil
	}
	path, query, _ := strings.Cut(rest[slash:], "?")
	if strings.Contains(path, "//") {
		return nil
	}
	prefix := s[:len(scheme)+3+slash]
	return &fastBase{prefix: prefix, scheme: scheme, path: path, query: query, s: s,
		dirEnd: len(prefix) + strings.LastIndexByte(path, '/') + 1}
}

// fastResolve resolves simple references against an eligible base.
func fastResolve(base *fastBase, ref string) (string, bool) {
	if base == nil || !refSafeOnly(ref) {
		return "", false
	}
	if hasScheme(ref) {
		return fastNormalize(ref)
	}
	if strings.HasPrefix(ref, "//") {
		return fastNormalize(base.scheme + ":" + ref)
	}
	if i := strings.IndexByte(ref, '#'); i >= 0 {
		ref = ref[:i]
	}
	refPath, query, hasQuery := strings.Cut(ref, "?")
	if strings.Contains(refPath, "//") {
		// An empty path segment: RFC 3986 resolution and WHATWG differ
		// ("..//" against "http://a/" is "http://a//" for WHATWG).
		return "", false
	}
	if strings.Contains(ref, "%2e") || strings.Contains(ref, "%2E") {
		// Possibly a dot segment spelled with escapes, which only WHATWG
		// removes.
		return "", false
	}
	if !hasQuery && refPath == "" {
		query = base.query
	}
	var sb strings.Builder
	sb.Grow(len(base.prefix) + len(base.path) + len(ref) + 8)
	sb.WriteString(base.prefix)
	switch {
	case refPath == "":
		sb.WriteString(base.path)
	case refPath[0] == '/':
		writePath(&sb, "", refPath)
	default:
		writePath(&sb, base.path[:strings.LastIndexByte(base.path, '/')+1], refPath)
	}
	if query != "" {
		sb.WriteByte('?')
		percent.Write(&sb, query, &queryKeep)
	}
	return sb.String(), true
}

// writePath writes dir+ref (dir empty or ending in '/', ref relative to it
// or absolute) with dot segments removed (RFC 3986 section 5.2.4, which
// agrees with WHATWG for these ASCII paths without empty segments) and
// percent-encoding normalized. The segments are substrings of dir and ref,
// so nothing is allocated but the result.
func writePath(sb *strings.Builder, dir, ref string) {
	var buf [32]string
	segs := buf[:0]
	trailing := false
	add := func(p string, last bool) {
		for p != "" || last {
			seg, rest, more := strings.Cut(p, "/")
			end := last && !more
			switch seg {
			case ".":
			case "..":
				if len(segs) > 0 {
					segs = segs[:len(segs)-1]
				}
			default:
				if !more && !last {
					// dir's final empty segment: ref takes its place.
					return
				}
				segs = append(segs, seg)
			}
			if end {
				trailing = seg == "." || seg == ".."
				return
			}
			p = rest
			if !more {
				return
			}
		}
	}
	add(strings.TrimPrefix(dir, "/"), false)
	add(strings.TrimPrefix(ref, "/"), true)
	if len(segs) == 0 {
		sb.WriteByte('/')
		return
	}
	for _, seg := range segs {
		sb.WriteByte('/')
		percent.Write(sb, seg, &pathKeep)
	}
	if trailing {
		sb.WriteByte('/')
	}
}

// hasScheme reports whether ref starts with a URL scheme and ':'.
func hasScheme[S string | []byte](ref S) bool {
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.':
			if i == 0 {
				return false
			}
		case c == ':':
			return i > 0
		default:
			return false
		}
	}
	return false
}
