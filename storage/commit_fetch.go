package storage

import (
	"bytes"
	"fmt"
)

// Page results of a batch: fetches with their link lists and history, and
// status changes.

// classify returns the Change of fetch f against page p as stored before it.
// Content hashes of different kinds (a page last hashed with SHA-256 by an
// older build) cannot show the content is the same, so such a fetch counts
// as changed: a recrawl then revisits the page sooner rather than missing
// a change, and the next fetch compares hashes of one kind again.
func classify(p *Page, f *Fetch) Change {
	alive := p.Successes > 0 && !goneStatus(p.Status, p.Code)
	switch {
	case f.Status == StatusFetched || f.Status == StatusRedirect:
		switch {
		case p.Successes == 0:
			return ChangeNew
		case alive && f.Hash == p.Hash:
			return ChangeUnchanged
		default:
			return ChangeChanged
		}
	case f.Status == StatusNotModified:
		if p.Successes == 0 {
			return ChangeNew
		}
		return ChangeUnchanged
	case goneStatus(f.Status, f.Code):
		if alive {
			return ChangeGone
		}
	}
	return ChangeNone
}

func goneStatus(s Status, code int) bool {
	return s == StatusGone || (s == StatusHTTPError && (code == 404 || code == 410))
}

func (c *committer) applyFetch(op *pageOp) error {
	f := &op.f
	if !f.Status.fetchOutcome() {
		return fmt.Errorf("fetch of page %d with status %v: %w", f.ID, f.Status, ErrBadStatus)
	}
	var p Page
	if err := c.getPage(f.ID, &p); err != nil {
		return err
	}
	if !admittedPage(&p) {
		c.admit(p.URL, 1) // fetched now
	}
	change := classify(&p, f)

	// What a response adds depends on its kind; every outcome sets the
	// code and the fields after the switch.
	switch {
	case f.Status.responded():
		p.ContentType = f.ContentType
		p.Length = f.Length
		p.Truncated = f.Truncated
		p.Hash = f.Hash
		p.ETag = f.ETag
		p.LastModified = f.LastModified
		p.Novel = false
		if f.Status == StatusFetched && !f.Hash.IsZero() {
			novel, err := c.novel(f.Hash, f.OlderHash, f.ID)
			if err != nil {
				return err
			}
			p.Novel = novel
		}
	case f.Status == StatusNotModified:
		if f.ETag != "" {
			p.ETag = f.ETag
		}
		if f.LastModified != "" {
			p.LastModified = f.LastModified
		}
	}
	p.Code = f.Code
	p.Status = f.Status
	p.Reason = f.Reason
	p.FetchedAt = f.FetchedAt
	p.Duration = f.Duration
	p.Interval = f.Interval
	p.Cycle = c.cycle
	p.Fetches++
	if f.Status.success() {
		p.Successes++
	}
	if change == ChangeNew || change == ChangeChanged || change == ChangeGone {
		p.ChangedAt = f.FetchedAt
	}
	if err := c.putPage(&p); err != nil {
		return err
	}
	if !op.keepLinks {
		if err := c.putLinks(f.ID, c.b.links[op.linkOff:op.linkEnd]); err != nil {
			return err
		}
	}

	rec := FetchRecord{Status: f.Status, Code: f.Code, Change: change, Hash: p.Hash,
		Length: f.Length, FetchedAt: f.FetchedAt, Duration: f.Duration,
		LastModified: parseHTTPDate(p.LastModified), Date: parseHTTPDate(f.Date)}
	key := c.take(fetchKey(c.value(12), c.cycle, f.ID))
	c.fetchKV = append(c.fetchKV, kv{k: key, v: c.take(encodeFetch(c.value(48), &rec))})

	s := &c.stats
	s.Fetches++
	switch change {
	case ChangeNew:
		s.New++
	case ChangeChanged:
		s.Changed++
	case ChangeUnchanged:
		s.Unchanged++
	case ChangeGone:
		s.Gone++
	}
	isErr := f.Status == StatusHTTPError || f.Status == StatusFetchError
	if isErr && !c.sitemapMarked(f.ID) {
		s.Errors++
	}
	if f.Length > 0 {
		s.Bytes += uint64(f.Length)
	}
	if !f.FetchedAt.IsZero() {
		if s.First.IsZero() || f.FetchedAt.Before(s.First) {
			s.First = f.FetchedAt
		}
		if f.FetchedAt.After(s.Last) {
			s.Last = f.FetchedAt
		}
	}
	if f.Host != "" {
		if c.hosts == nil {
			c.hosts = make(map[string]*Host)
		}
		h := c.hosts[f.Host]
		if h == nil {
			h = &Host{Name: f.Host}
			c.hosts[f.Host] = h
		}
		h.Fetches++
		if f.Status.success() {
			h.Successes++
		}
		if isErr || f.Status == StatusGone {
			h.Errors++
		}
		if f.Length > 0 {
			h.Bytes += uint64(f.Length)
		}
		if !f.FetchedAt.Before(h.LastFetch) {
			h.LastFetch = f.FetchedAt
			h.LastDuration = f.Duration
		}
	}
	return nil
}

// sitemapMarked reports whether URL id is marked as a sitemap
// (Batch.MarkSitemap), in this batch or stored. The crawler asks for most
// sitemaps on its own (/sitemap.xml, which most sites lack): their failed
// fetches are left out of CycleStats.Errors, as the crawl summary counts
// them with the sitemaps. Asked of failed fetches only, one lookup each.
func (c *committer) sitemapMarked(id uint64) bool {
	if _, ok := c.b.sm.files[id]; ok {
		return true
	}
	bk := c.tx.Bucket(bktSitemaps)
	return bk != nil && bk.Get(u64key(id)) != nil
}

// novel records hash h for page id if no page had it and reports whether id
// is the first page stored with h. older, when not zero, is the same
// content's hash of the kind an older build stored (Fetch.OlderHash): a
// page stored with it before the upgrade holds the content first, and h is
// recorded as that page's too, so later copies are found by h alone.
func (c *committer) novel(h, older Hash, id uint64) (bool, error) {
	k := hashKey(c.value(hashBytes+1), h)
	if v := c.hashes.Get(k); v != nil {
		return len(v) == 8 && getU64(v) == id, nil
	}
	if first, ok := c.newHashes[h]; ok {
		return first == id, nil
	}
	first := id
	if !older.IsZero() && older.Kind() != h.Kind() {
		var ok [hashBytes + 1]byte // not the arena: k lies there, not taken yet
		if v := c.hashes.Get(hashKey(ok[:0], older)); len(v) == 8 {
			first = getU64(v)
		}
	}
	if c.newHashes == nil {
		c.newHashes = make(map[Hash]uint64)
	}
	c.newHashes[h] = first
	c.hashKV = append(c.hashKV, kv{k: c.take(k), v: c.key64(first)})
	return first == id, nil
}

// putLinks stores the link list of src as of the current cycle: a new
// version only when it differs from the latest stored one.
func (c *committer) putLinks(src uint64, links []Link) error {
	links = c.distinct(links)
	for _, l := range links {
		if l.To >= c.limit {
			return fmt.Errorf("link %d->%d (next id %d): %w", src, l.To, c.limit, ErrUnknownID)
		}
	}
	enc := c.take(encodeLinks(c.value(2+3*len(links)), src, links))

	cur := c.links.Cursor()
	var seek [12]byte
	k, v := cur.Seek(linkKey(seek[:0], src+1, 0))
	if k == nil {
		k, v = cur.Last()
	} else {
		k, v = cur.Prev()
	}
	// An earlier fetch of src in this batch is superseded either way.
	if i, ok := c.linkIdx[src]; ok {
		c.linkKV[i].skip = true
		delete(c.linkIdx, src)
	}
	if k != nil && len(k) == 12 && getU64(k) == src {
		if bytes.Equal(v, enc) {
			return nil // same list as the stored version
		}
	} else if len(links) == 0 {
		return nil // never had links: nothing to clear
	}
	if c.linkIdx == nil {
		c.linkIdx = make(map[uint64]int)
	}
	c.linkIdx[src] = len(c.linkKV)
	c.linkKV = append(c.linkKV, kv{k: c.take(linkKey(c.value(12), src, c.cycle)), v: enc})
	return nil
}

// distinct drops repeated targets, keeping the first occurrence.
func (c *committer) distinct(links []Link) []Link {
	if len(links) < 2 {
		return links
	}
	c.dedup = c.dedup[:0]
	if len(links) <= 32 {
	outer:
		for _, l := range links {
			for _, d := range c.dedup {
				if d.To == l.To {
					continue outer
				}
			}
			c.dedup = append(c.dedup, l)
		}
		return c.dedup
	}
	if c.seen == nil {
		c.seen = make(map[uint64]struct{}, len(links))
	}
	clear(c.seen)
	for _, l := range links {
		if _, dup := c.seen[l.To]; dup {
			continue
		}
		c.seen[l.To] = struct{}{}
		c.dedup = append(c.dedup, l)
	}
	return c.dedup
}

func (c *committer) applyStatus(op *pageOp) error {
	var p Page
	if err := c.getPage(op.f.ID, &p); err != nil {
		return err
	}
	was := admittedPage(&p)
	p.Status = op.f.Status
	p.Reason = op.f.Reason
	if now := admittedPage(&p); now != was {
		d := int64(1)
		if was {
			d = -1
		}
		c.admit(p.URL, d)
	}
	return c.putPage(&p)
}
