package robots

import (
	"fmt"
	"sync"

	"github.com/seedcrawl/seedcrawl/storage"
)

// State is what is known about an origin's robots.txt.
type State uint8

// Entry states.
const (
	// StateRules: robots.txt was fetched (2xx); its rules apply.
	StateRules State = iota + 1
	// StateAllowAll: robots.txt is unavailable (4xx, or too many
	// redirects); everything is allowed.
	StateAllowAll
	// StateDeferred: robots.txt is unreachable (5xx, timeout, network
	// error) and will be tried again at Entry.Expires.
	StateDeferred
	// StateDisallowAll: robots.txt stayed unreachable for MaxFailures
	// attempts; everything is disallowed until Entry.Expires.
	StateDisallowAll
	// StateRefused: the origin may not be fetched at all: its address was
	// refused (Options.Refused, the SSRF guard). Nothing is retried before
	// Entry.Expires.
	StateRefused
)

var stateNames = [...]string{"", "rules", "allow-all", "deferred", "disallow-all", "refused"}

// String returns the state's name.
func (s State) String() string {
	if int(s) < len(stateNames) && s != 0 {
		return stateNames[s]
	}
	return fmt.Sprintf("state(%d)", uint8(s))
}

// Entry is the cached outcome of fetching one origin's robots.txt, as a
// Store persists it: the record package storage keeps, used as it is so no
// one converts it field by field. State holds a State; Code is the HTTP
// status of the last response (0 if none arrived); Failures counts
// consecutive failed attempts (StateDeferred, StateDisallowAll); Body is
// the robots.txt content (StateRules), at most MaxSize bytes; Expires is
// when it must be fetched again: FetchedAt+TTL, or the retry time of a
// deferred origin.
type Entry = storage.Robots

// known reports whether e's State is one this version knows; an entry with
// another (0 from an old file, or a newer version's) counts as absent, so
// robots.txt is fetched again, which is always safe.
func known(e Entry) bool {
	switch State(e.State) {
	case StateRules, StateAllowAll, StateDeferred, StateDisallowAll, StateRefused:
		return true
	}
	return false
}

// Store persists entries between runs. Keys are origins as returned by
// urlnorm.Origin ("https://example.com", "http://example.com:8080").
// *storage.DB implements it in the robots bucket of the bbolt file;
// MemStore implements it in memory. Implementations must be safe for
// concurrent use.
type Store interface {
	// LoadRobots returns the stored entry of origin; ok is false if none.
	LoadRobots(origin string) (e Entry, ok bool, err error)
	// SaveRobots stores the entry of origin, replacing any previous one.
	SaveRobots(origin string, e Entry) error
}

// MemStore is an in-memory Store, for tests and for crawls that do not
// persist robots.txt. The zero MemStore is ready to use.
type MemStore struct {
	mu sync.Mutex
	m  map[string]Entry
}

// LoadRobots implements Store.
func (s *MemStore) LoadRobots(origin string) (Entry, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.m[origin]
	return e, ok, nil
}

// SaveRobots implements Store.
func (s *MemStore) SaveRobots(origin string, e Entry) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]Entry{}
	}
	s.m[origin] = e
	return nil
}

// Len returns the number of stored origins.
func (s *MemStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m)
}
