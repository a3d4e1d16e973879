// Package fetch downloads one URL at a time for the crawler: our own
// http.Transport and a single-request fetcher driven through colly.
//
// NewTransport builds the transport every HTTP request of a crawl goes
// through (pages and robots.txt): a resolver override like curl --resolve
// (ResolveMap), connect, TLS-handshake and response-header timeouts,
// keep-alive, HTTP/1.1 (HTTP/2 only with Options.HTTP2), extra trusted roots from a
// PEM file, no proxy, and an SSRF guard in the dialer that refuses the
// special-purpose addresses of the IANA registries (loopback, private,
// link-local, multicast, documentation/TEST-NET, benchmarking, 6to4 and
// Teredo, private IPv4 in IPv4-mapped and NAT64 form; the tables come from
// code.dny.dev/ssrf) unless the host is in the resolve map, in
// Options.AllowHosts (the crawler passes its seed hosts) or
// Options.AllowPrivate is set. The guard checks the address actually
// dialed, so DNS rebinding cannot slip past it.
//
// A Fetcher wraps one colly.Collector used strictly as a fetch engine,
// immune to colly's COLLY_* environment variables: no
// robots check (package robots owns it), revisits allowed (the frontier
// owns the seen-set), no depth or domain filters, no async mode, no Visit
// from callbacks. Fetch sends one GET (with If-None-Match and
// If-Modified-Since when the request carries validators), does not follow
// redirects (the crawler records each hop as a link of kind "redirect" and
// queues the target through the frontier) and returns a Response for every
// outcome: 3xx with Location resolved, 304, 429 and 503 with Retry-After,
// other non-2xx (colly v2.3.0 would send these to OnError; we turn on
// ParseHTTPErrorResponse and treat every status as a response), and
// network failures with a Reason.
//
// Bodies are read only for HTML (text/html, application/xhtml+xml) 2xx
// responses, up to MaxBody bytes (10 MiB); a longer body is cut and marked
// Truncated (colly alone truncates silently). Of a 2xx response without a
// Content-Type, the first 512 bytes are sniffed as browsers do
// (http.DetectContentType): one that looks like HTML is read and comes
// back as text/html; anything else, or a compressed body, is dropped as a
// body of a declared type other than HTML is. Compressed bodies (gzip,
// deflate) are decoded here rather than by net/http so the decoded size is
// bounded too: decoding stops at MaxBody, and a body that expands more than
// MaxRatio times past that point is refused as a decompression bomb
// (Reason "decompression-bomb"), never fully inflated. Bodies are not
// converted to UTF-8: Response.Charset reports the header's charset and the
// extractor decides from header, BOM and <meta>.
//
// Every stage of a fetch ends when its ctx is canceled (connect, TLS,
// headers, body), and within Options.Timeout whatever the server does:
// lying Content-Length, endless or trickled bodies and headers. Response.TTFB
// is the server's time to first byte, for politeness delays.
//
// With Options.Record the transport speaks HTTP/1.1 only and the Response
// carries a Capture of the exact request and response bytes (before any
// decoding, bounded by MaxBody+MaxHeaderBytes), for package warc:
// Response.Archive writes it as one WARC exchange (a 304 as a revisit of
// the last full capture). A client of its own on that transport, such as
// the robots.txt cache's, archives its exchanges, redirect hops included,
// through Recording.Wrap.
//
// A Fetcher is not safe for concurrent use: each crawl worker owns one.
// Fetchers built on one shared Transport share its connection pool.
package fetch
