package crawler

import (
	"github.com/seedcrawl/seedcrawl/robots"
	"github.com/seedcrawl/seedcrawl/storage"
)

// RobotsDB is the part of *storage.DB that RobotsStore uses.
type RobotsDB interface {
	LoadRobots(host string) (storage.Robots, bool, error)
	SaveRobots(host string, r storage.Robots) error
}

// RobotsStore adapts the database's robots bucket to robots.Store, so a
// resumed crawl does not fetch robots.txt again within its TTL. Records are
// keyed by origin ("https://example.com:8443") and keep the cache's state as
// it was, so the robots package alone decides what a status or a failure
// count means.
type RobotsStore struct {
	DB RobotsDB
}

// LoadRobots implements robots.Store. A record without a known state (0, or
// a value this version does not know) counts as absent: robots.txt is
// fetched again, which is always safe.
func (s RobotsStore) LoadRobots(origin string) (robots.Entry, bool, error) {
	r, ok, err := s.DB.LoadRobots(origin)
	if err != nil || !ok {
		return robots.Entry{}, false, err
	}
	st := robots.State(r.State)
	switch st {
	case robots.StateRules, robots.StateAllowAll, robots.StateDeferred, robots.StateDisallowAll:
	default:
		return robots.Entry{}, false, nil
	}
	return robots.Entry{
		State: st, FetchedAt: r.FetchedAt, Expires: r.Expires, Status: r.Code,
		Failures: int(r.Failures), Body: r.Body, Err: r.Err,
	}, true, nil
}

// SaveRobots implements robots.Store.
func (s RobotsStore) SaveRobots(origin string, e robots.Entry) error {
	return s.DB.SaveRobots(origin, storage.Robots{
		State: uint8(e.State), Code: e.Status, Body: e.Body, FetchedAt: e.FetchedAt,
		Expires: e.Expires, Failures: uint32(max(e.Failures, 0)), Err: e.Err,
	})
}
