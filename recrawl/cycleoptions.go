package recrawl

import (
	"context"
	"log/slog"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// CycleOptions make a crawl one cycle of an incremental crawler (seedcrawl
// run, NewCycle): it revisits the pages earlier cycles stored, records the
// cycle, and watches the cycle's seeds. See the package documentation,
// "The crawl of a cycle".
type CycleOptions struct {
	// Cycle is the record of the cycle this crawl belongs to. With Start it
	// is a new cycle (N = the database's current cycle + 1, or 1 for a
	// database without cycles), stored by the crawl's first commit with Seeds
	// filled in; without Start it is the stored record of the current cycle,
	// resumed. The crawl appends the seeds it injects and the vanished seeds it
	// replaces and stores the record again in the commit that holds the
	// change.
	Cycle storage.Cycle
	// Start starts the cycle: the stored frontier's priorities are reset to
	// 0 (and the scheduler's state dropped), Seeds are queued first at
	// depth 0 with the scheduler's seed weight (refetched when known), then
	// the pending URLs in their old order, then Refresh, all in the crawl's first
	// commit.
	Start bool
	// Seeds are the seeds of a new cycle (Start only), in order.
	Seeds []Pick
	// Refresh lists known pages to revisit in a new cycle (Start only), most
	// important first: their order is the FIFO tie-break among equal
	// priorities. Ids that are seeds or already pending are skipped.
	Refresh []uint64
	// Prior, when set, is the starting priority of the known pages a new
	// cycle queues (pending and Refresh; seeds get the scheduler's seed
	// weight): the history schedulers' prior, the previous cycle's
	// PageRank, so that a known page is ranked by it from the start rather
	// than only once a downloaded page links to it. nil means 0, the
	// cycle's mass flowing from its seeds alone.
	Prior func(id uint64) float64
	// Lazy makes the cycle's start cost what Seeds and Refresh hold, not
	// what the db holds: Refresh need not list every known page, and a
	// known page (or a URL left pending by an earlier cycle) is queued
	// when a link of this cycle leads to it, once per cycle, and handled
	// as if it had been listed (refetched when due, else traversed from
	// storage). Without Lazy only new URLs are queued from links, so
	// Refresh must list every known page for the cycle to reach them. The
	// per-host URL counts (--host-max-pages) come from storage's admitted
	// index (Store.AdmittedByHost), not from a pass over the pages.
	Lazy bool

	// Policy decides whether a known page is due for a refetch and the
	// revisit interval stored with each fetch; nil means every known page
	// is due and no interval is stored.
	Policy RevisitPolicy
	// Changed reports whether the sites' sitemaps say page id changed
	// after its last fetch (prev): it is then due whatever Policy
	// estimated (sitemap.Lastmods.Changed, when the crawl reads
	// sitemaps). nil: no page is.
	Changed func(id uint64, prev *storage.Page) bool
	// MaxRefresh caps the refetches of pages fetched in earlier cycles in
	// this run (the refresh share of the cycle's budget); 0 means no cap,
	// negative means no refetch at all. A known page that is not due, or
	// over the cap, is traversed from
	// storage instead: its stored out-links go to the frontier as if it had
	// answered 304, without a request.
	MaxRefresh int64
	// RefetchHead, when positive, makes Refresh[:RefetchHead] the only
	// known pages this cycle may refetch (the refresh policy's choice for
	// the refresh share); every other known page is traversed from storage.
	// Without it the first due pages the scheduler hands out take the
	// share, whatever the refresh policy ordered. 0 means no such list.
	RefetchHead int
	// Paced spreads the refetches MaxRefresh allows evenly over the
	// cycle's Budget fetches instead of granting them as the scheduler
	// reaches known pages: a refetch ahead of the rate is traversed at
	// once and owed, queued again at Weight as the rate allows (see the
	// package documentation, "Refresh pacing"). It needs MaxRefresh > 0,
	// Budget > 0 and Weight; otherwise it is ignored.
	Paced bool
	// Budget is the fetches of the crawl (what is left of the cycle's
	// budget), the span Paced spreads refetches over.
	Budget int64
	// Weight is the priority an owed refetch is queued again with: the
	// previous cycle's PageRank of the page (Plan.Rank).
	Weight func(id uint64) float64
	// Owed are the refetches a paced cycle owed when it was interrupted
	// (resume only: Plan.Owed, read from the db): the resumed cycle owes
	// them again, so it makes them as the uninterrupted one would have.
	// Ignored when the cycle is not paced.
	Owed []OwedRefetch

	// Replacer picks a replacement for a seed of the cycle that vanished
	// (404, 410, unreachable); nil records the vanished seed without one. A
	// seed that redirects is replaced by its redirect target without asking.
	Replacer SeedReplacer
	// ReseedEvery, with Reseeder, reruns seed selection every ReseedEvery
	// fetched pages and injects the seeds it returns into the frontier with
	// the scheduler's seed weight; 0 means never.
	ReseedEvery uint64
	// Reseeder picks the seeds injected by ReseedEvery.
	Reseeder SeedReseeder

	// Logger receives warnings (a failed replacement or reseed, an
	// injected seed ignored); nil: discard.
	Logger *slog.Logger
}

// OwedRefetch is a refetch a paced cycle owes a known page it traversed
// ahead of the refresh pace (see the package documentation, "Refresh
// pacing"), as stored with the cycle's commits (storage.Owed) and read
// back to resume it.
type OwedRefetch struct {
	ID    uint64
	Host  string // frontier host key of the page
	Depth int
	// Weight orders the owed refetches, largest first, and is the
	// priority one is queued again with; Seq is the order owed (ties).
	Weight float64
	Seq    uint64
}

// Pick is a seed chosen by the recrawl layer, with why. A cluster's
// leader publishes a cycle's picks as JSON for the other nodes.
type Pick struct {
	// URL is the seed (normalized here when it is new).
	URL string `json:"url"`
	// Score is the selector's score, 0 for seeds given by the user.
	Score float64 `json:"score,omitempty"`
	// Why is stored in the cycle record, e.g. "maxweight rank 3: covers 40
	// pages within 5 hops".
	Why string `json:"why,omitempty"`
}

// RevisitPolicy is the refresh policy of known pages (Nutch's
// FetchSchedule): when a page is due, and the interval stored with a fetch.
type RevisitPolicy interface {
	// Due reports whether page p, fetched in an earlier cycle, should be
	// refetched at now.
	Due(p *storage.Page, now time.Time) bool
	// Interval returns the revisit interval stored with fetch f of a page
	// whose record before f is prev (the zero Page for a new URL).
	Interval(prev *storage.Page, f *storage.Fetch) time.Duration
}

// SeedReplacer chooses replacements for vanished seeds (*Replacer is
// one). Replace is called on the crawl's disposer goroutine (the crawl
// waits for it), rarely: once per vanished seed.
type SeedReplacer interface {
	// Replace returns a replacement for seed old, which vanished for reason
	// (a lasting answer's code: "404", "410", "403", ...; or "unreachable"),
	// other than the pages isSeed reports;
	// ok is false when there is none.
	Replace(ctx context.Context, old uint64, reason string, isSeed func(id uint64) bool) (p Pick, ok bool, err error)
}

// SeedReseeder chooses seeds on the graph stored so far (--reseed-every;
// *Reseeder is one). Reseed runs on its own goroutine while the crawl goes
// on.
type SeedReseeder interface {
	// Reseed returns the seeds to inject after fetched pages of this run,
	// new ones: not among seeds, the cycle's seeds so far.
	Reseed(ctx context.Context, fetched uint64, seeds []uint64) ([]Pick, error)
}

// Vanish reasons stored in storage.Replacement.Reason.
const (
	VanishedRedirect    = "redirect"
	VanishedUnreachable = "unreachable"
)

// Traversal reasons counted under "refresh/": how a known page of an
// earlier cycle was handled in a recrawl. The crawler counts a refetch
// made under "refresh/fetched" too (monitor.Fetch).
const (
	refreshFetched   = "fetched"    // refetched with a conditional GET
	refreshNotDue    = "not-due"    // traversed from storage: its revisit time has not come
	refreshOverShare = "over-share" // traversed from storage: the refresh share is spent
	refreshSeen      = "seen"       // traversed from storage: fetched earlier in this cycle (an injected seed)
	refreshPaced     = "paced"      // traversed from storage now, its refetch owed until the refresh pace allows it
)
