package graph

import "strings"

// HostOf returns the lower-cased host of a URL without port or user info,
// or "" when it has none. It follows Python's urlsplit(url).hostname, the
// rule ../shared/data/README.md uses for its host figures, so malformed URLs
// such as "http://www.oznet.ksu.edu>" keep the characters after the host.
func HostOf(raw string) string {
	rest := raw
	if i := strings.IndexByte(rest, ':'); i > 0 && isScheme(rest[:i]) {
		rest = rest[i+1:]
	}
	if !strings.HasPrefix(rest, "//") {
		return ""
	}
	rest = rest[2:]
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		rest = rest[:j]
	}
	if j := strings.LastIndexByte(rest, '@'); j >= 0 {
		rest = rest[j+1:]
	}
	if strings.HasPrefix(rest, "[") {
		if j := strings.IndexByte(rest, ']'); j >= 0 {
			return strings.ToLower(rest[1:j])
		}
	}
	if j := strings.IndexByte(rest, ':'); j >= 0 {
		rest = rest[:j]
	}
	return strings.ToLower(rest)
}

func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// SetURLs attaches URLs to g and derives Hosts and HostNames from them with
// HostOf. Host indexes are assigned in order of first appearance.
func (g *CSR) SetURLs(urls []string) {
	g.URLs = urls
	g.Hosts = make([]uint32, len(urls))
	idx := make(map[string]uint32)
	g.HostNames = g.HostNames[:0]
	for v, u := range urls {
		h := HostOf(u)
		id, ok := idx[h]
		if !ok {
			id = uint32(len(g.HostNames))
			idx[h] = id
			g.HostNames = append(g.HostNames, h)
		}
		g.Hosts[v] = id
	}
}
