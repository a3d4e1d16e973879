package sitemap

import "errors"

var (
	// ErrNotSitemap is wrapped when a document is neither a urlset, a
	// sitemapindex nor a text list of URLs: an HTML error page, a feed,
	// an empty body.
	ErrNotSitemap = errors.New("sitemap: not a sitemap")
	// ErrSyntax is wrapped when an XML sitemap or its gzip stream is
	// malformed; the entries before the fault were delivered.
	ErrSyntax = errors.New("sitemap: malformed sitemap")
	// ErrCharset is wrapped when an XML sitemap declares an encoding other
	// than UTF-8 or US-ASCII, which sitemaps.org does not allow.
	ErrCharset = errors.New("sitemap: unsupported character encoding")
	// ErrBase is wrapped when the URL a sitemap was fetched from is not an
	// absolute http(s) URL.
	ErrBase = errors.New("sitemap: sitemap URL is not absolute http(s)")
	// ErrLimits is wrapped when Limits hold a negative value.
	ErrLimits = errors.New("sitemap: invalid limits")
)

// errCut stops the decoder when a bound is reached; Parse turns it into
// Result.Cut, so it never reaches a caller.
var errCut = errors.New("sitemap: cut")
