// Package robots decides whether seedcrawl may fetch a URL under the site's
// robots.txt (RFC 9309), fetching each origin's robots.txt once and caching
// the result.
//
// A Cache is shared by all crawl workers. Check fetches an origin's
// /robots.txt at most once at a time however many workers ask
// (golang.org/x/sync/singleflight), keeps the result for TTL (24h by
// default) in memory (a bounded LRU) and in a Store the caller provides
// (package storage persists it in the bbolt file, so a resumed crawl does
// not refetch), and answers with a Decision:
//
//   - 2xx: the file's rules for our product token, with Crawl-delay;
//   - 4xx (after redirects): no rules, everything allowed (RFC 9309 2.3.1.3);
//   - 5xx, timeout or network error: the origin is deferred, Decision.RetryAt
//     tells when to ask again, with exponential backoff; after MaxFailures
//     consecutive failures everything is disallowed until TTL passes
//     (RFC 9309 2.3.1.4); a certificate that fails verification is given
//     up at once, as asking again will not make it trusted;
//   - redirects are followed, up to five hops, across hosts too
//     (RFC 9309 2.3.1.2); more hops count as a 4xx.
//
// With Options.Archive (--warc) every robots.txt exchange, redirect hops
// included, goes into the crawl's WARC files beside its pages; a failure
// to archive one is reported with the decision, which stands.
//
// The file is read up to MaxSize (500 KiB, the minimum RFC 9309 2.5 asks
// parsers to handle); the rest is ignored.
//
// Matching follows RFC 9309 2.2: groups are chosen by case-insensitive
// product-token match (all groups naming the token are merged, else all "*"
// groups), the rule with the longest pattern wins, an Allow wins a tie with
// a Disallow, '*' matches any sequence and a final '$' anchors the end,
// percent-encoding is normalized on both sides before comparing, and
// /robots.txt itself is always allowed. Crawl-delay (not in RFC 9309, but
// widely used) may be fractional.
//
// The frontier, which owns politeness, asks about storage ids, not URLs:
// Gate (NewGate) is its robots.txt checker (frontier.RobotsChecker). It
// looks the URL of an id up, asks the Cache, turns the Decision into the
// frontier's Verdict (reasons carry their cause class, "robots-unreachable:
// refused") and logs each origin's changes of robots.txt state once.
//
// Parsing is this package's own: github.com/temoto/robotstxt, which the
// project first meant to wrap, deviates from RFC 9309 in ways that change
// decisions (see rules.go and TestTemotoDeviations): it rejects a whole file
// over one bad line, matches '$' patterns unanchored ("/a$" matches
// "/x/a"), ranks wildcard rules by the length of their compiled regular
// expression, lets file order break Allow/Disallow ties, matches user
// agents by prefix, and compares paths without normalizing
// percent-encoding.
package robots
