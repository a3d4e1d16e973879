package testweb

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"image/png"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/testclock"
)

// TestDeterminism starts two servers from the same seed and checks every
// URL of the web answers with identical status, headers and bytes; a
// different seed gives different pages.
func TestDeterminism(t *testing.T) {
	opts := GenOptions{Seed: 42, Pages: 300, Hosts: 6}
	_, a := startWeb(t, mustGenerate(t, opts), testOptions())
	_, b := startWeb(t, mustGenerate(t, opts), testOptions())
	opts.Seed = 43
	_, other := startWeb(t, mustGenerate(t, opts), testOptions())
	truth := a.Web().Truth()
	ca, cb, co := a.Client(), b.Client(), other.Client()
	var urls []string
	for _, h := range a.Web().Site().Hosts() {
		urls = append(urls, h.Scheme+"://"+h.Name+"/robots.txt")
	}
	for v, u := range truth.Graph.URLs {
		switch truth.Nodes[v].Kind {
		case KindDrop, KindBomb, KindHuge:
			continue
		}
		if strings.HasPrefix(u, "http://flaky.test") || strings.HasPrefix(u, "http://ratelimit.test") {
			continue // answers depend on request order and timing
		}
		urls = append(urls, u)
	}
	differ := 0
	for _, u := range urls {
		sa, ha, ba := fetch(t, ca, u)
		sb, hb, bb := fetch(t, cb, u)
		if sa != sb || !bytes.Equal(ba, bb) || !equalHeaders(ha, hb) {
			t.Fatalf("%s differs between two servers with the same seed:\n%d %v\n%d %v", u, sa, ha, sb, hb)
		}
		if want := EpochTime(a.Web().Epoch()).Format(http.TimeFormat); ha.Get("Date") != want {
			t.Fatalf("%s has Date %q, want the epoch's %q", u, ha.Get("Date"), want)
		}
		if _, _, bo := fetch(t, co, u); !bytes.Equal(ba, bo) {
			differ++
		}
	}
	if differ < len(urls)/2 {
		t.Errorf("only %d of %d URLs differ with another seed", differ, len(urls))
	}
}

func equalHeaders(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if strings.Join(v, "\x00") != strings.Join(b[k], "\x00") {
			return false
		}
	}
	return true
}

func TestRobotsAndRedirects(t *testing.T) {
	_, srv := startWeb(t, mustGenerate(t, GenOptions{Seed: 1, Pages: 100, Hosts: 5}), testOptions())
	c := srv.Client()
	cases := []struct {
		url      string
		status   int
		location string
		body     string
	}{
		{"http://rules.test/robots.txt", 200, "", "Crawl-delay: 0.5\n"},
		{"http://norobots.test/robots.txt", 404, "", ""},
		{"http://robots503.test/robots.txt", 503, "", ""},
		{"http://robotsredirect.test/robots.txt", 301, "http://norobots.test/robots-for-robotsredirect.txt", ""},
		{"http://norobots.test/robots-for-robotsredirect.txt", 200, "", "Disallow: /hidden/\n"},
		{"http://www.alpha.test/robots.txt", 200, "", "Disallow: /private/\n"},
		{"http://www.echo.test/robots.txt", 404, "", ""},
		{"http://redirects.test/r/301", 301, "http://redirects.test/target/301.html", ""},
		{"http://redirects.test/r/302", 302, "http://redirects.test/target/302.html", ""},
		{"http://redirects.test/r/307", 307, "http://redirects.test/target/307.html", ""},
		{"http://redirects.test/r/308", 308, "http://redirects.test/target/308.html", ""},
		{"http://redirects.test/chain/1", 301, "http://redirects.test/chain/2", ""},
		{"http://redirects.test/chain/2", 301, "/chain/3", ""},
		{"http://redirects.test/chain/3", 302, "http://redirects.test/chain/4", ""},
		{"http://redirects.test/chain/4", 307, "http://redirects.test/target/chain.html", ""},
		{"http://redirects.test/away", 302, "http://norobots.test/b.html", ""},
		{"http://redirects.test/loop/a", 301, "http://redirects.test/loop/b", ""},
		{"http://redirects.test/loop/b", 301, "http://redirects.test/loop/a", ""},
		{"http://redirects.test/missing.html", 404, "", ""},
		{"http://redirects.test/removed.html", 410, "", ""},
		{"http://secure.test/", 301, "https://secure.test/", ""},
		{"http://secure.test/1.html", 301, "https://secure.test/1.html", ""},
		{"https://secure.test/1.html", 200, "", "<html"},
		{"https://www.alpha.test/", 301, "http://www.alpha.test/", ""},
		{"http://www.alpha.test/no/such/page.html", 404, "", ""},
	}
	for _, c0 := range cases {
		status, hdr, body := fetch(t, c, c0.url)
		if status != c0.status {
			t.Errorf("GET %s: status %d, want %d", c0.url, status, c0.status)
		}
		if loc := hdr.Get("Location"); loc != c0.location {
			t.Errorf("GET %s: Location %q, want %q", c0.url, loc, c0.location)
		}
		if !bytes.Contains(body, []byte(c0.body)) {
			t.Errorf("GET %s: body lacks %q:\n%s", c0.url, c0.body, body)
		}
	}
	// Hosts are matched case-insensitively, with or without the port.
	req, _ := http.NewRequest("GET", "http://"+srv.HTTPAddr()+"/", nil)
	req.Host = "WWW.Alpha.TEST:80"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("mixed-case Host header: status %d", resp.StatusCode)
	}
	req.Host = "nowhere.test"
	if resp, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("unknown host: status %d, want 404", resp.StatusCode)
	}
	// https speaks HTTP/2.
	resp, err = c.Get("https://secure.test/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.ProtoMajor != 2 {
		t.Errorf("https protocol %s, want HTTP/2", resp.Proto)
	}
}

func TestServerBehaviours(t *testing.T) {
	clk := testclock.New()
	o := testOptions()
	o.SlowLatency = 60 * time.Millisecond
	o.RateInterval = 300 * time.Millisecond
	o.Now = clk.Now
	w, srv := startWeb(t, mustGenerate(t, GenOptions{Seed: 1, Pages: 100, Hosts: 4}), o)
	c := srv.Client()

	t.Run("slow", func(t *testing.T) {
		for _, u := range []string{"http://slow.test/robots.txt", "http://slow.test/1.html"} {
			start := time.Now()
			if status, _, _ := fetch(t, c, u); status != 200 {
				t.Fatalf("GET %s: %d", u, status)
			}
			if d := time.Since(start); d < o.SlowLatency {
				t.Errorf("GET %s took %v, want at least %v", u, d, o.SlowLatency)
			}
		}
	})
	t.Run("flaky", func(t *testing.T) {
		var got []int
		for range 8 {
			s, _, _ := fetch(t, c, "http://flaky.test/1.html")
			got = append(got, s/100)
		}
		want := []int{5, 5, 2, 2, 5, 5, 2, 2}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("status classes %v, want %v", got, want)
			}
		}
		if s, _, _ := fetch(t, c, "http://flaky.test/robots.txt"); s != 200 {
			t.Errorf("flaky robots.txt: %d, want 200", s)
		}
	})
	t.Run("ratelimit", func(t *testing.T) {
		clk.Advance(o.RateInterval)
		if s, _, _ := fetch(t, c, "http://ratelimit.test/1.html"); s != 200 {
			t.Fatalf("first request: %d", s)
		}
		s, hdr, _ := fetch(t, c, "http://ratelimit.test/2.html")
		if s != 429 {
			t.Fatalf("second request at once: %d, want 429", s)
		}
		if ra, err := strconv.Atoi(hdr.Get("Retry-After")); err != nil || ra < 1 {
			t.Fatalf("Retry-After %q, want whole seconds >= 1", hdr.Get("Retry-After"))
		}
		if s, _, _ := fetch(t, c, "http://ratelimit.test/robots.txt"); s != 200 {
			t.Errorf("robots.txt is rate limited: %d", s)
		}
		clk.Advance(o.RateInterval)
		if s, _, _ := fetch(t, c, "http://ratelimit.test/2.html"); s != 200 {
			t.Fatalf("after the interval: %d", s)
		}
	})
	t.Run("drop", func(t *testing.T) {
		for _, u := range []string{"http://drop.test/1.html", "http://drop.test/2.html"} {
			resp, err := c.Get(u)
			if err == nil {
				var n int64
				n, err = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err == nil {
					t.Fatalf("GET %s: read %d bytes without error", u, n)
				}
				if resp.ContentLength <= n {
					t.Errorf("GET %s: Content-Length %d, read %d", u, resp.ContentLength, n)
				}
			}
		}
	})
	t.Run("trap", func(t *testing.T) {
		tr := w.Truth()
		seen := map[string]bool{}
		for _, start := range []string{"http://trap.test/calendar/2025/01/", "http://trap.test/deep/"} {
			u := start
			for i := 0; i < 40; i++ {
				status, _, body := fetch(t, c, u)
				if status != 200 || !tr.IsTrap(u) || seen[u] {
					t.Fatalf("trap step %d at %s: status %d, IsTrap %v, seen %v", i, u, status, tr.IsTrap(u), seen[u])
				}
				seen[u] = true
				links := extractLinks(t, mustURL(t, u), body)
				if len(links) < 2 {
					t.Fatalf("trap page %s has links %v", u, links)
				}
				u = links[len(links)-2] // next month, or one level deeper
			}
		}
		for _, u := range []string{"http://trap.test/calendar/2025/1/", "http://trap.test/calendar/2025/13/", "http://trap.test/deep/other/"} {
			if s, _, _ := fetch(t, c, u); s != 404 || tr.IsTrap(u) {
				t.Errorf("GET %s: %d, IsTrap %v; want 404, false", u, s, tr.IsTrap(u))
			}
		}
	})
	t.Run("huge", func(t *testing.T) {
		status, hdr, body := fetch(t, c, "http://big.test/huge.html")
		if status != 200 || int64(len(body)) != o.HugeSize || hdr.Get("Content-Length") != strconv.FormatInt(o.HugeSize, 10) {
			t.Fatalf("huge page: status %d, %d bytes, Content-Length %s; want %d", status, len(body), hdr.Get("Content-Length"), o.HugeSize)
		}
		if bytes.Contains(body, []byte("<a ")) || !bytes.HasSuffix(body, []byte("</html>\n")) {
			t.Errorf("huge page has links or lacks its end")
		}
	})
	t.Run("bomb", func(t *testing.T) {
		status, hdr, body := fetch(t, c, "http://big.test/bomb.html", "Accept-Encoding", "identity")
		if status != 200 || hdr.Get("Content-Encoding") != "gzip" {
			t.Fatalf("bomb: status %d, Content-Encoding %q", status, hdr.Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, zr)
		if err != nil || n != o.BombSize {
			t.Fatalf("bomb decompresses to %d bytes (%v), want %d", n, err, o.BombSize)
		}
		if ratio := float64(n) / float64(len(body)); ratio < 500 {
			t.Errorf("bomb ratio %.0f:1, want at least 500:1", ratio)
		}
	})
	t.Run("resources", func(t *testing.T) {
		cases := map[string]string{
			"http://www.alpha.test/static/logo.png":  "image/png",
			"http://www.alpha.test/static/site.css":  "text/css; charset=utf-8",
			"http://www.alpha.test/files/report.pdf": "application/pdf",
			"http://rules.test/docs/report.pdf?v=2":  "application/pdf",
		}
		for u, ct := range cases {
			status, hdr, body := fetch(t, c, u)
			if status != 200 || hdr.Get("Content-Type") != ct || hdr.Get("ETag") == "" {
				t.Errorf("GET %s: %d %q ETag %q; want 200 %q", u, status, hdr.Get("Content-Type"), hdr.Get("ETag"), ct)
			}
			switch ct {
			case "image/png":
				if _, err := png.DecodeConfig(bytes.NewReader(body)); err != nil {
					t.Errorf("%s is not a PNG: %v", u, err)
				}
			case "application/pdf":
				if !bytes.HasPrefix(body, []byte("%PDF-")) {
					t.Errorf("%s is not a PDF", u)
				}
			}
		}
	})
}

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestConditionalGET(t *testing.T) {
	w, srv := startWeb(t, mustGenerate(t, GenOptions{Seed: 7, Pages: 100, Hosts: 4}), testOptions())
	c := srv.Client()
	tr := w.Truth()
	for _, u := range []string{"http://www.alpha.test/", "http://www.alpha.test/static/logo.png", "http://big.test/bomb.html", "http://trap.test/deep/sub/"} {
		status, hdr, _ := fetch(t, c, u)
		etag, lm := hdr.Get("ETag"), hdr.Get("Last-Modified")
		if status != 200 || etag == "" || lm == "" {
			t.Fatalf("GET %s: %d ETag %q Last-Modified %q", u, status, etag, lm)
		}
		if id, ok := tr.ID(u); ok && tr.Nodes[id].Kind != KindTrap {
			if tr.Nodes[id].ETag != etag || tr.LastModified(id) != lm {
				t.Errorf("%s: served ETag %s, Last-Modified %s; truth %s, %s", u, etag, lm, tr.Nodes[id].ETag, tr.LastModified(id))
			}
		}
		lmTime, _ := http.ParseTime(lm)
		before := lmTime.Add(-time.Second).Format(http.TimeFormat)
		after := lmTime.Add(time.Hour).Format(http.TimeFormat)
		cases := []struct {
			name string
			hdr  []string
			want int
		}{
			{"etag", []string{"If-None-Match", etag}, 304},
			{"weak etag in list", []string{"If-None-Match", `"nope", W/` + etag}, 304},
			{"star", []string{"If-None-Match", "*"}, 304},
			{"other etag", []string{"If-None-Match", `"nope"`}, 200},
			{"same date", []string{"If-Modified-Since", lm}, 304},
			{"later date", []string{"If-Modified-Since", after}, 304},
			{"earlier date", []string{"If-Modified-Since", before}, 200},
			{"bad date", []string{"If-Modified-Since", "yesterday"}, 200},
			{"etag wins over date", []string{"If-None-Match", `"nope"`, "If-Modified-Since", lm}, 200},
		}
		for _, cc := range cases {
			s, h, body := fetch(t, c, u, cc.hdr...)
			if s != cc.want {
				t.Errorf("%s %s: status %d, want %d", u, cc.name, s, cc.want)
			}
			if s == 304 && (len(body) != 0 || h.Get("ETag") != etag) {
				t.Errorf("%s %s: 304 with %d body bytes and ETag %q", u, cc.name, len(body), h.Get("ETag"))
			}
		}
	}
}

func TestAccessLog(t *testing.T) {
	var buf lockedBuffer
	var rec Recorder
	o := testOptions()
	o.AccessLog = &buf
	o.OnRequest = rec.Add
	_, srv := startWeb(t, mustGenerate(t, GenOptions{Seed: 1, Pages: 50, Hosts: 2}), o)
	c := srv.Client()
	urls := []string{"http://www.alpha.test/robots.txt", "http://www.alpha.test/", "http://redirects.test/r/301",
		"https://secure.test/", "http://www.alpha.test/nope", "http://drop.test/1.html"}
	for _, u := range urls {
		req, _ := http.NewRequest("GET", u, nil)
		req.Header.Set("User-Agent", "tester/1.0\t(tab)")
		if resp, err := c.Do(req); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	srv.Close()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	entries := rec.Entries()
	if len(lines) != len(urls) || len(entries) != len(urls) {
		t.Fatalf("%d log lines and %d entries for %d requests:\n%s", len(lines), len(entries), len(urls), buf.String())
	}
	wantStatus := []int{200, 200, 301, 200, 404, 200}
	var last time.Duration
	for i, line := range lines {
		e, err := ParseEntry(line)
		if err != nil {
			t.Fatal(err)
		}
		if e.String() != entries[i].String() {
			t.Errorf("line %d parses to %+v, recorder has %+v", i, e, entries[i])
		}
		if e.URL() != urls[i] && !strings.HasSuffix(urls[i], "/") {
			t.Errorf("entry %d URL %s, want %s", i, e.URL(), urls[i])
		}
		if e.Status != wantStatus[i] || e.UserAgent != "tester/1.0 (tab)" || e.Method != "GET" || e.Time < last {
			t.Errorf("entry %d = %+v", i, e)
		}
		last = e.Time
	}
	if d := entries[5]; d.Bytes == 0 {
		t.Errorf("dropped page logged %d bytes", d.Bytes)
	}
	if _, err := ParseEntry("1\thttp\tx"); err == nil {
		t.Error("ParseEntry accepted a short line")
	}
}

// TestWaitIdleAndRecorderWait: Recorder.Wait returns once the n-th
// request is logged; WaitIdle returns only once the client's connections
// are gone, with every request it made logged.
func TestWaitIdleAndRecorderWait(t *testing.T) {
	var rec Recorder
	o := testOptions()
	o.OnRequest = rec.Add
	_, srv := startWeb(t, mustGenerate(t, GenOptions{Seed: 1, Pages: 50, Hosts: 2}), o)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := srv.Client()
	urls := []string{"http://www.alpha.test/", "https://secure.test/", "http://www.alpha.test/nope"}
	got := make(chan int, 1)
	go func() {
		n, _ := rec.Wait(ctx, len(urls))
		got <- n
	}()
	for _, u := range urls {
		fetch(t, c, u)
	}
	if n := <-got; n != len(urls) {
		t.Fatalf("Wait returned at %d entries, want %d", n, len(urls))
	}
	done, stop := context.WithCancel(context.Background())
	stop()
	if n, err := rec.Wait(done, len(urls)+1); !errors.Is(err, context.Canceled) || n != len(urls) {
		t.Errorf("Wait for more with a canceled ctx = %d, %v", n, err)
	}
	// Keep-alive connections stay open after the answers: not idle yet.
	if err := srv.WaitIdle(done); !errors.Is(err, context.Canceled) {
		t.Errorf("WaitIdle with open connections = %v, want context.Canceled", err)
	}
	c.CloseIdleConnections()
	if err := srv.WaitIdle(ctx); err != nil {
		t.Fatalf("WaitIdle after the client closed its connections: %v", err)
	}
	if n := len(rec.Entries()); n != len(urls) {
		t.Errorf("%d entries logged, want %d", n, len(urls))
	}
}

// TestContextStopsServer checks that cancelling the context closes the
// listeners.
func TestContextStopsServer(t *testing.T) {
	w, err := New(mustGenerate(t, GenOptions{Seed: 1, Pages: 20, Hosts: 2, Preset: Clean}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := w.Start(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case <-srv.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("server still running 5s after cancel")
	}
	if _, err := http.Get("http://" + srv.HTTPAddr() + "/"); err == nil {
		t.Error("server still answers after cancel")
	}
}

// lockedBuffer is a bytes.Buffer safe for concurrent writers.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestDefaultSizes checks the default sizes of the huge page and the bomb
// with HEAD requests, which send no body.
func TestDefaultSizes(t *testing.T) {
	_, srv := startWeb(t, mustGenerate(t, GenOptions{Seed: 1, Pages: 20, Hosts: 2}), Options{})
	c := srv.Client()
	for _, tc := range []struct {
		url      string
		min, max int64
	}{
		{"http://big.test/huge.html", 50 << 20, 50 << 20},
		{"http://big.test/bomb.html", 1 << 10, 2 << 20}, // 1 GiB decompressed, about 1 MiB on the wire
		{"http://www.alpha.test/", 100, 1 << 20},
	} {
		resp, err := c.Head(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.ContentLength < tc.min || resp.ContentLength > tc.max || n != 0 {
			t.Errorf("HEAD %s: %d, Content-Length %d (want %d..%d), %d body bytes", tc.url, resp.StatusCode, resp.ContentLength, tc.min, tc.max, n)
		}
	}
}
