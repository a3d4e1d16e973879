package extract

import (
	"hash/maphash"
	"sync"
	"unicode/utf8"

	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// collector resolves, deduplicates and caps links as the walkers find
// them, so a page's memory is bounded by the caps rather than by how many
// links it holds: a link beyond a cap leaves at most 8 bytes (its hash, so
// it is counted once in Page.Dropped), and nothing past maxGone of them.
type collector struct {
	opts *Options
	base *urlnorm.Base
	qenc *queryEncoder // nil for UTF-8 documents
	memo *urlnorm.Memo // resolutions shared with earlier pages; nil for none
	dups bool          // keep every occurrence (Links) instead of each URL once

	links []Link
	byURL map[string]int32 // normalized URL -> index of its first occurrence
	byRaw map[string]int32 // rawKey of an href -> index of the link it resolved to
	// mapsPeak is the most entries byURL or byRaw held on earlier pages
	// (linkMaps.peak).
	mapsPeak int
	long     map[uint64]int32 // hash of an href over MaxHref -> index of its link
	// gone holds the hashes of the links beyond a cap.
	gone     map[uint64]struct{}
	seed     maphash.Seed
	kept     int // distinct URLs Keep accepted
	other    int // distinct URLs Keep rejected plus distinct rejected raws
	dropped  int
	nofollow int

	baseSet   bool
	canonical string
	// canonRaws are the first few canonical hrefs, to find Canonical again
	// if a late <base> changes what they resolve to.
	canonRaws []string
}

// maxGone bounds the hashes kept to count dropped links once each: about
// 1 MB, whatever a hostile page holds.
const maxGone = 1 << 16

// maxCanonRaws bounds canonRaws; a page with more canonical links than
// this before its first valid one is not worth more memory.
const maxCanonRaws = 8

func newCollector(opts *Options, base *urlnorm.Base, qenc *queryEncoder, dups bool) *collector {
	return &collector{
		opts:  opts,
		base:  base,
		qenc:  qenc,
		dups:  dups,
		byURL: make(map[string]int32),
		byRaw: make(map[string]int32),
		seed:  maphash.MakeSeed(),
	}
}

// presize sizes the collector for about hint links (linkHint): a map
// grown by doubling rehashes its entries at every step, and a link slice
// grown by doubling copies them.
func (c *collector) presize(hint int) {
	if hint > 8 {
		c.byURL = make(map[string]int32, hint)
		c.byRaw = make(map[string]int32, hint)
		if cap(c.links) < hint {
			c.links = make([]Link, 0, hint)
		}
	}
}

// linkHint guesses how many distinct links a page of n bytes has, from
// avg16, 16 times the running average of an Extractor's pages (0 before
// its first page): a quarter more than the average, as a site's pages
// share their navigation and so their link count whatever their size,
// but no more than one link per 32 bytes of the page and 1,024 in all.
// Without an average, documentation pages carry about one link per 400
// bytes. A guess too small only costs the slice's growth.
func linkHint(n int, avg16 int64) int {
	if avg16 <= 0 {
		return min(n/512, 1024)
	}
	return int(min(avg16/16+avg16/64+8, int64(n/32+8), 1024))
}

// linkMaps are a collector's two maps, kept between the pages of an
// Extractor (in a sync.Pool, so the garbage collector may still drop
// them): a crawler extracts page after page of about the same size, and a
// map's buckets are most of the garbage a page leaves besides its body.
type linkMaps struct {
	byURL, byRaw map[string]int32
	// peak is the most entries either map has held: a map keeps the
	// room it grew to, and clearing it costs that room, not its length.
	peak int
}

// maxPooledLinks bounds the maps kept for reuse by the most entries they
// ever held: a page with hundreds of links does not make every later page
// of 75 clear a map its size (a page that large allocates its own maps, at
// a cost spread over its many links).
const maxPooledLinks = 256

// useMaps gives the collector pooled maps (cleared) from pool, presized
// for hint links when the pool has none; release puts them back.
func (c *collector) useMaps(pool *sync.Pool, hint int) {
	if m, ok := pool.Get().(*linkMaps); ok {
		c.byURL, c.byRaw, c.mapsPeak = m.byURL, m.byRaw, m.peak
		if hint > 8 && cap(c.links) < hint {
			c.links = make([]Link, 0, hint)
		}
		return
	}
	c.presize(hint)
}

func (c *collector) release(pool *sync.Pool) {
	peak := max(c.mapsPeak, len(c.byURL), len(c.byRaw))
	if peak > maxPooledLinks {
		return
	}
	clear(c.byURL)
	clear(c.byRaw)
	pool.Put(&linkMaps{c.byURL, c.byRaw, peak})
	c.byURL, c.byRaw = nil, nil
}

// resolve resolves raw against the current base, encoding a non-ASCII
// query in the document's encoding first as WHATWG does.
func (c *collector) resolve(raw string) (string, string) {
	ref := raw
	if c.qenc != nil {
		ref = c.qenc.encodeQuery(ref)
	}
	u, err := c.base.Resolve(ref)
	return u, rejectReason(err)
}

// rejectReason is the Link.Reject of a resolution error; "" for nil.
func rejectReason(err error) string {
	if err == nil {
		return ""
	}
	if reason := urlnorm.Reason(err); reason != "" {
		return reason
	}
	return urlnorm.ReasonBadURL
}

// add records one link occurrence. rawb may alias the tokenizer's buffer:
// it is copied only when the link is new.
func (c *collector) add(kind Kind, rawb []byte, nofollow bool) {
	if nofollow && c.opts.SkipNoFollow {
		c.nofollow++
		return
	}
	if len(rawb) > c.opts.MaxHref {
		c.addTooLong(kind, rawb, nofollow)
		return
	}
	if i, ok := c.byRaw[string(rawKey(rawb))]; ok {
		raw := c.links[i].Raw
		if c.dups && raw != string(rawb) {
			// Link.Raw is the href as written, fragment included.
			raw = string(rawb)
		}
		c.again(int(i), kind, raw, nofollow)
		return
	}
	if c.memo != nil && c.qenc == nil {
		// The memo answers a navigation link seen on an earlier page with
		// the strings made then: no resolution and no copy of rawb.
		raw, u, note, err := c.base.ResolveNoted(c.memo, rawb)
		c.addResolved(kind, raw, u, rejectReason(err), nofollow, false, note)
		return
	}
	c.addNew(kind, string(rawb), nofollow, false)
}

// addTooLong records an href longer than Options.MaxHref without
// resolving it (the WHATWG parser's cost grows with it, and no crawler
// stores such a URL): it is rejected as urlnorm.ReasonTooLong and only
// its first clipHref bytes are kept. It counts against MaxOther.
func (c *collector) addTooLong(kind Kind, rawb []byte, nofollow bool) {
	h := maphash.Bytes(c.seed, rawb)
	if i, ok := c.long[h]; ok {
		c.again(int(i), kind, c.links[i].Raw, nofollow)
		return
	}
	if _, ok := c.gone[h]; ok {
		return
	}
	if c.other >= c.opts.MaxOther {
		c.dropped++
		if c.gone == nil {
			c.gone = make(map[uint64]struct{})
		}
		if len(c.gone) < maxGone {
			c.gone[h] = struct{}{}
		}
		return
	}
	c.other++
	if c.long == nil {
		c.long = make(map[uint64]int32)
	}
	c.long[h] = int32(len(c.links))
	n := min(len(rawb), clipHref)
	for n > 0 && n < len(rawb) && !utf8.RuneStart(rawb[n]) {
		n--
	}
	c.links = append(c.links, Link{Kind: kind, Raw: string(rawb[:n]), Reject: urlnorm.ReasonTooLong, NoFollow: nofollow})
}

// clipHref is how much of a too-long href Link.Raw keeps.
const clipHref = 256

// rawKey is the part of an href that decides its URL: the fragment is
// dropped by normalization, so "os.html#os.stat" and "os.html#os.open"
// (an index page has thousands of those) are resolved once.
func rawKey[T string | []byte](raw T) T {
	for i := 0; i < len(raw); i++ {
		if raw[i] == '#' {
			return raw[:i]
		}
	}
	return raw
}

func (c *collector) addNew(kind Kind, raw string, nofollow, replay bool) {
	u, reject := c.resolve(raw)
	c.addResolved(kind, raw, u, reject, nofollow, replay, nil)
}

// addResolved records the first occurrence of raw, which resolved to u
// (or was rejected for reject), with note, the memo's Note of the
// resolution (nil for none).
func (c *collector) addResolved(kind Kind, raw, u, reject string, nofollow, replay bool, note *urlnorm.Note) {
	if kind == KindCanonical && !replay {
		if c.canonical == "" && u != "" {
			c.canonical = u
		}
		if len(c.canonRaws) < maxCanonRaws {
			c.canonRaws = append(c.canonRaws, raw)
		}
	}
	key := u
	if u == "" {
		key = rawKey(raw)
	}
	if u != "" {
		if i, ok := c.byURL[u]; ok {
			c.byRaw[rawKey(raw)] = i
			c.again(int(i), kind, raw, nofollow)
			return
		}
	}
	var h uint64 // the gone set's key, hashed only once a cap was reached
	if c.gone != nil {
		if h = c.hash(key); contains(c.gone, h) {
			return
		}
	}
	n, limit := &c.other, c.opts.MaxOther
	kept := u != "" && (c.opts.Keep == nil || c.opts.Keep(u, note))
	if kept {
		n, limit = &c.kept, c.opts.MaxLinks
	}
	if *n >= limit {
		// Only the hash stays, so the link is counted once; past
		// maxGone hashes, further drops are counted per occurrence.
		c.dropped++
		if c.gone == nil {
			c.gone = make(map[uint64]struct{})
			h = c.hash(key)
		}
		if len(c.gone) < maxGone {
			c.gone[h] = struct{}{}
		}
		return
	}
	*n++
	i := int32(len(c.links))
	c.links = append(c.links, Link{Kind: kind, Raw: raw, URL: u, Reject: reject, NoFollow: nofollow, Kept: kept, Note: note})
	// Every link, noted or not, is found again by its raw text: that
	// answers a later occurrence before the canonical bookkeeping and
	// before the memo (whose key keeps the fragment, so #a, #b, ... of one
	// page would each take a slot).
	c.byRaw[rawKey(raw)] = i
	if u != "" {
		c.byURL[u] = i
	}
}

// again records another occurrence of the link at index i.
func (c *collector) again(i int, kind Kind, raw string, nofollow bool) {
	if c.dups {
		l := c.links[i]
		c.links = append(c.links, Link{Kind: kind, Raw: raw, URL: l.URL, Reject: l.Reject, NoFollow: nofollow, Kept: l.Kept, Note: l.Note})
		return
	}
	if !nofollow {
		c.links[i].NoFollow = false
	}
}

func contains(set map[uint64]struct{}, h uint64) bool {
	_, ok := set[h]
	return ok
}

// hash keys the gone set: a normalized URL, or the raw href of a link
// that has none (the two cannot collide: a raw href without a URL is never
// a normalized URL).
func (c *collector) hash(key string) uint64 { return maphash.String(c.seed, key) }

// setBase applies the document's first <base href>. It applies to every
// link of the document, also those already collected (HTML, "document
// base URL"), so they are resolved again; links dropped before it are not
// recovered, which matters only for a <base> after thousands of links.
func (c *collector) setBase(href []byte) {
	if c.baseSet {
		return
	}
	c.baseSet = true
	ref := string(href)
	if c.qenc != nil {
		ref = c.qenc.encodeQuery(ref)
	}
	nb, err := c.base.Rebase(ref)
	if err != nil {
		return
	}
	c.base = nb
	if len(c.links) == 0 && len(c.canonRaws) == 0 {
		return
	}
	c.replay(len(c.links))
}

// truncate forgets the links from index n on, as if they had never been
// seen; a frameset replacing the body drops the body's links.
func (c *collector) truncate(n int) {
	if n < len(c.links) {
		c.replay(n)
	}
}

// replay rebuilds the collector from the first n links.
func (c *collector) replay(n int) {
	old := c.links[:n]
	canon := c.canonRaws
	c.links = make([]Link, 0, len(old))
	clear(c.byURL)
	clear(c.byRaw)
	c.gone, c.long = nil, nil
	c.kept, c.other, c.canonical, c.canonRaws = 0, 0, "", nil
	for _, raw := range canon {
		if u, _ := c.resolve(raw); u != "" && c.canonical == "" {
			c.canonical = u
		}
	}
	c.canonRaws = canon
	for _, l := range old {
		if l.Reject == urlnorm.ReasonTooLong {
			c.other++
			c.links = append(c.links, l)
			continue
		}
		if i, ok := c.byRaw[rawKey(l.Raw)]; ok {
			c.again(int(i), l.Kind, l.Raw, l.NoFollow)
			continue
		}
		c.addNew(l.Kind, l.Raw, l.NoFollow, true)
	}
}

// canonicalOnly notes a canonical link that is not itself collected (it
// is outside the LinkSelector), for Page.Canonical.
func (c *collector) canonicalOnly(raw string) {
	if c.canonical == "" {
		if u, _ := c.resolve(raw); u != "" {
			c.canonical = u
		}
	}
	if len(c.canonRaws) < maxCanonRaws {
		c.canonRaws = append(c.canonRaws, raw)
	}
}
