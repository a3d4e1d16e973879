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
	if len(w.lastmod) > 0 {
		bk, err := c.tx.CreateBucketIfNotExists(bktLastMod)
		if err != nil {
			return fmt.Errorf("create bucket %s: %w", bktLastMod, err)
		}
		for id, t := range w.lastmod {
			if id >= c.limit {
				return fmt.Errorf("lastmod of page %d (next id %d): %w", id, c.limit, ErrUnknownID)
			}
			if t.IsZero() {
				err = bk.Delete(u64key(id))
			} else {
				err = bk.Put(u64key(id), u64key(uint64(t.UnixNano())))
			}
			if err != nil {
				return fmt.Errorf("put lastmod of page %d: %w", id, err)
			}
		}
	}
	if len(w.files) > 0 {
		bk, err := c.tx.CreateBucketIfNotExists(bktSitemaps)
		if err != nil {
			return fmt.Errorf("create bucket %s: %w", bktSitemaps, err)
		}
		for id, s := range w.files {
			if id >= c.limit {
				return fmt.Errorf("sitemap mark of page %d (next id %d): %w", id, c.limit, ErrUnknownID)
			}
			if s.Depth < 0 || s.Depth > 255 || len(s.Origin) > maxSitemapOrigin {
				return fmt.Errorf("sitemap mark of page %d: depth %d, origin of %d bytes: %w", id, s.Depth, len(s.Origin), ErrBadRecord)
			}
			v := append([]byte{byte(s.Depth)}, s.Origin...)
			if err := bk.Put(u64key(id), v); err != nil {
				return fmt.Errorf("put sitemap mark of page %d: %w", id, err)
			}
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
	err = db.view(func(tx *bolt.Tx) error {
		bk := tx.Bucket(bktLastMod)
		if bk == nil {
			return nil
		}
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
	err = db.view(func(tx *bolt.Tx) error {
		bk := tx.Bucket(bktSitemaps)
		if bk == nil {
			return nil
		}
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
	err := db.view(func(tx *bolt.Tx) error {
		bk := tx.Bucket(bktSitemaps)
		if bk == nil {
			return nil
		}
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
