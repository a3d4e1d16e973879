// Package crawltest sets up the parts around a crawler in tests of the
// crawl loop (packages crawler, cluster and recrawl): a real bbolt file, a
// real frontier behind a spy that records what it is told, a robots.txt
// source answering from a function, the crawl settings the tests share,
// and readers of what the crawl stored and of the gzip files that crawls
// and dataset writers leave.
//
// It does not import crawler, so that crawler's in-package tests can use it
// without an import cycle; each test package builds its crawler.Options
// from these parts (Fetchers from an internal/fakeweb Web, Settings from
// Settings, Frontier from NewFrontier), most simply by embedding a Rig,
// which holds those parts and reads back what the crawl stored.
package crawltest
