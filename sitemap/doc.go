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
// Not supported: RSS and Atom feeds used as sitemaps (ErrNotSitemap), the
// image, video, news and hreflang (xhtml:link) extensions (their elements
// are skipped), and encodings other than UTF-8 and US-ASCII (ErrCharset).
package sitemap
