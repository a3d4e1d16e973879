package robots

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/testclock"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// robotsServer serves /robots.txt from a replaceable handler and counts
// the requests for it.
type robotsServer struct {
	*httptest.Server
	hits    atomic.Int64
	mu      sync.Mutex
	handler http.HandlerFunc
	lastUA  atomic.Value
}

// wantHits fails t unless robots.txt was requested n times so far; when
// says at what point of the test.
func (s *robotsServer) wantHits(t *testing.T, n int64, when string) {
	t.Helper()
	if got := s.hits.Load(); got != n {
		t.Fatalf("%s: robots.txt fetched %d times, want %d", when, got, n)
	}
}

func newRobotsServer(t *testing.T, h http.HandlerFunc) *robotsServer {
	t.Helper()
	s := &robotsServer{handler: h}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			s.hits.Add(1)
			s.lastUA.Store(r.UserAgent())
		}
		s.mu.Lock()
		h := s.handler
		s.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *robotsServer) set(h http.HandlerFunc) {
	s.mu.Lock()
	s.handler = h
	s.mu.Unlock()
}

func serve(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func newCache(t *testing.T, o Options) *Cache {
	t.Helper()
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func check(t *testing.T, c *Cache, u string) Decision {
	t.Helper()
	d, err := c.Check(context.Background(), mustURL(t, u))
	if err != nil {
		t.Fatalf("Check(%s): %v", u, err)
	}
	return d
}

func TestCheckRules(t *testing.T) {
	s := newRobotsServer(t, serve(200, `User-agent: *
Disallow: /

User-agent: seedcrawl
Crawl-delay: 0.5
Disallow: /private
Allow: /private/open
Disallow: /*.pdf$
`))
	c := newCache(t, Options{})
	tests := []struct {
		path   string
		allow  bool
		reason string
	}{
		{"/", true, ""},
		{"/page?x=1", true, ""},
		{"/private/x", false, ReasonDisallowed},
		{"/private/open/x", true, ""},
		{"/doc.pdf", false, ReasonDisallowed},
		{"/doc.pdf?dl=1", true, ""},
		{"/robots.txt", true, ""},
	}
	for _, tt := range tests {
		d := check(t, c, s.URL+tt.path)
		if d.Allowed != tt.allow || d.Reason != tt.reason || d.CrawlDelay != 500*time.Millisecond {
			t.Errorf("%s: %+v, want allowed=%v reason=%q delay=500ms", tt.path, d, tt.allow, tt.reason)
		}
	}
	s.wantHits(t, 1, "after every check")
	if ua, _ := s.lastUA.Load().(string); !strings.HasPrefix(ua, "seedcrawl/") {
		t.Errorf("User-Agent = %q", ua)
	}
}

func TestCheckCustomToken(t *testing.T) {
	s := newRobotsServer(t, serve(200, "User-agent: mybot\nDisallow: /\n"))
	c := newCache(t, Options{Token: "MyBot", UserAgent: "MyBot/1.0"})
	if d := check(t, c, s.URL+"/x"); d.Allowed {
		t.Fatalf("mybot group not applied: %+v", d)
	}
	if ua, _ := s.lastUA.Load().(string); ua != "MyBot/1.0" {
		t.Errorf("User-Agent = %q", ua)
	}
}

func TestUnavailableAllowsAll(t *testing.T) {
	for _, code := range []int{400, 401, 403, 404, 410} {
		s := newRobotsServer(t, serve(code, "User-agent: *\nDisallow: /\n"))
		c := newCache(t, Options{})
		if d := check(t, c, s.URL+"/x"); !d.Allowed {
			t.Errorf("status %d: %+v, want allowed", code, d)
		}
	}
}

func TestGarbageAllowsAll(t *testing.T) {
	s := newRobotsServer(t, serve(200, "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR<html><body>Not robots</body></html>"))
	c := newCache(t, Options{})
	if d := check(t, c, s.URL+"/anything"); !d.Allowed {
		t.Fatalf("garbage robots.txt: %+v, want allowed", d)
	}
}

func TestServerErrorDefersThenRecovers(t *testing.T) {
	clk := testclock.New()
	s := newRobotsServer(t, serve(503, "busy"))
	c := newCache(t, Options{Now: clk.Now, Backoff: time.Minute, MaxFailures: 5})
	start := clk.Now()

	d := check(t, c, s.URL+"/x")
	if d.Allowed || d.Reason != ReasonDeferred || !d.RetryAt.Equal(start.Add(time.Minute)) {
		t.Fatalf("first 503: %+v, want deferred until +1m", d)
	}
	// Before RetryAt: no new fetch.
	clk.Advance(30 * time.Second)
	check(t, c, s.URL+"/y")
	s.wantHits(t, 1, "before RetryAt")
	// Second failure doubles the backoff.
	clk.Advance(31 * time.Second)
	d = check(t, c, s.URL+"/x")
	if d.Reason != ReasonDeferred || !d.RetryAt.Equal(clk.Now().Add(2*time.Minute)) {
		t.Fatalf("second 503: %+v, want deferred for 2m", d)
	}
	// The server recovers.
	s.set(serve(200, "User-agent: *\nDisallow: /x\n"))
	clk.Advance(2 * time.Minute)
	if d := check(t, c, s.URL+"/x"); d.Allowed || d.Reason != ReasonDisallowed {
		t.Fatalf("after recovery /x: %+v, want disallowed by rule", d)
	}
	if d := check(t, c, s.URL+"/y"); !d.Allowed {
		t.Fatalf("after recovery /y: %+v, want allowed", d)
	}
	s.wantHits(t, 3, "after recovery")
}

func TestGivesUpAfterMaxFailures(t *testing.T) {
	clk := testclock.New()
	s := newRobotsServer(t, serve(500, "oops"))
	c := newCache(t, Options{Now: clk.Now, Backoff: time.Second, MaxFailures: 3, TTL: time.Hour})
	for i := 0; i < 2; i++ {
		if d := check(t, c, s.URL+"/x"); d.Reason != ReasonDeferred {
			t.Fatalf("failure %d: %+v, want deferred", i+1, d)
		}
		clk.Advance(time.Minute)
	}
	d := check(t, c, s.URL+"/x")
	if d.Allowed || d.Reason != ReasonUnreachable || !d.RetryAt.IsZero() {
		t.Fatalf("third failure: %+v, want unreachable (disallow all)", d)
	}
	clk.Advance(59 * time.Minute)
	if d := check(t, c, s.URL+"/y"); d.Reason != ReasonUnreachable {
		t.Fatalf("within TTL: %+v", d)
	}
	s.wantHits(t, 3, "within TTL after giving up")
	s.set(serve(404, ""))
	clk.Advance(2 * time.Minute)
	if d := check(t, c, s.URL+"/y"); !d.Allowed {
		t.Fatalf("after TTL with 404: %+v, want allowed", d)
	}
}

func Test429IsDeferred(t *testing.T) {
	s := newRobotsServer(t, serve(429, "slow down"))
	c := newCache(t, Options{})
	if d := check(t, c, s.URL+"/x"); d.Reason != ReasonDeferred {
		t.Fatalf("429: %+v, want deferred", d)
	}
}

func TestTimeoutDefers(t *testing.T) {
	s := newRobotsServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	c := newCache(t, Options{Timeout: 100 * time.Millisecond})
	start := time.Now()
	d := check(t, c, s.URL+"/x")
	if d.Reason != ReasonDeferred {
		t.Fatalf("timeout: %+v, want deferred", d)
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Fatalf("timeout took %v", el)
	}
}

func TestNetworkErrorDefers(t *testing.T) {
	s := httptest.NewServer(http.NotFoundHandler())
	addr := s.URL
	s.Close() // nothing listens any more
	c := newCache(t, Options{})
	if d := check(t, c, addr+"/x"); d.Reason != ReasonDeferred {
		t.Fatalf("refused connection: %+v, want deferred", d)
	}
}

func TestRedirectToOtherHost(t *testing.T) {
	b := newRobotsServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/shared/robots.txt" {
			_, _ = w.Write([]byte("User-agent: *\nDisallow: /secret\n"))
			return
		}
		http.NotFound(w, r)
	})
	a := newRobotsServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, b.URL+"/shared/robots.txt", http.StatusMovedPermanently)
	})
	c := newCache(t, Options{})
	if d := check(t, c, a.URL+"/secret/x"); d.Allowed {
		t.Fatalf("rules behind a cross-host redirect not applied: %+v", d)
	}
	if d := check(t, c, a.URL+"/open"); !d.Allowed {
		t.Fatalf("/open: %+v", d)
	}
}

func TestRedirectChains(t *testing.T) {
	tests := []struct {
		hops  int
		allow bool // the final file disallows /x; too many hops means "unavailable"
	}{
		{5, false},
		{6, true},
	}
	for _, tt := range tests {
		s := newRobotsServer(t, nil)
		s.set(func(w http.ResponseWriter, r *http.Request) {
			var n int
			switch {
			case r.URL.Path == "/robots.txt":
				n = 0
			case strings.HasPrefix(r.URL.Path, "/hop"):
				n = len(r.URL.Path) - len("/hop")
			}
			if n < tt.hops {
				http.Redirect(w, r, "/hop"+strings.Repeat("x", n+1), http.StatusFound)
				return
			}
			_, _ = w.Write([]byte("User-agent: *\nDisallow: /x\n"))
		})
		c := newCache(t, Options{})
		if d := check(t, c, s.URL+"/x"); d.Allowed != tt.allow {
			t.Errorf("%d hops: %+v, want allowed=%v", tt.hops, d, tt.allow)
		}
	}
}

func TestHugeRobotsIsCapped(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("User-agent: *\nDisallow: /early\n")
	for sb.Len() < DefaultMaxSize-200 {
		sb.WriteString("# filler filler filler filler filler filler filler filler filler\n")
	}
	// Pad so the next rule starts 20 bytes before the limit: a naive cut
	// would keep "Disallow: /edge-rule", which matches the path below.
	sb.WriteString("#" + strings.Repeat("x", DefaultMaxSize-20-sb.Len()-2) + "\n")
	sb.WriteString("Disallow: /edge-rule-cut-in-half\n")
	for sb.Len() < DefaultMaxSize+200<<10 {
		sb.WriteString("# more filler past the limit\n")
	}
	sb.WriteString("Disallow: /late\n")
	s := newRobotsServer(t, serve(200, sb.String()))
	store := &MemStore{}
	c := newCache(t, Options{Store: store})
	if d := check(t, c, s.URL+"/early"); d.Allowed {
		t.Errorf("/early allowed")
	}
	if d := check(t, c, s.URL+"/late"); !d.Allowed {
		t.Errorf("/late (past 500 KiB) disallowed")
	}
	if d := check(t, c, s.URL+"/edge-rule-cut-in-half"); !d.Allowed {
		t.Errorf("a rule cut by the size limit was applied")
	}
	e, ok, _ := store.LoadRobots(urlnorm.Origin(mustURL(t, s.URL)))
	if !ok || len(e.Body) > DefaultMaxSize {
		t.Errorf("stored body %d bytes (ok=%v), want at most %d", len(e.Body), ok, DefaultMaxSize)
	}
}

func TestConcurrentChecksFetchOnce(t *testing.T) {
	// The answer waits until every check has started, so they overlap the
	// fetch (those that reach the cache after it are served from it).
	release := make(chan struct{})
	s := newRobotsServer(t, func(w http.ResponseWriter, r *http.Request) {
		<-release
		_, _ = w.Write([]byte("User-agent: *\nDisallow: /no\n"))
	})
	c := newCache(t, Options{})
	var wg, started sync.WaitGroup
	var wrong atomic.Int64
	started.Add(32)
	go func() {
		started.Wait()
		close(release)
	}()
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			started.Done()
			path, want := "/yes", true
			if i%2 == 0 {
				path, want = "/no", false
			}
			d, err := c.Check(context.Background(), mustURL(t, s.URL+path))
			if err != nil || d.Allowed != want {
				wrong.Add(1)
			}
		}(i)
	}
	wg.Wait()
	s.wantHits(t, 1, "by 32 concurrent checks")
	if wrong.Load() != 0 {
		t.Errorf("%d wrong decisions", wrong.Load())
	}
}

func TestCallerContextCanceled(t *testing.T) {
	release := make(chan struct{})
	s := newRobotsServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		_, _ = w.Write([]byte("User-agent: *\nDisallow: /no\n"))
	})
	c := newCache(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.Check(ctx, mustURL(t, s.URL+"/no")); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want deadline exceeded", err)
	}
	// The shared fetch goes on; a later caller gets its result.
	close(release)
	if d := check(t, c, s.URL+"/no"); d.Allowed {
		t.Fatalf("after release: %+v", d)
	}
	s.wantHits(t, 1, "after release")
}

func TestStorePersistsAcrossCaches(t *testing.T) {
	clk := testclock.New()
	s := newRobotsServer(t, serve(200, "User-agent: *\nDisallow: /no\n"))
	store := &MemStore{}
	c1 := newCache(t, Options{Store: store, Now: clk.Now, TTL: time.Hour})
	check(t, c1, s.URL+"/x")
	c2 := newCache(t, Options{Store: store, Now: clk.Now, TTL: time.Hour})
	if d := check(t, c2, s.URL+"/no"); d.Allowed {
		t.Fatalf("rules from the store not applied: %+v", d)
	}
	s.wantHits(t, 1, "second cache on the same store")
	clk.Advance(time.Hour + time.Second)
	s.set(serve(200, "User-agent: *\nDisallow: /x\n"))
	if d := check(t, c2, s.URL+"/no"); !d.Allowed {
		t.Fatalf("expired entry still used: %+v", d)
	}
	s.wantHits(t, 2, "after TTL")
}

func TestEvictedOriginsReloadFromStore(t *testing.T) {
	var servers []*robotsServer
	for i := 0; i < 3; i++ {
		servers = append(servers, newRobotsServer(t, serve(200, "User-agent: *\nDisallow: /no\n")))
	}
	store := &MemStore{}
	c := newCache(t, Options{Store: store, MaxCached: 2})
	for _, s := range servers {
		check(t, c, s.URL+"/x")
	}
	if c.lru.len() != 2 || store.Len() != 3 {
		t.Fatalf("lru %d, store %d; want 2 and 3", c.lru.len(), store.Len())
	}
	if d := check(t, c, servers[0].URL+"/no"); d.Allowed {
		t.Fatalf("evicted origin lost its rules: %+v", d)
	}
	servers[0].wantHits(t, 1, "evicted origin, reloaded from the store")
}

// failingStore fails every call.
type failingStore struct{}

var errStore = errors.New("disk on fire")

func (failingStore) LoadRobots(string) (Entry, bool, error) { return Entry{}, false, errStore }
func (failingStore) SaveRobots(string, Entry) error         { return errStore }

func TestStoreErrorsAreReported(t *testing.T) {
	s := newRobotsServer(t, serve(200, "User-agent: *\nDisallow: /no\n"))
	c := newCache(t, Options{Store: failingStore{}})
	d, err := c.Check(context.Background(), mustURL(t, s.URL+"/no"))
	if !errors.Is(err, errStore) {
		t.Fatalf("err = %v, want the store error", err)
	}
	if d.Allowed {
		t.Fatalf("decision with store error: %+v, want the rules applied anyway", d)
	}
}

func TestCheckBadURL(t *testing.T) {
	c := newCache(t, Options{})
	for _, u := range []string{"ftp://example.com/", "/relative"} {
		if _, err := c.Check(context.Background(), mustURL(t, u)); !errors.Is(err, ErrURL) {
			t.Errorf("Check(%s) err = %v, want ErrURL", u, err)
		}
	}
	if _, err := c.Check(context.Background(), nil); !errors.Is(err, ErrURL) {
		t.Errorf("Check(nil) err = %v", err)
	}
}

func TestNewRejectsNegative(t *testing.T) {
	if _, err := New(Options{TTL: -1}); !errors.Is(err, ErrOptions) {
		t.Fatalf("err = %v", err)
	}
}

// The crawl database is a Store as it is: entries round-trip through a real
// bbolt file, and a record whose state this version does not know is
// fetched again rather than trusted.
func TestStorageIsAStore(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "robots.db"), &storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var _ Store = db
	now := time.Unix(1700000000, 0)
	for _, e := range []Entry{
		{State: uint8(StateRules), FetchedAt: now, Expires: now.Add(time.Hour), Code: 200, Body: []byte("User-agent: *\nDisallow: /x\n")},
		{State: uint8(StateAllowAll), FetchedAt: now, Expires: now.Add(time.Hour), Code: 404},
		{State: uint8(StateDeferred), FetchedAt: now, Expires: now.Add(time.Minute), Code: 503, Failures: 2, Err: "503 Service Unavailable"},
		{State: uint8(StateDisallowAll), FetchedAt: now, Expires: now.Add(time.Hour), Failures: DefaultMaxFailures, Err: "timeout"},
	} {
		origin := "http://h" + State(e.State).String() + ".test"
		if err := db.SaveRobots(origin, e); err != nil {
			t.Fatal(err)
		}
		got, ok, err := db.LoadRobots(origin)
		if err != nil || !ok || !reflect.DeepEqual(got, e) {
			t.Errorf("%s: round trip = %+v, %v, %v; want %+v", origin, got, ok, err, e)
		}
	}

	srv := newRobotsServer(t, serve(http.StatusOK, "User-agent: *\nDisallow: /private\n"))
	origin := urlnorm.Origin(mustURL(t, srv.URL))
	// A stored record without a known state (it says "disallow all").
	if err := db.SaveRobots(origin, Entry{Code: 200, Expires: time.Now().Add(time.Hour), Body: []byte("User-agent: *\nDisallow: /\n")}); err != nil {
		t.Fatal(err)
	}
	c := newCache(t, Options{Store: db})
	if d := check(t, c, srv.URL+"/open"); !d.Allowed || srv.hits.Load() != 1 {
		t.Errorf("/open: %+v after %d fetches; want allowed by the fetched robots.txt", d, srv.hits.Load())
	}
	// The fetched entry replaced it: a second cache trusts the store.
	c2 := newCache(t, Options{Store: db})
	if d := check(t, c2, srv.URL+"/private/x"); d.Allowed || srv.hits.Load() != 1 {
		t.Errorf("/private/x: %+v after %d fetches; want denied from the store", d, srv.hits.Load())
	}
}

// The requests a Check makes are reported, redirect hops on other hosts
// included, so the caller can count them against those hosts' politeness;
// an answer from the cache reports none.
func TestCheckReportsRequests(t *testing.T) {
	b := newRobotsServer(t, serve(http.StatusOK, "User-agent: *\nDisallow: /secret\n"))
	a := newRobotsServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, b.URL+"/robots.txt", http.StatusMovedPermanently)
	})
	clk := testclock.New()
	c := newCache(t, Options{Now: clk.Now})
	d := check(t, c, a.URL+"/x")
	want := []Request{
		{Host: urlnorm.HostOf(a.URL), At: clk.Now()},
		{Host: urlnorm.HostOf(b.URL), At: clk.Now()},
	}
	if len(d.Requests) != len(want) {
		t.Fatalf("Requests = %+v, want %+v", d.Requests, want)
	}
	for i := range want {
		if d.Requests[i].Host != want[i].Host || !d.Requests[i].At.Equal(want[i].At) {
			t.Errorf("Requests[%d] = %+v, want %+v", i, d.Requests[i], want[i])
		}
	}
	if d := check(t, c, a.URL+"/y"); len(d.Requests) != 0 {
		t.Errorf("a cached answer reports requests %+v", d.Requests)
	}
}
