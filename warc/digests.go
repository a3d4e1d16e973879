package warc

import (
	"context"
	"sync"
	"time"
)

// Ref names an earlier capture: what a revisit record refers to.
type Ref struct {
	// URI is the WARC-Target-URI of the earlier response record.
	URI string
	// Date is its WARC-Date.
	Date time.Time
	// RecordID is its WARC-Record-ID ("<urn:uuid:...>"); "" if unknown.
	RecordID string
}

// DigestStore remembers which payload digests have been written, so a
// response with a payload seen before becomes a revisit record. The
// crawler can back it with its database (for example a content-hash
// bucket) so deduplication spans runs; NewMemoryDigests is the default.
// Implementations must be safe for concurrent use.
type DigestStore interface {
	// Get returns the capture that first had this payload digest.
	Get(ctx context.Context, digest string) (ref Ref, ok bool, err error)
	// Put records that a response with this payload digest was written.
	Put(ctx context.Context, digest string, ref Ref) error
}

// DefaultDigestEntries is the capacity of the default in-memory store.
const DefaultDigestEntries = 100_000

// MemoryDigests is a bounded in-memory DigestStore: it keeps the most
// recently added entries, up to its capacity, forgetting the oldest first
// (a forgotten digest only costs a full response record instead of a
// revisit). Memory is about 150 bytes per entry plus the URI.
type MemoryDigests struct {
	mu    sync.Mutex
	max   int
	m     map[string]Ref
	order []string // ring of keys in insertion order
	next  int
}

// NewMemoryDigests returns a MemoryDigests holding at most max entries
// (DefaultDigestEntries if max <= 0).
func NewMemoryDigests(max int) *MemoryDigests {
	if max <= 0 {
		max = DefaultDigestEntries
	}
	return &MemoryDigests{max: max, m: make(map[string]Ref)}
}

// Get implements DigestStore.
func (d *MemoryDigests) Get(_ context.Context, digest string) (Ref, bool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	r, ok := d.m[digest]
	return r, ok, nil
}

// Put implements DigestStore. The first capture of a digest is kept.
func (d *MemoryDigests) Put(_ context.Context, digest string, ref Ref) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.m[digest]; ok {
		return nil
	}
	if len(d.order) < d.max {
		d.order = append(d.order, digest)
	} else {
		delete(d.m, d.order[d.next])
		d.order[d.next] = digest
		d.next = (d.next + 1) % d.max
	}
	d.m[digest] = ref
	return nil
}

// Len returns the number of entries held.
func (d *MemoryDigests) Len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.m)
}
