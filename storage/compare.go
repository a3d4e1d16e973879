package storage

import (
	"encoding/binary"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The buckets of seedcrawl compare, created by its first write, so that
// databases of plain crawls do not have them and files written before they
// existed stay valid (init does not require them).
var (
	bktCmpMeta     = []byte("compare_meta")
	bktCmpPages    = []byte("compare_pages")
	bktCmpProgress = []byte("compare_progress")

	keyCmpOptions = []byte("options")
)

// ErrCompareProgress is wrapped when a stored compare download sequence is
// extended from a position beyond its end.
var ErrCompareProgress = errors.New("storage: compare progress out of order")

// ComparePage is one page as seedcrawl compare saw it: the URL requested,
// the HTTP status code (0 without a response), why it failed ("" when it
// did not) and its out-links in document order.
type ComparePage struct {
	URL    string
	Status int
	Err    string
	Links  []string
}

// SaveComparePages stores ps in one transaction, each replacing a page of
// the same URL.
func (db *DB) SaveComparePages(ps ...ComparePage) error {
	err := db.update(func(tx *bolt.Tx) error {
		for _, p := range ps {
			if err := putComparePage(tx, p); err != nil {
				return fmt.Errorf("%s: %w", p.URL, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: save %d compare pages: %w", len(ps), err)
	}
	return nil
}

func putComparePage(tx *bolt.Tx, p ComparePage) error {
	v := binary.AppendUvarint(nil, 1) // format
	v = binary.AppendUvarint(v, uint64(max(p.Status, 0)))
	v = appendCmpString(v, p.Err)
	v = binary.AppendUvarint(v, uint64(len(p.Links)))
	for _, l := range p.Links {
		v = appendCmpString(v, l)
	}
	b, err := tx.CreateBucketIfNotExists(bktCmpPages)
	if err != nil {
		return err
	}
	return b.Put([]byte(p.URL), v)
}

// EachComparePage calls fn with every stored compare page, in URL order,
// inside one read transaction (see Reading in the package documentation).
func (db *DB) EachComparePage(fn func(p ComparePage) error) error {
	err := db.viewBucket(bktCmpPages, func(b *bolt.Bucket) error {
		return b.ForEach(func(k, v []byte) error {
			p, err := decodeComparePage(string(k), v)
			if err != nil {
				return db.corrupt(err, "compare page %q", k)
			}
			return callback(func() error { return fn(p) })
		})
	})
	if err != nil {
		return fmt.Errorf("storage: compare pages: %w", err)
	}
	return nil
}

func decodeComparePage(u string, v []byte) (ComparePage, error) {
	p := ComparePage{URL: u}
	r := cmpReader{b: v}
	if f := r.uvarint(); f != 1 && r.err == nil {
		return p, fmt.Errorf("format %d", f)
	}
	p.Status = int(r.uvarint())
	p.Err = r.string()
	n := r.uvarint()
	if n > uint64(len(v)) {
		return p, fmt.Errorf("%d links in %d bytes", n, len(v))
	}
	for i := uint64(0); i < n && r.err == nil; i++ {
		p.Links = append(p.Links, r.string())
	}
	return p, r.err
}

// AppendCompareProgress stores pages (as SaveComparePages), then ids as
// positions start, start+1, ... of the download sequence named name,
// dropping stored positions from start on, in one transaction: a caller
// that holds revealed pages back until a sequence needs them writes both
// at the cost of one commit.
func (db *DB) AppendCompareProgress(name string, start int, ids []uint64, pages []ComparePage) error {
	err := db.update(func(tx *bolt.Tx) error {
		for _, p := range pages {
			if err := putComparePage(tx, p); err != nil {
				return fmt.Errorf("page %s: %w", p.URL, err)
			}
		}
		b, err := tx.CreateBucketIfNotExists(bktCmpProgress)
		if err != nil {
			return err
		}
		cur := b.Get([]byte(name))
		if start < 0 || start*8 > len(cur) {
			return fmt.Errorf("from position %d, %d stored: %w", start, len(cur)/8, ErrCompareProgress)
		}
		v := make([]byte, 0, start*8+len(ids)*8)
		v = append(v, cur[:start*8]...)
		for _, id := range ids {
			v = binary.BigEndian.AppendUint64(v, id)
		}
		return b.Put([]byte(name), v)
	})
	if err != nil {
		return fmt.Errorf("storage: save compare progress of %s: %w", name, err)
	}
	return nil
}

// CompareProgress returns the stored download sequence named name (nil
// if none).
func (db *DB) CompareProgress(name string) ([]uint64, error) {
	var out []uint64
	err := db.viewBucket(bktCmpProgress, func(b *bolt.Bucket) error {
		v := b.Get([]byte(name))
		if len(v)%8 != 0 {
			return db.corrupt(fmt.Errorf("%d bytes", len(v)), "compare progress %s", name)
		}
		for i := 0; i < len(v); i += 8 {
			out = append(out, getU64(v[i:]))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: compare progress of %s: %w", name, err)
	}
	return out, nil
}

// CompareOptions returns the options blob a comparison stored, nil if none.
func (db *DB) CompareOptions() ([]byte, error) {
	var out []byte
	err := db.view(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bktCmpMeta); b != nil {
			if v := b.Get(keyCmpOptions); v != nil {
				out = append([]byte(nil), v...)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: compare options: %w", err)
	}
	return out, nil
}

// SetCompareOptions stores the options blob of a comparison.
func (db *DB) SetCompareOptions(v []byte) error {
	err := db.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bktCmpMeta)
		if err != nil {
			return err
		}
		return b.Put(keyCmpOptions, v)
	})
	if err != nil {
		return fmt.Errorf("storage: set compare options: %w", err)
	}
	return nil
}

func appendCmpString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// cmpReader decodes varints and length-prefixed strings, keeping the first
// error.
type cmpReader struct {
	b   []byte
	err error
}

func (r *cmpReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errors.New("bad varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *cmpReader) string() string {
	n := r.uvarint()
	if r.err != nil {
		return ""
	}
	if n > uint64(len(r.b)) {
		r.err = fmt.Errorf("string of %d bytes in %d", n, len(r.b))
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}
