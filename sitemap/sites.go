package sitemap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/revisit"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Sites is a crawl's sitemap walk over every site it meets, for one run (one
// cycle of seedcrawl run). Where a Walker fetches a site's sitemaps itself,
// a crawl fetches them as jobs of its frontier, under its politeness; Sites
// keeps what the Walker keeps between those jobs: which URLs are sitemap
// files, and per site the files queued (Limits.MaxSitemaps) and the
// entries delivered (Limits.MaxWalkURLs). The crawl asks it which
// sitemaps to queue (Plan, Want, Take) and hands it what a file's fetch
// returned (Read, Deliver).
//
// File is safe for concurrent use (the crawl's workers ask it); the other
// methods are called by one goroutine at a time.
type Sites struct {
	lim   Limits // MaxDepth, MaxSitemaps and MaxWalkURLs filled in
	cycle uint32 // the crawl's current cycle: a sitemap is read once per cycle
	// gone is the number of cycles between reads of a sitemap that
	// answered 404 or 410, or 401, 403 or 451 (CrawlOptions.GoneCycles);
	// 0: such a sitemap is read again once its stored revisit interval
	// has passed.
	gone uint32
	now  func() time.Time // the crawler's clock, for the stored interval

	mu    sync.RWMutex
	files map[uint64]storage.SitemapFile // sitemap URLs: this run's, and earlier runs' marks
	sites map[string]*site               // by origin
	// seen holds the sitemap files queued or read in this run, whatever
	// site they were found for: each is read once per run. It is not per
	// site because one file can be found for two origins, as when
	// http://a.test/sitemap.xml redirects to https://a.test/sitemap.xml,
	// which the https site had queued already.
	seen map[uint64]struct{}
}

// site is one site's walk in this run.
type site struct {
	planned bool // its robots.txt sitemaps and /sitemap.xml were planned
	files   int  // sitemap files queued (Limits.MaxSitemaps)
	urls    int  // entries delivered (Limits.MaxWalkURLs)
}

// Marks lists the URLs earlier runs marked as sitemap files
// (storage.Batch.MarkSitemap); *storage.DB implements it.
type Marks interface {
	EachSitemap(fn func(id uint64, s storage.SitemapFile) error) error
}

// NewSites returns the sitemap walk of a crawl in cycle (0 for a database
// without cycles). Zero or negative MaxDepth, MaxSitemaps and MaxWalkURLs
// take their defaults; the other limits go to Parse as given.
func NewSites(lim Limits, cycle uint32) *Sites {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&lim.MaxDepth, DefaultMaxDepth)
	def(&lim.MaxSitemaps, DefaultMaxSitemaps)
	def(&lim.MaxWalkURLs, DefaultMaxWalkURLs)
	return &Sites{lim: lim, cycle: cycle, gone: DefaultGoneCycles, now: time.Now, files: map[uint64]storage.SitemapFile{},
		sites: map[string]*site{}, seen: map[uint64]struct{}{}}
}

// Load adds the marks of earlier runs, so a sitemap left in the stored
// frontier by an interrupted run is still read as one. A mark made in this
// run wins.
func (s *Sites) Load(m Marks) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := m.EachSitemap(func(id uint64, f storage.SitemapFile) error {
		if _, ok := s.files[id]; !ok {
			s.files[id] = f
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sitemap: load marks of earlier runs: %w", err)
	}
	return nil
}

// File reports whether URL id is a sitemap file to read rather than a page.
func (s *Sites) File(id uint64) (storage.SitemapFile, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	f, ok := s.files[id]
	return f, ok
}

func (s *Sites) site(origin string) *site {
	st := s.sites[origin]
	if st == nil {
		st = &site{}
		s.sites[origin] = st
	}
	return st
}

// Plan returns the sitemaps of the site at origin ("https://example.com")
// the first time it is asked about that site in this run, nil after: the
// robots.txt Sitemap: lines robotsSitemaps gives (called only then), then
// origin/sitemap.xml, normalized and distinct. The crawl asks when it
// records the first page of a site, so robots.txt is known by then.
func (s *Sites) Plan(origin string, robotsSitemaps func() []string) []string {
	st := s.site(origin)
	if st.planned {
		return nil
	}
	st.planned = true
	var lines []string
	if robotsSitemaps != nil {
		lines = robotsSitemaps()
	}
	lines = append(lines[:len(lines):len(lines)], origin+"/sitemap.xml")
	out := make([]string, 0, len(lines))
	seen := map[string]bool{}
	for _, l := range lines {
		u, err := urlnorm.Normalize(l)
		if err != nil || seen[u] {
			continue
		}
		seen[u] = true
		out = append(out, u)
	}
	return out
}

// Known is what the crawl database says of a URL found as a sitemap.
type Known struct {
	// New: the URL was interned for the first time just now.
	New bool
	// Page looks up the URL's stored record (storage.ErrNotFound when it
	// has none yet); called only for a URL that is not New.
	Page func() (storage.Page, error)
}

// Want reports whether sitemap id, found for the site at origin, is to be
// read in this run. A sitemap is read once per run and cycle; a URL the
// crawl knows as a page is not read as a sitemap: one fetched as a page
// (a site that answers every path, or an HTML sitemap page) and, for the
// target of a sitemap's redirect, any URL seen before (sites often
// redirect unknown paths to their home page). A sitemap whose last answer
// was 404 or 410, or a refusal (401, 403, 451), is remembered as missing,
// as a recrawl remembers any such URL: it is read again only once it is
// due (see goneDue), since most sites have no /sitemap.xml and asking
// every site for it in every cycle costs a request per site and cycle.
// skip names a refusal worth counting ("known-page", "gone"), "" for one
// that is not.
func (s *Sites) Want(origin string, id uint64, k Known, redirect bool) (ok bool, skip string, err error) {
	if _, dup := s.seen[id]; dup || k.New {
		return !dup, "", nil
	}
	_, marked := s.File(id)
	if !marked && redirect {
		return false, "known-page", nil
	}
	p, err := k.Page()
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return true, "", nil
	case err != nil:
		return false, "", fmt.Errorf("sitemap: look up sitemap %d: %w", id, err)
	case p.Fetches == 0:
		return true, "", nil
	case !marked:
		return false, "known-page", nil
	case p.Cycle == s.cycle:
		// Read in this cycle by an earlier run that was interrupted:
		// once per cycle is enough.
		return false, "", nil
	case missing(&p) && !s.goneDue(&p):
		return false, "gone", nil
	}
	return true, "", nil
}

// Resting reports whether sitemap p, fetched before, is missing (its
// last answer was 404 or 410, or 401, 403 or 451) and not due again (see
// Want): its job is then a page job, which a recrawl's revisit policy
// traverses from storage, with no request, as it does any 404 or 403
// that is not due.
func (s *Sites) Resting(p *storage.Page) bool {
	return p.Fetches > 0 && p.Cycle != s.cycle && missing(p) && !s.goneDue(p)
}

// missing reports whether p's last answer said it does not exist or is
// not for this crawler, lastingly (revisit.Lasting): 404 or 410
// (storage.StatusGone once it had existed), 401, 403 or 451. A 5xx or a
// network failure is not: the file is read again in the next cycle.
func missing(p *storage.Page) bool {
	return p.Status == storage.StatusGone || revisit.Lasting(p.Code)
}

// goneDue reports whether a missing sitemap p is due again by the rule a
// recrawl's revisit policy (recrawl.Revisit.GoneCycles) applies to any
// 404 or 403 (revisit.Due): gone cycles or more after the cycle of its
// last fetch, in a cycle of its phase, so the /sitemap.xml files of the
// many sites one cycle found without one come due spread over gone
// cycles rather than all in the same cycle. With gone 0, once the revisit
// interval stored with its last fetch has passed (the policy gives a 404
// 0.9 × its longest interval), and in every cycle when none was stored
// (the revisit schedule is off).
func (s *Sites) goneDue(p *storage.Page) bool {
	if s.gone > 0 {
		return revisit.Due(p.ID, p.Cycle, s.cycle, s.gone)
	}
	if p.Interval <= 0 || p.FetchedAt.IsZero() {
		return true
	}
	return !s.now().Before(p.FetchedAt.Add(p.Interval))
}

// Take counts sitemap id against the MaxSitemaps of the site at origin
// and marks it a sitemap file of depth and origin file; false when the
// site's bound is reached (the file is not to be queued).
func (s *Sites) Take(origin string, id uint64, file storage.SitemapFile) bool {
	st := s.site(origin)
	if st.files >= s.lim.MaxSitemaps {
		return false
	}
	st.files++
	s.seen[id] = struct{}{}
	s.mu.Lock()
	s.files[id] = file
	s.mu.Unlock()
	return true
}

// Listed is one URL a sitemap file lists: normalized, with its lastmod
// (zero if none).
type Listed struct {
	URL     string
	LastMod time.Time
	// DroppedLastMod: the file gave a lastmod ClampLastMod dropped (later
	// than the server's clock, or before 1990); a value stored for the
	// page by an earlier read is forgotten too.
	DroppedLastMod bool
}

// FileRead is what a crawl read from one sitemap file.
type FileRead struct {
	// File is the sitemap's mark: its index depth and the site it serves.
	File storage.SitemapFile
	// URLs are the distinct URLs the file lists, normalized, in order.
	URLs []Listed
	// Children are an index's child sitemaps, normalized, when they are
	// within MaxDepth (Skipped says why not otherwise), or, for a file
	// that answered with a redirect, its target (Redirect).
	Children []string
	// BadURLs counts listed URLs (and children) that do not normalize.
	BadURLs int
	// FutureLastMods and PastLastMods count lastmod values dropped for
	// lying after the server's clock or before 1990 (ClampLastMod).
	FutureLastMods, PastLastMods int
	// Cut says why reading stopped early, "" if it did not; Skipped why
	// child sitemaps were not followed; Err why the file could not be read
	// (not a sitemap, malformed, bad charset).
	Cut, Skipped string
	Err          error
	// Redirect reports that the file answered with a redirect to
	// Children[0], a sitemap at the same depth.
	Redirect bool
}

// Moved is the FileRead of a sitemap that answered with a redirect to
// target: the target is read as a sitemap at the same depth.
func Moved(file storage.SitemapFile, target string) *FileRead {
	return &FileRead{File: file, Children: []string{target}, Redirect: true}
}

// Read parses the body of sitemap file file, fetched from url. The body
// was bounded by the fetcher (truncated: it kept only its max-body bytes,
// and what was read is used, as for a cut); Parse bounds the entries, the
// uncompressed bytes and the expansion of a .gz file.
func (s *Sites) Read(ctx context.Context, body []byte, url string, file storage.SitemapFile, truncated bool) *FileRead {
	r := &FileRead{File: file}
	rawSeen := map[string]struct{}{}
	seen := map[string]struct{}{}
	res, err := Parse(ctx, bytes.NewReader(body), url, Options{Limits: s.lim, Scope: []string{file.Origin + "/"}},
		func(e Entry) error {
			if _, dup := rawSeen[e.URL]; dup {
				return nil
			}
			rawSeen[e.URL] = struct{}{}
			u, err := urlnorm.Normalize(e.URL)
			if err != nil {
				r.BadURLs++
				return nil
			}
			if _, dup := seen[u]; dup {
				return nil
			}
			seen[u] = struct{}{}
			r.URLs = append(r.URLs, Listed{URL: u, LastMod: e.LastMod})
			return nil
		})
	r.Cut = res.Cut
	if truncated && r.Cut == "" {
		r.Cut = fmt.Sprintf("max-body: file longer than %d bytes", len(body))
		err = nil
	}
	if err != nil && !(truncated && errors.Is(err, ErrSyntax)) {
		r.Err = err
	}
	if len(res.Sitemaps) == 0 {
		return r
	}
	if depth := file.Depth + 1; depth > s.lim.MaxDepth {
		r.Skipped = fmt.Sprintf("depth: %d child sitemaps beyond depth %d", len(res.Sitemaps), s.lim.MaxDepth)
		return r
	}
	for _, e := range res.Sitemaps {
		u, err := urlnorm.Normalize(e.URL)
		if err != nil {
			r.BadURLs++
			continue
		}
		r.Children = append(r.Children, u)
	}
	return r
}

// Keep filters the listed URLs and the children, in order, keeping those
// keepURL and keepChild accept (each is called once per URL).
func (r *FileRead) Keep(keepURL, keepChild func(u string) bool) {
	urls := r.URLs[:0]
	for _, l := range r.URLs {
		if keepURL(l.URL) {
			urls = append(urls, l)
		}
	}
	r.URLs = urls
	children := r.Children[:0]
	for _, c := range r.Children {
		if keepChild(c) {
			children = append(children, c)
		}
	}
	r.Children = children
}

// Deliver applies the site's entry bound (MaxWalkURLs) to what file id
// listed, keeping the first URLs, and counts them; it returns how many are
// kept. The file counts as read in this run from here on, even before its
// fetch is committed (a sitemap restored from the stored frontier was
// queued by an earlier run, so this run has not seen it).
func (s *Sites) Deliver(id uint64, r *FileRead) int {
	st := s.site(r.File.Origin)
	s.seen[id] = struct{}{}
	left := max(s.lim.MaxWalkURLs-st.urls, 0)
	if n := len(r.URLs); n > left {
		r.URLs = r.URLs[:left]
		if r.Cut == "" {
			r.Cut = fmt.Sprintf("walk-urls: %d entries of the site delivered, the bound per run; %d dropped", st.urls+left, n-left)
		}
	}
	st.urls += len(r.URLs)
	return len(r.URLs)
}

// ChildFile is the mark of r's child sitemaps: one level deeper, or at
// the same depth for a redirect's target.
func (r *FileRead) ChildFile() storage.SitemapFile {
	f := r.File
	if !r.Redirect {
		f.Depth++
	}
	return f
}

// Reason is the reason stored with the sitemap's page record: why it was
// cut, why it could not be read, or why its child sitemaps were not all
// followed ("sitemap-cut: urls: ...", "sitemap-invalid: ...",
// "sitemap-skipped: depth: ..."). "" for a file read whole.
func (r *FileRead) Reason() string {
	switch {
	case r.Err != nil:
		return "sitemap-invalid: " + r.Err.Error()
	case r.Cut != "":
		return "sitemap-cut: " + r.Cut
	case r.Skipped != "":
		return "sitemap-skipped: " + r.Skipped
	}
	return ""
}

// Counts calls count with the counters of a file's read, named as a crawl
// stores them below "sitemap/": "files" and "urls" for a file read
// (fetched: it answered 2xx), "lastmod-future" and "lastmod-past"
// (ClampLastMod), "invalid",
// "cut/<bound>", "skip/<bound>".
func (r *FileRead) Counts(fetched bool, count func(name string, n uint64)) {
	if fetched {
		count("files", 1)
		count("urls", uint64(len(r.URLs)))
	}
	if r.FutureLastMods > 0 {
		count("lastmod-future", uint64(r.FutureLastMods))
	}
	if r.PastLastMods > 0 {
		count("lastmod-past", uint64(r.PastLastMods))
	}
	if r.Err != nil {
		count("invalid", 1)
	}
	if r.Cut != "" {
		count("cut/"+boundName(r.Cut), 1)
	}
	if r.Skipped != "" {
		count("skip/"+boundName(r.Skipped), 1)
	}
}

// boundName is the bound a cut or skip names: the text before the colon.
func boundName(s string) string {
	name, _, _ := strings.Cut(s, ":")
	return name
}
