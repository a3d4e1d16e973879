package robots

import (
	"bytes"
	"math"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/percent"
)

// This file is an RFC 9309 parser and matcher. temoto/robotstxt was the
// planned engine; it was replaced because, measured against RFC 9309 (see
// TestTemotoDeviations), it:
//   - fails the whole file on one bad line (a rule before any User-agent,
//     an unparsable Crawl-delay), where RFC 9309 2.2 asks parsers to skip
//     what they cannot parse;
//   - compiles wildcard rules to unanchored regular expressions, so
//     "Disallow: /a$" also blocks "/x/a" and "Disallow: /*.pdf" matches
//     anywhere;
//   - ranks wildcard rules by the length of the compiled expression rather
//     than of the rule (RFC 9309 2.2.2: "the most octets");
//   - breaks Allow/Disallow ties by file order where RFC 9309 2.2.2 says
//     the least restrictive rule (Allow) SHOULD win;
//   - matches User-agent lines as prefixes of the agent string rather than
//     the product token, and compares paths without normalizing
//     percent-encoding (RFC 9309 2.2.2).

// maxCrawlDelay bounds a parsed Crawl-delay so absurd values cannot
// overflow a time.Duration; the crawler caps it much lower anyway.
const maxCrawlDelay = 24 * time.Hour

type rule struct {
	allow   bool
	pattern string // percent-normalized; '*' wildcards and a final '$' kept
}

// rawGroup is one group as written in the file.
type rawGroup struct {
	agents     []string // lower-cased product tokens, or "*"
	rules      []rule
	crawlDelay time.Duration
	hasDelay   bool
}

type file struct {
	groups []*rawGroup
	// Sitemaps are the file's Sitemap: lines (RFC 9309 2.2.4 leaves them
	// to other records; sitemaps.org defines them): absolute http(s) URLs,
	// in file order, duplicates and other values dropped, at most
	// MaxSitemaps of them.
	Sitemaps []string
}

// MaxSitemaps bounds the Sitemap: lines kept from one robots.txt, so a
// hostile file cannot make a crawler queue unbounded sitemap fetches.
const MaxSitemaps = 64

// Sitemaps returns the sitemap URLs a robots.txt body lists on Sitemap:
// lines: absolute http or https URLs, in file order, without duplicates,
// at most MaxSitemaps. Sitemap lines may appear anywhere in the file and
// belong to no group.
func Sitemaps(body []byte) []string { return parse(body).Sitemaps }

// sitemapURL reports whether v is an absolute http(s) URL with a host, the
// only form sitemaps.org allows on a Sitemap: line.
func sitemapURL(v string) bool {
	u, err := url.Parse(v)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.Opaque == ""
}

// group is the merged set of rules that applies to one product token,
// sorted so the first matching rule is the RFC 9309 winner.
type group struct {
	rules      []rule
	crawlDelay time.Duration
}

// parse reads a robots.txt body leniently: lines it does not understand are
// skipped, never fatal (RFC 9309 2.2).
func parse(body []byte) *file {
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	f := &file{}
	var cur *rawGroup
	lastWasAgent := false
	for len(body) > 0 {
		var line []byte
		if i := bytes.IndexAny(body, "\r\n"); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			line, body = body, nil
		}
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		key := strings.ToLower(string(bytes.TrimSpace(k)))
		val := string(bytes.TrimSpace(v))
		switch key {
		case "user-agent", "useragent", "user agent":
			if cur == nil || !lastWasAgent {
				cur = &rawGroup{}
				f.groups = append(f.groups, cur)
			}
			cur.agents = append(cur.agents, agentToken(val))
			lastWasAgent = true
			continue
		case "allow", "disallow":
			if cur != nil && val != "" {
				if val[0] != '/' && val[0] != '*' {
					val = "/" + val // lenient, as major crawlers are
				}
				cur.rules = append(cur.rules, rule{allow: key == "allow", pattern: normPattern(val)})
			}
		case "crawl-delay", "crawldelay":
			if cur != nil {
				if d, ok := parseDelay(val); ok {
					cur.crawlDelay, cur.hasDelay = d, true
				}
			}
		case "sitemap", "site-map":
			// A comment cut the line at '#': a URL with a fragment is
			// still kept without it, which is what a crawler fetches.
			if len(f.Sitemaps) < MaxSitemaps && sitemapURL(val) && !slices.Contains(f.Sitemaps, val) {
				f.Sitemaps = append(f.Sitemaps, val)
			}
			continue
		default:
			// Host and unknown keys neither belong to a group nor end one.
			continue
		}
		lastWasAgent = false
	}
	return f
}

// agentToken reduces a User-agent value to its product token (letters, '_'
// and '-', RFC 9309 2.2.1), lower-cased; "*" stays "*".
func agentToken(v string) string {
	if strings.HasPrefix(v, "*") {
		return "*"
	}
	end := 0
	for end < len(v) {
		c := v[end]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-' {
			end++
			continue
		}
		break
	}
	return strings.ToLower(v[:end])
}

func parseDelay(v string) (time.Duration, bool) {
	s, err := strconv.ParseFloat(v, 64)
	if err != nil || s < 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return 0, false
	}
	if s*float64(time.Second) > float64(maxCrawlDelay) {
		return maxCrawlDelay, true
	}
	return time.Duration(s * float64(time.Second)), true
}

// group merges every group naming token, or failing that every "*" group
// (RFC 9309 2.2.1). No matching group means no rules.
func (f *file) group(token string) *group {
	token = strings.ToLower(token)
	g := &group{}
	merge := func(match func(a string) bool) bool {
		found := false
		for _, rg := range f.groups {
			for _, a := range rg.agents {
				if match(a) {
					found = true
					g.rules = append(g.rules, rg.rules...)
					if rg.hasDelay {
						g.crawlDelay = max(g.crawlDelay, rg.crawlDelay)
					}
					break
				}
			}
		}
		return found
	}
	if !merge(func(a string) bool { return a != "" && a != "*" && a == token }) {
		merge(func(a string) bool { return a == "*" })
	}
	// Longest pattern first; at equal length Allow first, so the first
	// match is the most specific rule and ties go to the least
	// restrictive (RFC 9309 2.2.2).
	sort.SliceStable(g.rules, func(i, j int) bool {
		a, b := g.rules[i], g.rules[j]
		if len(a.pattern) != len(b.pattern) {
			return len(a.pattern) > len(b.pattern)
		}
		return a.allow && !b.allow
	})
	return g
}

// allowed reports whether the path (with query) may be crawled.
func (g *group) allowed(path string) bool {
	if path == "/robots.txt" {
		return true // RFC 9309 2.2.2: implicitly allowed
	}
	path = normPattern(path)
	for _, r := range g.rules {
		if match(r.pattern, path) {
			return r.allow
		}
	}
	return true
}

// match reports whether pattern matches a prefix of path ('*' matches any
// run of bytes) or, with a final '$', all of path.
//
// The literal runs between '*'s are found leftmost first (strings.Index):
// for patterns whose only wildcard is '*' the leftmost place of each run
// leaves the most path for the runs after it, so greedy search decides
// exactly, in about one pass over path per rule. The offset-set walk of
// Google's matcher costs len(pattern) × len(path) per rule instead, which a
// robots.txt of thousands of "/*a*a*a…*b" rules turned into half a second
// of CPU for every URL of its site.
func match(pattern, path string) bool {
	pattern, anchored := strings.CutSuffix(pattern, "$")
	head, rest, star := strings.Cut(pattern, "*")
	if !star {
		if anchored {
			return path == head
		}
		return strings.HasPrefix(path, head)
	}
	if !strings.HasPrefix(path, head) {
		return false
	}
	pos := len(head)
	for {
		run, after, more := strings.Cut(rest, "*")
		if !more {
			// The last run: anywhere after pos, or at the very end.
			if anchored {
				return len(path)-pos >= len(run) && strings.HasSuffix(path, run)
			}
			return strings.Contains(path[pos:], run)
		}
		i := strings.Index(path[pos:], run)
		if i < 0 {
			return false
		}
		pos += i + len(run)
		rest = after
	}
}

// patternKeep is printable ASCII: '*', '$' and a '%' that starts no escape
// are kept as they are.
var patternKeep = func() percent.Set {
	var b []byte
	for c := byte('!'); c < 0x7f; c++ {
		b = append(b, c)
	}
	return percent.MakeSet(string(b))
}()

// normPattern normalizes percent-encoding so rules and URLs compare as RFC
// 9309 2.2.2 asks: escapes of unreserved characters decoded, other escapes
// upper-cased, bytes outside printable ASCII (UTF-8 of non-ASCII rules,
// controls, space) encoded. '*' and '$' are left alone.
func normPattern(s string) string { return percent.Normalize(s, &patternKeep) }
