package testweb

import (
	"strconv"
	"strings"
	"time"
)

// robotsRules is a parsed robots.txt, matched the way RFC 9309 says: the
// groups whose user-agent equals the crawler's product token
// (case-insensitively) are merged; without one, the "*" groups are; the
// longest matching Allow or Disallow pattern decides, Allow winning a tie;
// '*' matches any run of characters and a final '$' anchors the end. It is a
// small independent implementation so the truth does not share a bug with
// the crawler's robots library.
type robotsRules struct {
	groups []robotsGroup
}

type robotsGroup struct {
	agents   []string // lower-cased
	rules    []robotsRule
	delay    time.Duration
	hasDelay bool
}

type robotsRule struct {
	allow   bool
	pattern string
}

// parseRobots parses a robots.txt body. Unknown lines are ignored.
func parseRobots(body string) *robotsRules {
	r := &robotsRules{}
	var cur *robotsGroup
	inAgents := false
	for _, line := range strings.Split(body, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key = strings.ToLower(strings.TrimSpace(key))
		val = strings.TrimSpace(val)
		switch key {
		case "user-agent":
			if !inAgents {
				r.groups = append(r.groups, robotsGroup{})
				cur = &r.groups[len(r.groups)-1]
				inAgents = true
			}
			cur.agents = append(cur.agents, strings.ToLower(val))
		case "allow", "disallow":
			inAgents = false
			if cur == nil || val == "" {
				continue
			}
			cur.rules = append(cur.rules, robotsRule{allow: key == "allow", pattern: val})
		case "crawl-delay":
			inAgents = false
			if cur == nil {
				continue
			}
			if f, err := strconv.ParseFloat(val, 64); err == nil && f >= 0 {
				cur.delay = time.Duration(f * float64(time.Second))
				cur.hasDelay = true
			}
		default:
			inAgents = false
		}
	}
	return r
}

// forToken returns the merged rules and crawl delay that apply to token.
func (r *robotsRules) forToken(token string) (rules []robotsRule, delay time.Duration) {
	token = strings.ToLower(token)
	pick := func(want string) bool {
		found := false
		for _, g := range r.groups {
			for _, a := range g.agents {
				if a == want {
					found = true
					rules = append(rules, g.rules...)
					if g.hasDelay && g.delay > delay {
						delay = g.delay
					}
					break
				}
			}
		}
		return found
	}
	if !pick(token) {
		pick("*")
	}
	return rules, delay
}

// allowed reports whether the canonical path-and-query target may be fetched
// by a crawler whose product token is token.
func (r *robotsRules) allowed(target, token string) bool {
	rules, _ := r.forToken(token)
	best, allow := -1, true
	for _, ru := range rules {
		if !matchRobots(ru.pattern, target) {
			continue
		}
		l := len(ru.pattern)
		if l > best || (l == best && ru.allow) {
			best, allow = l, ru.allow
		}
	}
	return allow
}

// matchRobots matches an RFC 9309 path pattern against target from its start.
func matchRobots(pattern, target string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(target, parts[0]) {
		return false
	}
	pos := len(parts[0])
	for i := 1; i < len(parts); i++ {
		p := parts[i]
		if i == len(parts)-1 && anchored {
			return strings.HasSuffix(target[pos:], p)
		}
		j := strings.Index(target[pos:], p)
		if j < 0 {
			return false
		}
		pos += j + len(p)
	}
	return !anchored || pos == len(target)
}

// robotsMode is how a host answers /robots.txt.
type robotsMode uint8

const (
	robotsFile     robotsMode = iota // 200 with a body
	robotsMissing                    // 404: everything allowed
	robotsError                      // 503: nothing fetched (disallow-all)
	robotsRedirect                   // 301 to a file on another host
)

// allowAllRobots is the robots.txt of hosts without restrictions.
const allowAllRobots = "User-agent: *\nDisallow:\n"

// regularRobots is the robots.txt of regular hosts.
const regularRobots = "# seedcrawl test web\nUser-agent: *\nDisallow: /private/\n"

// redirectedRobots is the file robotsredirect.test's robots.txt redirects to.
const redirectedRobots = "# robots.txt of robotsredirect.test, served from norobots.test\nUser-agent: *\nDisallow: /hidden/\n"

// rulesRobots returns the robots.txt of rules.test: several groups, a group
// with two user-agent lines in mixed case, Allow overriding a shorter
// Disallow, '*' and '$' patterns and a fractional Crawl-delay. Each rule is
// exercised by a page of rules.test (see zoo.go). Pattern lengths are chosen
// so that RFC 9309 longest match and libraries that count a wildcard
// pattern's length differently still agree.
func rulesRobots(delay time.Duration) string {
	var sb strings.Builder
	sb.WriteString("# rules.test: groups, Allow/Disallow, wildcards, $ and Crawl-delay\n")
	sb.WriteString("User-agent: otherbot\nDisallow: /\n\n")
	sb.WriteString("User-agent: ExampleBot\nUser-agent: SeedCrawl\n")
	sb.WriteString("Disallow: /private/\n")
	sb.WriteString("Allow: /private/open/\n")
	sb.WriteString("Disallow: /*.pdf$\n")
	sb.WriteString("Allow: /docs/\n")
	sb.WriteString("Disallow: /search*sort=\n")
	if delay > 0 {
		sb.WriteString("Crawl-delay: ")
		sb.WriteString(strconv.FormatFloat(delay.Seconds(), 'f', -1, 64))
		sb.WriteByte('\n')
	}
	sb.WriteString("\nUser-agent: *\nDisallow: /private/\nDisallow: /docs/\nCrawl-delay: 1.5\n")
	return sb.String()
}
