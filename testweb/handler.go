package testweb

import (
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Options configures a Web. The zero value serves epoch 0 without logging,
// with the default behaviour parameters below.
type Options struct {
	// Epoch is the epoch served first.
	Epoch int
	// AccessLog, if set, receives one line per request (see Entry.String).
	// Writes are serialised.
	AccessLog io.Writer
	// OnRequest, if set, is called once per request after the response is
	// written, from the serving goroutine; it must be safe for concurrent
	// use. Recorder.Add is one.
	OnRequest func(Entry)
	// SlowLatency delays every answer of slow.test; 0 means 500ms.
	SlowLatency time.Duration
	// FlakyPeriod and FlakyBurst: flaky.test answers 5xx to the first
	// FlakyBurst of every FlakyPeriod requests (robots.txt excluded),
	// counted per server; 0 means 4 and 2.
	FlakyPeriod, FlakyBurst int
	// RateInterval is the minimum gap ratelimit.test allows between
	// requests (robots.txt excluded); a request sooner gets 429 with
	// Retry-After in whole seconds (at least 1). 0 means 1s.
	RateInterval time.Duration
	// Now is the server's clock: access-log times and ratelimit.test's
	// gaps are measured on it. nil means time.Now; a test passes a manual
	// clock to step past RateInterval without waiting for it.
	Now func() time.Time
	// HugeSize is the length of big.test/huge.html; 0 means 50 MiB.
	HugeSize int64
	// BombSize is the decompressed length of big.test/bomb.html; 0 means
	// 1 GiB (about 1 MiB on the wire).
	BombSize int64
}

func (o Options) withDefaults() Options {
	if o.SlowLatency == 0 {
		o.SlowLatency = 500 * time.Millisecond
	}
	if o.FlakyPeriod == 0 {
		o.FlakyPeriod = 4
	}
	if o.FlakyBurst == 0 {
		o.FlakyBurst = 2
	}
	if o.RateInterval == 0 {
		o.RateInterval = time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.HugeSize == 0 {
		o.HugeSize = 50 << 20
	}
	if o.BombSize == 0 {
		o.BombSize = 1 << 30
	}
	return o
}

// Web serves a Site over HTTP: an http.Handler doing name-based virtual
// hosting by the Host header. It is safe for concurrent use.
type Web struct {
	site  *Site
	o     Options
	start time.Time
	cur   atomic.Pointer[state]

	busy     busyCount // connections and requests in progress, for Server.WaitIdle
	logMu    sync.Mutex
	logBuf   []byte
	flaky    []atomic.Uint64 // per host
	rateMu   sync.Mutex
	rateLast []time.Duration // per host; 0 = never
	bombOnce sync.Once
	bomb     []byte
	// The sitemap bomb of sitemap.test, built on first request.
	smBombOnce sync.Once
	smBomb     []byte
	filler     []byte // a chunk of the huge page
	bufs       sync.Pool

	// Header values shared by all responses; never modified.
	hHTML, hText []string
}

// New returns a Web serving site at o.Epoch.
func New(site *Site, o Options) (*Web, error) {
	if site == nil {
		return nil, fmt.Errorf("%w: nil site", ErrOptions)
	}
	o = o.withDefaults()
	switch {
	case o.SlowLatency < 0 || o.RateInterval < 0:
		return nil, fmt.Errorf("%w: negative latency or rate interval", ErrOptions)
	case o.FlakyPeriod < 1 || o.FlakyBurst < 0 || o.FlakyBurst > o.FlakyPeriod:
		return nil, fmt.Errorf("%w: flaky burst %d of period %d", ErrOptions, o.FlakyBurst, o.FlakyPeriod)
	case o.HugeSize < 1024 || o.BombSize < 1024:
		return nil, fmt.Errorf("%w: huge page and bomb must be at least 1 KiB", ErrOptions)
	}
	st, err := site.epochState(o.Epoch)
	if err != nil {
		return nil, err
	}
	w := &Web{
		site:     site,
		o:        o,
		start:    o.Now(),
		flaky:    make([]atomic.Uint64, len(site.hosts)),
		rateLast: make([]time.Duration, len(site.hosts)),
		hHTML:    []string{"text/html; charset=utf-8"},
		hText:    []string{"text/plain; charset=utf-8"},
	}
	w.filler = makeFiller()
	w.cur.Store(st)
	return w, nil
}

// Site returns the site w serves.
func (w *Web) Site() *Site { return w.site }

// Epoch returns the epoch being served.
func (w *Web) Epoch() int { return w.cur.Load().epoch }

// SetEpoch switches the web to epoch n (forwards or backwards) for every
// request that starts afterwards.
func (w *Web) SetEpoch(n int) error {
	st, err := w.site.epochState(n)
	if err != nil {
		return err
	}
	w.cur.Store(st)
	return nil
}

// Truth returns the ground truth of the epoch being served.
func (w *Web) Truth() *Truth {
	t, err := w.site.Truth(w.Epoch())
	if err != nil {
		panic(err) // the current epoch always has a state
	}
	return t
}

// ServeHTTP answers one request.
func (w *Web) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	// Counted until logged: an HTTP/2 request's handler can outlive its
	// connection.
	w.busy.add(1)
	defer w.busy.add(-1)
	if w.o.AccessLog == nil && w.o.OnRequest == nil {
		w.serve(rw, r)
		return
	}
	t0 := w.o.Now().Sub(w.start)
	sw := &statusWriter{ResponseWriter: rw}
	defer w.logRequest(t0, r, sw)
	w.serve(sw, r)
}

func (w *Web) logRequest(t0 time.Duration, r *http.Request, sw *statusWriter) {
	e := Entry{Time: t0, Scheme: "http", Host: hostOnly(r.Host), Method: r.Method, Target: r.RequestURI,
		Status: sw.status, Bytes: sw.bytes, UserAgent: r.UserAgent(), Proto: r.Proto}
	if r.TLS != nil {
		e.Scheme = "https"
	}
	if w.o.AccessLog != nil {
		w.logMu.Lock()
		w.logBuf = e.appendTo(w.logBuf[:0])
		w.o.AccessLog.Write(w.logBuf) // a failing log must not fail the request
		w.logMu.Unlock()
	}
	if w.o.OnRequest != nil {
		w.o.OnRequest(e)
	}
}

// hostOnly returns the lower-cased host of a Host header, without port.
func hostOnly(h string) string {
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.HasSuffix(h, "]") {
		h = h[:i]
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; 'A' <= c && c <= 'Z' {
			return strings.ToLower(h)
		}
	}
	return h
}

// requestTarget returns the canonical path-and-query of a request.
func requestTarget(r *http.Request) string {
	t := r.RequestURI
	if !strings.HasPrefix(t, "/") {
		// absolute-form (RFC 9112 section 3.2.2) or "*"
		if _, _, _, rest, err := splitURL(t); err == nil {
			t = rest
		} else {
			t = "/"
		}
	}
	if i := strings.IndexByte(t, '#'); i >= 0 {
		t = t[:i]
	}
	return canonicalTarget(t)
}

func (w *Web) serve(rw http.ResponseWriter, r *http.Request) {
	hdr := rw.Header()
	// The Date of the epoch's clock, not the wall clock: responses stay
	// byte-identical across runs, and Date − Last-Modified is the age of
	// a page on one clock, as on a real server.
	hdr["Date"] = w.cur.Load().date
	hid, ok := w.site.hostIndex[hostOnly(r.Host)]
	if !ok {
		w.plain(rw, http.StatusNotFound, "unknown host\n")
		return
	}
	spec := &w.site.hosts[hid]
	if spec.Role == RoleSlow && !sleepCtx(r, w.o.SlowLatency) {
		return
	}
	target := requestTarget(r)
	if target == "/robots.txt" {
		w.serveRobots(rw, r, spec)
		return
	}
	if body, ok := spec.files[target]; ok {
		w.plain(rw, http.StatusOK, body)
		return
	}
	if f, ok := spec.sitemapFile(target); ok {
		w.serveSitemap(rw, r, spec, f)
		return
	}
	switch spec.Role {
	case RoleFlaky:
		k := w.flaky[hid].Add(1) - 1
		if k%uint64(w.o.FlakyPeriod) < uint64(w.o.FlakyBurst) {
			codes := [...]int{http.StatusServiceUnavailable, http.StatusInternalServerError, http.StatusBadGateway}
			w.plain(rw, codes[k%3], "temporarily unavailable\n")
			return
		}
	case RoleRateLimit:
		if wait, limited := w.rateLimit(hid); limited {
			secs := int(math.Ceil(wait.Seconds()))
			hdr["Retry-After"] = []string{strconv.Itoa(max(secs, 1))}
			w.plain(rw, http.StatusTooManyRequests, "too many requests\n")
			return
		}
	}
	st := w.cur.Load()
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	key := target
	if scheme != spec.Scheme {
		key = "*" + target
	}
	id, ok := st.lookup(hid, key)
	switch {
	case !ok && scheme != spec.Scheme:
		hdr["Location"] = []string{spec.Scheme + "://" + spec.Name + target}
		w.plain(rw, http.StatusMovedPermanently, "moved\n")
		return
	case !ok && spec.Role == RoleTrap:
		w.serveTrap(rw, r, target)
		return
	case !ok:
		w.plain(rw, http.StatusNotFound, "not found\n")
		return
	}
	w.serveNode(rw, r, st, id)
}

func sleepCtx(r *http.Request, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

// rateLimit reports whether a request to host hid comes too soon, and how
// long until it would not.
func (w *Web) rateLimit(hid uint32) (time.Duration, bool) {
	w.rateMu.Lock()
	defer w.rateMu.Unlock()
	now := w.o.Now().Sub(w.start)
	last := w.rateLast[hid]
	if last != 0 && now-last < w.o.RateInterval {
		return w.o.RateInterval - (now - last), true
	}
	w.rateLast[hid] = max(now, 1)
	return 0, false
}

func (w *Web) plain(rw http.ResponseWriter, code int, body string) {
	h := rw.Header()
	h["Content-Type"] = w.hText
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	rw.WriteHeader(code)
	io.WriteString(rw, body)
}

func (w *Web) serveRobots(rw http.ResponseWriter, r *http.Request, spec *hostSpec) {
	switch spec.robots {
	case robotsMissing:
		w.plain(rw, http.StatusNotFound, "no robots.txt here\n")
	case robotsError:
		w.plain(rw, http.StatusServiceUnavailable, "robots.txt unavailable\n")
	case robotsRedirect:
		rw.Header()["Location"] = []string{spec.robotsTo}
		w.plain(rw, http.StatusMovedPermanently, "moved\n")
	default:
		w.plain(rw, http.StatusOK, spec.robotsBody)
	}
}

// notModified reports whether a conditional GET is answered 304 (RFC 9110
// section 13.2.2: If-None-Match takes precedence over If-Modified-Since).
func notModified(r *http.Request, etag string, mod time.Time) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		return etagMatches(inm, etag)
	}
	if ims := r.Header.Get("If-Modified-Since"); ims != "" {
		t, err := http.ParseTime(ims)
		return err == nil && !mod.After(t)
	}
	return false
}

// etagMatches applies the weak comparison of If-None-Match.
func etagMatches(list, etag string) bool {
	for _, t := range strings.Split(list, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == etag {
			return true
		}
	}
	return false
}

// validators sets ETag and Last-Modified and answers 304 when the request's
// conditions say the client has this version; it reports whether it did.
func (w *Web) validators(rw http.ResponseWriter, r *http.Request, etag, lm string, mod time.Time) bool {
	h := rw.Header()
	h["Etag"] = []string{etag}
	h["Last-Modified"] = []string{lm}
	if notModified(r, etag, mod) {
		rw.WriteHeader(http.StatusNotModified)
		return true
	}
	return false
}

func (w *Web) getBuf() *[]byte {
	if b, ok := w.bufs.Get().(*[]byte); ok {
		return b
	}
	b := make([]byte, 0, 8<<10)
	return &b
}

func (w *Web) putBuf(b *[]byte) {
	if cap(*b) <= 1<<20 {
		*b = (*b)[:0]
		w.bufs.Put(b)
	}
}

// writeBody writes a complete body with its Content-Type and Length.
func writeBody(rw http.ResponseWriter, r *http.Request, ct []string, body []byte) {
	h := rw.Header()
	h["Content-Type"] = ct
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	rw.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		rw.Write(body)
	}
}

func (w *Web) serveNode(rw http.ResponseWriter, r *http.Request, st *state, id uint32) {
	n := &st.nodes[id]
	s := w.site
	switch n.kind {
	case KindRedirect:
		loc := s.url(st, n.target)
		if n.flags&flagRelLocation != 0 {
			loc = st.nodes[n.target].path
		}
		rw.Header()["Location"] = []string{loc}
		w.plain(rw, int(n.status), "redirecting\n")
		return
	case KindGone:
		w.plain(rw, int(n.status), http.StatusText(int(n.status))+"\n")
		return
	case KindTrap:
		w.serveTrap(rw, r, n.path)
		return
	}
	lm, mod := st.lm[n.mod], EpochTime(int(n.mod))
	if s.evo.Model == EvolveWeb {
		if mod = s.modTime(n, id); !mod.Equal(EpochTime(int(n.mod))) {
			lm = mod.Format(http.TimeFormat)
		}
	}
	if w.validators(rw, r, s.etag(id, n.ver), lm, mod) {
		return
	}
	switch n.kind {
	case KindResource:
		bp := w.getBuf()
		*bp = s.renderResource((*bp)[:0], st, id)
		writeBody(rw, r, []string{resourceTypes[n.ctype]}, *bp)
		w.putBuf(bp)
	case KindHuge:
		w.serveHuge(rw, r)
	case KindBomb:
		w.serveBomb(rw, r)
	case KindDrop:
		bp := w.getBuf()
		*bp = s.renderPage((*bp)[:0], st, id)
		body := *bp
		h := rw.Header()
		h["Content-Type"] = w.hHTML
		h["Content-Length"] = []string{strconv.Itoa(len(body))}
		rw.WriteHeader(http.StatusOK)
		rw.Write(body[:len(body)/2])
		if f, ok := rw.(http.Flusher); ok {
			f.Flush()
		}
		w.putBuf(bp)
		panic(http.ErrAbortHandler) // net/http closes the connection mid-body
	default:
		bp := w.getBuf()
		*bp = s.renderPage((*bp)[:0], st, id)
		writeBody(rw, r, w.hHTML, *bp)
		w.putBuf(bp)
	}
}
