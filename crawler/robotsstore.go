package crawler

import (
	"net/http"

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
// keyed by origin ("https://example.com:8443"). The entry's state is not a
// field of storage.Robots; it is derived back on load: failures below
// MaxFailures mean deferred, at or above it disallow-all; no failure and a
// 2xx code mean rules, anything else allow-all.
type RobotsStore struct {
	DB RobotsDB
	// MaxFailures must equal the robots cache's Options.MaxFailures;
	// 0 means robots.DefaultMaxFailures.
	MaxFailures int
}

// LoadRobots implements robots.Store.
func (s RobotsStore) LoadRobots(origin string) (robots.Entry, bool, error) {
	r, ok, err := s.DB.LoadRobots(origin)
	if err != nil || !ok {
		return robots.Entry{}, false, err
	}
	e := robots.Entry{
		FetchedAt: r.FetchedAt, Expires: r.Expires, Status: r.Code,
		Failures: int(r.Failures), Body: r.Body, Err: r.Err,
	}
	maxF := s.MaxFailures
	if maxF == 0 {
		maxF = robots.DefaultMaxFailures
	}
	switch {
	case r.Failures > 0 && int(r.Failures) >= maxF:
		e.State = robots.StateDisallowAll
	case r.Failures > 0:
		e.State = robots.StateDeferred
	case r.Code >= 200 && r.Code < 300 && r.Err == "":
		e.State = robots.StateRules
	default:
		e.State = robots.StateAllowAll
	}
	return e, true, nil
}

// SaveRobots implements robots.Store.
func (s RobotsStore) SaveRobots(origin string, e robots.Entry) error {
	r := storage.Robots{
		Code: e.Status, Body: e.Body, FetchedAt: e.FetchedAt, Expires: e.Expires,
		Failures: uint32(max(e.Failures, 0)), Err: e.Err,
	}
	if e.State == robots.StateRules && (e.Status < 200 || e.Status >= 300) {
		// Keep the state recoverable: rules come only from 2xx.
		r.Code = http.StatusOK
	}
	return s.DB.SaveRobots(origin, r)
}
