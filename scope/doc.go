// Package scope decides which links a crawl follows: Rules vets each
// link of a page (the trap guards of urlnorm.Guard, the URL length
// storage accepts, the crawl's urlnorm.Scope) and admits a link to the
// frontier or says why not (out of scope, too many redirect hops, its
// host dropped, beyond MaxDepth, its host's page budget spent).
//
// The scope grows during a crawl: with SeedRedirects, a redirect from a
// seed (or from a seed's redirect target: redirects keep the depth)
// brings its target's host in, so http://example.com/ answering 301 to
// https://www.example.com/ keeps a seeds-hosts crawl going (Heritrix's
// seedsRedirectNewSeeds).
//
// Admission is Rules with the memory admission keeps from one link to the
// next, by URL id: the URLs refused for a reason a later link may lift
// (first seen beyond MaxDepth) and the redirect hops of queued redirect
// targets. The crawl's disposer admits its own links and the ones other
// nodes of a cluster offer through the one Admission. Admission.Targets
// decides all the links of a page at once: it interns them through the
// crawl (Crawl) and says which are queued, handed to another node, or
// recorded as refused and why, as the frontier's targets. Rules.Extracted
// vets the links an extract.Extractor found. Seed queues seeds: a
// crawl's, the seeds injected into a recrawl cycle and the URLs a
// comparison asks for, with SeedOptions saying how they differ.
//
// The host page budget and dropped hosts are the frontier's; Rules asks
// them through Hosts. Rules is safe for concurrent use: the crawl's
// workers vet links while its disposer admits them.
package scope
