package fetch

import (
	"context"
	"os"
	"strings"
	"testing"
)

// collyEnv is every variable colly v2.3.0 reads in NewCollector (its
// envMap in colly.go), each set to a value that would change a fetch.
var collyEnv = map[string]string{
	"COLLY_ALLOWED_DOMAINS":           "elsewhere.invalid",
	"COLLY_CACHE_DIR":                 "", // set per test to a temp dir
	"COLLY_DETECT_CHARSET":            "yes",
	"COLLY_DISABLE_COOKIES":           "yes",
	"COLLY_DISALLOWED_DOMAINS":        "127.0.0.1",
	"COLLY_IGNORE_ROBOTSTXT":          "no",
	"COLLY_FOLLOW_REDIRECTS":          "yes",
	"COLLY_MAX_BODY_SIZE":             "100",
	"COLLY_MAX_DEPTH":                 "1",
	"COLLY_MAX_REQUESTS":              "1",
	"COLLY_PARSE_HTTP_ERROR_RESPONSE": "no",
	"COLLY_TRACE_HTTP":                "yes",
	"COLLY_USER_AGENT":                "hijacked/1.0",
}

// TestCollyEnvironmentIgnored sets every COLLY_* variable colly reads and
// checks fetches behave exactly as without them: full bodies, truncation
// reported, no cache, our User-Agent, error statuses and redirects
// returned, charset left alone, more than one request.
func TestCollyEnvironmentIgnored(t *testing.T) {
	cache := t.TempDir()
	for k, v := range collyEnv {
		if k == "COLLY_CACHE_DIR" {
			v = cache
		}
		t.Setenv(k, v)
	}
	s := newTestServer(t, 4<<10)
	f := newFetcher(t, Options{MaxBody: 2 << 10})
	for round := 0; round < 2; round++ { // the second round would hit the cache
		r := fetch(t, f, s.URL+"/html")
		if r.Err != nil || r.Code != 200 || string(r.Body) != page {
			t.Fatalf("round %d /html: code %d err %v body %q", round, r.Code, r.Err, r.Body)
		}
		r = fetch(t, f, s.URL+"/big")
		if r.Err != nil || !r.Truncated || len(r.Body) != 2<<10 {
			t.Fatalf("round %d /big: err %v truncated %v body %d", round, r.Err, r.Truncated, len(r.Body))
		}
		if r := fetch(t, f, s.URL+"/missing"); r.Err != nil || r.Code != 404 {
			t.Fatalf("round %d /missing: code %d err %v", round, r.Code, r.Err)
		}
		if r := fetch(t, f, s.URL+"/redirect/301"); r.Err != nil || r.Code != 301 || r.Location == "" {
			t.Fatalf("round %d redirect: code %d err %v location %q", round, r.Code, r.Err, r.Location)
		}
		if r := fetch(t, f, s.URL+"/latin1"); r.Err != nil || string(r.Body) != "<title>caf\xe9</title>" {
			t.Fatalf("round %d /latin1: err %v body %q", round, r.Err, r.Body)
		}
	}
	if ua := s.header("/html").Get("User-Agent"); !strings.HasPrefix(ua, "seedcrawl/") {
		t.Errorf("User-Agent %q", ua)
	}
	if ents, err := os.ReadDir(cache); err != nil || len(ents) != 0 {
		t.Errorf("cache dir has %d entries (err %v)", len(ents), err)
	}
	// The same holds for a Fetcher built after the variables changed.
	t.Setenv("COLLY_MAX_BODY_SIZE", "1")
	r := newFetcher(t, Options{}).Fetch(context.Background(), Request{URL: s.URL + "/html"})
	if string(r.Body) != page {
		t.Fatalf("body %q", r.Body)
	}
}
