// Package hostile is a loopback web server whose hosts misbehave the ways
// real servers do, for tests that a crawl ends in bounded time and memory
// with a recorded reason whatever a server sends. It is separate from
// testweb on purpose: testweb is a deterministic website with ground truth,
// this is a zoo of protocol abuse with no truth beyond "the crawler must
// survive it".
//
// Every host is served on one listener by Host header; WriteResolve writes
// the resolve file (HOST:PORT ADDR lines) that points the crawler at it.
// Behaviours (host names end in .test):
//
//	hang          reads the request, never answers
//	slowloris     headers at once, then one body byte every 200 ms
//	cl-short      Content-Length 1 MB, 100 bytes sent, then silence
//	cl-long       Content-Length 10, 5,000 bytes of links sent
//	chunked       an endless chunked HTML body full of links
//	dense0..15    endless link-dense bodies, distinct links per host
//	bigrobots     a 50 MB robots.txt
//	binrobots     a robots.txt of binary noise
//	r0..r999      a 1,000-hop cross-host redirect chain, r999 answers 200
//	links         one page with 100,000 distinct links
//	nested        100,000 nested tags around one link
//	private       links to loopback literals and localhost (never to be fetched)
//	latin1        ISO-8859-1 page, charset only in <meta>
//	sjis          Shift_JIS page, charset in the header
//	cp1251        windows-1251 page, charset only in <meta>
//	refused       resolves to a port where nothing listens
//	unsolicited   keep-alive pages (/, /u0../u19, linked from /) each followed
//	              by bytes no request asked for, which net/http logs once per page
//
// Endless bodies stop when the client goes away or after MaxBody bytes, so
// the server itself stays bounded.
package hostile
