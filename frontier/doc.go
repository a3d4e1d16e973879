// Package frontier is the crawl frontier: it stores the pending URLs, hands
// them out politely in priority order, and reports every change to be
// persisted. It follows Mercator's split (Heydon & Najork 1999): the
// scheduler (package scheduler) ranks URLs, the frontier enforces
// politeness, and priority never overrides politeness (STYLE.md item 2).
//
// # Structure
//
// One queue per host (an indexed binary max-heap by scheduler Prio
// descending, ties FIFO by discovery sequence; URLs queued with Add, a
// site's sitemaps, ahead of the rest) and two heaps of hosts (internal/pq,
// indexed by host number):
//
//   - waiting: hosts with queued URLs and fewer than HostConcurrency jobs in
//     flight whose ready time is in the future, earliest ready time first;
//   - ready: hosts with queued URLs and free concurrency whose ready time has
//     passed, ordered by their best URL's (Prio, Seq).
//
// A host with no queued URL, or with HostConcurrency jobs in flight, is in
// neither heap; it re-enters with its stored ready time when it gets URLs
// or a job completes. Next moves hosts whose time has come from waiting to
// ready and pops the top of ready: the best URL among the hosts that may be
// fetched now. Every operation is O(log n) in the URLs of one host plus
// O(log h) in the hosts it touches; nothing scans the frontier.
//
// # Jobs
//
// Next(ctx) blocks until a job can be handed out, and returns ErrExhausted
// only when nothing is queued, nothing is in flight and nothing is held,
// since a job in flight may still add URLs, and so may whoever holds the
// frontier (Hold: an outcome being applied, a feed of URLs); ctx ending
// returns ctx.Err(), wrapped with ErrExhausted if the frontier was dry by
// then. It does not busy
// wait: a parked Next sleeps on a channel plus a timer for the earliest
// host ready time, and a change closes the channel only when it can help a
// parked call (a host became ready, a host will be ready before the timer,
// or the frontier is exhausted). Each job, passed back unchanged, ends with
// exactly one of:
//
//   - Done(job, Result, ch): the crawl loop reports what happened and the
//     frontier applies the politeness rules below, then completes or
//     requeues the URL;
//   - Complete(job, Outcome, ch): the URL leaves the frontier; the host's
//     next ready time becomes max(its current one, now+Delay, ReadyAt);
//     for a downloaded page the out-link targets are classified and the
//     scheduler's Downloaded is called (see Links below);
//   - Requeue(job, after, ch): the URL goes back with its priority and
//     sequence, Attempt+1, and the host waits after.
//
// Complete, Requeue, Defer(host, until, reason, ch) and DropHost(host,
// reason, ch) are the mechanisms Done and Next use; the crawl loop needs
// only Next and Done, and Add(targets, prio, ch) for the URLs it schedules
// itself without the scheduler (a site's sitemaps): added URLs are
// ordinary queued URLs, handed out by Next under the politeness below, so
// the crawl loop never makes a request the frontier did not schedule.
//
// # Politeness
//
// The frontier owns all of it, on its Clock, with Options.Politeness
// (config.Politeness) as the settings:
//
//   - robots.txt: before handing a URL out, Next asks Options.Robots. A
//     denied URL comes out with Job.Skip = the reason, to be recorded
//     without a request. robots.txt that cannot be fetched yet defers the
//     host until the verdict's RetryAt (reason recorded) and the URL waits.
//     Every request the check made (robots.txt and its redirect hops)
//     counts as a request to its host, which waits its delay from then on;
//     a URL whose own host was just asked goes back to its queue.
//   - delay: after a request the host waits max(Delay, Crawl-delay capped
//     at MaxCrawlDelay, DelayFactor × response time) (Heritrix's adaptive
//     politeness). A Crawl-delay above MaxCrawlDelay drops the host: the
//     URL comes out with Skip, its queued URLs with it (Job.Dropped), the
//     host's stored state keeps the reason for DropFor, and Dropped(host)
//     tells the crawl loop not to queue links to it.
//   - back-off and retries: a transient failure (429, 5xx, timeout,
//     connection error) backs the host off Backoff × 2^(n−1) for its n-th
//     consecutive failure, capped at MaxBackoff, never less than the
//     server's Retry-After, and retries the URL while Attempt < MaxRetries.
//     A Retry-After above MaxBackoff and an hour drops the host until
//     then (at most DropFor), as a Crawl-delay above MaxCrawlDelay does.
//   - concurrency: at most HostConcurrency jobs of a host in flight,
//     robots.txt checks included; one for a host whose robots.txt sets a
//     Crawl-delay, which the site asks for between any two requests.
//
// Changes Next makes for a job (hosts delayed, a host dropped) are held
// and appended to the Changes of that job's Done, so they reach storage in
// the batch that records the job.
//
// # Budgets
//
// The host page budget (Options.HostMaxPages, --host-max-pages: URLs
// admitted per host over the life of the database, a trap guard) is
// counted here: the crawl loop asks HostFull before it queues a new URL
// and calls Admit for each URL it queues as a page; a resumed crawl hands
// the counts back in Snapshot.Admitted, which LoadSnapshot rebuilds from
// storage as a Count says (host records, storage's admitted index, or a
// pass over the page records when the budget must be exact). A URL
// refused for its host's budget is passed as a Skip target, so the
// scheduler still sees every out-link. The retry budget (MaxRetries) and
// the Crawl-delay cap are the frontier's too. The run's budgets
// (--max-pages, --max-duration) and --max-depth live in the crawl loop,
// which owns the counters stored with the run: it stops calling Next (a
// ctx deadline ends a blocked Next) or marks targets Skip.
//
// # Links
//
// The crawl loop interns each page's distinct out-link targets in storage
// (which owns the seen-set, on disk) and passes them in document order as
// Target{ID, Host, Depth, New, Skip}. The frontier classifies each for the
// scheduler: Queued if it is pending here, New if storage saw it first now
// (and it is not Skip), Done otherwise (downloaded, in flight, rejected,
// self-link); Intra is exact host-name equality with the page (the Host key
// without its port). After scheduler.Downloaded sets Prio, New targets are
// enqueued with the next sequence numbers (document order) and Queued ones
// re-ranked; for a scheduler.Batcher, Due and Flush follow. Seed does the
// same through scheduler.Seed.
//
// # Persistence
//
// The frontier owns no storage; its Entry is storage's record of a pending
// URL, so what it appends is stored as is. Every mutating method appends what must be
// persisted to a *Changes (nil discards it): Put for new URLs, priority and
// attempt updates, Delete for URLs completed or dropped, Hosts for ready
// times, SchedState for a scheduler.Stateful. Next appends nothing: a URL in
// flight stays stored until its result is, so the crawl loop must put the
// Delete in the same bbolt transaction as the page result (ARCHITECTURE.md,
// crash consistency). After kill -9, the stored entries, including those in
// flight at the crash, go back through Restore(Snapshot) into a fresh
// frontier (LoadSnapshot reads them from storage), and sequence numbers
// continue after the largest stored one.
//
// Changes must reach storage in the order the frontier made them, because a
// later Put of an id supersedes an earlier one. The simplest protocol: the
// crawl loop holds its batch lock around the call and appends the page
// result to the same batch before releasing it,
//
//	b.mu.Lock()
//	err := fr.Complete(job, out, &b.changes)
//	b.results = append(b.results, res)
//	b.mu.Unlock()
//
// and the writer swaps the batch under that lock and commits results and
// changes in one transaction. The lock order is batch, then frontier; the
// frontier never calls out while holding its lock except into the
// scheduler.
//
// # Memory
//
// Per queued URL the frontier keeps a 24-byte item (id, Prio, Seq) in its
// host's queue and a 12-byte slot (host number, position in the queue,
// depth) in one table indexed by URL id: an array, since storage ids are
// dense from 0, with a map for ids far beyond the array. Host names are
// interned once per host; no per-URL strings or maps. internal/pq is not
// used for the host queues because its per-heap map index would add 30–40
// bytes per URL. Jobs in flight keep their slot (a flag bit), so they cost
// nothing extra. BenchmarkMemory measures about 44 bytes per queued URL at
// 1M URLs over 10 hosts, 47 over 1,000 hosts and 67 over 100,000 hosts (the
// per-host state then dominates), against the budget of 150 bytes
// per discovered URL for frontier and seen-set together.
//
// # Watching
//
// Stats is cheap enough for a progress line: it first promotes the hosts
// whose ready time has come (as Next would, so Ready is right even while
// every worker is busy), counts deferred hosts from a third heap keyed by
// the end of their deferral, and failing and dropped hosts from counters
// kept as those states change. Hosts, for a status page, is the one call
// that looks at every host: the longest queues and a count per state, in
// O(hosts × log limit) under the lock.
package frontier
