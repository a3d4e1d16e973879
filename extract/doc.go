// Package extract finds the links of an HTML page, in document order:
//
//	a[href], area[href]         Kind A, Area
//	frame[src], iframe[src]     Kind Frame, Iframe
//	link[rel~=canonical|alternate|next|prev][href]
//	                            Kind Canonical, Alternate, Next, Prev
//
// It honours the first <base href> of the document (resolved against the
// page URL, as browsers do, and applying to links before it too) and reads
// the page's robots directives from <meta name="robots"> and <meta
// name="TOKEN"> (TOKEN is the crawler's robots product token, "seedcrawl"
// by default): "nofollow", "noindex" and "none" (both). Each link carries
// its rel=nofollow flag, the attribute value as written and its URL
// resolved and normalized by urlnorm.Base.Resolve, so the crawler does not
// parse it again; a link whose URL cannot be normalized (mailto:,
// javascript:, a broken host) keeps URL == "" and names the reason
// (urlnorm.Reason), so it can be counted.
//
// # Streaming
//
// Pages are read as a stream of tokens: no tree is built, and each link is
// resolved, deduplicated and counted against the caps as soon as it is
// seen. The tokens are golang.org/x/net/html's Tokenizer's, but a UTF-8
// page is read by a scanner that gives the same tokens at a fraction of
// the cost: it finds tags with bytes.IndexByte, skips text, comments and
// raw text (script, style, textarea, title, ...: up to their end tag, with
// the script escape rules) without looking at each byte, and reads the
// attributes of only the tags a link or page fact depends on. Attribute
// values are decoded as the Tokenizer decodes them (its character
// reference rules for attributes); a tag with an unusual reference or a
// NUL is read by the Tokenizer itself. TestScannerTokens and FuzzScanner
// check the scanner's tokens against the Tokenizer's, and extraction
// through both, token by token and page by page. A page in a legacy
// encoding whose markup bytes are ASCII (the single-byte encodings,
// EUC-KR, UTF-8 with invalid bytes) is scanned as raw bytes, and only what
// the walker reads is decoded (TestLegacyRawScan); a page in another
// encoding is decoded while the Tokenizer reads it.
//
// Most of a page is read in one state: inside the body, which a frameset
// can no longer replace, outside <svg> and <math>. There the walker
// ignores end tags and every start tag but those that can carry a link or
// a page fact, without looking their names up.
//
// Extractor.Extract keeps each distinct URL once; Options.MaxLinks caps
// the distinct URLs Options.Keep accepts (DefaultMaxLinks) and
// Options.MaxOther the rest (DefaultMaxOther); links beyond a cap are
// counted in Page.Dropped and cost 8 bytes each. A page therefore costs the
// attributes of its current tag (the Tokenizer's buffer, at most the body,
// for a legacy encoding), the decoded links under the caps, and O(links)
// small hashes, whatever it contains; 100k nested tags cost nothing but
// their bytes, and a tag with 100k attributes a map of their names. The streaming walker tracks what the tree
// builder would decide where that changes which links exist (raw text and
// CDATA in <svg> and <math>, framesets), and is tested against the goquery
// tree walker on real documentation pages and the test web.
//
// Options.LinkSelector (CSS) restricts the links to those inside matching
// elements, like Scrapy's LinkExtractor restrict_css. Selectors need a
// DOM, so only that path parses the page into a goquery tree, at several
// times the memory and CPU, and it fails with ErrTooDeep on documents the
// tree builder rejects (nested more than 512 deep).
//
// # Encodings
//
// Extract takes the raw body and the charset parameter of the response's
// Content-Type. The encoding is chosen as the HTML standard does: a byte
// order mark, then the header, then <meta charset> or <meta
// http-equiv="Content-Type"> in the first 1024 bytes; without any, UTF-8
// if the whole body is valid UTF-8, else windows-1252. The body is decoded
// while it is tokenized. Links resolve as the URL standard says for a
// document in that encoding: the path is UTF-8 percent-encoded, but a
// non-ASCII query is encoded in the document's encoding first (href="?q=é"
// on a Latin-1 page gives q=%E9; characters the encoding lacks become
// "%26%23N%3B").
//
// Extraction never fails on malformed HTML: the tokenizer accepts any byte
// string (FuzzExtract checks there is no panic). It fails only when the
// page URL itself is not an absolute URL (ErrPageURL), or for the selector
// errors above.
//
// Links, New and the Extractor are safe for concurrent use, and their
// results depend on their input only (Options.Keep is called from the
// calling goroutine); an Extractor reuses its scratch maps from page to
// page.
package extract
