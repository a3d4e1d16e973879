package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Commit applies b and every URL interned before the call in one bbolt
// transaction: all of it is stored, or (on any error) none of it. On
// success b is left as it was (call Reset to reuse it); on failure the
// interned URLs stay pending for the next Commit. A nil b commits only the
// interned URLs.
func (db *DB) Commit(b *Batch) error {
	if db.closed.Load() {
		return ErrClosed
	}
	if db.readOnly {
		return ErrReadOnly
	}
	if b == nil {
		b = &Batch{}
	}
	db.commitMu.Lock()
	defer db.commitMu.Unlock()

	db.mu.Lock()
	n := len(db.pend)
	c := committer{
		db:    db,
		b:     b,
		base:  db.committed,
		limit: db.committed + uint64(n),
		pend:  db.pend[:n:n],
		cycle: db.cycle,
	}
	db.mu.Unlock()

	if err := db.update(c.apply); err != nil {
		return fmt.Errorf("storage: commit %s: %w", db.path, err)
	}

	db.mu.Lock()
	for _, p := range c.pend {
		delete(db.byURL, p.url)
	}
	rest := copy(db.pend, db.pend[n:])
	clear(db.pend[rest:])
	db.pend = db.pend[:rest]
	db.committed = c.limit
	db.cycle = c.cycle
	db.mu.Unlock()
	return nil
}

// committer holds the state of one Commit.
type committer struct {
	db    *DB
	b     *Batch
	base  uint64    // first pending id
	limit uint64    // ids below limit exist after this commit
	pend  []pending // pend[i] gets id base+i
	cycle uint32

	tx      *bolt.Tx
	pages   *bolt.Bucket
	links   *bolt.Bucket
	hashes  *bolt.Bucket
	fetches *bolt.Bucket

	stats    CycleStats
	hosts    map[string]*Host // counter deltas by host
	adm      *bolt.Bucket     // the admitted index; nil in a file without one
	admDelta map[string]int64 // its changes by host key
	arena    []byte           // backing store of keys and values put in this tx
	seen     map[uint64]struct{}
	dedup    []Link

	// Puts into buckets with scattered keys are collected and made in key
	// order at the end: bbolt splits nodes only at commit, so inserting many
	// keys out of order into one node is quadratic (each insert shifts the
	// node's tail), and a crawl's first batches put thousands of keys into
	// nearly empty buckets.
	linkKV    []kv
	linkIdx   map[uint64]int // src -> index in linkKV
	fetchKV   []kv
	hashKV    []kv
	newHashes map[Hash]uint64
}

// kv is a deferred Put; skip marks one superseded within the batch.
type kv struct {
	k, v []byte
	skip bool
}

// putSorted makes the puts of kvs in key order; of equal keys the last
// one wins.
func putSorted(b *bolt.Bucket, kvs []kv, what string) error {
	byKey := func(x, y kv) int { return bytes.Compare(x.k, y.k) }
	// A batch's new pages and their records come in id order: checking
	// costs one pass, where the stable sort costs n log n moves.
	if !slices.IsSortedFunc(kvs, byKey) {
		slices.SortStableFunc(kvs, byKey)
	}
	for i := range kvs {
		if kvs[i].skip || (i+1 < len(kvs) && bytes.Equal(kvs[i].k, kvs[i+1].k)) {
			continue
		}
		if err := b.Put(kvs[i].k, kvs[i].v); err != nil {
			return fmt.Errorf("put %s %x: %w", what, kvs[i].k, err)
		}
	}
	return nil
}

// room makes sure the arena can take n more bytes without reallocating.
// bbolt keeps references to what Put is given until the transaction
// commits, so key and value buffers are never reused within it: they are
// carved from chunks that are only ever appended to.
func (c *committer) room(n int) {
	if cap(c.arena) < n {
		c.arena = make([]byte, 0, max(64<<10, n))
	}
}

// take seals out, which an encoder appended to c.arena (possibly
// reallocating), and moves the arena past it.
func (c *committer) take(out []byte) []byte {
	v := out[:len(out):len(out)]
	c.arena = out[len(out):]
	return v
}

// value returns the arena with room for n bytes, for an encoder to append to.
func (c *committer) value(n int) []byte {
	c.room(n)
	return c.arena
}

func (c *committer) key64(v uint64) []byte {
	c.room(8)
	return c.take(binary.BigEndian.AppendUint64(c.arena, v))
}

func (c *committer) key32(v uint32) []byte {
	c.room(4)
	return c.take(binary.BigEndian.AppendUint32(c.arena, v))
}

func (c *committer) apply(tx *bolt.Tx) error {
	c.tx = tx
	c.pages = tx.Bucket(bktPages)
	c.links = tx.Bucket(bktLinks)
	c.hashes = tx.Bucket(bktHashes)
	c.fetches = tx.Bucket(bktFetches)
	c.adm = tx.Bucket(bktAdmitted)
	b := c.b

	if b.cycle != nil {
		if err := c.putCycle(b.cycle); err != nil {
			return err
		}
	}
	if err := c.loadStats(); err != nil {
		return err
	}
	if err := c.putNewPages(); err != nil {
		return err
	}
	for i := range b.ops {
		op := &b.ops[i]
		if op.f.ID >= c.limit {
			return fmt.Errorf("page %d (next id %d): %w", op.f.ID, c.limit, ErrUnknownID)
		}
		var err error
		if op.kind == opFetch {
			err = c.applyFetch(op)
		} else {
			err = c.applyStatus(op)
		}
		if err != nil {
			return err
		}
	}
	if err := putSorted(c.links, c.linkKV, "links"); err != nil {
		return err
	}
	if err := putSorted(c.fetches, c.fetchKV, "fetch"); err != nil {
		return err
	}
	if err := putSorted(c.hashes, c.hashKV, "hash"); err != nil {
		return err
	}
	// The side records, each in its own bucket, in this order.
	for _, put := range []func() error{
		c.putFrontier, c.putHosts, c.putAdmitted, c.putCounters,
		c.putStates, c.putRuns, c.putSitemaps, c.putOwed,
	} {
		if err := put(); err != nil {
			return err
		}
	}
	c.stats.Found += uint64(len(c.pend))
	c.stats.Retries += c.b.retries
	c.stats.NextID = c.limit
	cs := tx.Bucket(bktCycleStats)
	if err := cs.Put(c.key32(c.cycle), c.take(encodeCycleStats(c.value(96), &c.stats))); err != nil {
		return fmt.Errorf("put cycle stats %d: %w", c.cycle, err)
	}
	m := tx.Bucket(bktMeta)
	if err := m.Put(keyNextID, c.key64(c.limit)); err != nil {
		return fmt.Errorf("put meta next_id: %w", err)
	}
	if err := m.Put(keyCycle, c.key32(c.cycle)); err != nil {
		return fmt.Errorf("put meta cycle: %w", err)
	}
	return nil
}

// putNewPages stores the interned URLs: the urls entry and a page record,
// queued when this batch also puts it in the frontier.
func (c *committer) putNewPages() error {
	urls := c.tx.Bucket(bktURLs)
	order := make([]int, len(c.pend))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(c.pend[a].url, c.pend[b].url) })
	for _, i := range order {
		// The URL stays alive in c.pend until the transaction ends, so its
		// bytes may back the key.
		u := c.pend[i].url
		if err := urls.Put(keyOf(u), c.key64(c.base+uint64(i))); err != nil {
			return fmt.Errorf("put url %q: %w", u, err)
		}
	}
	var p Page
	for i, pd := range c.pend {
		id := c.base + uint64(i)
		p = Page{ID: id, URL: pd.url, Status: StatusDiscovered, Depth: pd.depth, From: pd.from, FirstCycle: c.cycle}
		if j, ok := c.b.frontier[id]; ok && j >= 0 {
			p.Status = StatusQueued
			c.admit(pd.url, 1)
		}
		if err := c.pages.Put(c.key64(id), c.take(encodePage(c.value(len(pd.url)+32), &p))); err != nil {
			return fmt.Errorf("put page %d: %w", id, err)
		}
	}
	return nil
}

func (c *committer) getPage(id uint64, p *Page) error {
	v := c.pages.Get(u64key(id))
	if v == nil {
		return fmt.Errorf("%w: %s: page %d below next id %d has no record", ErrCorrupt, c.db.path, id, c.limit)
	}
	if err := decodePage(id, v, p); err != nil {
		return fmt.Errorf("%w: %s: page %d: %w", ErrCorrupt, c.db.path, id, err)
	}
	return nil
}

func (c *committer) putPage(p *Page) error {
	v := c.take(encodePage(c.value(len(p.URL)+len(p.ContentType)+len(p.ETag)+len(p.LastModified)+len(p.Reason)+96), p))
	if err := c.pages.Put(c.key64(p.ID), v); err != nil {
		return fmt.Errorf("put page %d: %w", p.ID, err)
	}
	return nil
}
