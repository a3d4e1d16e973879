package storage

import (
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// OutLink is a stored link with its target's URL.
type OutLink struct {
	URL  string
	Kind LinkKind
}

// PageOrURL returns the URL of page id and its committed record; a URL
// interned since the last commit has none yet, and its record is zero. A
// job's URL and previous fetch are read together this way.
func (db *DB) PageOrURL(id uint64) (string, Page, error) {
	p, err := db.Page(id)
	if err == nil {
		return p.URL, p, nil
	}
	if errors.Is(err, ErrNotFound) {
		var u string
		if u, err = db.URL(id); err == nil {
			return u, Page{}, nil
		}
	}
	return "", Page{}, err
}

// OutLinks returns the newest stored out-links of page src (Links) with
// their targets' URLs, in stored order; nil if it has none. The list and
// the URLs are read in one transaction: a recrawl asks this for every page
// it traverses or finds unchanged.
func (db *DB) OutLinks(src uint64) ([]OutLink, error) {
	var out []OutLink
	var pending []int // targets not committed when read: interned since
	var links []Link
	err := db.view(func(tx *bolt.Tx) error {
		var err error
		if links, err = db.currentLinks(tx, src); err != nil || links == nil {
			return err
		}
		pages := tx.Bucket(bktPages)
		out = make([]OutLink, len(links))
		for i, l := range links {
			out[i].Kind = l.Kind
			pv := pages.Get(u64key(l.To))
			if pv == nil {
				pending = append(pending, i)
				continue
			}
			b, err := pageURL(pv)
			if err != nil {
				return db.corrupt(err, "page %d", l.To)
			}
			out[i].URL = string(b)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: links of %d: %w", src, err)
	}
	for _, i := range pending {
		if out[i].URL, err = db.URL(links[i].To); err != nil {
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}
