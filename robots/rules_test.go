package robots

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/temoto/robotstxt"
)

type pathCase struct {
	path  string
	allow bool
}

func runRules(t *testing.T, body, token string, cases []pathCase) {
	t.Helper()
	g := parse([]byte(body)).group(token)
	for _, c := range cases {
		if got := g.allowed(c.path); got != c.allow {
			t.Errorf("allowed(%q) = %v, want %v", c.path, got, c.allow)
		}
	}
}

func TestRules(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		token string
		cases []pathCase
	}{
		{"empty file allows all", "", "seedcrawl", []pathCase{{"/", true}, {"/x", true}}},
		{"disallow all for star", "User-agent: *\nDisallow: /\n", "seedcrawl",
			[]pathCase{{"/", false}, {"/x", false}, {"/robots.txt", true}}},
		{"our group beats star", "User-agent: *\nDisallow: /\n\nUser-agent: seedcrawl\nDisallow: /private\n", "seedcrawl",
			[]pathCase{{"/", true}, {"/private/x", false}, {"/public", true}}},
		{"token match is case-insensitive", "User-agent: SeedCrawl\nDisallow: /x\n", "seedcrawl",
			[]pathCase{{"/x", false}}},
		{"token with version in file", "User-agent: seedcrawl/2.0\nDisallow: /x\n", "seedcrawl",
			[]pathCase{{"/x", false}}},
		{"prefix of our token is not us", "User-agent: seed\nDisallow: /\n", "seedcrawl",
			[]pathCase{{"/", true}}},
		{"other bot group ignored", "User-agent: otherbot\nDisallow: /\n", "seedcrawl",
			[]pathCase{{"/", true}}},
		{"groups for us are merged", "User-agent: seedcrawl\nDisallow: /a\n\nUser-agent: other\nDisallow: /b\n\nUser-agent: seedcrawl\nDisallow: /c\n", "seedcrawl",
			[]pathCase{{"/a", false}, {"/b", true}, {"/c", false}}},
		{"star groups are merged", "User-agent: *\nDisallow: /a\nUser-agent: *\nDisallow: /c\n", "seedcrawl",
			[]pathCase{{"/a", false}, {"/c", false}, {"/b", true}}},
		{"several agents share a group", "User-agent: a\nUser-agent: seedcrawl\nUser-agent: b\nDisallow: /x\n", "seedcrawl",
			[]pathCase{{"/x", false}}},
		{"blank lines do not split agents", "User-agent: a\n\nUser-agent: seedcrawl\nDisallow: /x\n", "seedcrawl",
			[]pathCase{{"/x", false}}},
		{"longest match wins (allow longer)", "User-agent: *\nDisallow: /folder\nAllow: /folder/page\n", "seedcrawl",
			[]pathCase{{"/folder/page", true}, {"/folder/other", false}}},
		{"longest match wins (disallow longer)", "User-agent: *\nAllow: /folder\nDisallow: /folder/page\n", "seedcrawl",
			[]pathCase{{"/folder/page", false}, {"/folder/other", true}}},
		{"order does not matter", "User-agent: *\nAllow: /folder/page\nDisallow: /folder\n", "seedcrawl",
			[]pathCase{{"/folder/page", true}, {"/folder/x", false}}},
		{"tie goes to allow", "User-agent: *\nDisallow: /page\nAllow: /page\n", "seedcrawl",
			[]pathCase{{"/page", true}}},
		{"tie with wildcards goes to allow", "User-agent: *\nDisallow: /*.x\nAllow: /a*x\n", "seedcrawl",
			[]pathCase{{"/a.x", true}}},
		{"star wildcard", "User-agent: *\nDisallow: /*.pdf\n", "seedcrawl",
			[]pathCase{{"/a/b.pdf", false}, {"/b.pdf?x", false}, {"/b.html", true}}},
		{"dollar anchors end", "User-agent: *\nDisallow: /*.pdf$\n", "seedcrawl",
			[]pathCase{{"/a.pdf", false}, {"/a.pdf?x=1", true}, {"/a.pdfx", true}}},
		{"dollar without star", "User-agent: *\nDisallow: /exact$\n", "seedcrawl",
			[]pathCase{{"/exact", false}, {"/exact/more", true}, {"/x/exact", true}}},
		{"patterns are anchored at the start", "User-agent: *\nDisallow: /a*b\n", "seedcrawl",
			[]pathCase{{"/x/a/b", true}, {"/a/b", false}}},
		{"star in the middle backtracks", "User-agent: *\nDisallow: /a*b*c$\n", "seedcrawl",
			[]pathCase{{"/abbbc", false}, {"/a-b-c-b-c", false}, {"/abcx", true}}},
		{"trailing star is a no-op", "User-agent: *\nDisallow: /fish*\n", "seedcrawl",
			[]pathCase{{"/fish", false}, {"/fishheads", false}, {"/Fish", true}}},
		{"paths are case-sensitive", "User-agent: *\nDisallow: /Private\n", "seedcrawl",
			[]pathCase{{"/private", true}, {"/Private", false}}},
		{"query is matched", "User-agent: *\nDisallow: /*?sessionid=\n", "seedcrawl",
			[]pathCase{{"/a?sessionid=1", false}, {"/a?x=1", true}}},
		{"empty disallow is ignored", "User-agent: *\nDisallow:\n", "seedcrawl",
			[]pathCase{{"/", true}, {"/x", true}}},
		{"percent-encoding normalized (utf-8 rule)", "User-agent: *\nDisallow: /ä\n", "seedcrawl",
			[]pathCase{{"/%C3%A4", false}, {"/%c3%a4x", false}, {"/a", true}}},
		{"percent-encoding normalized (unreserved)", "User-agent: *\nDisallow: /%7Euser\n", "seedcrawl",
			[]pathCase{{"/~user/x", false}}},
		{"reserved escape stays distinct", "User-agent: *\nDisallow: /a%2Fb\n", "seedcrawl",
			[]pathCase{{"/a/b", true}, {"/a%2fb", false}}},
		{"comments and spacing", "  USER-AGENT :  *   # all\n\tdisallow:   /x   # no x\n", "seedcrawl",
			[]pathCase{{"/x", false}, {"/y", true}}},
		{"crlf and cr line ends", "User-agent: *\r\nDisallow: /a\rDisallow: /b\r\n", "seedcrawl",
			[]pathCase{{"/a", false}, {"/b", false}, {"/c", true}}},
		{"bom", "\xef\xbb\xbfUser-agent: *\nDisallow: /x\n", "seedcrawl",
			[]pathCase{{"/x", false}}},
		{"rules before any agent ignored", "Disallow: /x\nUser-agent: *\nDisallow: /y\n", "seedcrawl",
			[]pathCase{{"/x", true}, {"/y", false}}},
		{"garbage lines skipped", "User-agent: *\nthis is not a rule\n<html>\nCrawl-delay: soon\nDisallow: /y\n\x00\xff:\n", "seedcrawl",
			[]pathCase{{"/y", false}, {"/z", true}}},
		{"pattern without slash gets one", "User-agent: *\nDisallow: private\n", "seedcrawl",
			[]pathCase{{"/private", false}}},
		{"sitemap does not end a group", "User-agent: *\nSitemap: http://x/s.xml\nDisallow: /x\n", "seedcrawl",
			[]pathCase{{"/x", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runRules(t, tt.body, tt.token, tt.cases) })
	}
}

func TestCrawlDelay(t *testing.T) {
	tests := []struct {
		body string
		want time.Duration
	}{
		{"User-agent: *\nCrawl-delay: 2\n", 2 * time.Second},
		{"User-agent: *\nCrawl-delay: 0.5\n", 500 * time.Millisecond},
		{"User-agent: *\nCrawl-delay: 1.25\nDisallow: /x\n", 1250 * time.Millisecond},
		{"User-agent: seedcrawl\nCrawl-delay: 3\nUser-agent: *\nCrawl-delay: 9\n", 3 * time.Second},
		{"User-agent: *\nCrawl-delay: -1\n", 0},
		{"User-agent: *\nCrawl-delay: NaN\n", 0},
		{"User-agent: *\nCrawl-delay: 1e12\n", maxCrawlDelay},
		{"User-agent: other\nCrawl-delay: 5\n", 0},
	}
	for _, tt := range tests {
		if got := parse([]byte(tt.body)).group("seedcrawl").crawlDelay; got != tt.want {
			t.Errorf("crawl delay of %q = %v, want %v", tt.body, got, tt.want)
		}
	}
}

// TestTemotoDeviations records where github.com/temoto/robotstxt disagrees
// with RFC 9309 (and so with this package), which is why rules.go parses
// robots.txt itself. If temoto is fixed, this test fails and the choice can
// be revisited.
func TestTemotoDeviations(t *testing.T) {
	tests := []struct {
		name, body, path string
		rfc              bool // the RFC 9309 answer (ours)
	}{
		{"'$' pattern matched unanchored", "User-agent: *\nDisallow: /a$\n", "/x/a", true},
		{"wildcard pattern matched unanchored", "User-agent: *\nDisallow: /a*.php\n", "/x/a/b.php", true},
		{"tie broken by order, not allow", "User-agent: *\nDisallow: /p\nAllow: /p\n", "/p", true},
		{"wildcard ranked by regexp length", "User-agent: *\nAllow: /*.html\nDisallow: /page.ht\n", "/page.html", false},
		{"percent-encoding not normalized", "User-agent: *\nDisallow: /%7Ex\n", "/~x", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ours := parse([]byte(tt.body)).group("seedcrawl").allowed(tt.path)
			if ours != tt.rfc {
				t.Fatalf("ours says %v for %s, RFC 9309 says %v", ours, tt.path, tt.rfc)
			}
			data, err := robotstxt.FromString(tt.body)
			if err != nil {
				t.Fatalf("temoto: %v", err)
			}
			if got := data.TestAgent(tt.path, "seedcrawl"); got == tt.rfc {
				t.Fatalf("temoto now agrees with RFC 9309 on %q; consider using it again", tt.name)
			}
		})
	}
	t.Run("one bad line fails the whole file", func(t *testing.T) {
		body := "Disallow: /early\nUser-agent: *\nDisallow: /x\n"
		if _, err := robotstxt.FromString(body); err == nil {
			t.Fatal("temoto now accepts a rule before User-agent")
		}
		if parse([]byte(body)).group("seedcrawl").allowed("/x") {
			t.Fatal("ours lost the valid rule")
		}
	})
	t.Run("agents matched by prefix", func(t *testing.T) {
		body := "User-agent: seed\nDisallow: /\n"
		data, _ := robotstxt.FromString(body)
		if data.TestAgent("/", "seedcrawl") {
			t.Fatal("temoto no longer applies a 'seed' group to 'seedcrawl'")
		}
		if !parse([]byte(body)).group("seedcrawl").allowed("/") {
			t.Fatal("ours applies a 'seed' group to 'seedcrawl'")
		}
	})
}

// TestTemotoAgrees checks that on plain files both parsers agree, so the
// replacement did not change ordinary answers.
func TestTemotoAgrees(t *testing.T) {
	body := "User-agent: *\nDisallow: /private/\nAllow: /private/public/\nDisallow: /tmp\n\nUser-agent: seedcrawl\nDisallow: /no-seedcrawl/\nAllow: /\n"
	data, err := robotstxt.FromString(body)
	if err != nil {
		t.Fatal(err)
	}
	g := parse([]byte(body)).group("seedcrawl")
	star := parse([]byte(body)).group("otherbot")
	for _, p := range []string{"/", "/private/x", "/private/public/x", "/tmp", "/tmp/x", "/no-seedcrawl/a", "/other"} {
		if a, b := g.allowed(p), data.TestAgent(p, "seedcrawl"); a != b {
			t.Errorf("seedcrawl %s: ours %v, temoto %v", p, a, b)
		}
		if a, b := star.allowed(p), data.TestAgent(p, "otherbot"); a != b {
			t.Errorf("otherbot %s: ours %v, temoto %v", p, a, b)
		}
	}
}

func TestMatchLongPathIsLinear(t *testing.T) {
	// A pathological pattern against a long path must stay cheap: the
	// position-set matcher is O(len(pattern) * len(path)).
	pattern := "/" + strings.Repeat("*a", 50) + "$"
	path := "/" + strings.Repeat("a", 5000) + "b"
	if match(pattern, path) {
		t.Fatal("matched a path ending in b")
	}
}

func TestSitemaps(t *testing.T) {
	var many strings.Builder
	for i := range MaxSitemaps + 10 {
		fmt.Fprintf(&many, "Sitemap: http://a.test/s%d.xml\n", i)
	}
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"none", "User-agent: *\nDisallow: /x\n", nil},
		{"anywhere in the file, any case", "sitemap: http://a.test/1.xml\nUser-agent: *\nSITEMAP:https://a.test/2.xml.gz\nDisallow: /x\n",
			[]string{"http://a.test/1.xml", "https://a.test/2.xml.gz"}},
		{"relative, other schemes and empty values dropped", "Sitemap: /rel.xml\nSitemap: ftp://a.test/s.xml\nSitemap:\nSitemap: http:///nohost.xml\nSitemap: http://b.test/ok.xml\n",
			[]string{"http://b.test/ok.xml"}},
		{"duplicates dropped", "Sitemap: http://a.test/s.xml\nSitemap: http://a.test/s.xml # again\n", []string{"http://a.test/s.xml"}},
		{"CRLF and BOM", "\xef\xbb\xbfSitemap: http://a.test/s.xml\r\nUser-agent: *\r\n", []string{"http://a.test/s.xml"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Sitemaps([]byte(tc.body)); !slices.Equal(got, tc.want) {
				t.Errorf("Sitemaps = %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("bounded", func(t *testing.T) {
		got := Sitemaps([]byte(many.String()))
		if len(got) != MaxSitemaps || got[0] != "http://a.test/s0.xml" {
			t.Errorf("got %d sitemaps starting %q, want the first %d", len(got), got[0], MaxSitemaps)
		}
	})
	t.Run("a sitemap line between agents keeps the group", func(t *testing.T) {
		runRules(t, "User-agent: other\nSitemap: http://a.test/s.xml\nUser-agent: seedcrawl\nDisallow: /x\n", "seedcrawl",
			[]pathCase{{"/x", false}})
	})
}
