package frontier

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// RobotsChecker is what the frontier needs to know about robots.txt before
// it hands a URL out. Check may block (it may fetch robots.txt); the
// frontier calls it without holding its lock, with the job in flight, so
// the host's concurrency limit covers the robots.txt request too.
// Implementations must be safe for concurrent use.
type RobotsChecker interface {
	// Check returns the verdict for URL id of host. An error means there
	// is no verdict (ctx ended): the URL goes back to its queue.
	Check(ctx context.Context, id uint64, host string) (Verdict, error)
}

// Verdict is a RobotsChecker's answer for one URL.
type Verdict struct {
	// Allowed reports that the URL may be fetched.
	Allowed bool
	// Reason says why it may not; Next hands the job out with Job.Skip set
	// to it, unless RetryAt is set.
	Reason string
	// RetryAt, when set, means robots.txt cannot be known yet (5xx,
	// timeout): the host is deferred until then with Reason and the URL
	// waits in its queue.
	RetryAt time.Time
	// CrawlDelay is the robots.txt Crawl-delay for us, 0 if none. Above
	// Politeness.MaxCrawlDelay the host is dropped; otherwise it is a lower
	// bound of the host's delay.
	CrawlDelay time.Duration
	// Requests are the requests the check made (robots.txt and its
	// redirect hops): each counts as a request to its host, which then
	// waits its delay from the verdict on (the end of the last response).
	// A URL whose own host was just asked goes back to its queue until
	// then.
	Requests []Request
}

// Request is a request made outside the crawl loop, to Host at At.
type Request struct {
	Host string
	At   time.Time
}

// Result is how a job handed out by Next ended, reported to Done.
type Result struct {
	// Requested reports that a request was made for the URL (any answer,
	// or a network failure): the host's delay and back-off apply. False
	// for a job the crawl loop ended without a request (Job.Skip, a page
	// taken from storage).
	Requested bool
	// Downloaded reports that the scheduler is to see the page with Links
	// as its out-links (a fetched page, or one taken from storage); see
	// Outcome.Downloaded.
	Downloaded bool
	// Links are the page's distinct out-link targets in document order.
	Links []Target
	// Transient reports a failure that may go away (5xx, 429, timeout,
	// connection error): the host backs off and the URL is retried while
	// Politeness.MaxRetries allows.
	Transient bool
	// RetryAfter is the server's Retry-After (429, 503); it wins over a
	// shorter back-off.
	RetryAfter time.Duration
	// Duration is the server's response time (time to first byte, so a
	// busy client does not slow its own crawl), for Politeness.DelayFactor.
	Duration time.Duration
}

// Defaults for zero Options fields.
const (
	DefaultBackoff    = time.Second
	DefaultMaxBackoff = 10 * time.Minute
	DefaultDropFor    = 24 * time.Hour
	// MaxRetryAfter is the longest Retry-After waited out, unless
	// Politeness.MaxBackoff is longer; a host asking for more is dropped
	// until then (at most DropFor).
	MaxRetryAfter = time.Hour
)

// dropPrefix starts the reason of a host dropped for its Crawl-delay,
// retryAfterPrefix that of a host dropped for a Retry-After it will not
// wait out, and failingPrefix that of one given up for its failures
// (HostMaxFailures); the frontier writes them and recognizes them in a
// restored HostState.
const (
	dropPrefix       = "crawl-delay "
	retryAfterPrefix = "retry-after "
	failingPrefix    = "host-failing: "
)

// DropReason reports whether reason (a Job's Skip, a HostInfo's Reason)
// is that of a dropped host.
func DropReason(reason string) bool {
	return strings.HasPrefix(reason, dropPrefix) || strings.HasPrefix(reason, retryAfterPrefix) ||
		strings.HasPrefix(reason, failingPrefix)
}

// SkipName names a non-fetch outcome (a status and its reason) for
// counting: a host dropped for its Crawl-delay counts under one name,
// whatever the delay, and so do hosts dropped for their Retry-After.
func SkipName(s storage.Status, reason string) string {
	if reason == "" {
		return s.String()
	}
	if s == storage.StatusDeferred {
		switch {
		case strings.HasPrefix(reason, dropPrefix):
			return "crawl-delay-too-long"
		case strings.HasPrefix(reason, retryAfterPrefix):
			return "retry-after-too-long"
		case strings.HasPrefix(reason, failingPrefix):
			return "host-failing"
		}
	}
	return reason
}

// Next hands out the best pending URL among hosts that are ready (see
// take), after asking Options.Robots about it. A URL that robots.txt
// denies comes out with Job.Skip set (the crawl loop records it without a
// request and reports Done); a URL of a host whose robots.txt was just
// fetched, or cannot be fetched yet, goes back to its queue and the host
// waits. Next blocks while nothing is ready ("not now") and returns
// ErrExhausted when nothing is queued, nothing is in flight and nothing is
// held ("never"; see Hold), ctx.Err() when ctx ends first (wrapped with
// ErrExhausted if the frontier was dry by then).
func (f *Frontier) Next(ctx context.Context) (Job, error) {
	for {
		job, err := f.next(ctx)
		if err != nil || job.Skip != "" || f.robots == nil {
			return job, err
		}
		v, err := f.robots.Check(ctx, job.ID, job.Host)
		if err != nil {
			f.putBack(job)
			return Job{}, err
		}
		if f.judge(&job, v) {
			return job, nil
		}
	}
}

// judge applies a robots verdict to job: true when the job is handed out
// (to fetch, or with Skip set), false when it went back to its queue.
func (f *Frontier) judge(job *Job, v Verdict) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.clock.Now().UnixNano()
	hi := f.slots.get(job.ID).hostIdx()
	h := f.hosts[hi]
	if h.crawlDelay != v.CrawlDelay {
		h.crawlDelay = v.CrawlDelay
		f.touch(hi) // its concurrency may have changed (hostConc)
	}
	ch := f.heldFor(job.ID)
	asked := false
	for _, r := range v.Requests {
		// The delay runs from the end of a response; the verdict came
		// after the last one, so count from now (At is when the request
		// started, earlier).
		ri := f.intern(r.Host)
		f.delayHost(ri, max(now, r.At.UnixNano())+int64(f.gap(f.hosts[ri], 0)), "", ch)
		asked = asked || ri == hi
	}
	handOut := true
	switch {
	case v.Allowed && f.pol.MaxCrawlDelay > 0 && v.CrawlDelay > f.pol.MaxCrawlDelay:
		// Before the case below: a host given up makes no request, so
		// its URLs need not wait the delay its robots.txt request set
		// (MaxCrawlDelay) to be recorded as given up.
		job.Skip = fmt.Sprintf("%s%v exceeds max-crawl-delay %v", dropPrefix, v.CrawlDelay, f.pol.MaxCrawlDelay)
		f.log.Warn("host given up", "host", h.name, "cause", job.Skip)
		job.Dropped = f.drop(hi, job.Skip, now, ch)
	case asked:
		// The robots.txt request was this host's request: the page waits
		// for the host's delay like any second request.
		f.unfly(*job, hi)
		handOut = false
	case !v.RetryAt.IsZero():
		f.delayHost(hi, v.RetryAt.UnixNano(), v.Reason, ch)
		f.unfly(*job, hi)
		handOut = false
	case v.Allowed && v.CrawlDelay > 0 && (h.inflight > 1 || h.readyAt > now):
		// Taken beside another job of the host before its Crawl-delay
		// was known (a cached robots.txt, at the start of a run): it
		// waits for the other, as hostConc has it from now on. A job is
		// taken only once the host is ready, so a later readyAt means a
		// request to the host was made since (the robots.txt request of
		// another job taken beside it, judged first): it waits for that
		// one's delay too.
		f.unfly(*job, hi)
		handOut = false
	case !v.Allowed:
		job.Skip = v.Reason
	}
	f.settle(now)
	f.notify()
	return handOut
}

// drop gives host hi up: its queued URLs leave the frontier (their ids are
// returned), later links to it are refused (Dropped), and the stored host
// record keeps the reason for DropFor, so a restart honours it.
func (f *Frontier) drop(hi uint32, reason string, now int64, ch *Changes) []uint64 {
	h := f.hosts[hi]
	f.setDropped(h, true)
	ids := f.dropQueued(hi, reason, ch)
	f.delayHost(hi, now+int64(f.dropFor), reason, ch)
	return ids
}

// Dropped reports whether host was given up (its Crawl-delay exceeds
// Politeness.MaxCrawlDelay), and why: links to it are not to be queued.
func (f *Frontier) Dropped(host string) (string, bool) {
	if !f.anyDropped.Load() {
		return "", false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	hi, ok := f.hostIdx[host]
	if !ok || !f.hosts[hi].dropped {
		return "", false
	}
	return f.hosts[hi].reason, true
}

// Done ends a job handed out by Next with its result, applying the
// politeness rules: the host's next request waits max(Delay, Crawl-delay
// (capped), DelayFactor × Duration) after a request; a transient failure
// backs the host off, Backoff × 2^(consecutive failures − 1) capped by
// MaxBackoff, never less than RetryAfter, and retries the URL with
// Attempt+1 while Attempt < MaxRetries (retried is then true and nothing
// is to be recorded for the URL). A host not worth waiting for (see
// giveUp: a Retry-After above an hour) is dropped instead, as for a Crawl-delay above MaxCrawlDelay: the URL is
// completed with its failure and the host's queued URLs come out with
// Skip, so the crawl ends. Otherwise it is Complete with the
// outcome. Changes made for the job while Next handed it out (hosts
// delayed or dropped) are appended to ch first.
func (f *Frontier) Done(job Job, r Result, ch *Changes) (retried bool, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	sl := f.slots.get(job.ID)
	if !sl.flying() {
		return false, fmt.Errorf("frontier: done %d: %w", job.ID, ErrNotInFlight)
	}
	if held, ok := f.held[job.ID]; ok {
		delete(f.held, job.ID)
		ch.append(held)
	}
	h := f.hosts[sl.hostIdx()]
	now := f.clock.Now()
	var readyAt time.Time
	if r.Requested {
		if r.Transient {
			f.setFails(h, h.fails+1)
		} else {
			f.setFails(h, 0)
		}
	}
	if r.Requested && !r.Transient {
		h.failedURLs = 0
	}
	if r.Transient && job.Attempt >= f.pol.MaxRetries && !h.dropped {
		h.failedURLs++
		if h.failedURLs == failingNote && f.pol.HostMaxFailures == 0 {
			// Said once per run of failures, so a dead host's hours of
			// retries are not silent.
			f.log.Warn("host failing; its URLs are retried with back-off (--host-max-failures gives it up)",
				"host", h.name, "failed_urls_in_a_row", h.failedURLs, "max_backoff", f.pol.MaxBackoff)
		}
	}
	if reason, until := f.giveUp(h, r); reason != "" {
		f.log.Warn("host given up", "host", h.name, "cause", reason, "until", now.Add(until).Format(time.DateTime))
		f.setDropped(h, true)
		f.delayHost(sl.hostIdx(), now.Add(until).UnixNano(), reason, ch)
		return false, f.complete(job, Outcome{}, ch)
	}
	if r.Transient {
		wait := max(r.RetryAfter, backoff(f.pol.Backoff, f.pol.MaxBackoff, int(h.fails)))
		if job.Attempt < f.pol.MaxRetries {
			return true, f.requeue(job, wait, ch)
		}
		readyAt = now.Add(wait)
	}
	out := Outcome{Downloaded: r.Downloaded, Links: r.Links, ReadyAt: readyAt}
	if r.Requested {
		out.Delay = f.gap(h, r.Duration)
	}
	return false, f.complete(job, out, ch)
}

// failingNote is the number of a host's URLs in a row whose retries all
// failed at which, without HostMaxFailures, a warning says the host is
// failing.
const failingNote = 3

// giveUp says whether host h, whose request just ended with r, is to be
// dropped rather than waited for, why, and for how long: a Retry-After
// above MaxBackoff and MaxRetryAfter (a server may ask for a year) is not
// waited out, the host is dropped until then, at most DropFor; with
// HostMaxFailures set, a host whose last HostMaxFailures URLs all failed
// after their retries is dropped for MaxBackoff (a host given up already
// is not given up again by its requests still in flight).
func (f *Frontier) giveUp(h *host, r Result) (reason string, until time.Duration) {
	switch {
	case !r.Transient || h.dropped:
		return "", 0
	case r.RetryAfter > max(f.pol.MaxBackoff, MaxRetryAfter):
		return fmt.Sprintf("%s%v exceeds %v", retryAfterPrefix, r.RetryAfter, max(f.pol.MaxBackoff, MaxRetryAfter)), min(r.RetryAfter, f.dropFor)
	case f.pol.HostMaxFailures > 0 && int(h.failedURLs) >= f.pol.HostMaxFailures:
		return fmt.Sprintf("%s%d URLs in a row failed", failingPrefix, h.failedURLs), f.pol.MaxBackoff
	}
	return "", 0
}

// gap is the politeness gap after a request to h that took dur:
// max(Delay, Crawl-delay capped at MaxCrawlDelay, DelayFactor × dur)
// (Heritrix's adaptive politeness).
func (f *Frontier) gap(h *host, dur time.Duration) time.Duration {
	cd := h.crawlDelay
	if f.pol.MaxCrawlDelay > 0 {
		cd = min(cd, f.pol.MaxCrawlDelay)
	}
	d := max(f.pol.Delay, cd)
	if f.pol.DelayFactor > 0 {
		d = max(d, time.Duration(f.pol.DelayFactor*float64(dur)))
	}
	return d
}

// backoff is base × 2^(failures-1), capped at maxB, for failures ≥ 1.
func backoff(base, maxB time.Duration, failures int) time.Duration {
	d := base
	for i := 1; i < failures && d < maxB; i++ {
		d *= 2
	}
	return min(d, maxB)
}

// heldFor returns the changes held for job id until its Done.
func (f *Frontier) heldFor(id uint64) *Changes {
	if ch := f.held[id]; ch != nil {
		return ch
	}
	f.held[id] = &Changes{}
	return f.held[id]
}

// putBack returns a job that Next took but did not hand out.
func (f *Frontier) putBack(job Job) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.unfly(job, f.slots.get(job.ID).hostIdx())
	f.settle(f.clock.Now().UnixNano())
	f.notify()
}

// unfly puts job, in flight on host hi, back in its queue unchanged: same
// priority, sequence and attempt count. Nothing is persisted (the stored
// entry did not change).
func (f *Frontier) unfly(job Job, hi uint32) {
	depth := f.slots.get(job.ID).depth
	f.hosts[hi].inflight--
	f.ninflight--
	if job.Attempt > 0 {
		f.retries[job.ID] = int32(job.Attempt)
	}
	f.add(hi, qitem{id: job.ID, prio: job.Prio, seq: job.Seq}, depth)
}

// restoredDrop reports whether a stored host state records a host dropped
// for its Crawl-delay whose deferral still runs at now.
func restoredDrop(hs HostState, now time.Time) bool {
	return DropReason(hs.Reason) && hs.ReadyAt.After(now)
}

// append adds o's changes after c's; a nil c discards them.
func (c *Changes) append(o *Changes) {
	if c == nil {
		return
	}
	c.Put = append(c.Put, o.Put...)
	c.Delete = append(c.Delete, o.Delete...)
	c.Hosts = append(c.Hosts, o.Hosts...)
	if o.SchedState != nil {
		c.SchedState = o.SchedState
	}
}
