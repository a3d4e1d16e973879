package crawler

import (
	"net/http"
	"sync"
	"time"

	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// HostLog records when the last request to each host started, for requests
// the crawl loop does not make itself (robots.txt, fetched by package
// robots). Keys are frontier host keys: the lower-cased host with the port
// when it is not the scheme's default. Safe for concurrent use.
type HostLog struct {
	mu    sync.Mutex
	last  map[string]time.Time
	notes []hostNote // requests not yet taken by drain
}

type hostNote struct {
	host string
	at   time.Time
}

// NewHostLog returns an empty HostLog.
func NewHostLog() *HostLog { return &HostLog{last: map[string]time.Time{}} }

// Wrap returns a RoundTripper that notes every request in l before passing
// it to rt.
func (l *HostLog) Wrap(rt http.RoundTripper) http.RoundTripper {
	return logTransport{log: l, next: rt}
}

// Note records a request to host starting at t.
func (l *HostLog) Note(host string, t time.Time) {
	l.mu.Lock()
	if t.After(l.last[host]) {
		l.last[host] = t
	}
	if len(l.notes) < 1024 {
		l.notes = append(l.notes, hostNote{host, t})
	}
	l.mu.Unlock()
}

// Since returns the start of the last request to host if it started at or
// after t.
func (l *HostLog) Since(host string, t time.Time) (time.Time, bool) {
	if l == nil {
		return time.Time{}, false
	}
	l.mu.Lock()
	at, ok := l.last[host]
	l.mu.Unlock()
	if !ok || at.Before(t) {
		return time.Time{}, false
	}
	return at, true
}

// drain returns and forgets the requests noted since the last drain.
func (l *HostLog) drain() []hostNote {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.notes) == 0 {
		return nil
	}
	out := l.notes
	l.notes = nil
	return out
}

type logTransport struct {
	log  *HostLog
	next http.RoundTripper
}

func (t logTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.log.Note(string(urlnorm.HostOfURL(req.URL)), time.Now())
	return t.next.RoundTrip(req)
}

// politeDelay is the gap to keep after a response from a host:
// max(delay, crawlDelay, factor × dur) (Heritrix's adaptive politeness).
func politeDelay(delay, crawlDelay time.Duration, factor float64, dur time.Duration) time.Duration {
	d := max(delay, crawlDelay)
	if factor > 0 {
		d = max(d, time.Duration(factor*float64(dur)))
	}
	return d
}

// backoff is base × 2^(failures-1), capped at maxB, for failures ≥ 1.
func backoff(base, maxB time.Duration, failures int) time.Duration {
	d := base
	for i := 1; i < failures && d < maxB; i++ {
		d *= 2
	}
	return min(d, maxB)
}
