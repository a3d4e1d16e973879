package scope

import "github.com/seedcrawl/seedcrawl/storage"

// Admission admits a crawl's links by URL id, one after the other, with
// the memory admission needs from one link to the next: the URLs refused
// for a reason a later link may lift (Rules.Admit's soft refusals: a URL
// first seen beyond MaxDepth is queued when a link at an allowed depth
// reaches it), and the redirect hops of queued redirect targets. It is
// not safe for concurrent use: one goroutine (the crawl's disposer)
// admits. Build it with Rules.Admission.
type Admission struct {
	rules *Rules
	soft  map[uint64]struct{} // URLs not queued for a reason a later link may lift
	hops  map[uint64]int      // redirect hops of queued redirect targets
	// ints and urls are intern's scratch.
	ints []storage.Interned
	urls []string
}

// Admission returns an empty Admission deciding with r.
func (r *Rules) Admission() *Admission {
	return &Admission{rules: r, soft: map[uint64]struct{}{}, hops: map[uint64]int{}}
}

// Verdict is what Admission.Admit decided for a link to a URL.
type Verdict struct {
	// Status and Reason say why the URL is not queued (OK false).
	Status storage.Status
	Reason string
	// OK: the rules admit the link.
	OK bool
	// Lift: the URL, seen before, was refused for a reason a later link
	// may lift, and this link lifts it.
	Lift bool
}

// Admit decides l, a link at depth, redirectHops into a redirect chain,
// to id, a URL the crawl interned (isNew: for the first time). A new URL
// refused for a reason a later link may lift is remembered, so a later
// link that passes lifts the refusal (Verdict.Lift) until Pass.
func (a *Admission) Admit(id uint64, l *Link, depth, redirectHops int, isNew bool) Verdict {
	return a.admit(id, l, depth, redirectHops, isNew, nil)
}

// admit is Admit, asking full whether l's host is full (Rules.admit).
func (a *Admission) admit(id uint64, l *Link, depth, redirectHops int, isNew bool, full *fullHost) Verdict {
	status, reason, soft, ok := a.rules.admit(l, depth, redirectHops, full)
	_, wasSoft := a.soft[id]
	if isNew && !ok && soft {
		a.soft[id] = struct{}{}
	}
	return Verdict{Status: status, Reason: reason, OK: ok, Lift: ok && wasSoft && !isNew}
}

// Pass notes that id passed admission and goes on (queued here, or handed
// to the node that owns it), redirectHops into a redirect chain: its
// refusal, if any, is lifted, and its hops are kept until Forget.
func (a *Admission) Pass(id uint64, redirectHops int) {
	delete(a.soft, id)
	if redirectHops > 0 {
		a.hops[id] = redirectHops
	}
}

// Hops is how many redirect hops led to id when it passed (0 for a URL
// that is no redirect target, or forgotten).
func (a *Admission) Hops(id uint64) int { return a.hops[id] }

// Forget drops what Pass kept of id, once its outcome is final.
func (a *Admission) Forget(id uint64) { delete(a.hops, id) }
