package storage

import "errors"

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
// their targets' URLs, in stored order; nil if it has none.
func (db *DB) OutLinks(src uint64) ([]OutLink, error) {
	links, err := db.Links(src)
	if err != nil || len(links) == 0 {
		return nil, err
	}
	out := make([]OutLink, len(links))
	for i, l := range links {
		u, err := db.URL(l.To)
		if err != nil {
			return nil, err
		}
		out[i] = OutLink{URL: u, Kind: l.Kind}
	}
	return out, nil
}
