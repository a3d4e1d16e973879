package storage

import (
	"hash/maphash"
	"strings"
)

// urlCache remembers the ids of recently looked-up committed URLs, so that
// the links every page of a site repeats (its navigation) are found
// without a bbolt lookup each time. It is a fixed-size set-associative
// table: a URL can only sit in the cacheWays slots of its set, and a full
// set evicts with CLOCK (a hit marks a slot; eviction passes over marked
// slots once, clearing the mark, before taking one).
//
// Correctness rests on two facts: the urls bucket is append-only (a
// committed URL keeps its id forever), and an entry is only ever made from
// what a read transaction found in the file, that is from a committed
// transaction, which kill -9 cannot undo. URLs interned but not yet
// committed are never cached (they live in DB.byURL until Commit), so
// the cache cannot hand out an id a crash would lose, and it needs no
// invalidation.
//
// Memory is bounded: entries slots of 40 bytes (and 8 for admission), plus each cached URL,
// copied on insertion (so a caller's larger string is never pinned) and
// at most maxCachedURL bytes. It is not safe for concurrent use: DB.mu
// guards it.
type urlCache struct {
	seed maphash.Seed
	sets []cacheSet
	mask uint64 // len(sets)-1, a power of two minus one
	// A cache smaller than the set of repeated URLs (thousands of hosts'
	// navigation crawled in rotation) only adds its own misses to bbolt's
	// lookups (a miss costs about a third of a bbolt lookup, so a cache
	// answering fewer than half of them does not pay). A window of
	// cacheWindow lookups with fewer than 1 in 2 hits turns it off for
	// the next cacheBypass lookups, after which a window tries again;
	// unless the cache is still filling (not full, and at least 1 in 16
	// lookups of the window added a URL), and never in the first
	// cacheWarm windows: at the start of a crawl nothing is committed yet.
	puts, windowPuts, lookups, hits, windows int
	bypass                                   int // lookups left to send straight to bbolt
	// door holds the hashes of URLs found committed once, direct-mapped:
	// a URL is cached the second time a lookup finds it committed, so URLs
	// linked once or twice (most of a crawl's) cost neither a copy nor a
	// slot that a repeated link would use.
	door []uint64
}

// cacheSet is one set: the hashes and ids of its slots in one 64-byte
// cache line, so a lookup that misses reads one line, then their URLs (read
// only on a hash match) in the next.
type cacheSet struct {
	hash [cacheWays]uint64 // 0: empty (a URL hashing to 0 is stored as 1)
	id   [cacheWays]uint64 // the id, with refBit set when hit since the last eviction pass
	url  [cacheWays]string
}

// Adaptive bypass: window and length (see urlCache).
const (
	cacheWindow = 4096
	cacheBypass = 4 * cacheWindow
	cacheWarm   = 4
)

// skip reports whether the cache is bypassed for this lookup.
func (c *urlCache) skip() bool {
	if c.bypass > 0 {
		c.bypass--
		return true
	}
	return false
}

// count records a lookup's outcome and decides on the bypass.
func (c *urlCache) count(hit bool) {
	c.lookups++
	if hit {
		c.hits++
	}
	if c.lookups == cacheWindow {
		filling := c.puts < len(c.sets)*cacheWays && c.windowPuts*16 >= c.lookups
		c.windows++
		if c.hits*2 < c.lookups && !filling && c.windows > cacheWarm {
			c.bypass = cacheBypass
		}
		c.lookups, c.hits, c.windowPuts = 0, 0, 0
	}
}

// refBit marks a slot hit since the CLOCK hand last passed; ids are dense
// from 0 and never come near it.
const refBit = 1 << 63

const (
	// cacheWays is the associativity: a set is a few slots read together.
	cacheWays = 4
	// maxCachedURL is the longest URL cached; longer ones (rare, and
	// mostly traps) always go to bbolt.
	maxCachedURL = 512
	// DefaultURLCache is the default of Options.URLCache: the navigation
	// links of about 500 hosts crawled at once (a documentation site
	// repeats 60-70 links on every page); at most 18 MiB, about 4 MiB with
	// URLs of ~70 bytes.
	DefaultURLCache = 1 << 15
)

// newURLCache returns a cache of at least entries slots (rounded up to a
// power of two, at least one set); nil for entries < 0.
func newURLCache(entries int) *urlCache {
	if entries < 0 {
		return nil
	}
	sets := 1
	for sets*cacheWays < entries {
		sets <<= 1
	}
	n := sets * cacheWays
	return &urlCache{seed: maphash.MakeSeed(), sets: make([]cacheSet, sets), mask: uint64(sets - 1), door: make([]uint64, n)}
}

func (c *urlCache) hash(u string) uint64 {
	h := maphash.String(c.seed, u)
	if h == 0 {
		h = 1
	}
	return h
}

// get returns the id cached for u (whose hash is h).
func (c *urlCache) get(u string, h uint64) (uint64, bool) {
	s := &c.sets[h&c.mask]
	for w := range s.hash {
		if s.hash[w] == h && s.url[w] == u {
			s.id[w] |= refBit
			return s.id[w] &^ refBit, true
		}
	}
	return 0, false
}

// admit reports whether the URL of hash h, just found committed, was found
// before (and forgets it then), else remembers it.
func (c *urlCache) admit(h uint64) bool {
	d := &c.door[(h>>20)%uint64(len(c.door))]
	if *d == h {
		*d = 0
		return true
	}
	*d = h
	return false
}

// put caches u (whose hash is h) with the committed id: in an empty slot
// of its set if there is one, else in the first slot not hit since the
// last eviction pass over the set, clearing the marks it passes.
func (c *urlCache) put(u string, h uint64, id uint64) {
	if len(u) > maxCachedURL || id&refBit != 0 {
		return
	}
	s := &c.sets[h&c.mask]
	for w := range s.hash {
		if s.hash[w] == h && s.url[w] == u {
			return
		}
	}
	victim := -1
	for w := range s.hash {
		if s.hash[w] == 0 {
			victim = w
			break
		}
	}
	for w := 0; victim < 0 && w < cacheWays; w++ {
		if s.id[w]&refBit == 0 {
			victim = w
		}
		s.id[w] &^= refBit
	}
	if victim < 0 {
		// Every slot was hit (and is no longer marked): take one by the
		// hash, which is as good as random.
		victim = int(h>>32) % cacheWays
	}
	s.hash[victim], s.id[victim], s.url[victim] = h, id, strings.Clone(u)
	c.puts++
	c.windowPuts++
}

// len returns the number of cached URLs (for tests).
func (c *urlCache) len() int {
	n := 0
	for i := range c.sets {
		for _, h := range c.sets[i].hash {
			if h != 0 {
				n++
			}
		}
	}
	return n
}
