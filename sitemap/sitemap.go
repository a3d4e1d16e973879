package sitemap

import (
	"fmt"
	"time"
)

// Kind says what a sitemap file turned out to be.
type Kind uint8

// The kinds of sitemap files.
const (
	KindUnknown Kind = iota // nothing recognisable was read
	KindURLSet              // <urlset>: page URLs
	KindIndex               // <sitemapindex>: URLs of other sitemaps
	KindText                // a plain-text list, one URL per line
)

var kindNames = [...]string{"unknown", "urlset", "sitemapindex", "text"}

// String returns "urlset", "sitemapindex", "text" or "unknown".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Entry is one <url> of a urlset, one <sitemap> of an index, or one line of
// a text sitemap.
type Entry struct {
	// URL is the location as written, with surrounding white space
	// removed; the crawler normalizes it like any other link.
	URL string
	// LastMod is the entry's lastmod in UTC, the zero Time when absent or
	// not a W3C datetime (the latter is also reported as a Problem). A
	// date without a time is midnight UTC of that day.
	LastMod time.Time
	// ChangeFreq is the lower-cased changefreq ("daily", ...) or "".
	ChangeFreq string
	// Priority is the entry's priority in 0..1, or -1 when absent or
	// invalid (the protocol's default for an absent one is 0.5).
	Priority float64
}

// Problem is something wrong with one entry: a dropped URL or an
// unparsable field.
type Problem struct {
	// URL is the entry's location, cut to 256 bytes.
	URL string
	// Reason says what is wrong, e.g. "outside the sitemap's scope".
	Reason string
}

// Result is what Parse read from one file.
type Result struct {
	Kind Kind
	// URLs counts the entries handed to the callback (urlset and text).
	URLs int
	// Sitemaps are the valid child sitemaps of an index, in document
	// order; the callback does not see them.
	Sitemaps []Entry
	// Dropped counts entries not delivered: invalid or out-of-scope URLs.
	Dropped int
	// Problems lists the first Limits.MaxProblems problems; ProblemCount
	// counts them all.
	Problems     []Problem
	ProblemCount int
	// Cut says why reading stopped before the end of the file, "" when
	// the whole file was read. It starts with the bound's name: "bytes",
	// "urls", "gzip-ratio" or "gzip-bytes".
	Cut string
	// Bytes counts the uncompressed bytes read, Compressed the bytes read
	// from the input when it was gzipped (else 0).
	Bytes, Compressed int64
}

// Limits bound the work of reading sitemaps. The zero value gives the
// defaults; negative values are an error (ErrLimits).
type Limits struct {
	// MaxBytes bounds the uncompressed bytes read from one file, and the
	// compressed bytes of a gzipped one; 0 means 50 MiB, the protocol's
	// limit.
	MaxBytes int64
	// MaxURLs bounds the entries (valid or not) read from one file; 0
	// means 50,000, the protocol's limit.
	MaxURLs int
	// MaxRatio bounds how many times a gzipped file may expand, checked
	// once it has produced 1 MiB; 0 means 100 (XML sitemaps compress
	// about 10 to 30 times; a gzip bomb about 1000 times).
	MaxRatio int64
	// MaxURLLen bounds a URL's length; 0 means 2048, the protocol's limit.
	MaxURLLen int
	// MaxProblems bounds Result.Problems; 0 means 100.
	MaxProblems int
	// MaxDepth bounds how deep the Walker follows indexes: a sitemap named
	// in robots.txt (or /sitemap.xml) has depth 0, a sitemap listed by an
	// index of depth d has depth d+1, and sitemaps deeper than MaxDepth are
	// not fetched. 0 means 2.
	MaxDepth int
	// MaxSitemaps bounds the files one Walk fetches; 0 means 1000.
	MaxSitemaps int
	// MaxWalkURLs bounds the entries one Walk delivers; 0 means 1,000,000.
	MaxWalkURLs int
}

// Defaults of Limits.
const (
	DefaultMaxBytes    = 50 << 20
	DefaultMaxURLs     = 50_000
	DefaultMaxRatio    = 100
	DefaultMaxURLLen   = 2048
	DefaultMaxProblems = 100
	DefaultMaxDepth    = 2
	DefaultMaxSitemaps = 1000
	DefaultMaxWalkURLs = 1_000_000
)

// ratioGrace is how much a gzipped file may produce before MaxRatio is
// checked: small files have meaningless ratios.
const ratioGrace = 1 << 20

func (l Limits) withDefaults() (Limits, error) {
	if l.MaxBytes < 0 || l.MaxURLs < 0 || l.MaxRatio < 0 || l.MaxURLLen < 0 || l.MaxProblems < 0 ||
		l.MaxDepth < 0 || l.MaxSitemaps < 0 || l.MaxWalkURLs < 0 {
		return l, fmt.Errorf("%w: %+v (want 0 for the default or a positive bound)", ErrLimits, l)
	}
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	if l.MaxBytes == 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxRatio == 0 {
		l.MaxRatio = DefaultMaxRatio
	}
	def(&l.MaxURLs, DefaultMaxURLs)
	def(&l.MaxURLLen, DefaultMaxURLLen)
	def(&l.MaxProblems, DefaultMaxProblems)
	def(&l.MaxDepth, DefaultMaxDepth)
	def(&l.MaxSitemaps, DefaultMaxSitemaps)
	def(&l.MaxWalkURLs, DefaultMaxWalkURLs)
	return l, nil
}

// Options configure Parse.
type Options struct {
	Limits
	// Scope lists URL prefixes ("https://example.com/" or
	// "http://example.com/docs/") the file may list besides the directory
	// of its own URL: the robots.txt host of a cross-submitted sitemap, or
	// the scope of the index that listed it. Child sitemaps of an index
	// must be on the host of the index or of a Scope prefix.
	Scope []string
}
