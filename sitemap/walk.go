package sitemap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Fetch returns the body of the sitemap at url. The caller's fetcher owns
// robots.txt checks, politeness, redirects, timeouts and status handling:
// a non-200 answer is an error. Walker closes the body.
type Fetch func(ctx context.Context, url string) (io.ReadCloser, error)

// Walker reads the sitemaps of one site. Its zero Limits give the
// defaults.
type Walker struct {
	Fetch  Fetch
	Limits Limits
}

// Report is the outcome of one sitemap file of a walk.
type Report struct {
	// URL is the sitemap's URL, Depth its index depth (see
	// Limits.MaxDepth), From what named it: "robots.txt", "default" (the
	// conventional /sitemap.xml) or the URL of the index that listed it.
	URL   string
	Depth int
	From  string
	// Result is what Parse read.
	Result Result
	// Skipped says why child sitemaps listed here were not fetched
	// ("depth: ...", "sitemaps: ..."), "" when all were (or none listed).
	Skipped string
	// Err is the fetch or parse error, nil when the file was read (Cut
	// may still be set).
	Err error
}

// WalkResult is what one Walk read.
type WalkResult struct {
	// Reports has one Report per fetched sitemap, in fetch order
	// (breadth-first).
	Reports []Report
	// URLs counts the entries handed to the callback.
	URLs int
	// Cut says why the walk stopped delivering entries early ("walk-urls:
	// ..."), "" when it did not.
	Cut string
}

// job is a sitemap waiting to be fetched.
type job struct {
	url   string
	depth int
	from  string
	scope []string
}

// Walk reads the sitemaps of the site at origin ("https://example.com"):
// each URL of robotsSitemaps (the robots.txt Sitemap: lines), then
// origin/sitemap.xml, then, breadth-first, the children of every index,
// each sitemap once. It calls fn with every URL the urlsets and text
// sitemaps list. A sitemap named in robots.txt may list any URL of origin
// (sitemaps.org cross-submission), and an index's children inherit what it
// may list.
//
// A sitemap that fails to fetch or parse is reported and skipped; Walk
// returns an error only when ctx ends, fn fails, or its arguments are
// invalid.
func (w *Walker) Walk(ctx context.Context, origin string, robotsSitemaps []string, fn func(Entry) error) (WalkResult, error) {
	var wr WalkResult
	lim, err := w.Limits.withDefaults()
	if err != nil {
		return wr, err
	}
	ou, ok := parseHTTP(origin)
	if !ok || (ou.Path != "" && ou.Path != "/") || ou.RawQuery != "" {
		return wr, fmt.Errorf("%w: origin %q (want scheme://host[:port])", ErrBase, origin)
	}
	origin = strings.TrimSuffix(origin, "/")
	if w.Fetch == nil || fn == nil {
		return wr, fmt.Errorf("sitemap: walk %s: nil Fetch or callback", origin)
	}
	rootScope := []string{origin + "/"}
	seen := make(map[string]bool)
	var queue []job
	add := func(j job) bool {
		if seen[j.url] {
			return true
		}
		if len(seen) >= lim.MaxSitemaps {
			return false
		}
		seen[j.url] = true
		queue = append(queue, j)
		return true
	}
	for _, s := range robotsSitemaps {
		if _, ok := parseHTTP(s); ok {
			add(job{url: s, from: "robots.txt", scope: rootScope})
		}
	}
	add(job{url: origin + "/sitemap.xml", from: "default", scope: rootScope})

	for i := 0; i < len(queue); i++ {
		j := queue[i]
		if err := ctx.Err(); err != nil {
			return wr, err
		}
		rep := Report{URL: j.url, Depth: j.depth, From: j.from}
		left := lim.MaxWalkURLs - wr.URLs
		if left <= 0 {
			wr.Cut = fmt.Sprintf("walk-urls: %d entries delivered, the bound per walk; %d sitemaps not fetched",
				wr.URLs, len(queue)-i)
			break
		}
		flim := lim
		flim.MaxURLs = min(flim.MaxURLs, left)
		res, err := w.one(ctx, j, flim, func(e Entry) error {
			wr.URLs++
			return fn(e)
		})
		rep.Result, rep.Err = res, err
		if err != nil && (ctx.Err() != nil || errIsCallback(err)) {
			wr.Reports = append(wr.Reports, rep)
			return wr, err
		}
		if len(res.Sitemaps) > 0 {
			// Children inherit the scope of every index above them, at
			// most MaxDepth+1 prefixes.
			scope := j.scope
			if d := dirOf(j.url); !slices.Contains(scope, d) {
				scope = append(slices.Clip(scope), d)
			}
			switch {
			case j.depth+1 > lim.MaxDepth:
				rep.Skipped = fmt.Sprintf("depth: %d child sitemaps beyond depth %d", len(res.Sitemaps), lim.MaxDepth)
			default:
				for k, c := range res.Sitemaps {
					if !add(job{url: c.URL, depth: j.depth + 1, from: j.url, scope: scope}) {
						rep.Skipped = fmt.Sprintf("sitemaps: %d child sitemaps beyond %d sitemaps per walk", len(res.Sitemaps)-k, lim.MaxSitemaps)
						break
					}
				}
			}
		}
		wr.Reports = append(wr.Reports, rep)
	}
	return wr, nil
}

// callbackError marks an error returned by the Walk callback, so Walk can
// tell it from a broken sitemap.
type callbackError struct{ err error }

func (e *callbackError) Error() string { return e.err.Error() }
func (e *callbackError) Unwrap() error { return e.err }

func errIsCallback(err error) bool {
	var ce *callbackError
	return errors.As(err, &ce)
}

func (w *Walker) one(ctx context.Context, j job, lim Limits, fn func(Entry) error) (Result, error) {
	body, err := w.Fetch(ctx, j.url)
	if err != nil {
		return Result{}, fmt.Errorf("sitemap: fetch %s: %w", j.url, err)
	}
	defer body.Close()
	return Parse(ctx, body, j.url, Options{Limits: lim, Scope: j.scope}, func(e Entry) error {
		if err := fn(e); err != nil {
			return &callbackError{err}
		}
		return nil
	})
}

// dirOf returns the directory of a sitemap URL, the scope it may list.
func dirOf(raw string) string {
	u, ok := parseHTTP(raw)
	if !ok {
		return ""
	}
	p := pathKey(u)
	return u.Scheme + "://" + u.Host + p[:strings.LastIndexByte(p, '/')+1]
}
