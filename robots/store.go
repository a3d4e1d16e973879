package robots

import (
	"encoding/binary"
	"fmt"
	"sync"
	"time"
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
)

var stateNames = [...]string{"", "rules", "allow-all", "deferred", "disallow-all"}

// String returns the state's name.
func (s State) String() string {
	if int(s) < len(stateNames) && s != 0 {
		return stateNames[s]
	}
	return fmt.Sprintf("state(%d)", uint8(s))
}

// Entry is the cached outcome of fetching one origin's robots.txt, as a
// Store persists it.
type Entry struct {
	// State says how to read the rest.
	State State
	// FetchedAt is when the last fetch attempt finished.
	FetchedAt time.Time
	// Expires is when the entry must be fetched again: FetchedAt+TTL, or
	// the retry time of a deferred origin.
	Expires time.Time
	// Status is the HTTP status of the last response, 0 if none arrived.
	Status int
	// Failures counts consecutive failed attempts (StateDeferred,
	// StateDisallowAll).
	Failures int
	// Body is the robots.txt content (StateRules), at most MaxSize bytes.
	Body []byte
	// Err describes the last failure, for stats and logs.
	Err string
}

// Store persists entries between runs. Keys are origins as returned by
// urlnorm.Origin ("https://example.com", "http://example.com:8080"). Package
// storage implements it in the hosts bucket of the bbolt file;
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

// entryVersion prefixes the binary encoding so its layout can change.
const entryVersion = 1

// MarshalBinary encodes e compactly (a version byte, then varints and
// length-prefixed bytes), for stores that keep bytes.
func (e Entry) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 32+len(e.Body)+len(e.Err))
	b = append(b, entryVersion, byte(e.State))
	b = binary.AppendVarint(b, nanos(e.FetchedAt))
	b = binary.AppendVarint(b, nanos(e.Expires))
	b = binary.AppendUvarint(b, uint64(e.Status))
	b = binary.AppendUvarint(b, uint64(e.Failures))
	b = binary.AppendUvarint(b, uint64(len(e.Body)))
	b = append(b, e.Body...)
	b = binary.AppendUvarint(b, uint64(len(e.Err)))
	b = append(b, e.Err...)
	return b, nil
}

// UnmarshalBinary decodes what MarshalBinary wrote. It copies, so data may
// be reused afterwards (as bbolt requires).
func (e *Entry) UnmarshalBinary(data []byte) error {
	if len(data) < 2 || data[0] != entryVersion {
		return fmt.Errorf("robots: unmarshal entry: %w", ErrCorrupt)
	}
	d := decoder{b: data[2:]}
	var out Entry
	out.State = State(data[1])
	out.FetchedAt = unixNano(d.varint())
	out.Expires = unixNano(d.varint())
	out.Status = int(d.uvarint())
	out.Failures = int(d.uvarint())
	out.Body = d.bytes()
	out.Err = string(d.bytes())
	if d.err || len(d.b) != 0 || out.State == 0 || out.State > StateDisallowAll {
		return fmt.Errorf("robots: unmarshal entry: %w", ErrCorrupt)
	}
	*e = out
	return nil
}

func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func unixNano(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

type decoder struct {
	b   []byte
	err bool
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = true
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = true
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if d.err || n > uint64(len(d.b)) {
		d.err = true
		return nil
	}
	if n == 0 {
		return nil
	}
	out := make([]byte, n)
	copy(out, d.b[:n])
	d.b = d.b[n:]
	return out
}
