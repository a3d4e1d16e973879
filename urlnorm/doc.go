// Package urlnorm normalizes URLs, resolves references, guards against
// crawler traps, decides crawl scope and classifies private addresses.
//
// Normalize is the single definition of "the same URL" in seedcrawl: the
// storage seen-set, the frontier and the link graph all key on its output.
// It parses with the WHATWG URL Standard (github.com/nlnwa/whatwg-url, the
// parser browsers implement, so links resolve the way a browser would follow
// them) and then applies the RFC 3986 section 6.2.2 normalizations the WHATWG
// serializer leaves alone:
//
//   - scheme and host lower-cased, a host's trailing dots dropped (the same
//     DNS name); only http and https accepted (ErrScheme);
//   - internationalized host names converted to punycode (UTS #46, via the
//     WHATWG host parser, which uses golang.org/x/net/idna), IPv4 numbers in
//     any notation written dotted-decimal, IPv6 compressed;
//   - host restricted to letters, digits, '-', '_' and '.' (or an IP
//     literal), so every result is dialable and parses with net/url (ErrHost);
//   - userinfo ("user:password@") dropped: a crawler sends no credentials
//     it finds in links (to whichever host a page names) and keeps none in
//     its db, exports or WARC files, and the URL with them names the same
//     resource; a seed with userinfo is refused (Seeds), not crawled
//     without it unannounced;
//   - default port (80, 443) dropped, empty path written "/";
//   - fragment dropped, an empty query ("?") dropped;
//   - dot segments removed;
//   - percent-encoding: escapes of unreserved characters (ALPHA DIGIT - . _ ~)
//     decoded, other escapes written with upper-case hex, a '%' that does not
//     start an escape written %25, and every byte outside the RFC 3986
//     unreserved and reserved sets (space, '"', '<', '>', '\', '^', '`', '{',
//     '|', '}', controls, non-ASCII UTF-8) percent-encoded in path and query,
//     so one resource has one spelling.
//
// Normalize is idempotent: Normalize(Normalize(x)) == Normalize(x) (checked
// by FuzzNormalize). Escapes of reserved characters ("%2F", "%3D") are kept
// as they are because decoding them would change the URL's meaning.
//
// Guard rejects URLs shaped like crawler traps (too long, too deep, repeating
// path segments) and names the reason, so every rejection can be counted.
// Scope decides whether a URL belongs to the crawl. IsPrivate classifies
// addresses for the fetcher's SSRF guard.
//
// Memo remembers resolutions of references repeated across pages (a
// site's navigation) for Base.ResolveBytes. Everything here is safe for
// concurrent use, and everything but Memo is pure.
package urlnorm
