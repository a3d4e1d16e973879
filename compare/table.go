package compare

import "sync"

// table is what the comparison knows of the web: every URL met (seed,
// requested, or a link target) with a global id in order of first meeting,
// its host, and the pages revealed so far. Revealed pages are immutable, so
// a crawl reads them under the read lock while the dispatcher adds more.
type table struct {
	mu sync.RWMutex
	urlIndex
	pages  []*revealed // by gid; nil until revealed
	asked  []bool      // by gid: requested in this run
	nPages int         // revealed pages
	nSent  int         // revealed pages the web requested from their server (not Unrequested)
	nAsked int         // requested in this run and not revealed before
}

// revealed is a fetched page: its distinct out-link gids in document order
// (none when it failed).
type revealed struct {
	out    []uint32
	status int
	err    error
	unsent bool     // Page.Unrequested
	links  []string // the page's out-links as reported, kept for Score
}

func newTable(hostFn func(string) string) *table {
	return &table{urlIndex: newURLIndex(hostFn, 0)}
}

// intern returns the gid of url, assigning the next one. Callers hold mu.
func (t *table) intern(url string) uint32 {
	g, added := t.add(url)
	if added {
		t.pages = append(t.pages, nil)
		t.asked = append(t.asked, false)
	}
	return g
}

// urlIndex numbers URLs densely in order of first meeting, and their hosts
// too, so that the engine and the scorer work on arrays.
type urlIndex struct {
	ids     map[string]uint32
	urls    []string // by id
	host    []uint32 // by id: the index of its host in hostIDs
	hostIDs map[string]uint32
	hostFn  func(string) string
}

// newURLIndex returns an empty index with room for n URLs, whose hosts
// hostFn names.
func newURLIndex(hostFn func(string) string, n int) urlIndex {
	return urlIndex{ids: make(map[string]uint32, n), hostIDs: map[string]uint32{}, hostFn: hostFn}
}

// add returns the id of url, assigning the next one, and whether it did.
func (x *urlIndex) add(url string) (uint32, bool) {
	if id, ok := x.ids[url]; ok {
		return id, false
	}
	id := uint32(len(x.urls))
	x.ids[url] = id
	x.urls = append(x.urls, url)
	h := x.hostFn(url)
	hid, ok := x.hostIDs[h]
	if !ok {
		hid = uint32(len(x.hostIDs))
		x.hostIDs[h] = hid
	}
	x.host = append(x.host, hid)
	return id, true
}

// reveal records p and reports whether it was new. Duplicate out-links are
// kept out of the revealed record (pages should not carry them; the crawls
// would merge them anyway, as sim merges parallel arcs).
func (t *table) reveal(p Page) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	g := t.intern(p.URL)
	if t.pages[g] != nil {
		return false
	}
	r := &revealed{status: p.Status, err: p.Err, unsent: p.Unrequested}
	if !p.Failed() {
		seen := make(map[uint32]bool, len(p.OutLinks))
		for _, u := range p.OutLinks {
			tg := t.intern(u)
			if !seen[tg] {
				seen[tg] = true
				r.out = append(r.out, tg)
				r.links = append(r.links, u)
			}
		}
	}
	t.pages[g] = r
	t.nPages++
	if !p.Unrequested {
		t.nSent++
	}
	if t.asked[g] {
		t.nAsked--
	}
	return true
}

// claim marks gid g requested and reports whether the caller must request
// it: it is neither revealed nor already requested in this run.
func (t *table) claim(g uint32) (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pages[g] != nil || t.asked[g] {
		return "", false
	}
	t.asked[g] = true
	t.nAsked++
	return t.urls[g], true
}

// revealedURL reports whether the page of url is revealed.
func (t *table) revealedURL(url string) bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	g, ok := t.ids[url]
	return ok && t.pages[g] != nil
}

// hostOf returns the host index of g. Callers hold mu (read).
func (t *table) hostOf(g uint32) uint32 { return t.host[g] }
