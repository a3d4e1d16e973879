package urlnorm

import (
	"net/url"
	"strings"
)

// Host is seedcrawl's one notion of a web host, used by every package: the
// lower-cased host name of a URL, an IPv6 literal in brackets, followed by
// ":port" when the URL names a port that is not its scheme's default
// ("example.com", "example.com:8080", "[::1]:8443"). Userinfo is never part
// of it.
//
// It serves three purposes, each through one method:
//
//   - Politeness (the frontier's per-host queue, ready time and
//     concurrency limit; the crawl's per-host budgets; the stored host
//     records) is per Host, port included: two servers on one machine are
//     two hosts, as a robots.txt is per port too.
//   - Link analysis (intra-host links for FPR@M, the simulator's and the
//     data sets' host figures) is per host name: Host.Name, port dropped,
//     so a.com:8080 and a.com are one site.
//   - robots.txt is per origin (RFC 9309 section 2.3: scheme, host and
//     port): Origin, the Host with its scheme in front.
//
// Normalized URLs never carry a default port, so for them the Host is the
// URL's authority without userinfo.
type Host string

// HostOf returns the Host of an absolute URL given as a string, without
// parsing it fully: the authority after "//" up to the first '/', '?' or
// '#', userinfo dropped, lower-cased, and the port dropped when it is the
// default of an http or https scheme. It returns "" for a URL without an
// authority (no "//" after the scheme). Malformed authorities keep their
// characters ("http://a.com>" has Host "a.com>"), as Python's urlsplit does,
// so host figures of crawled data sets come out the same.
func HostOf(u string) Host {
	scheme, rest := "", u
	if i := strings.IndexByte(rest, ':'); i > 0 && IsScheme(rest[:i]) {
		scheme, rest = rest[:i], rest[i+1:]
	}
	if !strings.HasPrefix(rest, "//") {
		return ""
	}
	rest = rest[2:]
	// One pass for the end of the authority, its last '@' and whether it
	// needs lower-casing or holds a port: every link of every page comes
	// here, several times, and most are normalized already.
	end, at, plain := len(rest), -1, true
scan:
	for j := 0; j < len(rest); j++ {
		switch c := rest[j]; {
		case c == '/' || c == '?' || c == '#':
			end = j
			break scan
		case c == '@':
			at = j
		case c == ':' || c == '[' || 'A' <= c && c <= 'Z':
			plain = false
		}
	}
	rest = rest[at+1 : end]
	if plain {
		return Host(rest)
	}
	return hostKey(scheme, rest)
}

// HostOfURL returns the Host of a parsed URL (an outgoing request's URL,
// say), by the same rule as HostOf.
func HostOfURL(u *url.URL) Host { return hostKey(u.Scheme, u.Host) }

// hostKey builds the Host from a scheme and an authority without userinfo:
// the one place where the port and bracket rules live.
func hostKey(scheme, authority string) Host {
	name, port := splitAuthority(strings.ToLower(authority))
	if port == "" || port == defaultPort(scheme) {
		return Host(name)
	}
	return Host(name + ":" + port)
}

// splitAuthority splits "name[:port]" into its host name (IPv6 brackets
// kept) and port ("" when there is none).
func splitAuthority(a string) (name, port string) {
	if strings.HasPrefix(a, "[") {
		j := strings.IndexByte(a, ']')
		if j < 0 {
			return a, ""
		}
		name, rest := a[:j+1], a[j+1:]
		if strings.HasPrefix(rest, ":") {
			return name, rest[1:]
		}
		return name, ""
	}
	if j := strings.IndexByte(a, ':'); j >= 0 {
		return a[:j], a[j+1:]
	}
	return a, ""
}

func defaultPort(scheme string) string {
	switch strings.ToLower(scheme) {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}

// IsScheme reports whether s is a URL scheme name (RFC 3986 section 3.1):
// a letter followed by letters, digits, '+', '-' or '.'. Lenient splitters
// of URLs use it to tell "scheme:" from a host with a port or a path.
func IsScheme(s string) bool {
	if s == "" {
		return false
	}
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

// Name returns the host name without the port, IPv6 brackets kept: the unit
// of link analysis (intra-host links, host figures).
func (h Host) Name() string {
	name, _ := splitAuthority(string(h))
	return name
}

// Bare returns the host name without port and without IPv6 brackets: the
// form net.SplitHostPort returns and net.ParseIP takes, for comparing with
// the address a connection dials.
func (h Host) Bare() string { return BareName(h.Name()) }

// BareName returns a host name, bracketed or not ("[::1]", "::1",
// "Example.com"), lower-cased and without IPv6 brackets: the form
// net.SplitHostPort returns. It takes a name, never a name with a port.
func BareName(name string) string {
	return strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(name, "["), "]"))
}

// Origin returns the robots.txt scope of a parsed URL (RFC 9309 section
// 2.3): "scheme://" followed by its Host, so the port appears only when it
// is not the scheme's default ("https://example.com",
// "http://example.com:8080").
func Origin(u *url.URL) string {
	return strings.ToLower(u.Scheme) + "://" + string(HostOfURL(u))
}

// Authority returns the Host of the absolute URL u as a string: the per-host
// key of politeness. See Host.
func Authority(u string) string { return string(HostOf(u)) }

// hostOf is the host name of u: Host.Name.
func hostOf(u string) string { return HostOf(u).Name() }
