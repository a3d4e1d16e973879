package monitor

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Limits on what a Recorder keeps, so that a crawl of hostile servers
// cannot grow the metrics without bound.
const (
	// MaxLabels is how many distinct reasons (or statuses) one counter
	// family keeps; later new ones are counted under OtherLabel.
	MaxLabels = 256
	// OtherLabel is the label of counts past MaxLabels and of HTTP codes
	// outside 0..999.
	OtherLabel = "other"
	// MaxLabelLen is the longest label value kept, in bytes; longer ones
	// are cut.
	MaxLabelLen = 128
)

// Recorder counts crawl events for /metrics. The crawler calls it once per
// event from any goroutine; each call is a few atomic adds and allocates
// nothing once a label has been seen. A nil *Recorder ignores every call,
// so a crawl without --listen calls it unconditionally.
type Recorder struct {
	codes   [1000]atomic.Uint64 // fetches by HTTP status code; 0: no response
	codeOut atomic.Uint64       // codes outside 0..999
	bytes   atomic.Uint64
	dur     prometheus.Histogram

	pages, rejects, errors labelCounts
}

// NewRecorder returns a Recorder with every count at zero. Its duration
// histogram has buckets from 5 ms (a loopback answer) to 60 s (a slow
// server near the fetch timeout).
func NewRecorder() *Recorder {
	return &Recorder{dur: prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "seedcrawl_fetch_duration_seconds",
		Help:    "Time from sending a request to reading the end of its body.",
		Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
	})}
}

// ObserveFetch records one request: its HTTP status code (0 when there was
// no response), the body bytes read and how long it took.
func (r *Recorder) ObserveFetch(code int, bytes int64, dur time.Duration) {
	if r == nil {
		return
	}
	if code >= 0 && code < len(r.codes) {
		r.codes[code].Add(1)
	} else {
		r.codeOut.Add(1)
	}
	if bytes > 0 {
		r.bytes.Add(uint64(bytes))
	}
	r.dur.Observe(dur.Seconds())
}

// Reject records a link refused by the URL checks or trap guards, by
// reason ("max-depth", "calendar" ...).
func (r *Recorder) Reject(reason string) {
	if r != nil {
		r.rejects.add(reason, 1)
	}
}

// Error records a failed fetch by reason ("timeout", "http-503" ...).
func (r *Recorder) Error(reason string) {
	if r != nil {
		r.errors.add(reason, 1)
	}
}

// Page records a URL's recorded outcome by status ("fetched",
// "redirect", "http-error" ...).
func (r *Recorder) Page(status string) {
	if r != nil {
		r.pages.add(status, 1)
	}
}

// Count adds n to the counter a crawl counter key names, for a crawler
// that keeps "group/name" counters (the keys `seedcrawl stats` prints):
// "fetch/S" counts pages with status S, "reject/R" rejections and
// "error/R" errors with reason R; other groups are not exported and are
// ignored. Fed from the same call that updates the crawl's own counters,
// /metrics then equals them by construction.
func (r *Recorder) Count(key string, n uint64) {
	if r == nil || n == 0 {
		return
	}
	group, name, ok := strings.Cut(key, "/")
	if !ok {
		return
	}
	switch group {
	case "fetch":
		r.pages.add(name, n)
	case "reject":
		r.rejects.add(name, n)
	case "error":
		r.errors.add(name, n)
	}
}

// Counters returns what the Recorder counted so far; the zero Counters for
// a nil Recorder.
func (r *Recorder) Counters() Counters {
	c := Counters{Codes: map[string]uint64{}, Pages: map[string]uint64{},
		Rejects: map[string]uint64{}, Errors: map[string]uint64{}}
	if r == nil {
		return c
	}
	r.eachCode(func(code string, n uint64) {
		c.Codes[code] = n
		c.Fetches += n
	})
	c.Bytes = r.bytes.Load()
	r.pages.each(func(k string, n uint64) { c.Pages[k] = n })
	r.rejects.each(func(k string, n uint64) { c.Rejects[k] = n })
	r.errors.each(func(k string, n uint64) { c.Errors[k] = n })
	return c
}

// eachCode calls fn for every code counted at least once.
func (r *Recorder) eachCode(fn func(code string, n uint64)) {
	for i := range r.codes {
		if n := r.codes[i].Load(); n > 0 {
			fn(strconv.Itoa(i), n)
		}
	}
	if n := r.codeOut.Load(); n > 0 {
		fn(OtherLabel, n)
	}
}

// labelCounts counts by string label. Reads go through an immutable map
// behind an atomic pointer, so counting a label already seen takes no lock
// and allocates nothing; a new label copies the map under mu (labels are
// few and settle early in a crawl).
type labelCounts struct {
	m  atomic.Pointer[map[string]*atomic.Uint64]
	mu sync.Mutex
}

func (l *labelCounts) add(label string, n uint64) {
	if m := l.m.Load(); m != nil {
		if c, ok := (*m)[label]; ok {
			c.Add(n)
			return
		}
	}
	l.addSlow(label, n)
}

// addSlow adds a label not in the map yet. A label that labelValue
// changes (over-long, invalid UTF-8) comes here on every call, since the
// map holds it changed: a lock, no copy; only hostile input does that.
func (l *labelCounts) addSlow(label string, n uint64) {
	label = labelValue(label)
	l.mu.Lock()
	defer l.mu.Unlock()
	var old map[string]*atomic.Uint64
	if p := l.m.Load(); p != nil {
		old = *p
	}
	if c, ok := old[label]; ok {
		c.Add(n)
		return
	}
	if len(old) >= MaxLabels {
		if c, ok := old[OtherLabel]; ok {
			c.Add(n)
			return
		}
		label = OtherLabel // one over the limit: the bucket for the rest
	}
	m := make(map[string]*atomic.Uint64, len(old)+1)
	for k, v := range old {
		m[k] = v
	}
	c := new(atomic.Uint64)
	c.Add(n)
	// Clone: the caller's string may point into a large buffer (a URL, a
	// response) that the map would otherwise keep alive.
	m[strings.Clone(label)] = c
	l.m.Store(&m)
}

func (l *labelCounts) each(fn func(label string, n uint64)) {
	p := l.m.Load()
	if p == nil {
		return
	}
	for k, c := range *p {
		fn(k, c.Load())
	}
}

// labelValue makes s a label value Prometheus accepts (valid UTF-8; the
// client library panics on anything else) of at most MaxLabelLen bytes, so
// that a reason quoting a hostile server cannot break the scrape.
func labelValue(s string) string {
	if len(s) > MaxLabelLen {
		s = s[:MaxLabelLen]
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
