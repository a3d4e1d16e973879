package graph

import "github.com/seedcrawl/seedcrawl/urlnorm"

// HostOf returns the lower-cased host name of a URL without port, user
// info or IPv6 brackets, or "" when it has none: urlnorm.HostOf(raw).Bare().
// That is Python's urlsplit(url).hostname, the rule ../shared/data/README.md
// uses for its host figures, so malformed URLs such as
// "http://www.oznet.ksu.edu>" keep the characters after the host.
func HostOf(raw string) string { return urlnorm.HostOf(raw).Bare() }

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
