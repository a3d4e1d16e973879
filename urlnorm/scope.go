package urlnorm

import (
	"fmt"
	"net"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// Scope kinds accepted by ParseScope. They match the spellings of the
// "scope" configuration key.
const (
	// ScopeSeedHosts keeps URLs on the exact hosts of the seeds (default).
	ScopeSeedHosts = "seeds-hosts"
	// ScopeSeedDomains keeps URLs on the registered domains (eTLD+1, from the
	// public suffix list) of the seeds and all their subdomains.
	ScopeSeedDomains = "seeds-domains"
	// ScopeHosts keeps URLs on an explicit comma-separated host list; an
	// entry starting with '.' (".example.com") means that domain and its
	// subdomains. Entries are normalized like URL hosts (case, IDN, port
	// dropped); one that is not a host name is an error.
	ScopeHosts = "hosts"
	// ScopeRegexp keeps URLs whose normalized form matches a regular
	// expression (Go RE2 syntax, unanchored).
	ScopeRegexp = "regexp"
	// ScopeAll keeps every http and https URL.
	ScopeAll = "all"
)

// Scope decides whether a normalized URL belongs to the crawl. Build it with
// ParseScope or ParseScopeSpec; the zero Scope allows nothing. A Scope is
// immutable and safe for concurrent use.
type Scope struct {
	kind    string
	hosts   map[string]struct{} // exact hosts
	domains []string            // domains whose subdomains are in scope too
	re      *regexp.Regexp
}

// ParseScope builds a Scope of the given kind (one of the Scope constants;
// "" means ScopeSeedHosts). seeds are the crawl's seed URLs (used by the
// seeds-* kinds, normalized here); arg is the host list for ScopeHosts and
// the expression for ScopeRegexp. Errors wrap ErrScope.
func ParseScope(kind string, seeds []string, arg string) (Scope, error) {
	s := Scope{kind: kind, hosts: map[string]struct{}{}}
	switch kind {
	case "", ScopeSeedHosts:
		s.kind = ScopeSeedHosts
		for _, seed := range seeds {
			h, err := seedHost(seed)
			if err != nil {
				return Scope{}, err
			}
			s.hosts[h] = struct{}{}
		}
	case ScopeSeedDomains:
		for _, seed := range seeds {
			h, err := seedHost(seed)
			if err != nil {
				return Scope{}, err
			}
			d, err := publicsuffix.EffectiveTLDPlusOne(h)
			if err != nil || net.ParseIP(strings.Trim(h, "[]")) != nil {
				// An IP address or a bare public suffix has no registered
				// domain: keep the exact host.
				s.hosts[h] = struct{}{}
				continue
			}
			s.domains = append(s.domains, d)
		}
	case ScopeHosts:
		for _, h := range strings.Split(arg, ",") {
			h = strings.TrimSpace(h)
			if h == "" {
				continue
			}
			name, domain := strings.CutPrefix(h, ".")
			host, err := entryHost(name)
			if err != nil {
				return Scope{}, fmt.Errorf("%w: host list entry %q: %v", ErrScope, h, err)
			}
			if domain {
				s.domains = append(s.domains, host)
			} else {
				s.hosts[host] = struct{}{}
			}
		}
		if len(s.hosts) == 0 && len(s.domains) == 0 {
			return Scope{}, fmt.Errorf("%w: host list %q names no host", ErrScope, arg)
		}
	case ScopeRegexp:
		re, err := regexp.Compile(arg)
		if err != nil {
			return Scope{}, fmt.Errorf("%w: regexp %q: %v", ErrScope, arg, err)
		}
		s.re = re
	case ScopeAll:
	default:
		return Scope{}, fmt.Errorf("%w: unknown kind %q (want %s, %s, %s, %s or %s)",
			ErrScope, kind, ScopeSeedHosts, ScopeSeedDomains, ScopeHosts, ScopeRegexp, ScopeAll)
	}
	sort.Strings(s.domains)
	return s, nil
}

// ParseScopeSpec parses the one-string form of the "scope" configuration
// key: "seeds-hosts", "seeds-domains", "hosts:H1,H2", "regexp:RE" or "all".
func ParseScopeSpec(spec string, seeds []string) (Scope, error) {
	kind, arg, _ := strings.Cut(spec, ":")
	if kind != ScopeHosts && kind != ScopeRegexp && arg != "" {
		return Scope{}, fmt.Errorf("%w: %q: only hosts: and regexp: take an argument", ErrScope, spec)
	}
	return ParseScope(kind, seeds, arg)
}

// entryHost returns a host list entry in the form Allows compares, the host
// of a normalized URL: lower-cased, IDN in punycode, IPv6 in brackets, port
// dropped (scope is per host, as for the seeds-* kinds). Without this,
// "Bücher.example" or "example.com:8080" would be kept as written and never
// match a URL.
func entryHost(name string) (string, error) {
	if name == "" || strings.ContainsAny(name, "/?#@\\") {
		return "", fmt.Errorf("want a bare host name such as example.com, or .example.com for its subdomains too")
	}
	n, err := Normalize("http://" + name + "/")
	if err != nil {
		return "", fmt.Errorf("not a host name: %w", err)
	}
	return hostOf(n), nil
}

func seedHost(seed string) (string, error) {
	n, err := Normalize(seed)
	if err != nil {
		return "", fmt.Errorf("%w: seed: %w", ErrScope, err)
	}
	return hostOf(n), nil
}

// Kind returns the scope's kind, one of the Scope constants ("" for the
// zero Scope).
func (s Scope) Kind() string { return s.kind }

// Allows reports whether the normalized URL u is in scope.
func (s Scope) Allows(u string) bool {
	switch s.kind {
	case ScopeAll:
		return true
	case ScopeRegexp:
		return s.re.MatchString(u)
	case "":
		return false
	}
	return s.AllowsHost(hostOf(u))
}

// AllowsHost reports whether a lower-cased host is in scope. A regexp scope
// cannot answer for a bare host and reports true, leaving the decision to
// Allows.
func (s Scope) AllowsHost(h string) bool {
	switch s.kind {
	case ScopeAll, ScopeRegexp:
		return true
	case "":
		return false
	}
	if _, ok := s.hosts[h]; ok {
		return true
	}
	for _, d := range s.domains {
		if h == d || (len(h) > len(d) && h[len(h)-len(d)-1] == '.' && strings.HasSuffix(h, d)) {
			return true
		}
	}
	return false
}
