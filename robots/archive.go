package robots

import (
	"context"
	"net/http"
)

// Archiver keeps robots.txt exchanges in an archive (the crawl's WARC
// files, --warc); fetch.Recording implements it.
type Archiver interface {
	// Wrap returns next wrapped so that each exchange made through it,
	// redirect hops included, is archived, its response body captured up
	// to maxBody bytes; each exchange that could not be archived is
	// reported to failed with its request's context.
	Wrap(next http.RoundTripper, maxBody int64, failed func(ctx context.Context, err error)) http.RoundTripper
}

// noteArchiveFailure records err in the requestLog of ctx, if any: the
// first failure to archive an exchange of that robots.txt fetch.
func noteArchiveFailure(ctx context.Context, err error) {
	l, ok := ctx.Value(requestLogKey{}).(*requestLog)
	if !ok {
		return
	}
	l.mu.Lock()
	if l.archiveErr == nil {
		l.archiveErr = err
	}
	l.mu.Unlock()
}

// archiveFailure returns the first failure to archive an exchange of the
// fetch, nil if none.
func (l *requestLog) archiveFailure() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.archiveErr
}
