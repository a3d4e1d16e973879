package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/robots"
)

// robotsSite is one loopback origin of the robots.txt archiving tests:
// its robots.txt answers as robots says, and its front page links to
// /private, which a 200 robots.txt disallows, and /open.
type robotsSite struct {
	name     string
	srv      *httptest.Server
	robots   atomic.Int64 // requests for /robots.txt and its redirect target
	fetched  atomic.Int64 // requests for /private
	body     string       // the robots.txt body served with a 200
	redirect bool         // /robots.txt answers 301 to /real-robots.txt
	status   int          // the status of the robots.txt answer (after the redirect)
}

func newRobotsSite(t *testing.T, name string, status int, body string, redirect bool) *robotsSite {
	// Each body its own, so that none is archived as a revisit of another.
	body = "# " + name + "\n" + body
	s := &robotsSite{name: name, body: body, status: status, redirect: redirect}
	mux := http.NewServeMux()
	serve := func(w http.ResponseWriter, r *http.Request) {
		s.robots.Add(1)
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(s.status)
		io.WriteString(w, s.body)
	}
	if redirect {
		mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
			s.robots.Add(1)
			http.Redirect(w, r, "/real-robots.txt", http.StatusMovedPermanently)
		})
		mux.HandleFunc("/real-robots.txt", serve)
	} else {
		mux.HandleFunc("/robots.txt", serve)
	}
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<html><body><a href="/private">p</a> <a href="/open">o</a></body></html>`)
	})
	mux.HandleFunc("/private", func(w http.ResponseWriter, r *http.Request) {
		s.fetched.Add(1)
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html><body>private</body></html>")
	})
	mux.HandleFunc("/open", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html><body>open "+name+"</body></html>")
	})
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

// robotsSites starts the four origins: robots.txt answering 200 with
// rules, 404, 301 to a 200 with rules, and 200 with a body longer than
// robots.DefaultMaxSize, whose rules come after the cut.
func robotsSites(t *testing.T) []*robotsSite {
	rules := "User-agent: *\nDisallow: /private\n"
	big := strings.Repeat("# a comment line to make the file long\n", robots.DefaultMaxSize/38+100) + rules
	return []*robotsSite{
		newRobotsSite(t, "ok", http.StatusOK, rules, false),
		newRobotsSite(t, "missing", http.StatusNotFound, "no robots here", false),
		newRobotsSite(t, "moved", http.StatusOK, rules, true),
		newRobotsSite(t, "big", http.StatusOK, big, false),
	}
}

func robotsCrawlConfig(t *testing.T, sites []*robotsSite) config.Config {
	cfg := config.Default()
	cfg.DB = filepath.Join(t.TempDir(), "r.db")
	for _, s := range sites {
		cfg.Seeds = append(cfg.Seeds, s.srv.URL+"/")
	}
	cfg.Workers = 2
	cfg.Delay = 0
	cfg.DelayFactor = 0
	return cfg
}

// TestCrawlWARCRobots crawls four origins with --warc and checks that
// each robots.txt exchange, the redirect hop included, is in the WARC
// files as a request and a response record for its URL, with the status
// and payload the server sent (a cut one marked WARC-Truncated), and in
// the CDXJ index; and that the rules were obeyed as without --warc.
func TestCrawlWARCRobots(t *testing.T) {
	sites := robotsSites(t)
	cfg := robotsCrawlConfig(t, sites)
	cfg.WARC = filepath.Join(t.TempDir(), "warc")
	crawlRun(t, cfg, crawlExtras{})

	files := warcFiles(t, cfg.WARC)
	recs := warcReadAll(t, files)
	responses := map[string][]warcRec{}
	requests := map[string]warcRec{} // by record id
	for _, r := range recs {
		switch r.get("WARC-Type") {
		case "response", "revisit":
			u := r.get("WARC-Target-URI")
			responses[u] = append(responses[u], r)
		case "request":
			requests[r.get("WARC-Record-ID")] = r
		}
	}
	indexed := map[string]string{} // URL → status, from the CDXJ files
	for _, f := range files {
		b, err := os.ReadFile(strings.TrimSuffix(f, ".warc.gz") + ".cdxj")
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var e struct{ URL, Status string }
			if _, js, ok := strings.Cut(line[strings.IndexByte(line, ' ')+1:], " "); !ok || json.Unmarshal([]byte(js), &e) != nil {
				t.Fatalf("%s: bad CDXJ line %q", f, line)
			}
			indexed[e.URL] = e.Status
		}
	}

	type want struct {
		path      string
		status    int
		payload   string
		truncated string
	}
	for _, s := range sites {
		exchanges := []want{{"/robots.txt", s.status, s.body, ""}}
		switch {
		case s.redirect:
			exchanges = []want{{"/robots.txt", http.StatusMovedPermanently, "", ""}, {"/real-robots.txt", s.status, s.body, ""}}
		case len(s.body) > robots.DefaultMaxSize:
			exchanges[0].truncated = "length"
		}
		for _, w := range exchanges {
			u := s.srv.URL + w.path
			rs := responses[u]
			if len(rs) != 1 {
				t.Errorf("%s: %d response records, want 1", u, len(rs))
				continue
			}
			r := rs[0]
			req, ok := requests[r.get("WARC-Concurrent-To")]
			if !ok || req.get("WARC-Target-URI") != u || !bytes.HasPrefix(req.block, []byte("GET "+w.path+" HTTP/1.1\r\n")) {
				t.Errorf("%s: request record %q for %s, starting %q", u, req.get("WARC-Target-URI"), r.get("WARC-Record-ID"), firstLine(req.block))
			}
			resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(r.block)), nil)
			if err != nil {
				t.Errorf("%s: response record: %v", u, err)
				continue
			}
			payload, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != w.status {
				t.Errorf("%s: status %d in the WARC, want %d", u, resp.StatusCode, w.status)
			}
			if got := r.get("WARC-Truncated"); got != w.truncated {
				t.Errorf("%s: WARC-Truncated %q, want %q", u, got, w.truncated)
			}
			switch {
			case w.truncated != "":
				if len(payload) <= robots.DefaultMaxSize || !strings.HasPrefix(w.payload, string(payload)) || len(payload) == len(w.payload) {
					t.Errorf("%s: truncated payload of %d bytes, want a prefix of the %d sent, longer than the %d read",
						u, len(payload), len(w.payload), robots.DefaultMaxSize)
				}
			case w.payload != "" && string(payload) != w.payload:
				t.Errorf("%s: payload %q, want %q", u, payload, w.payload)
			}
			if st, ok := indexed[u]; !ok || st != strconv.Itoa(w.status) {
				t.Errorf("%s: CDXJ status %q (indexed %v), want %d", u, st, ok, w.status)
			}
		}
	}
	robotsObeyed(t, sites)
}

// TestCrawlRobotsWithoutWARC crawls the same origins without --warc: the
// same robots.txt requests are made, the same rules obeyed, and no WARC
// file is written.
func TestCrawlRobotsWithoutWARC(t *testing.T) {
	sites := robotsSites(t)
	cfg := robotsCrawlConfig(t, sites)
	crawlRun(t, cfg, crawlExtras{})
	robotsObeyed(t, sites)
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(cfg.DB), "*.warc.gz")); len(m) > 0 {
		t.Errorf("WARC files without --warc: %v", m)
	}
}

// robotsObeyed checks that each site's robots.txt was asked for once (the
// redirect and its target once each) and its rules obeyed: /private is
// fetched unless a robots.txt read whole disallows it.
func robotsObeyed(t *testing.T, sites []*robotsSite) {
	t.Helper()
	for _, s := range sites {
		wantRobots, wantPrivate := int64(1), int64(1)
		if s.redirect {
			wantRobots = 2
		}
		if s.status == http.StatusOK && len(s.body) <= robots.DefaultMaxSize {
			wantPrivate = 0
		}
		if n := s.robots.Load(); n != wantRobots {
			t.Errorf("%s: %d robots.txt requests, want %d", s.name, n, wantRobots)
		}
		if n := s.fetched.Load(); n != wantPrivate {
			t.Errorf("%s: /private fetched %d times, want %d", s.name, n, wantPrivate)
		}
	}
}
