package frontier

import (
	"log/slog"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/storage"
)

// Options configures a Frontier. The zero value of every field but
// Scheduler is usable.
type Options struct {
	// Scheduler ranks pending URLs (required). The frontier serialises all
	// calls to it, so it need not be safe for concurrent use.
	Scheduler scheduler.Scheduler
	// Politeness are the per-host settings the frontier enforces, as
	// package config defines them: HostConcurrency (jobs of one host in
	// flight at once; 0 means 1), Delay, MaxCrawlDelay (0: no cap),
	// DelayFactor (0: off), Backoff (0 means DefaultBackoff), MaxBackoff
	// (0 means DefaultMaxBackoff) and MaxRetries. See Done.
	Politeness config.Politeness
	// Robots is asked about every URL before Next hands it out; nil allows
	// everything.
	Robots RobotsChecker
	// DropFor is how long a host dropped for its Crawl-delay stays
	// deferred in its stored state (so a restart keeps it dropped). 0
	// means DefaultDropFor.
	DropFor time.Duration
	// Clock supplies time for host ready times and Next's waits.
	// nil means SystemClock.
	Clock Clock
	// HostMaxPages is the host page budget (config.Config.HostMaxPages):
	// the most URLs of one host admitted over the life of the crawl
	// database, a trap guard. The frontier counts them (Admit, and
	// Snapshot.Admitted on resume) and answers HostFull; 0 means no budget.
	HostMaxPages int64
	// Logger receives one warning per host the frontier gives up (its
	// Crawl-delay, its Retry-After, its failures), with the cause, and,
	// without HostMaxFailures, one per run of failures of a host that keeps
	// failing (failingNote URLs in a row). nil: discard.
	Logger *slog.Logger
}

// Target is one distinct out-link target of a downloaded page, or a seed,
// as the crawl loop passes it in: the URL is already interned in storage
// (which owns the seen-set) and only its id travels here.
type Target struct {
	// ID is the storage URL id.
	ID uint64
	// Host is the politeness key of the URL, its urlnorm.Host: the exact
	// lower-cased host name (with the port when it is not the scheme's
	// default). One queue,
	// one ready time and one concurrency limit per distinct Host; a link is
	// intra-host (scheduler.Link.Intra) when its Host without the port
	// equals the source page's byte for byte (www.a.com ≠ a.com, but
	// a.com:8080 = a.com).
	Host string
	// Depth is the number of links from a seed (seeds 0). A pending URL
	// keeps the least depth of the links found to it before it is handed
	// out; a URL in flight or done keeps the depth it had.
	Depth int
	// New reports that storage saw this URL for the first time while
	// interning this page's links (or the seeds): it is enqueued. A target
	// that is not New is Queued if it is pending here and Done otherwise
	// (downloaded, in flight, or rejected earlier).
	New bool
	// Skip marks a target the crawl loop will not fetch (out of scope,
	// beyond --max-depth, host page budget, trap guard). It still counts as
	// an out-link for the scheduler (FPR divides by all distinct out-links)
	// but is never enqueued; if it is already pending it stays pending.
	Skip bool
	// Remote marks a target whose host another node of a cluster owns:
	// the scheduler sees it as New (it counts among the out-links, or
	// among the seeds, and is given its share) but it is never enqueued
	// here. Complete writes the priority the scheduler gave it to Mass,
	// for the caller to hand to the owner (Credit there applies it).
	Remote bool
	// Mass is, for a Remote target, the priority the scheduler gave it
	// (out, set by Complete and Done); for Credit, the priority to add
	// (in).
	Mass float64
}

// Job is a URL handed out by Next. Pass it back unchanged to exactly one of
// Complete or Requeue: the frontier keeps no copy of a job in flight beyond
// its id's slot, and takes Prio, Seq and Attempt from the Job it gets back.
type Job struct {
	ID   uint64
	Host string
	// Prio is the URL's priority when it was handed out; the scheduler
	// needs it when the page is downloaded (FPR's f, OPIC's cash).
	Prio float64
	// Depth is the URL's link depth from the seeds.
	Depth int
	// Seq is the URL's discovery sequence number (FIFO tie-break), with
	// its top bit set for a URL queued ahead of its host's others (Add).
	Seq uint64
	// Attempt counts earlier attempts that ended in Requeue (0 for the
	// first fetch); Done caps retries with it.
	Attempt int
	// Skip, when not "", says the URL must not be fetched, and why: a
	// robots.txt verdict's Reason, or the reason its host was dropped (it
	// starts with "crawl-delay "). The crawl loop records it and reports
	// Done with a zero Result.
	Skip string
	// Dropped lists the queued URLs of the job's host that left the
	// frontier when Next dropped the host; the crawl loop records them with
	// Skip as reason, in the batch that holds Done's changes (their
	// Deletes).
	Dropped []uint64
}

// Outcome is how a job ended, reported to Complete.
type Outcome struct {
	// Downloaded reports that the URL was fetched (any HTTP status, or a
	// final network error) and Links are its out-link targets; the
	// scheduler's Downloaded is called. False means the URL was dropped
	// without a fetch (robots disallow, budget, dropped host): the scheduler
	// is not told and Links are ignored.
	Downloaded bool
	// Links are the page's distinct out-link targets in document order,
	// self-links and redirect targets included; nil for a page without
	// links (non-HTML, errors): its mass is dropped (dangling page).
	Links []Target
	// Delay is the politeness gap to keep before the host's next request,
	// counted from the moment Complete is called; Done sets it to
	// max(--delay, Crawl-delay, factor × response time).
	Delay time.Duration
	// ReadyAt, when later than now+Delay, is used instead (Retry-After,
	// exponential backoff after 429/503).
	ReadyAt time.Time
}

// Entry is the persisted form of one pending URL: what the crawl loop
// stores in the frontier bucket (Changes.Put) and passes back to Restore on
// resume. It is storage's record itself, so the frontier's changes are
// stored and read back without a conversion; the frontier ignores its URL.
type Entry = storage.Entry

// HostState is the persisted politeness state of one host: the earliest
// time its next request may start and why, when a Defer set it.
type HostState struct {
	Host    string
	ReadyAt time.Time
	Reason  string
}

// Snapshot is the persisted state of a frontier: what Restore rebuilds it
// from after a restart or a crash.
type Snapshot struct {
	// Entries are the stored pending URLs, in any order. URLs that were in
	// flight at the crash are among them (they leave the stored frontier only
	// with their result) and are simply queued again.
	Entries []Entry
	// Hosts are stored host ready times; hosts absent here are ready.
	Hosts []HostState
	// SchedState is the last Changes.SchedState stored, nil if none; it is
	// passed to the scheduler's UnmarshalState when it is Stateful.
	SchedState []byte
	// Admitted are the per-host counts of the host page budget
	// (Options.HostMaxPages) of the crawl being resumed: how many URLs of
	// each host were admitted before. LoadSnapshot rebuilds them from
	// storage (they are not part of Changes); Restore copies them.
	// Ignored without a budget.
	Admitted map[string]int64
}

// Stats is a point-in-time summary for progress reports, in the
// monitor's terms (its fields are documented there), as Hosts reports
// hosts as monitor.Host.
type Stats = monitor.FrontierStats

// HostInfo describes one host for progress reports and tests.
type HostInfo struct {
	Pending  int
	InFlight int
	ReadyAt  time.Time
	Reason   string // the reason of the last Defer, "" if none
}
