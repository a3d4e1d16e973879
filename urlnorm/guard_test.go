package urlnorm

import (
	"errors"
	"net"
	"strings"
	"testing"
)

func TestGuard(t *testing.T) {
	long := "http://example.com/" + strings.Repeat("a", 2100)
	deep := "http://example.com/" + strings.Repeat("x/", 40)
	tests := []struct {
		name   string
		g      Guard
		url    string
		reason string
	}{
		{"plain passes", Guard{}, "http://example.com/a/b/c?x=1", ""},
		{"too long", Guard{}, long, ReasonTooLong},
		{"length check off", Guard{MaxLen: -1}, long, ""},
		{"custom length", Guard{MaxLen: 30}, "http://example.com/abcdefghijklmnop", ReasonTooLong},
		{"too deep", Guard{MaxRepeats: -1}, deep, ReasonTooManySegments},
		{"deep but distinct within limit", Guard{}, "http://example.com/a/b/c/d/e/f/g/h", ""},
		{"same segment 3 times passes", Guard{}, "http://example.com/a/a/a", ""},
		{"same segment 4 times", Guard{}, "http://example.com/a/a/a/a", ReasonRepeatedSegments},
		{"pair repeated 4 times", Guard{}, "http://example.com/x/a/b/a/b/a/b/a/b/y", ReasonRepeatedSegments},
		{"triple repeated 4 times", Guard{}, "http://example.com/a/b/c/a/b/c/a/b/c/a/b/c", ReasonRepeatedSegments},
		{"pair repeated 3 times passes", Guard{}, "http://example.com/a/b/a/b/a/b", ""},
		{"calendar dates pass", Guard{}, "http://example.com/cal/2024/01/01/", ""},
		{"repeat check off", Guard{MaxRepeats: -1}, "http://example.com/a/a/a/a/a", ""},
		{"stricter repeats", Guard{MaxRepeats: 1}, "http://example.com/a/a", ReasonRepeatedSegments},
		{"empty segments are not a run", Guard{}, "http://example.com/a//////b", ""},
		{"too many params", Guard{MaxQueryParams: 3}, "http://example.com/?a=1&b=2&c=3&d=4", ReasonTooManyParams},
		{"params within limit", Guard{MaxQueryParams: 4}, "http://example.com/?a=1&b=2&c=3&d=4", ""},
		{"query does not count as segments", Guard{MaxSegments: 2}, "http://example.com/a/b?x=/1/2/3/4", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reason, ok := tt.g.Check(tt.url)
			if ok != (tt.reason == "") || reason != tt.reason {
				t.Fatalf("Check(%q) = %q, %v; want %q", tt.url, reason, ok, tt.reason)
			}
		})
	}
}

func TestScope(t *testing.T) {
	seeds := []string{"http://www.example.com/start", "https://blog.example.org:8443/", "http://127.0.0.1:8080/"}
	tests := []struct {
		kind, arg string
		allowed   []string
		denied    []string
	}{
		{ScopeSeedHosts, "",
			[]string{"http://www.example.com/x", "https://www.example.com/", "http://blog.example.org/", "http://127.0.0.1:9999/"},
			[]string{"http://example.com/", "http://sub.www.example.com/", "http://evil.com/www.example.com"}},
		{"", "",
			[]string{"http://www.example.com/x"},
			[]string{"http://other.example.com/"}},
		{ScopeSeedDomains, "",
			[]string{"http://example.com/", "http://a.b.example.com/", "http://x.example.org/", "http://127.0.0.1/"},
			[]string{"http://example.net/", "http://notexample.com/", "http://127.0.0.2/"}},
		{ScopeHosts, "a.test, .b.test",
			[]string{"http://a.test/", "http://b.test/", "http://x.b.test/"},
			[]string{"http://x.a.test/", "http://www.example.com/", "http://bb.test/"}},
		// Entries are normalized as URL hosts are: case, IDN, port, IPv6.
		{ScopeHosts, "Bücher.Example, .EXAMPLE.org:8080, [::1], 127.0.0.1",
			[]string{"http://xn--bcher-kva.example/", "https://a.example.org/", "http://[::1]:8080/", "http://127.0.0.1/"},
			[]string{"http://bucher.example/", "http://example.net/"}},
		{ScopeRegexp, `^https?://[^/]*\.example\.com/docs/`,
			[]string{"http://www.example.com/docs/a"},
			[]string{"http://www.example.com/blog/"}},
		{ScopeAll, "",
			[]string{"http://anything.example/"},
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.kind+" "+tt.arg, func(t *testing.T) {
			s, err := ParseScope(tt.kind, seeds, tt.arg)
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range tt.allowed {
				if !s.Allows(u) {
					t.Errorf("%s scope denies %s", tt.kind, u)
				}
			}
			for _, u := range tt.denied {
				if s.Allows(u) {
					t.Errorf("%s scope allows %s", tt.kind, u)
				}
			}
		})
	}
}

func TestParseScopeErrors(t *testing.T) {
	for _, tt := range []struct{ kind, arg string }{
		{"nonsense", ""},
		{ScopeHosts, " , "},
		{ScopeHosts, "a.test, bad host"},
		{ScopeHosts, "a.test/path"},
		{ScopeHosts, "*.a.test"},
		{ScopeHosts, "."},
		{ScopeRegexp, "("},
	} {
		if _, err := ParseScope(tt.kind, nil, tt.arg); !errors.Is(err, ErrScope) {
			t.Errorf("ParseScope(%q, %q) = %v, want ErrScope", tt.kind, tt.arg, err)
		}
	}
	if _, err := ParseScope(ScopeSeedHosts, []string{"mailto:x@y"}, ""); err == nil {
		t.Error("a bad seed was accepted")
	}
	var zero Scope
	if zero.Allows("http://example.com/") {
		t.Error("the zero Scope allows a URL")
	}
}

func TestParseScopeSpec(t *testing.T) {
	s, err := ParseScopeSpec("hosts:a.test,b.test", nil)
	if err != nil || !s.Allows("http://b.test/") || s.Allows("http://c.test/") {
		t.Fatalf("hosts spec: %v", err)
	}
	s, err = ParseScopeSpec("regexp:/keep/", nil)
	if err != nil || !s.Allows("http://x.test/keep/1") || s.Allows("http://x.test/drop") {
		t.Fatalf("regexp spec: %v", err)
	}
	if _, err := ParseScopeSpec("seeds-hosts:x", nil); err == nil {
		t.Fatal("argument to seeds-hosts accepted")
	}
	s, err = ParseScopeSpec("seeds-domains", []string{"http://a.example.co.uk/"})
	if err != nil || !s.Allows("http://b.example.co.uk/") || s.Allows("http://other.co.uk/") {
		t.Fatalf("seeds-domains with a multi-label suffix: %v", err)
	}
}

func TestIsPrivate(t *testing.T) {
	private := []string{
		"127.0.0.1", "127.255.0.9", "::1", "10.1.2.3", "172.16.0.1", "172.31.255.255",
		"192.168.1.1", "169.254.169.254", "fe80::1", "fc00::1", "fd12:3456::1",
		"224.0.0.1", "239.255.255.250", "ff02::1", "0.0.0.0", "::", "100.64.0.1",
		"100.127.255.255", "0.1.2.3", "255.255.255.255", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
		"64:ff9b::a00:1", "198.18.0.1", "198.19.255.255", "240.0.0.1", "192.0.0.8",
	}
	public := []string{
		"8.8.8.8", "1.1.1.1", "198.17.255.255", "198.20.0.1", "192.0.1.1", "172.32.0.1", "100.128.0.1", "192.169.0.1", "2001:4860:4860::8888",
		"93.184.216.34", "64:ff9b::808:808",
	}
	for _, s := range private {
		if !IsPrivate(net.ParseIP(s)) {
			t.Errorf("IsPrivate(%s) = false", s)
		}
	}
	for _, s := range public {
		if IsPrivate(net.ParseIP(s)) {
			t.Errorf("IsPrivate(%s) = true", s)
		}
	}
	if !IsPrivate(nil) {
		t.Error("IsPrivate(nil) = false; an unparsable address must be refused")
	}
}

func TestDated(t *testing.T) {
	tests := []struct {
		url         string
		year, month int
		ok          bool
	}{
		{"http://t.test/calendar/2025/01/", 2025, 1, true},
		{"http://t.test/calendar/0999/12/", 999, 12, true},
		{"http://t.test/blog/2019/5/21/post/", 2019, 5, true},
		{"http://t.test/archive/2019-05/", 2019, 5, true},
		{"http://t.test/events/2019-05-21", 2019, 5, true},
		{"http://t.test/events/2019_05", 2019, 5, true},
		{"http://t.test/day/20190521.html", 0, 0, false}, // a file name, not the 8-digit segment
		{"http://t.test/day/20190521", 2019, 5, true},
		{"http://t.test/cal?year=2031&month=7", 2031, 7, true},
		{"http://t.test/cal?date=2031-07-04", 2031, 7, true},
		{"http://t.test/docs/1000/", 0, 0, false},         // a lone four-digit segment is an id
		{"http://t.test/docs/2019/intro", 0, 0, false},    // year, then not a month
		{"http://t.test/v/2019/13/", 0, 0, false},         // no month 13
		{"http://t.test/item/12345678", 0, 0, false},      // month 56 is no date
		{"http://t.test/p?id=2019&page=3", 0, 0, false},   // no month parameter
		{"http://t.test/a/2019-5-1", 0, 0, false},         // unpadded compact forms are not recognised
		{"http://t.test/release/1.2019.05/", 0, 0, false}, // dots are versions
	}
	for _, tc := range tests {
		y, m, ok := Dated(tc.url)
		if y != tc.year || m != tc.month || ok != tc.ok {
			t.Errorf("Dated(%q) = %d, %d, %v; want %d, %d, %v", tc.url, y, m, ok, tc.year, tc.month, tc.ok)
		}
	}
}

func TestGuardCalendarDate(t *testing.T) {
	tests := []struct {
		name  string
		g     Guard
		url   string
		block bool
	}{
		{"before the default first year", Guard{}, "http://t.test/calendar/1989/12/", true},
		{"the default first year", Guard{}, "http://t.test/calendar/1990/01/", false},
		{"no upper bound by default", Guard{}, "http://t.test/calendar/9999/01/", false},
		{"beyond MaxYear", Guard{MaxYear: 2027}, "http://t.test/calendar/2028/01/", true},
		{"at MaxYear", Guard{MaxYear: 2027}, "http://t.test/calendar/2027/12/", false},
		{"query dates too", Guard{MaxYear: 2027}, "http://t.test/cal?year=2040&month=1", true},
		{"check off", Guard{MinYear: -1}, "http://t.test/calendar/0001/01/", false},
		{"undated URLs pass", Guard{MaxYear: 2027}, "http://t.test/docs/3000/", false},
	}
	for _, tc := range tests {
		reason, ok := tc.g.Check(tc.url)
		if ok == tc.block || (tc.block && reason != ReasonCalendarDate) {
			t.Errorf("%s: Check(%q) = %q, %v; want blocked %v", tc.name, tc.url, reason, ok, tc.block)
		}
	}
}

func TestDateTemplate(t *testing.T) {
	tests := []struct{ url, want string }{
		{"http://t.test/calendar/2025/01/", "http://t.test/calendar/{y}/{m}/"},
		{"http://t.test/calendar/1999/12/", "http://t.test/calendar/{y}/{m}/"},
		{"http://t.test/2019/05/21/a-post/", "http://t.test/{y}/{m}/21/a-post/"},
		{"http://t.test/events/2019-05-21", "http://t.test/events/{date}"},
		{"http://t.test/cal?year=2031&month=7&view=m", "http://t.test/cal?year={year}&month={month}&view=m"},
		{"http://t.test/docs/intro", ""},
	}
	for _, tc := range tests {
		got, ok := DateTemplate(tc.url)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("DateTemplate(%q) = %q, %v; want %q", tc.url, got, ok, tc.want)
		}
	}
}
