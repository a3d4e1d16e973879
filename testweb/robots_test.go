package testweb

import (
	"net/url"
	"testing"
	"time"

	"github.com/temoto/robotstxt"
)

func TestMatchRobots(t *testing.T) {
	cases := []struct {
		pattern, target string
		want            bool
	}{
		{"/private/", "/private/x", true},
		{"/private/", "/privatex", false},
		{"/*.pdf$", "/docs/a.pdf", true},
		{"/*.pdf$", "/docs/a.pdf?v=2", false},
		{"/*.pdf", "/docs/a.pdf?v=2", true},
		{"/search*sort=", "/search?q=a&sort=b", true},
		{"/search*sort=", "/search?q=a", false},
		{"/search*sort=", "/x/search?sort=b", false},
		{"/a*b*c$", "/aXbYc", true},
		{"/a*b*c$", "/aXbYcZ", false},
		{"/a*b*c$", "/acbc", true},
		{"/exact$", "/exact", true},
		{"/exact$", "/exactly", false},
		{"*", "/anything", true},
		{"/", "/", true},
	}
	for _, c := range cases {
		if got := matchRobots(c.pattern, c.target); got != c.want {
			t.Errorf("matchRobots(%q, %q) = %v, want %v", c.pattern, c.target, got, c.want)
		}
	}
}

// TestRulesHost checks every rule of rules.test for the tokens it names.
func TestRulesHost(t *testing.T) {
	site := mustGenerate(t, GenOptions{Seed: 1, Pages: 50, Hosts: 2, CrawlDelay: 1500 * time.Millisecond})
	tr, err := site.Truth(0)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		url                       string
		seedcrawl, otherbot, star bool
	}{
		{"http://rules.test/", true, false, true},
		{"http://rules.test/private/secret.html", false, false, false},
		{"http://rules.test/private/open/page.html", true, false, false},
		{"http://rules.test/private/open/manual.pdf", true, false, false},
		{"http://rules.test/docs/report.pdf", false, false, false},
		{"http://rules.test/docs/report.pdf?v=2", true, false, false},
		{"http://rules.test/docs/guide.html", true, false, false},
		{"http://rules.test/search?q=web", true, false, true},
		{"http://rules.test/search?q=web&sort=date", false, false, true},
		{"http://RULES.test:80/search?q=w%65b&sort=date", false, false, true},
		{"http://norobots.test/a.html", true, true, true},
		{"http://robots503.test/", false, false, false},
		{"http://robots503.test/robots.txt", true, true, true},
		{"http://robotsredirect.test/hidden/page.html", false, false, false},
		{"http://robotsredirect.test/shown.html", true, true, true},
		{"http://www.alpha.test/private/x.html", false, false, false},
		{"http://www.alpha.test/news/x.html", true, true, true},
		{"http://elsewhere.example/", false, false, false},
	}
	for _, c := range cases {
		for _, tok := range []struct {
			name string
			want bool
		}{{"seedcrawl", c.seedcrawl}, {"SeedCrawl", c.seedcrawl}, {"examplebot", c.seedcrawl}, {"otherbot", c.otherbot}, {"somebot", c.star}} {
			if got := tr.Allowed(c.url, tok.name); got != tok.want {
				t.Errorf("Allowed(%s, %s) = %v, want %v", c.url, tok.name, got, tok.want)
			}
		}
	}
	if d := tr.CrawlDelay("rules.test", "seedcrawl"); d != 1500*time.Millisecond {
		t.Errorf("Crawl-delay for seedcrawl = %v, want 1.5s", d)
	}
	if d := tr.CrawlDelay("rules.test", "somebot"); d != 1500*time.Millisecond {
		t.Errorf("Crawl-delay for somebot = %v, want 1.5s", d)
	}
	if d := tr.CrawlDelay("www.alpha.test", "seedcrawl"); d != 0 {
		t.Errorf("Crawl-delay of a regular host = %v, want 0", d)
	}
}

// TestRobotsAgreeWithLibrary checks the truth's own RFC 9309 matcher
// against temoto/robotstxt (a widely used Go library; the crawler itself
// uses package robots' matcher) on every URL of a hostile web, for several
// tokens, fetching the robots.txt files over HTTP the way a crawler does.
func TestRobotsAgreeWithLibrary(t *testing.T) {
	site := mustGenerate(t, GenOptions{Seed: 4, Pages: 300, Hosts: 10})
	w, srv := startWeb(t, site, testOptions())
	tr := w.Truth()
	c := srv.Client()
	data := map[string]*robotstxt.RobotsData{}
	for _, u := range tr.Graph.URLs {
		pu, _ := url.Parse(u)
		origin := pu.Scheme + "://" + pu.Host
		d, ok := data[origin]
		if !ok {
			loc := origin + "/robots.txt"
			for {
				status, hdr, body := fetch(t, c, loc)
				if status/100 == 3 {
					loc = hdr.Get("Location")
					continue
				}
				var err error
				if d, err = robotstxt.FromStatusAndBytes(status, body); err != nil {
					t.Fatalf("robots.txt of %s: %v", origin, err)
				}
				break
			}
			data[origin] = d
		}
		target := pu.EscapedPath()
		if pu.RawQuery != "" {
			target += "?" + pu.RawQuery
		}
		for _, tok := range []string{"seedcrawl", "otherbot", "examplebot", "somebot"} {
			if got, want := tr.Allowed(u, tok), d.TestAgent(target, tok+"/2.0 (+https://example.test)"); got != want {
				t.Errorf("%s for %s: truth says %v, robotstxt says %v", u, tok, got, want)
			}
		}
	}
	if len(data) < 15 {
		t.Fatalf("only %d origins checked", len(data))
	}
}
