package storage

import (
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Sitemap side buckets. They are optional: created by the first commit
// that writes to them, and read as empty when absent, so files written
// before sitemaps were read open unchanged (no schema change) and their
// page records keep their encoding.
var (
	// bktLastMod: page id (8 bytes) → a sitemap's lastmod for the page,
	// unix nanoseconds (8 bytes).
	bktLastMod = []byte("lastmod")
	// bktSitemaps: page id (8 bytes) → a SitemapFile: depth (1 byte) then
	// the origin's bytes.
	bktSitemaps = []byte("sitemaps")
)

// SitemapFile marks a URL the crawler reads as a sitemap, not a page: its
// links (kind LinkSitemap) are the URLs it lists and its child sitemaps.
type SitemapFile struct {
	// Depth is its index depth: 0 for a sitemap named in robots.txt and
	// for /sitemap.xml, d+1 for one listed by an index of depth d.
	Depth int
	// Origin is the site ("https://example.com") whose robots.txt (or
	// /sitemap.xml) led to it: the URLs it may list besides its own
	// directory (sitemaps.org cross-submission).
	Origin string
}

// maxSitemapOrigin bounds a stored origin: scheme, host and port.
const maxSitemapOrigin = 512

// sitemapWrites are a Batch's writes to the sitemap side buckets.
type sitemapWrites struct {
	lastmod map[uint64]time.Time
	files   map[uint64]SitemapFile
}

func (w *sitemapWrites) reset() {
	clear(w.lastmod)
	clear(w.files)
}

func (w *sitemapWrites) empty() bool { return len(w.lastmod) == 0 && len(w.files) == 0 }

// SetLastMod stores the lastmod a sitemap gives for page id (the revisit
// policy may use it); a zero t removes it. Last call wins.
func (b *Batch) SetLastMod(id uint64, t time.Time) {
	if b.sm.lastmod == nil {
		b.sm.lastmod = map[uint64]time.Time{}
	}
	b.sm.lastmod[id] = t
}

// MarkSitemap records that URL id is read as a sitemap (see SitemapFile),
// so the mark outlives a restart. Last call wins.
func (b *Batch) MarkSitemap(id uint64, s SitemapFile) {
	if b.sm.files == nil {
		b.sm.files = map[uint64]SitemapFile{}
	}
	b.sm.files[id] = s
}

// putSitemaps writes the batch's sitemap side records.
func (c *committer) putSitemaps() error {
	w := &c.b.sm
	err := putPageSide(c, bktLastMod, "lastmod", w.lastmod, func(id uint64, t time.Time) ([]byte, error) {
		if t.IsZero() {
			return nil, nil
		}
		return u64key(uint64(t.UnixNano())), nil
	})
	if err != nil {
		return err
	}
	return putPageSide(c, bktSitemaps, "sitemap mark", w.files, func(id uint64, s SitemapFile) ([]byte, error) {
		if s.Depth < 0 || s.Depth > 255 || len(s.Origin) > maxSitemapOrigin {
			return nil, fmt.Errorf("sitemap mark of page %d: depth %d, origin of %d bytes: %w", id, s.Depth, len(s.Origin), ErrBadRecord)
		}
		return append([]byte{byte(s.Depth)}, s.Origin...), nil
	})
}

// putPageSide writes a side record per page of m to bucket bkt (created
// on first use), keyed by page id: the value value gives, or none where
// it gives nil. what names the records in errors.
func putPageSide[T any](c *committer, bkt []byte, what string, m map[uint64]T, value func(id uint64, x T) ([]byte, error)) error {
	if len(m) == 0 {
		return nil
	}
	bk, err := c.tx.CreateBucketIfNotExists(bkt)
	if err != nil {
		return fmt.Errorf("create bucket %s: %w", bkt, err)
	}
	for id, x := range m {
		if id >= c.limit {
			return fmt.Errorf("%s of page %d (next id %d): %w", what, id, c.limit, ErrUnknownID)
		}
		v, err := value(id, x)
		if err != nil {
			return err
		}
		if v == nil {
			err = bk.Delete(u64key(id))
		} else {
			err = bk.Put(u64key(id), v)
		}
		if err != nil {
			return fmt.Errorf("put %s of page %d: %w", what, id, err)
		}
	}
	return nil
}

// decodeSitemapFile decodes a value of the sitemaps bucket.
func decodeSitemapFile(v []byte) (SitemapFile, error) {
	if len(v) < 1 || len(v)-1 > maxSitemapOrigin {
		return SitemapFile{}, fmt.Errorf("sitemap mark of %d bytes: %w", len(v), ErrBadRecord)
	}
	return SitemapFile{Depth: int(v[0]), Origin: string(v[1:])}, nil
}

// LastMod returns the lastmod a sitemap gave for page id; ok is false when
// none is stored.
func (db *DB) LastMod(id uint64) (t time.Time, ok bool, err error) {
	err = db.viewBucket(bktLastMod, func(bk *bolt.Bucket) error {
		v := bk.Get(u64key(id))
		if v == nil {
			return nil
		}
		if len(v) != 8 {
			return db.corrupt(fmt.Errorf("lastmod of %d bytes: %w", len(v), ErrBadRecord), "lastmod %d", id)
		}
		t, ok = time.Unix(0, int64(binary.BigEndian.Uint64(v))).UTC(), true
		return nil
	})
	if err != nil {
		return time.Time{}, false, fmt.Errorf("storage: lastmod of page %d: %w", id, err)
	}
	return t, ok, nil
}

// Sitemap returns the sitemap mark of URL id; ok is false when id is not
// a sitemap.
func (db *DB) Sitemap(id uint64) (s SitemapFile, ok bool, err error) {
	err = db.viewBucket(bktSitemaps, func(bk *bolt.Bucket) error {
		v := bk.Get(u64key(id))
		if v == nil {
			return nil
		}
		s, err = decodeSitemapFile(v)
		ok = err == nil
		return db.corrupt(err, "sitemap mark %d", id)
	})
	if err != nil {
		return SitemapFile{}, false, fmt.Errorf("storage: sitemap mark of %d: %w", id, err)
	}
	return s, ok, nil
}

// EachSitemap calls fn with every URL marked as a sitemap, in id order.
func (db *DB) EachSitemap(fn func(id uint64, s SitemapFile) error) error {
	var marks []struct {
		id uint64
		s  SitemapFile
	}
	// Collect, then call fn outside the read transaction.
	err := db.viewBucket(bktSitemaps, func(bk *bolt.Bucket) error {
		return bk.ForEach(func(k, v []byte) error {
			s, err := decodeSitemapFile(v)
			if err != nil || len(k) != 8 {
				return db.corrupt(fmt.Errorf("sitemap mark: %w", ErrBadRecord), "sitemap mark key %x", k)
			}
			marks = append(marks, struct {
				id uint64
				s  SitemapFile
			}{getU64(k), s})
			return nil
		})
	})
	if err != nil {
		return fmt.Errorf("storage: each sitemap: %w", err)
	}
	for _, m := range marks {
		if err := fn(m.id, m.s); err != nil {
			return err
		}
	}
	return nil
}
