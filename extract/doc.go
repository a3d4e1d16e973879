// Package extract finds the links of an HTML page with goquery (the
// golang.org/x/net/html parser behind it), in document order:
//
//	a[href], area[href]         Kind A, Area
//	frame[src], iframe[src]     Kind Frame, Iframe
//	link[rel~=canonical|alternate|next|prev][href]
//	                            Kind Canonical, Alternate, Next, Prev
//
// It honours the first <base href> of the document (resolved against the
// page URL, as browsers do) and reads the page's robots directives from
// <meta name="robots"> and <meta name="TOKEN"> (TOKEN is the crawler's
// robots product token, "seedcrawl" by default): "nofollow", "noindex" and
// "none" (both). Each link carries its rel=nofollow flag, the attribute
// value as written and its URL resolved and normalized by
// urlnorm.Base.Resolve, so the crawler does not parse it again; a link whose
// URL cannot be normalized (mailto:, javascript:, a broken host) keeps
// URL == "" and names the reason (urlnorm.Reason), so it can be counted.
//
// Extraction never fails on malformed HTML: the HTML5 parsing algorithm
// accepts any byte string (FuzzExtract checks there is no panic). It fails
// only when the page URL itself is not an absolute URL.
//
// Links is pure and safe for concurrent use.
package extract
