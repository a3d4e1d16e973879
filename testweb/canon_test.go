package testweb

import (
	"errors"
	"net/url"
	"testing"
)

func TestCanonical(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{"http://www.alpha.test/", "http://www.alpha.test/"},
		{"HTTP://WWW.Alpha.TEST:80/p/3.html", "http://www.alpha.test/p/3.html"},
		{"https://secure.test:443", "https://secure.test/"},
		{"https://secure.test:80/x", "https://secure.test:80/x"},
		{"http://a.test/p/%33.html#frag", "http://a.test/p/3.html"},
		{"http://a.test/%7estaff/%7Ex", "http://a.test/~staff/~x"},
		{"http://a.test/caf%c3%a9/", "http://a.test/caf%C3%A9/"},
		{"http://a.test/a%2fb", "http://a.test/a%2Fb"},
		{"http://a.test/a/./b/../c", "http://a.test/a/c"},
		{"http://a.test/a/b/..", "http://a.test/a/"},
		{"http://a.test/../x", "http://a.test/x"},
		{"http://a.test/%2E%2E/x", "http://a.test/x"},
		{"http://a.test/a b<c>", "http://a.test/a%20b%3Cc%3E"},
		{"http://a.test/100%", "http://a.test/100%25"},
		{"http://a.test/list?page=1&sort=asc", "http://a.test/list?page=1&sort=asc"},
		{"http://a.test/s?q=%7e'x", "http://a.test/s?q=~%27x"},
		{"http://a.test/s?", "http://a.test/s"},
		{"http://user:pw@a.test/", "http://a.test/"},
		{"http://a.test", "http://a.test/"},
		{"http://a.test?x=1", "http://a.test/?x=1"},
	}
	for _, c := range cases {
		got, err := Canonical(c.in)
		if err != nil {
			t.Errorf("Canonical(%q): %v", c.in, err)
			continue
		}
		if got != c.want {
			t.Errorf("Canonical(%q) = %q, want %q", c.in, got, c.want)
		}
		if again, _ := Canonical(got); again != got {
			t.Errorf("Canonical not idempotent on %q: %q", got, again)
		}
	}
	for _, bad := range []string{"mailto:x@a.test", "ftp://a.test/", "javascript:void(0)", "/relative", "http:/nohost", "http://"} {
		if _, err := Canonical(bad); !errors.Is(err, ErrNotHTTP) {
			t.Errorf("Canonical(%q) error = %v, want ErrNotHTTP", bad, err)
		}
	}
}

// TestLinkSpellings checks that every spelling the renderer produces
// resolves (with net/url, as a browser would) to the canonical URL.
func TestLinkSpellings(t *testing.T) {
	targets := []string{"/", "/news/faq-3.html", "/~staff/notes-9.html", "/caf%C3%A9/index-1.html",
		"/list?page=4&sort=asc", "/docs/archive/", "/docs/archive/x.html", "/a//b.html", "/a:b/c.html", "/deep/sub/sub/"}
	bases := []string{"/", "/news/", "/docs/archive/", "/a/b/c/"}
	for _, base := range bases {
		for _, target := range targets {
			ref := string(appendRelRef(nil, base, target))
			b, _ := url.Parse("http://h.test" + base + "page.html")
			u, err := b.Parse(ref)
			if err != nil {
				t.Fatalf("relative ref %q: %v", ref, err)
			}
			if got, _ := Canonical(u.String()); got != "http://h.test"+target {
				t.Errorf("base %s target %s: ref %q resolves to %s", base, target, ref, got)
			}
		}
	}
	for h := uint64(0); h < 64; h++ {
		for _, target := range targets {
			v := string(appendPercentVariant(nil, target, h*0x9e3779b97f4a7c15))
			if got, _ := Canonical("http://h.test" + v); got != "http://h.test"+target {
				t.Errorf("percent variant %q of %q normalizes to %q", v, target, got)
			}
		}
		if got, _ := Canonical(string(appendMixedCase(nil, "http://www.alpha.test", h*0x51))); got != "http://www.alpha.test/" {
			t.Errorf("mixed case spelling normalizes to %q", got)
		}
	}
}

func TestRemoveDotSegments(t *testing.T) {
	cases := map[string]string{
		"/":           "/",
		"/a/b":        "/a/b",
		"/./":         "/",
		"/.":          "/",
		"/..":         "/",
		"/a/.":        "/a/",
		"/a/..":       "/",
		"/a/b/../../": "/",
		"/a/.b/..c":   "/a/.b/..c",
		"/a/./b/./c":  "/a/b/c",
	}
	for in, want := range cases {
		if got := removeDotSegments(in); got != want {
			t.Errorf("removeDotSegments(%q) = %q, want %q", in, got, want)
		}
	}
}
