// Package monitor lets a person and a Prometheus server watch a crawl while
// it runs.
//
// Start serves, on the address given to --listen:
//
//	/metrics        Prometheus text exposition, from its own registry
//	/status         the crawl's Status as JSON (snake_case keys)
//	/debug/pprof/   the runtime profiles of net/http/pprof
//	/               a small HTML page that reloads itself: summary, hosts
//	                by queue length, recent warnings (after Heritrix's UI)
//
// The crawl feeds the package through two seams it declares in its own
// terms. A Source is polled (by /status, the page and each scrape) for a
// Status snapshot: frontier size, hosts, in flight, budget, cycle and the
// crawl's own counters. A *Recorder is called by the crawl once per event
// (a fetch, a rejected link, an error, a page's outcome); it counts with
// atomics and never allocates on the hot path, and a nil *Recorder ignores
// every call, so a crawl without --listen calls it unconditionally.
//
// Fetch names the counters a crawl adds for a recorded fetch
// ("fetch/", "error/", "reject/", ...), so their keys are kept here with
// the code that reads them.
//
// Summary is what a crawl reports when it ends (NewSummary groups its
// counters by kind); `seedcrawl crawl --json` prints it.
//
// FetchStatus is the client side: `seedcrawl stats` on a database that a
// running crawl holds finds the crawl's address in the storage lock record
// and asks it for its Status instead of failing.
//
// Nothing here is global: each Start builds its own prometheus.Registry and
// mux, so several servers (and tests) can run in one process.
package monitor
