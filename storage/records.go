package storage

import (
	"fmt"
	"time"

	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// NoPage is the page id meaning "none": the From of a seed, an unknown URL in
// Lookup.
const NoPage = ^uint64(0)

// MaxURLLen is the longest URL Intern accepts, in bytes: bbolt's key limit.
// The crawler's trap guards reject far shorter URLs (2048 by default).
const MaxURLLen = 32 << 10

// Status is the outcome recorded for a page. The values are stored on disk:
// new ones are only ever appended.
type Status uint8

// Page statuses.
const (
	// StatusDiscovered: interned (a node of the graph) but not queued, e.g.
	// found while its host is over budget.
	StatusDiscovered Status = iota
	// StatusQueued: interned and queued, never fetched.
	StatusQueued
	// StatusFetched: a 2xx response was read (Length bytes, maybe Truncated).
	StatusFetched
	// StatusNotModified: a conditional GET was answered 304; the content
	// fields of the previous fetch are kept.
	StatusNotModified
	// StatusRedirect: a 3xx with a Location; the target is a link of kind
	// LinkRedirect.
	StatusRedirect
	// StatusHTTPError: any other HTTP response (4xx, 5xx, 3xx without
	// Location); Code says which.
	StatusHTTPError
	// StatusFetchError: no usable response (DNS, connect, TLS, timeout, body
	// or decompression limit); Reason says which.
	StatusFetchError
	// StatusRobotsDenied: robots.txt disallows the URL for our agent.
	StatusRobotsDenied
	// StatusOutOfScope: outside the crawl scope.
	StatusOutOfScope
	// StatusRejected: refused by a trap guard or budget; Reason says which.
	StatusRejected
	// StatusDeferred: its host was deferred (Crawl-delay above the cap,
	// robots.txt unreachable); Reason says why.
	StatusDeferred
	// StatusGone: a page that existed answered 404 or 410.
	StatusGone

	numStatuses
)

var statusNames = [numStatuses]string{
	"discovered", "queued", "fetched", "not-modified", "redirect", "http-error",
	"fetch-error", "robots-denied", "out-of-scope", "rejected", "deferred", "gone",
}

// String returns the status name used in stats and exports, e.g. "fetch-error".
func (s Status) String() string {
	if s < numStatuses {
		return statusNames[s]
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

// Statuses returns every status in numeric order.
func Statuses() []Status {
	out := make([]Status, numStatuses)
	for i := range out {
		out[i] = Status(i)
	}
	return out
}

// ParseStatus returns the status named s (as printed by String).
func ParseStatus(s string) (Status, error) {
	for i, n := range statusNames {
		if n == s {
			return Status(i), nil
		}
	}
	return 0, fmt.Errorf("storage: unknown status %q", s)
}

// Fetched reports whether the page's content was downloaded: StatusFetched or
// StatusNotModified (a 304 confirms the content fetched before). NodeFlags
// uses this rule.
func (s Status) Fetched() bool { return s == StatusFetched || s == StatusNotModified }

// responded reports whether a fetch got an HTTP response other than 304, so
// its content fields and link list replace the previous ones.
func (s Status) responded() bool {
	return s == StatusFetched || s == StatusRedirect || s == StatusHTTPError || s == StatusGone
}

// Requested reports whether an outcome of status s cost a request to the
// page's server: a response (fetched, redirect, HTTP error, 304, gone) or
// a fetch error. Robots-denied, out-of-scope, rejected and deferred URLs
// are answered without one. These are the outcomes Batch.AddFetch records.
func (s Status) Requested() bool {
	return s.responded() || s == StatusNotModified || s == StatusFetchError
}

// fetchOutcome reports whether s may be given to Batch.AddFetch.
func (s Status) fetchOutcome() bool { return s.Requested() }

// success reports whether a fetch found the page alive.
func (s Status) success() bool {
	return s == StatusFetched || s == StatusNotModified || s == StatusRedirect
}

// Change classifies a fetch against the page's previous successful fetch
// (pages new / changed / unchanged / gone per cycle, as each cycle records them).
type Change uint8

// Change values, stored on disk.
const (
	// ChangeNone: the fetch failed without telling anything about the page.
	ChangeNone Change = iota
	// ChangeNew: first successful fetch of the page.
	ChangeNew
	// ChangeChanged: content hash differs from the previous successful fetch.
	ChangeChanged
	// ChangeUnchanged: 304, or the same content hash.
	ChangeUnchanged
	// ChangeGone: the page was alive before and now answers 404 or 410
	// (StatusGone, or StatusHTTPError with those codes).
	ChangeGone
)

var changeNames = [...]string{"none", "new", "changed", "unchanged", "gone"}

// String returns the change name, e.g. "unchanged".
func (c Change) String() string {
	if int(c) < len(changeNames) {
		return changeNames[c]
	}
	return fmt.Sprintf("change(%d)", uint8(c))
}

// LinkKind says where a link came from. The values are stored on disk.
type LinkKind uint8

// Link kinds.
const (
	LinkA         LinkKind = iota // <a href>
	LinkArea                      // <area href>
	LinkFrame                     // <frame src>
	LinkIFrame                    // <iframe src>
	LinkCanonical                 // <link rel=canonical>
	LinkAlternate                 // <link rel=alternate>
	LinkNext                      // <link rel=next>
	LinkPrev                      // <link rel=prev>
	LinkRedirect                  // an HTTP redirect hop (Location)
	LinkOther                     // anything else
	LinkSitemap                   // listed by a sitemap: a page, or a child sitemap of an index

	numLinkKinds
)

var linkKindNames = [numLinkKinds]string{
	"a", "area", "frame", "iframe", "canonical", "alternate", "next", "prev", "redirect", "other", "sitemap",
}

// String returns the kind name, e.g. "canonical".
func (k LinkKind) String() string {
	if k < numLinkKinds {
		return linkKindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// ParseLinkKind returns the kind named s (as printed by String).
func ParseLinkKind(s string) (LinkKind, error) {
	for i, n := range linkKindNames {
		if n == s {
			return LinkKind(i), nil
		}
	}
	return 0, fmt.Errorf("storage: unknown link kind %q", s)
}

// Link is one out-link of a page: the target's page id and its kind.
type Link struct {
	To   uint64
	Kind LinkKind
}

// Page is the stored record of one URL. The crawler writes it through a
// Batch (new URLs, AddFetch, SetStatus); the derived fields are maintained by
// Commit.
type Page struct {
	ID     uint64
	URL    string // normalized URL, the key of the seen-set
	Status Status
	Reason string // error text or rejection reason; "" when none

	// Discovery (set when the URL is interned, never changed).
	Depth      uint32 // hops from the nearest seed
	From       uint64 // page the URL was first discovered on; NoPage for seeds
	FirstCycle uint32 // cycle in which the URL was interned

	// Last fetch. Content fields (ContentType .. LastModified) are replaced by
	// fetches that got a response other than 304 and kept otherwise.
	Code         int           // HTTP status code; 0 when no response
	ContentType  string        // media type as sent
	Length       int64         // body bytes read (after decompression)
	Truncated    bool          // body cut at the size limit
	Hash         Hash          // content hash; zero for no content
	ETag         string        // validator for If-None-Match
	LastModified string        // validator for If-Modified-Since
	FetchedAt    time.Time     // start of the last fetch; zero if never fetched
	Duration     time.Duration // response time of the last fetch
	Interval     time.Duration // revisit interval chosen after the last fetch

	// Derived by Commit.
	Novel bool // the last content fetch made this page the first one stored with its Hash

	Cycle     uint32    // cycle of the last fetch; 0 if never fetched
	Fetches   uint32    // fetch attempts recorded
	Successes uint32    // fetches with a success status (fetched, 304, redirect)
	ChangedAt time.Time // FetchedAt of the fetch that last changed the content (new, changed or gone)
}

// Host returns the lower-cased host of p.URL without userinfo and port (an
// IPv6 literal keeps its brackets), the rule of urlnorm.Host.
func (p *Page) Host() string { return urlnorm.HostName(p.URL) }

// Fetch is the outcome of one fetch of a page, given to Batch.AddFetch.
type Fetch struct {
	ID     uint64
	Host   string // frontier host key; counts per host (Host record) when non-empty
	Status Status // a fetch status: fetched, not-modified, redirect, http-error, fetch-error or gone
	Reason string // short category ("timeout", "body-limit"), "" if none; Stats groups pages by it

	Code         int
	ContentType  string
	Length       int64
	Truncated    bool
	Hash         Hash
	ETag         string
	LastModified string
	// Date is the response's Date header as sent, "" if none: the
	// server's clock, against which its Last-Modified is measured (a
	// server's Last-Modified and its Date come from the same clock; the
	// crawler's own clock may differ from it by any amount).
	Date      string
	FetchedAt time.Time
	Duration  time.Duration
	Interval  time.Duration // revisit interval for the next cycle; 0 if none

	// OlderHash is the same body hashed with HashSHA256, the kind an
	// older build stored, given when Hash is of another kind and the db
	// holds hashes of that kind (DB.OlderHashes; HashesOf computes both):
	// Commit then finds a page stored before the upgrade with the same
	// content, so this one is not Novel. Zero: Hash alone is looked up.
	OlderHash Hash
}

// FetchRecord is one entry of the per-cycle fetch history: the last
// fetch of page ID within cycle Cycle.
type FetchRecord struct {
	Cycle     uint32
	ID        uint64
	Status    Status
	Code      int
	Change    Change
	Hash      Hash
	Length    int64
	FetchedAt time.Time
	Duration  time.Duration
	// LastModified is the page's Last-Modified as of this fetch (a 304
	// keeps the one of the copy it confirmed) and Date the response's Date
	// header, both parsed as HTTP dates to the second; zero when absent or
	// not a valid HTTP date, and in records written before they were
	// stored. Date − LastModified is the age of the copy on the server's
	// own clock, what a change-rate estimator from last-modified dates
	// needs (changerate.LastModified).
	LastModified time.Time
	Date         time.Time
}

// Entry is one pending URL of the stored frontier.
type Entry struct {
	ID      uint64
	Host    string  // the frontier's host key
	Prio    float64 // scheduler priority (higher first)
	Seq     uint64  // FIFO tie-break: discovery sequence
	Depth   uint32
	Attempt uint32 // retries so far after transient failures
	URL     string // filled by LoadFrontier from the page record; ignored by PutFrontier
}

// Host is the stored state of one host. ReadyAt and Reason are written by
// Batch.SetHostReady; the counters are maintained by Commit from fetches whose
// Fetch.Host names the host.
type Host struct {
	Name    string
	ReadyAt time.Time // earliest start of the next request
	Reason  string    // why ReadyAt is in the future beyond politeness (deferral), or ""

	Fetches      uint64        // fetch attempts
	Successes    uint64        // fetched, 304 or redirect
	Errors       uint64        // http-error, fetch-error, gone
	Bytes        uint64        // sum of Length
	LastFetch    time.Time     // FetchedAt of the latest fetch
	LastDuration time.Duration // its response time
}

// Robots is the cached robots.txt of one origin (or host: the key is the
// caller's). Package robots uses it as its Entry, so *DB is a robots.Store
// without conversion.
type Robots struct {
	State     uint8     // robots.State: rules, allow-all, deferred, disallow-all
	Code      int       // HTTP status of the last response; 0 if none arrived
	Body      []byte    // robots.txt content (after redirects), possibly empty
	FetchedAt time.Time // when the last attempt finished
	Expires   time.Time // when to fetch again
	Failures  uint32    // consecutive failed attempts (5xx, timeout) for backoff
	Err       string    // last failure, or ""
}

// Run is one invocation of a crawl (seedcrawl crawl or one process of
// seedcrawl run). A run whose End is zero was interrupted (or is running).
type Run struct {
	ID       uint64 // 1, 2, ... in start order
	Start    time.Time
	End      time.Time
	Command  string            // subcommand and arguments as typed
	Config   string            // effective configuration, JSON
	Counters map[string]uint64 // pages fetched, bytes, errors ... as the crawl loop sees them
}

// Seed is one seed of a cycle and why it was chosen.
type Seed struct {
	ID    uint64
	Score float64 // selector score, 0 when given by the user
	Why   string  // "given", "pagerank rank 3", "replaces 17 (gone)" ...
}

// Replacement records a seed that vanished and the seed seedcrawl run put in its place.
type Replacement struct {
	Old    uint64
	New    uint64 // NoPage if none was found
	Reason string // a lasting answer's code ("404", "410", "403", ...), "redirect", "unreachable"
}

// CycleStats are the per-cycle figures Commit maintains from the fetches and
// new URLs it writes; a Cycle given to PutCycle has them ignored.
type CycleStats struct {
	Fetches   uint64 // fetch records written in the cycle
	New       uint64 // ChangeNew
	Changed   uint64 // ChangeChanged
	Unchanged uint64 // ChangeUnchanged
	Gone      uint64 // ChangeGone
	Errors    uint64 // fetches with status http-error or fetch-error, of URLs not marked as sitemaps (MarkSitemap)
	Bytes     uint64 // sum of Length
	Found     uint64 // URLs interned during the cycle
	NextID    uint64 // page ids below NextID existed at the cycle's last commit
	First     time.Time
	Last      time.Time // range of FetchedAt
	// Retries are the cycle's requests that failed and were tried again
	// (Batch.AddRetries). They leave no fetch record, but a page budget
	// counts them: Fetches + Retries is what a cycle has spent.
	Retries uint64
}

// Cycle is one crawl cycle of seedcrawl run. A database written
// only by seedcrawl crawl has an implicit cycle 1 with no Cycle record; its
// statistics are still kept.
type Cycle struct {
	N        uint32 // 1, 2, ...
	Start    time.Time
	End      time.Time // zero while running or after a kill
	SeedAlgo string
	Seeds    []Seed
	Replaced []Replacement
	Info     string // free-form (JSON) notes: budget, interval, refresh share
	Stats    CycleStats
}
