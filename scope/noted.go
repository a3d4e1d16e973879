package scope

import (
	"sync/atomic"

	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// vetted is what Rules worked out once about the URL of an extracted
// link, kept in the Note the extractor's memo keeps with the link's
// resolution (extract.Link.Note): a site's navigation links, found again
// on page after page, are vetted once and interned once per crawl,
// rather than their URLs parsed for the host, checked by the guards and
// looked up in the store on every page. Its fields are fixed when it is
// made (the rules it was made by never change), but for id.
type vetted struct {
	rules *Rules // the Rules that made it: a Note made by others is not trusted
	host  string // urlnorm.Authority of the URL
	// allowed: the crawl's Scope allows the URL. A URL it does not is
	// asked about again (a seed redirect may bring its host in).
	allowed bool
	reason  string // why the guards refused the URL ("" when ok)
	ok      bool
	// id is the URL's id in the crawl of an Admission, set once its
	// Crawl.Intern gave it: ids never change.
	id atomic.Pointer[internedID]
}

// internedID is the id a's crawl gave a URL.
type internedID struct {
	a  *Admission
	id uint64
}

// noted returns what n, the Note of an extracted link to u, holds from r,
// vetting u and keeping the outcome in n if it holds nothing from r.
// Goroutines racing on a new Note each vet u and keep their own outcome,
// the same one.
func (r *Rules) noted(u string, n *urlnorm.Note) *vetted {
	if v, ok := n.Load().(*vetted); ok && v.rules == r {
		return v
	}
	v := &vetted{rules: r, host: urlnorm.Authority(u), allowed: r.opts.Scope.Allows(u)}
	v.reason, v.ok = r.check(u)
	n.Store(v)
	return v
}

// keep is the extractor's Keep: InScope, answered from the link's Note
// when it has one.
func (r *Rules) keep(u string, n *urlnorm.Note) bool {
	if n == nil {
		return r.InScope(u)
	}
	v := r.noted(u, n)
	return v.allowed || r.added(v.host)
}

// idIn returns the id a's crawl gave the URL of l, if l's Note holds it.
func (l *Link) idIn(a *Admission) (uint64, bool) {
	if l.note == nil {
		return 0, false
	}
	if k := l.note.id.Load(); k != nil && k.a == a {
		return k.id, true
	}
	return 0, false
}

// setID notes id, the id a's crawl gave the URL of l, in l's Note if it
// has one.
func (l *Link) setID(a *Admission, id uint64) {
	if l.note == nil {
		return
	}
	if k := l.note.id.Load(); k == nil || k.a != a || k.id != id {
		l.note.id.Store(&internedID{a, id})
	}
}
