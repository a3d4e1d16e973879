package sitemap

import (
	"fmt"
	"net/url"
	"strings"
)

// scope is what one sitemap file may list (sitemaps.org, "Sitemap file
// location"): URLs whose host and path start with one of prefixes, and
// child sitemaps on one of hosts. Keys leave out the scheme (see the
// package documentation).
type scope struct {
	prefixes []string // host[:port] + path prefix, e.g. "example.com/docs/"
	hosts    []string // host[:port]
}

// parseHTTP parses an absolute http(s) URL with a host.
func parseHTTP(raw string) (*url.URL, bool) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return nil, false
	}
	return u, true
}

// hostKey returns the lower-cased host with a non-default port.
func hostKey(u *url.URL) string {
	h := strings.ToLower(u.Hostname())
	if strings.IndexByte(h, ':') >= 0 {
		h = "[" + h + "]"
	}
	if p := u.Port(); p != "" && !(p == "80" && u.Scheme == "http") && !(p == "443" && u.Scheme == "https") {
		h += ":" + p
	}
	return h
}

func pathKey(u *url.URL) string {
	if p := u.EscapedPath(); p != "" {
		return p
	}
	return "/"
}

// newScope returns the scope of a file at base: its own directory plus the
// extra prefixes.
func newScope(base *url.URL, extra []string) (scope, error) {
	var s scope
	p := pathKey(base)
	s.add(hostKey(base), p[:strings.LastIndexByte(p, '/')+1])
	for _, e := range extra {
		u, ok := parseHTTP(e)
		if !ok {
			return s, fmt.Errorf("%w: scope prefix %q", ErrBase, e)
		}
		s.add(hostKey(u), pathKey(u))
	}
	return s, nil
}

func (s *scope) add(host, path string) {
	s.prefixes = append(s.prefixes, host+path)
	for _, h := range s.hosts {
		if h == host {
			return
		}
	}
	s.hosts = append(s.hosts, host)
}

// allows reports whether a page URL lies inside the scope.
func (s *scope) allows(u *url.URL) bool {
	h, p := hostKey(u), pathKey(u)
	for _, pre := range s.prefixes {
		if len(h)+len(p) >= len(pre) && strings.HasPrefix(pre, h) && strings.HasPrefix(p, pre[len(h):]) {
			return true
		}
	}
	return false
}

// allowsSitemap reports whether a child sitemap URL is on a host of the
// scope (sitemaps.org: an index lists sitemaps of its own site).
func (s *scope) allowsSitemap(u *url.URL) bool {
	h := hostKey(u)
	for _, x := range s.hosts {
		if x == h {
			return true
		}
	}
	return false
}

// prefixURLs returns the scope as URL prefixes under scheme, for passing to
// the children of an index.
func (s *scope) prefixURLs(scheme string) []string {
	out := make([]string, len(s.prefixes))
	for i, p := range s.prefixes {
		out[i] = scheme + "://" + p
	}
	return out
}
