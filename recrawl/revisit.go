package recrawl

import (
	"cmp"
	"fmt"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/revisit"
	"github.com/seedcrawl/seedcrawl/storage"
)

// Defaults of Revisit.
const (
	DefaultIncRate     = 0.4
	DefaultDecRate     = 0.2
	DefaultMaxInterval = 30 * 24 * time.Hour
	// DefaultGoneCycles is seedcrawl run's --revisit-gone: a redirect, a
	// 404/410, a 401/403/451 or a robots-denied URL is refetched every 4th
	// cycle.
	DefaultGoneCycles = 4
)

// Revisit is the adaptive revisit schedule of known pages, after Nutch's
// AdaptiveFetchSchedule (org.apache.nutch.crawl.AdaptiveFetchSchedule): each
// page carries its own interval, stored with its last fetch
// (storage.Page.Interval), and is due again once that interval has passed
// since the fetch. After each fetch the interval becomes
//
//	first successful fetch:        Initial
//	unchanged (304 or same hash):  interval × (1 + IncRate)
//	changed (new content hash):    interval × (1 − DecRate)
//	gone or refused:               0.9 × Max (Nutch's setPageGoneSchedule)
//	failed (no answer, 5xx):       interval (tried again when next due)
//
// clamped to [Min, Max], where gone or refused is an answer that lasts:
// 404, 410, 401, 403 or 451 (revisit.Lasting). A page fetched by a plain
// crawl (no interval yet) starts from Initial. Initial = 0 turns the schedule off: intervals stay 0
// and every known page is due in every cycle, so consecutive cycles refresh
// everything they reach. Nutch's optional SYNC_DELTA (aligning the interval
// with Last-Modified) is not used: many servers send no Last-Modified, and
// the content hash is what the crawl compares.
//
// A URL that answered with a redirect, 404 or 410, or a refusal (401,
// 403, 451), or that robots.txt denied, is refetched on its own schedule,
// every GoneCycles cycles: such answers rarely change, leave no copy to
// keep fresh, and refetching them in every cycle costs a request each
// (one host's Crawl-delay can make them the bulk of a refresh cycle's
// time). Each such URL is refetched in the cycles of its own phase
// (revisit.Due), so the ones a crawl found together are spread over
// GoneCycles cycles instead of all coming due in the same cycle, which
// would then cost as much as the crawl that found them. A 5xx, a 429 or
// a network failure is not such an answer: it is transient, and the page
// is tried again when next due by its interval.
//
// The zero value (every page due every cycle) is usable; Revisit
// implements RevisitPolicy.
type Revisit struct {
	// Initial is the interval of a page after its first successful fetch;
	// 0 turns the schedule off.
	Initial time.Duration
	// Min and Max bound the interval; Max 0 means DefaultMaxInterval.
	Min, Max time.Duration
	// IncRate and DecRate are Nutch's db.fetch.schedule.adaptive.inc_rate
	// and dec_rate; 0 means DefaultIncRate and DefaultDecRate.
	IncRate, DecRate float64
	// GoneCycles is the number of cycles between refetches of a redirect,
	// 404, 410, 401, 403, 451 or robots-denied URL; 0 means those follow
	// the interval like any page.
	GoneCycles uint32

	cycle uint32 // the cycle being planned (at); 0: unknown, GoneCycles unused
}

// at returns v for use in cycle n.
func (v Revisit) at(n uint32) Revisit {
	v.cycle = n
	return v
}

// goneLike reports whether p's last answer was one GoneCycles spaces out
// (goneAnswer of its status and code).
func goneLike(p *storage.Page) bool { return goneAnswer(p.Status, p.Code) }

// goneAnswer reports whether an answer of status and HTTP code left no
// copy and rarely changes, so that GoneCycles spaces out its refetches: a
// redirect, robots.txt denying the URL, or a code revisit.Lasting names
// (404 and 410; the refusals 401, 403 and 451, stored as
// storage.StatusHTTPError with the code). The revisit policy (Due) and
// the refresh planning (pageHist.add, holdGone) both ask it, so the
// planning holds back exactly the refetches the policy would not make.
func goneAnswer(s storage.Status, code int) bool {
	switch s {
	case storage.StatusRedirect, storage.StatusGone, storage.StatusRobotsDenied:
		return true
	}
	return revisit.Lasting(code)
}

// Validate reports the first field out of range.
func (v Revisit) Validate() error {
	switch {
	case v.Initial < 0 || v.Min < 0 || v.Max < 0:
		return fmt.Errorf("%w: revisit intervals must not be negative", ErrOptions)
	case v.Max > 0 && v.Min > v.Max:
		return fmt.Errorf("%w: revisit min %v above max %v", ErrOptions, v.Min, v.Max)
	case !(v.IncRate >= 0 && v.IncRate <= 10): // NaN fails too
		return fmt.Errorf("%w: revisit inc rate %g, want 0..10", ErrOptions, v.IncRate)
	case !(v.DecRate >= 0 && v.DecRate < 1): // NaN fails too
		return fmt.Errorf("%w: revisit dec rate %g, want 0 ≤ rate < 1", ErrOptions, v.DecRate)
	}
	return nil
}

func (v Revisit) withDefaults() Revisit {
	v.Max = cmp.Or(v.Max, DefaultMaxInterval)
	v.IncRate = cmp.Or(v.IncRate, DefaultIncRate)
	v.DecRate = cmp.Or(v.DecRate, DefaultDecRate)
	return v
}

// Due reports whether p is due at now: its interval has passed since its
// last fetch; a gone-like page (see GoneCycles) once GoneCycles cycles
// have passed since its last fetch, in a cycle of its phase
// (revisit.Due). A page stored without an interval (fetched by a plain
// crawl, or by cycles run without one) has Initial as its interval, so
// turning intervals on takes effect for the pages already known, not only
// for new ones; with no Initial either, it is always due.
func (v Revisit) Due(p *storage.Page, now time.Time) bool {
	if v.GoneCycles > 0 && v.cycle > 0 && goneLike(p) {
		return revisit.Due(p.ID, p.Cycle, v.cycle, v.GoneCycles)
	}
	iv := p.Interval
	if iv <= 0 {
		iv = v.Initial
	}
	if iv <= 0 || p.FetchedAt.IsZero() {
		return true
	}
	return !now.Before(p.FetchedAt.Add(iv))
}

// Interval returns the interval to store with fetch f of the page whose
// record before the fetch is prev.
func (v Revisit) Interval(prev *storage.Page, f *storage.Fetch) time.Duration {
	v = v.withDefaults()
	base := prev.Interval
	if base <= 0 {
		base = v.Initial
	}
	if base <= 0 {
		return 0
	}
	var iv float64
	b := float64(base)
	switch {
	case f.Status == storage.StatusGone || f.Status == storage.StatusHTTPError && revisit.Lasting(f.Code):
		iv = 0.9 * float64(v.Max)
	case f.Status == storage.StatusNotModified:
		if prev.Successes == 0 {
			iv = float64(v.Initial)
		} else {
			iv = b * (1 + v.IncRate)
		}
	case f.Status == storage.StatusFetched || f.Status == storage.StatusRedirect:
		switch {
		case prev.Successes == 0:
			iv = float64(v.Initial)
		case f.Hash == prev.Hash && prev.Status != storage.StatusGone && !(prev.Status == storage.StatusHTTPError && revisit.Lasting(prev.Code)):
			iv = b * (1 + v.IncRate)
		default:
			iv = b * (1 - v.DecRate)
		}
	default:
		iv = b
	}
	if iv <= 0 {
		iv = b
	}
	d := time.Duration(iv)
	return min(max(d, v.Min), v.Max)
}
