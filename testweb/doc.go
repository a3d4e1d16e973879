// Package testweb is a deterministic multi-host test web: an http.Handler
// that serves a web graph as HTML pages across many host names under the
// reserved .test TLD (name-based virtual hosting by the Host header, over
// http and https), misbehaves the way real servers do, evolves in epochs,
// and reports exactly what it serves as ground truth.
//
// A Site is the web: Generate makes one from a seed (Zipf host sizes,
// Pareto out- and in-degrees, a fraction of inter-host links, dangling
// pages, a giant strongly connected core plus tendrils and islands that
// the core cannot reach), FromGraph serves a graph of ../shared/data. New
// wraps a Site in a Web (the handler); Web.Start serves it on loopback:
//
//	site, _ := testweb.Generate(testweb.GenOptions{Seed: 1, Preset: testweb.Clean})
//	web, _ := testweb.New(site, testweb.Options{})
//	srv, _ := web.Start(ctx, "127.0.0.1:0")
//	defer srv.Close()
//	// crawl site.Seeds() with srv.Resolve() as the resolver override and
//	// srv.CAFile() as an extra root, then:
//	reach, _ := web.Truth().Reachable(site.Seeds(), "seedcrawl")
//	diff := reach.Compare(crawledGraph) // diff.Empty() for a correct crawler
//
// # Pages
//
// Pages are real HTML: a title, text and the page's out-links as <a href>
// in document order, each spelled one of several equivalent ways:
// absolute, host-relative, relative to the page or to a <base href>,
// protocol-relative, mixed-case scheme and host with the default port,
// with dot segments, with a fragment, or with percent-encoding variants
// (an escaped letter, lower-case hex). Some pages repeat a link in another
// spelling. Every spelling normalizes to the target's canonical URL
// (Canonical), which is how the truth writes URLs.
//
// GenOptions.Profile = ProfileDocs (--profile docs) makes generated pages
// look like a documentation site's instead: about 30 KB (10% above 100
// KB), about 75 links of which 66 are a navigation block repeated on every
// page of a host, and a few index pages with thousands of links. The
// navigation links are arcs of the truth like any other.
//
// Every 200 answer carries an ETag and a Last-Modified, and a conditional
// GET (If-None-Match, else If-Modified-Since) gets 304. Every response's
// Date is the epoch's clock, EpochTime(epoch), not the wall clock, and
// bodies never depend on the clock: the same seed and epoch give
// byte-identical responses, and Date − Last-Modified is a page's age on
// one clock, as on a real server.
//
// # Hosts
//
// Regular hosts are www.alpha.test, www.bravo.test, ... (every eighth over
// https); their robots.txt forbids /private/ (every fifth host has none:
// 404). Each has a PNG, a CSS file and a PDF, linked from its root. The
// Hostile preset (the default) adds, linked from the first seed:
//
//	rules.test          robots.txt with groups (otherbot, ExampleBot+SeedCrawl, *),
//	                    Allow beating a shorter Disallow, '*' and '$', Crawl-delay 0.5
//	norobots.test       robots.txt 404: everything allowed
//	robots503.test      robots.txt 503: nothing fetched
//	robotsredirect.test robots.txt 301 to norobots.test/robots-for-robotsredirect.txt
//	redirects.test      301, 302, 307, 308, a 4-hop chain (one relative Location),
//	                    a cross-host redirect, a loop, 404, 410, http→https
//	slow.test           every answer delayed (Options.SlowLatency)
//	flaky.test          5xx bursts (Options.FlakyPeriod, FlakyBurst)
//	ratelimit.test      429 + Retry-After when asked more often than Options.RateInterval
//	drop.test           connections dropped mid-body
//	trap.test           an infinite calendar and ever-deeper relative paths
//	big.test            a 50 MiB page and a gzip bomb (1 GiB decompressed)
//	secure.test         https only; http answers 301 to https
//
// GenOptions.Sitemaps (off by default, either preset) adds sitemap.test,
// linked from the first seed: robots.txt Sitemap: lines, a sitemap index,
// gzipped and text sitemaps, a sitemap of 60,000 entries, an index chain
// deeper than a reader's usual bound, a gzip-bomb sitemap, lastmod values,
// and pages only sitemaps lead to (Truth.SitemapEntries,
// Truth.ReachableWithSitemaps, Truth.SitemapOnly).
//
// The Hostile preset also puts, on regular pages, malformed HTML (upper-case tags, unquoted and
// single-quoted attributes, unclosed elements, fake links in comments and
// scripts), rel=nofollow links, meta robots nofollow,noindex, rel=canonical
// self-links, mailto:/javascript:/ftp: links and broken links.
//
// # Epochs
//
// Web.SetEpoch (and the server's control endpoint, /epoch?n=N) moves the
// web to another epoch: a seeded fraction of pages change content, some
// disappear (404/410), some move (301 to a new URL), new pages and links
// appear (see Evolution). Node ids are stable across epochs. Epoch e is
// derived from epoch e−1 with a generator seeded by (seed, e), so the same
// seed and epoch give byte-identical answers however the epoch is reached.
//
// Two models (Evolution.Model):
//
//   - EvolveUniform (the default): every evolving page has the same odds
//     of changing (Change), disappearing (Gone) and moving (Move) in an
//     epoch; New × (evolving pages) new pages attach to random live pages
//     of hosts chosen in proportion to their size.
//   - EvolveWeb, a web-like model. Each page v changes content as a
//     Poisson process of its own rate λ_v = c·H_h·P_v changes per epoch:
//     P_v is a Pareto factor of shape 1.5 per page and H_h one of shape
//     2.5 per host (both of mean 1, fixed for the page's life), so a few
//     pages and hosts change nearly every epoch and most rarely, as Cho
//     and Garcia-Molina measured ("The evolution of the web and
//     implications for an incremental crawler", VLDB 2000); c is set so
//     that the expected share of pages changing in an epoch, E[1−e^(−λ)],
//     is Change. A page changes in an epoch when its process fires at
//     least once. Gone and Move are as above. New pages attach near hubs
//     and near recently changed pages: each has a parent that is a page of
//     its host changed in this epoch or a page drawn in proportion to
//     in-degree + 1 (preferential attachment, Barabási and Albert 1999),
//     copies up to two of the parent's links (the copying model of Kumar
//     et al. 2000) and links to one to four more hubs; the parent, and
//     half the time a second hub, link to it. And hosts appear: a
//     generated web has Evolution.NewHosts dormant regular hosts (listed
//     by Site.Hosts, serving only robots.txt and 404s until their epoch);
//     the i-th wakes at epoch i with a root and 4 to 15 pages, linked from
//     one or two hubs of the web and a page changed in that epoch.
//
// Epoch e is served at the clock time EpochTime(e) (the Date header), one
// day per epoch. Under EvolveWeb a page's Last-Modified is the last event
// of its Poisson process: a day-long epoch's change happened at a time in
// the day before it, and an unchanged page of epoch 0 was last changed an
// exponential age (of its rate) before it, at most a year (Site.modTime).
// So Last-Modified and Date give what a crawler would see of a page on a
// real server, changes measured on the server's clock.
//
// The truth of epoch e says what the epoch did: NodeInfo.Born is the
// epoch a URL first answered (Truth.New lists those born at e),
// Truth.Changed lists the older URLs that changed at e, and
// NodeInfo.ChangeRate is each page's true λ, for judging change-rate
// estimators.
//
// # Ground truth
//
// Site.Truth and Web.Truth describe an epoch: the served graph with
// canonical URLs, each URL's kind, status, ETag and last change, the
// nofollow links, robots verdicts (Allowed, Forbidden, CrawlDelay), spider
// trap membership (IsTrap), the true PageRank, and Reachable: what a polite
// crawler discovers and fetches from given seeds. Truth.WriteDataset dumps
// it in the ../shared/data format.
//
// # Access log
//
// Options.AccessLog receives one tab-separated line per request
// (Entry.String, ParseEntry) with a monotonic timestamp; Options.OnRequest
// gets the same Entry in Go (Recorder keeps them), so tests can audit a
// crawler's politeness from the server side. Tests act on events rather
// than pauses: Recorder.Wait returns at the n-th request, Server.WaitIdle
// once no connection is open and no request is being answered (a killed
// client's requests are then all logged), and Options.Now lets a test step
// the server's clock past ratelimit.test's interval.
package testweb
