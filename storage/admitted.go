package storage

import (
	"encoding/binary"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// The admitted index: per frontier host key (urlnorm.Authority of the
// URL), how many pages were ever queued or fetched, the count a crawl's
// per-host URL budget (--host-max-pages) is charged with. Without it a
// recrawl cycle would recount it from every page record before its first
// fetch, a pass that grows with the db while the cycle's budget does not.
//
// Commit maintains it in the transaction that changes the pages it counts,
// so it is exactly the count of the committed page records after any crash.
// A file created by this version has the bucket from the start; in an older
// file AdmittedByHost builds it once, with one pass over the page records,
// and Commit maintains it from then on.

// bktAdmitted: host key → u64 count of its pages with admittedPage true.
// Optional: a file without it has no index yet.
var bktAdmitted = []byte("admitted")

// admittedPage reports whether p counts in the admitted index: fetched at
// least once, or queued.
func admittedPage(p *Page) bool { return p.Fetches > 0 || p.Status == StatusQueued }

// admit records that page p (URL u) entered (d = 1) or left (d = -1) the
// admitted index in this commit.
func (c *committer) admit(u string, d int64) {
	h := urlnorm.Authority(u)
	if c.adm == nil || h == "" {
		return // no index, or no host (not a crawlable URL): nothing to count
	}
	if c.admDelta == nil {
		c.admDelta = map[string]int64{}
	}
	c.admDelta[h] += d
}

// putAdmitted applies the index changes of this commit, in key order.
func (c *committer) putAdmitted() error {
	if c.adm == nil || len(c.admDelta) == 0 {
		return nil
	}
	hosts := make([]string, 0, len(c.admDelta))
	for h, d := range c.admDelta {
		if d != 0 {
			hosts = append(hosts, h)
		}
	}
	slices.Sort(hosts)
	for _, h := range hosts {
		n := int64(0)
		if v := c.adm.Get([]byte(h)); len(v) == 8 {
			n = int64(binary.BigEndian.Uint64(v))
		}
		n = max(n+c.admDelta[h], 0)
		if err := c.adm.Put(c.take(append(c.value(len(h)), h...)), c.key64(uint64(n))); err != nil {
			return fmt.Errorf("put admitted count of %q: %w", h, err)
		}
	}
	return nil
}

// AdmittedByHost returns, per frontier host key (urlnorm.Authority; URLs
// without one are not counted), the
// number of pages ever queued or fetched (Page.Fetches > 0 or status
// queued): what a crawl's per-host URL budget has spent. It reads the
// admitted index, which Commit keeps; on a file that has none yet it builds
// the index first (one pass over the page records, stored unless the db is
// read-only).
func (db *DB) AdmittedByHost() (map[string]int64, error) {
	out := map[string]int64{}
	found := false
	err := db.viewBucket(bktAdmitted, func(bk *bolt.Bucket) error {
		found = true
		return bk.ForEach(func(k, v []byte) error {
			if len(v) != 8 {
				return db.corrupt(fmt.Errorf("admitted count of %d bytes: %w", len(v), ErrBadRecord), "admitted %q", k)
			}
			out[string(k)] = int64(binary.BigEndian.Uint64(v))
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("storage: admitted pages per host: %w", err)
	}
	if found {
		return out, nil
	}
	if db.readOnly {
		if err := db.view(func(tx *bolt.Tx) error { return db.countAdmitted(tx, out) }); err != nil {
			return nil, fmt.Errorf("storage: count admitted pages per host: %w", err)
		}
		return out, nil
	}
	db.commitMu.Lock()
	defer db.commitMu.Unlock()
	err = db.update(func(tx *bolt.Tx) error {
		clear(out)
		if err := db.countAdmitted(tx, out); err != nil {
			return err
		}
		bk, err := tx.CreateBucketIfNotExists(bktAdmitted)
		if err != nil {
			return fmt.Errorf("create bucket %s: %w", bktAdmitted, err)
		}
		hosts := make([]string, 0, len(out))
		for h := range out {
			hosts = append(hosts, h)
		}
		slices.Sort(hosts)
		for _, h := range hosts {
			if err := bk.Put([]byte(h), u64key(uint64(out[h]))); err != nil {
				return fmt.Errorf("put admitted count of %q: %w", h, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: build admitted index of %s: %w", db.path, err)
	}
	return out, nil
}

// countAdmitted counts the admitted pages per host from the page records.
func (db *DB) countAdmitted(tx *bolt.Tx, out map[string]int64) error {
	var p Page
	cur := tx.Bucket(bktPages).Cursor()
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		if len(k) != 8 {
			continue
		}
		id := getU64(k)
		if err := decodePage(id, v, &p); err != nil {
			return db.corrupt(err, "page %d", id)
		}
		if h := urlnorm.Authority(p.URL); h != "" && admittedPage(&p) {
			out[h]++
		}
	}
	return nil
}
