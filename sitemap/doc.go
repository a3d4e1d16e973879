// Package sitemap reads sitemaps as sitemaps.org defines them: XML urlsets,
// XML sitemap indexes, plain-text lists of URLs, each possibly gzipped, and
// walks a site's sitemaps from its robots.txt Sitemap: lines and
// /sitemap.xml.
//
// Parse reads one file as a stream (an encoding/xml Decoder, never the
// whole document in memory) and hands each URL to a callback with its
// lastmod, changefreq and priority; it returns a Result saying what the file
// was, which child sitemaps an index lists and, when the file was cut
// short, why. Every file is bounded by Limits: uncompressed bytes (50 MiB
// by default, the protocol's limit), entries (50,000, the protocol's
// limit), and for gzip the expansion ratio and compressed bytes, so a gzip
// bomb costs about a mebibyte of work. A cut is not an error: the entries
// read before it were delivered, and Result.Cut names the bound.
//
// URLs that are not absolute http(s) URLs, are too long, or lie outside
// what the sitemap may list are dropped and reported (Result.Problems), not
// fatal. What a sitemap may list follows sitemaps.org: URLs under the
// directory of the sitemap's own URL, on its host, plus any prefixes the
// caller allows; a sitemap named in a host's robots.txt may list any URL of
// that host (cross-submission). Hosts are compared case-insensitively with
// default ports removed; http and https are treated as the same site,
// because sites that moved to https commonly keep old sitemap locations
// (the crawler's own scope still applies to every URL).
//
// Walker follows a site's sitemaps given a Fetch function, so it works with
// any fetcher (robots.txt checks, politeness and body limits stay the
// fetcher's): it reads the robots.txt Sitemap: lines and /sitemap.xml,
// descends into indexes up to Limits.MaxDepth, visits each sitemap once and
// at most Limits.MaxSitemaps of them, and reports every file's outcome.
//
// Crawl plugs Sites into the crawl loop (crawler.Sitemaps): it queues a
// site's sitemaps when the crawl records the site's first page, reads the
// sitemap jobs' bodies (the listed URLs and child sitemaps that pass the
// crawl's guards, crawler.Loop.Rules().Vet, are kept; the listed ones become the
// job's links) and stores the listed URLs' lastmod; Lastmods tells a
// recrawl that a page changed after its last fetch (Changed). A lastmod
// later than the server's clock when it sent the file (its Date header,
// else the fetch time, ServerTime) is dropped (FileRead.ClampLastMod): a
// page that changes in the future would be due after every fetch. Changed
// compares a lastmod with the page's last fetch on the server's clock: the
// Date that fetch's answer carried (storage.DB.FetchIn), the crawler's
// clock only for a fetch without one.
//
// Sites is the same walk driven by a crawl, over every site it meets:
// sitemap files are jobs of the crawl's frontier, fetched under its
// politeness, so Sites keeps between them what Walker keeps in one call.
// Per file it reads at most Limits.MaxURLs entries and MaxBytes
// uncompressed (MaxRatio for a .gz file), and uses what a truncated body
// held ("max-body" cut); per site and run it follows indexes to MaxDepth,
// queues at most MaxSitemaps files and delivers at most MaxWalkURLs
// entries. A file cut by a bound keeps the entries read before the cut, and
// the bound is its Reason ("sitemap-cut: urls: ...", "sitemap-skipped:
// depth: ...", "sitemap-invalid: ..." for a file that is no sitemap). A
// sitemap is read once per run and cycle (one read by an interrupted run
// of the same cycle is not read again), and one that answered 404 or 410
// (or 401, 403, 451) only every CrawlOptions.GoneCycles cycles (seedcrawl
// run's revisit-gone, 4 by default), each in the cycles of its own phase,
// as a recrawl refetches any 404: most sites have no /sitemap.xml, and
// asking each for it in every cycle would cost a request per site and
// cycle, and asking all of them in the same cycle would cost as much once
// every GoneCycles cycles; a URL the crawl fetched as a page
// is never read as a sitemap, and a sitemap's redirect target is read only
// if the crawl did not know it (sites redirect unknown paths to their home
// page). The marks of earlier runs (Load) make a sitemap left in the
// stored frontier by a crash still read as one.
//
// Not supported: RSS and Atom feeds used as sitemaps (ErrNotSitemap), the
// image, video, news and hreflang (xhtml:link) extensions (their elements
// are skipped), and encodings other than UTF-8 and US-ASCII (ErrCharset).
package sitemap
