package storage

import (
	"bytes"
	"fmt"
	"unsafe"

	bolt "go.etcd.io/bbolt"
)

// Interned is the outcome of interning one URL.
type Interned struct {
	ID  uint64
	New bool // first time this URL is seen: the caller should queue (or reject) it
}

// Intern returns the page id of every URL in urls, allocating the next
// dense ids to URLs never seen before (New). A URL repeated within urls
// gets one id; only its first occurrence is New. from and depth describe
// where new URLs were found (NoPage and 0 for seeds); they are stored with
// the new page records at the next Commit. Lookups of already committed URLs
// run in one read transaction.
//
// Ids of new URLs are valid at once but are written only by the next
// Commit; see the package documentation for the batching contract.
func (db *DB) Intern(urls []string, from uint64, depth uint32) ([]Interned, error) {
	if db.readOnly {
		return nil, ErrReadOnly
	}
	if db.closed.Load() {
		// Checked here too: with the seen filter, Intern may answer
		// without a transaction, which would say so.
		return nil, fmt.Errorf("storage: intern %d urls: %w", len(urls), ErrClosed)
	}
	out := make([]Interned, len(urls))
	for i, u := range urls {
		if err := checkURL(u); err != nil {
			return nil, fmt.Errorf("storage: intern url %d of %d: %w", i, len(urls), err)
		}
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	next := db.committed + uint64(len(db.pend))
	if from != NoPage && from >= next {
		return nil, fmt.Errorf("storage: intern from page %d (next id %d): %w", from, next, ErrUnknownID)
	}
	// Holding mu across the read transaction keeps Commit from retiring a
	// pending URL between the map miss and the bucket lookup.
	misses, absent := 0, 0
	for i, u := range urls {
		if id, ok := db.byURL[u]; ok {
			out[i] = Interned{ID: id}
			continue
		}
		if id, ok := db.cached(u); ok {
			out[i] = Interned{ID: id}
			continue
		}
		out[i].ID = NoPage
		if db.seen != nil && !db.seen.mayHave(u) {
			// New for certain; given its id below, in order.
			out[i].New = true
			absent++
			continue
		}
		misses++
	}
	if misses == 0 {
		if absent > 0 {
			db.internNew(urls, out, from, depth)
		}
		return out, nil
	}
	err := db.view(func(tx *bolt.Tx) error {
		// One cursor for every lookup: Bucket.Get makes a new one, whose
		// search stack is allocated again for each of a page's links.
		cur := tx.Bucket(bktURLs).Cursor()
		for i, u := range urls {
			if out[i].ID != NoPage {
				continue
			}
			if id, ok := db.byURL[u]; ok { // repeated within urls
				out[i] = Interned{ID: id}
				continue
			}
			if !out[i].New {
				if v := seekValue(cur, keyOf(u)); v != nil {
					if len(v) != 8 {
						return fmt.Errorf("%w: %s: url %q: id value of %d bytes", ErrCorrupt, db.path, u, len(v))
					}
					out[i] = Interned{ID: getU64(v)}
					db.remember(u, out[i].ID)
					continue
				}
			}
			out[i] = Interned{ID: db.pendURL(u, from, depth), New: true}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: intern %d urls: %w", len(urls), err)
	}
	return out, nil
}

// internNew gives the URLs of urls that out marks New with no id yet their
// ids, in order; a URL repeated among them gets one id, New only at its
// first place. db.mu held.
func (db *DB) internNew(urls []string, out []Interned, from uint64, depth uint32) {
	for i, u := range urls {
		if out[i].ID != NoPage {
			continue
		}
		if id, ok := db.byURL[u]; ok {
			out[i] = Interned{ID: id}
			continue
		}
		out[i].ID = db.pendURL(u, from, depth)
	}
}

// pendURL interns u, new, with the next id; db.mu held.
func (db *DB) pendURL(u string, from uint64, depth uint32) uint64 {
	id := db.committed + uint64(len(db.pend))
	db.pend = append(db.pend, pending{url: u, from: from, depth: depth})
	db.byURL[u] = id
	if db.seen != nil && !db.seen.add(u) {
		db.seen = nil
	}
	return id
}

// Lookup returns the id of every URL in urls, NoPage for URLs never seen.
// URLs interned but not yet committed are found too.
func (db *DB) Lookup(urls []string) ([]uint64, error) {
	out := make([]uint64, len(urls))
	db.mu.Lock()
	defer db.mu.Unlock()
	err := db.view(func(tx *bolt.Tx) error {
		cur := tx.Bucket(bktURLs).Cursor()
		for i, u := range urls {
			if id, ok := db.byURL[u]; ok {
				out[i] = id
				continue
			}
			if id, ok := db.cached(u); ok {
				out[i] = id
				continue
			}
			out[i] = NoPage
			if u == "" || len(u) > MaxURLLen || db.seen != nil && !db.seen.mayHave(u) {
				continue
			}
			if v := seekValue(cur, keyOf(u)); len(v) == 8 {
				out[i] = getU64(v)
				db.remember(u, out[i])
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: look up %d urls: %w", len(urls), err)
	}
	return out, nil
}

// URL returns the URL of page id, whether it is committed or only interned
// and waiting for the next Commit, so a caller needs no copy of what it
// interned. ErrNotFound if no URL has id.
func (db *DB) URL(id uint64) (string, error) {
	db.mu.Lock()
	if id >= db.committed {
		i := id - db.committed
		var u string
		if i < uint64(len(db.pend)) {
			u = db.pend[i].url
		}
		db.mu.Unlock()
		if u == "" {
			return "", fmt.Errorf("storage: url of %d: %w", id, ErrNotFound)
		}
		return u, nil
	}
	db.mu.Unlock()
	// Only the URL is decoded: the crawl asks for it on every fetch (the
	// robots gate), and the rest of the record is not needed.
	var u string
	err := db.view(func(tx *bolt.Tx) error {
		v := tx.Bucket(bktPages).Get(u64key(id))
		if v == nil {
			return ErrNotFound
		}
		b, err := pageURL(v)
		u = string(b)
		return db.corrupt(err, "page %d", id)
	})
	if err != nil {
		return "", fmt.Errorf("storage: url of %d: %w", id, err)
	}
	return u, nil
}

// cached returns the id of u if the recent URL cache holds it; db.mu held.
// Only committed URLs are cached (see urlCache), so the id is one a crash
// cannot take back.
func (db *DB) cached(u string) (uint64, bool) {
	c := db.recent
	if c == nil || c.skip() {
		return 0, false
	}
	id, ok := c.get(u, c.hash(u))
	c.count(ok)
	return id, ok
}

// remember caches id for u, which a read transaction found committed, if
// it found it before (urlCache.admit); db.mu held.
func (db *DB) remember(u string, id uint64) {
	if db.recent == nil || db.recent.bypass > 0 {
		return
	}
	if h := db.recent.hash(u); db.recent.admit(h) {
		db.recent.put(u, h, id)
	}
}

// NextID returns the id the next new URL will get: the number of pages
// committed plus those interned and pending.
func (db *DB) NextID() uint64 {
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.committed + uint64(len(db.pend))
}

// Cycle returns the current cycle (1 until a batch stores cycle 2).
func (db *DB) Cycle() uint32 {
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.cycle
}

func checkURL(u string) error {
	if u == "" {
		return fmt.Errorf("%w: empty", ErrBadURL)
	}
	if len(u) > MaxURLLen {
		return fmt.Errorf("%w: %d bytes, at most %d", ErrBadURL, len(u), MaxURLLen)
	}
	return nil
}

// keyOf returns the bytes of u without copying. bbolt never modifies a key
// and keeps one no longer than the transaction, so keyOf(u) serves lookups,
// and Put while u stays referenced until the transaction ends (Commit keeps
// the pending URLs for that). The bytes must never be written to.
// seekValue returns the value of key in cur's bucket, nil if absent (or a
// nested bucket), like Bucket.Get but reusing cur.
func seekValue(cur *bolt.Cursor, key []byte) []byte {
	k, v := cur.Seek(key)
	if v == nil || !bytes.Equal(k, key) {
		return nil
	}
	return v
}

func keyOf(u string) []byte { return unsafe.Slice(unsafe.StringData(u), len(u)) }
