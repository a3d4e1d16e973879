package scope

import (
	"fmt"
	"slices"

	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Crawl is what Admission.Targets needs from the crawl whose page it
// admits the links of.
type Crawl interface {
	// Intern returns the ids of urls, links of page from at depth, and
	// whether each is new (storage.DB.Intern). It keeps no reference to
	// urls, which serves the next page. An Admission serves one crawl:
	// it remembers the ids Intern gives (vetted).
	Intern(urls []string, from uint64, depth uint32) ([]storage.Interned, error)
	// Remote reports that another node of a cluster owns host: its URLs
	// are handed on, not queued here.
	Remote(host string) bool
	// Requeue reports whether a link to id, a URL seen before and
	// admitted, queues it again (a recrawl cycle's lazy refetch). It is
	// asked only for such links.
	Requeue(id uint64) (bool, error)
	// Queue queues id, a link l, once admission passed it (Pass is
	// done).
	Queue(id uint64, l *Link)
	// Refused is told of each new URL admission refused, with why.
	Refused(status storage.Status, reason string)
}

// Page is a page whose links Admission.Targets admits.
type Page struct {
	ID    uint64 // its URL id
	Depth int    // its depth: its links are one deeper, its redirect target as deep
	Hops  int    // the redirect hops that led to it
	// Links are its distinct vetted links in document order, Redirect its
	// redirect target (nil: none).
	Links    []Link
	Redirect *Link
	// StoreOnly: the links are stored and not queued (only a feed queues).
	StoreOnly bool
}

// Skip is a URL first seen on a page, recorded with a status saying why
// it is not queued (or, a lifted refusal, StatusQueued).
type Skip struct {
	ID     uint64
	Status storage.Status
	Reason string
}

// Targets is what Admission.Targets decided for a page's links.
type Targets struct {
	// Targets follow the page's links in order, then its redirect target:
	// what the frontier's Done is told.
	Targets []frontier.Target
	// Links are the page's links to store, in the same order.
	Links []storage.Link
	// Skips are the statuses to record for URLs not queued.
	Skips []Skip
	// Discovered counts the new URLs queued.
	Discovered int
	// SeedRedirect reports that the redirect target's host came into
	// scope (Rules.Redirect).
	SeedRedirect bool
	// RedirectTo is the id of the redirect target, or storage.NoPage.
	RedirectTo uint64
}

// Targets interns a page's links (and its redirect target) through cr and
// decides which are queued, handed to another node, or recorded as not
// queued: a new URL admission passes is queued (Crawl.Queue), a known URL
// refused only beyond MaxDepth and now reached at an allowed depth too, a
// known URL a recrawl requeues is queued as if listed.
func (a *Admission) Targets(cr Crawl, p *Page) (Targets, error) {
	out := Targets{RedirectTo: storage.NoPage}
	if n := len(p.Links); n > 0 || p.Redirect != nil {
		// Sized once: a documentation page has about 75 links.
		out.Targets = make([]frontier.Target, 0, n+1)
		out.Links = make([]storage.Link, 0, n+1)
	}
	if err := a.targets(cr, p, p.Links, p.Depth+1, 0, &out); err != nil {
		return Targets{}, err
	}
	if p.Redirect != nil {
		out.SeedRedirect = a.rules.Redirect(p.Redirect, p.Depth)
		if err := a.targets(cr, p, []Link{*p.Redirect}, p.Depth, p.Hops+1, &out); err != nil {
			return Targets{}, err
		}
		out.RedirectTo = out.Links[len(out.Links)-1].To
	}
	return out, nil
}

// Offer admits a link from outside the crawl's pages (another node's) at
// depth to id, an in-scope URL interned with isNew, as Targets admits a
// page's links: a new URL that passes is queued (Crawl.Queue), a known
// one is queued if it passes and was seen only beyond MaxDepth or again
// is set, a new one refused is told to Crawl.Refused. It reports whether
// id was queued, and the status to record for it (none for a known URL
// left as it is).
func (a *Admission) Offer(cr Crawl, id uint64, u string, depth int, isNew, again bool) (queued bool, skips []Skip) {
	l := Link{URL: u, Host: urlnorm.Authority(u), InScope: true}
	v := a.Admit(id, &l, depth, 0, isNew)
	switch {
	case !isNew && v.OK && (again || v.Lift):
		skips = []Skip{{id, storage.StatusQueued, ""}}
	case !isNew:
		return false, nil
	case !v.OK:
		cr.Refused(v.Status, v.Reason)
		return false, []Skip{{id, v.Status, v.Reason}}
	}
	a.Pass(id, 0)
	cr.Queue(id, &l)
	return true, skips
}

// targets adds to out the links of p at depth, redirectHops into a
// redirect chain.
func (a *Admission) targets(cr Crawl, p *Page, links []Link, depth, redirectHops int, out *Targets) error {
	if len(links) == 0 {
		return nil
	}
	ints, err := a.intern(cr, p.ID, links, depth)
	if err != nil {
		return err
	}
	var full fullHost
	for i := range links {
		l := &links[i]
		id, isNew := ints[i].ID, ints[i].New
		out.Links = append(out.Links, storage.Link{To: id, Kind: l.Kind})
		t := frontier.Target{ID: id, Host: l.Host, Depth: depth, New: isNew}
		v := a.admit(id, l, depth, redirectHops, isNew, &full)
		if isNew && !v.OK {
			cr.Refused(v.Status, v.Reason)
		}
		if v.OK && !p.StoreOnly && cr.Remote(l.Host) {
			// Another node's URL: the scheduler gives it its share
			// (frontier.Target.Remote), the crawl hands it on, new to the
			// owner if it is new here or lifted.
			a.Pass(id, 0)
			t.Remote, t.New = true, isNew || v.Lift
			out.Targets = append(out.Targets, t)
			continue
		}
		again := false
		if !isNew && v.OK && !v.Lift {
			if again, err = cr.Requeue(id); err != nil {
				return err
			}
		}
		switch {
		case isNew && !v.OK:
			t.Skip = true
			if v.Status != storage.StatusDiscovered || v.Reason != "" {
				out.Skips = append(out.Skips, Skip{id, v.Status, v.Reason})
			}
		case p.StoreOnly:
			t.Skip = true
		case isNew:
			a.Pass(id, redirectHops)
			cr.Queue(id, l)
			full.forget()
			out.Discovered++
		case v.Lift:
			// A URL seen before only beyond MaxDepth, now found at an
			// allowed depth: queue it now.
			t.New = true
			a.Pass(id, redirectHops)
			cr.Queue(id, l)
			full.forget()
			out.Skips = append(out.Skips, Skip{id, storage.StatusQueued, ""})
		case again:
			// A known page (or a URL an earlier cycle left pending)
			// reached by a link of this cycle: queued as if listed.
			t.New = true
		case !v.OK:
			t.Skip = true
		}
		out.Targets = append(out.Targets, t)
	}
	return nil
}

// intern returns the ids of links, links of page from at depth, and
// whether each is new, as Crawl.Intern does. A link whose Note holds its
// id (a navigation link interned on an earlier page) is not interned
// again: it is known, so not new; the others are interned in one call and
// their ids noted.
func (a *Admission) intern(cr Crawl, from uint64, links []Link, depth int) ([]storage.Interned, error) {
	// Both slices serve page after page (one goroutine admits): out is
	// read only until the next call, urls only during it.
	out := slices.Grow(a.ints[:0], len(links))[:len(links)]
	urls := slices.Grow(a.urls[:0], len(links))
	a.ints = out[:0]
	for i := range links {
		if id, ok := links[i].idIn(a); ok {
			out[i] = storage.Interned{ID: id}
			continue
		}
		out[i] = storage.Interned{ID: storage.NoPage}
		urls = append(urls, links[i].URL)
	}
	if len(urls) == 0 {
		return out, nil
	}
	ints, err := cr.Intern(urls, from, uint32(depth))
	clear(urls) // the links' strings, not to be kept alive by the scratch
	a.urls = urls[:0]
	if err != nil {
		return nil, fmt.Errorf("scope: intern %d links of page %d: %w", len(urls), from, err)
	}
	for i := range out {
		if out[i].ID == storage.NoPage {
			out[i], ints = ints[0], ints[1:]
			links[i].setID(a, out[i].ID)
		}
	}
	return out, nil
}
