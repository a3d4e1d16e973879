package robots

import "fmt"

// SitemapsOf returns the Sitemap: lines of origin's robots.txt (see
// Sitemaps) as far as the cache knows it, without fetching: from memory,
// else from the Store. known is false when no robots.txt of origin has
// been fetched yet (ok false); an origin whose robots.txt is missing or unreachable
// is known and has none. The crawl loop asks after the frontier's robots
// check for a URL of origin, so the answer is normally in memory.
func (c *Cache) SitemapsOf(origin string) (sitemaps []string, ok bool, err error) {
	var e Entry
	if r, cached := c.lru.get(origin); cached {
		e, ok = r.entry, true
	} else if c.opts.Store != nil {
		st, stored, lerr := c.opts.Store.LoadRobots(origin)
		if lerr != nil {
			return nil, false, fmt.Errorf("robots: sitemaps of %s: %w", origin, lerr)
		}
		e, ok = st, stored && known(st)
	}
	if !ok || State(e.State) != StateRules {
		return nil, ok, nil
	}
	return Sitemaps(e.Body), true, nil
}
