package urlnorm

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var fuzzSeeds = []string{
	"http://example.com/a/b?c=d#e",
	"HTTP://Ex%41mple.COM:80/%7e/./../x?%zz",
	"https://bücher.example/ä?ö=ü",
	"http://[::1]:8080/a",
	"http://0x7f.1/",
	"http://user:p@ss@host/",
	"http://a/b/c/%2e%2E/d",
	"http:\\\\host\\a\\b",
	"http://h/a b|c^d`e{f}g[h]",
	"javascript:alert(1)",
	"//host/path",
	"http://h/?'\"<>",
	"http://xn--nxasmq6b.example/",
	"http://h/%%%25%2",
}

// FuzzNormalize checks Normalize never panics and that its output is
// stable: normalizing again changes nothing, net/url parses it, the
// scheme is http or https, and no userinfo is left. NormalizeSeed agrees
// with it, or refuses userinfo.
func FuzzNormalize(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Add("http://u:p@a.test/")
	f.Fuzz(func(t *testing.T, raw string) {
		n, err := Normalize(raw)
		seed, serr := NormalizeSeed(raw)
		switch {
		case errors.Is(serr, ErrUserinfo):
			if err != nil {
				t.Fatalf("NormalizeSeed(%q) refused userinfo, Normalize failed: %v", raw, err)
			}
		case (err == nil) != (serr == nil) || seed != n:
			t.Fatalf("NormalizeSeed(%q) = %q, %v; Normalize = %q, %v", raw, seed, serr, n, err)
		}
		if err != nil {
			return
		}
		again, err := Normalize(n)
		if err != nil {
			t.Fatalf("Normalize(%q) = %q, which fails to normalize: %v", raw, n, err)
		}
		if again != n {
			t.Fatalf("not idempotent: %q -> %q -> %q", raw, n, again)
		}
		u, err := url.Parse(n)
		if err != nil {
			t.Fatalf("net/url cannot parse %q (from %q): %v", n, raw, err)
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			t.Fatalf("scheme %q in %q", u.Scheme, n)
		}
		if u.Fragment != "" || strings.Contains(n, "#") {
			t.Fatalf("fragment kept in %q", n)
		}
		if Host(n) == "" {
			t.Fatalf("Host(%q) is empty", n)
		}
		if u.User != nil {
			t.Fatalf("userinfo kept in %q", n)
		}
	})
}

// FuzzFastPath checks the net/url fast path against the WHATWG parser:
// whenever the fast path answers, the answer must equal the full parser's.
// It also resolves every reference through one Memo shared by all inputs,
// against the base and against a sibling of it (same directory, another
// name), which must answer exactly as Resolve does.
func FuzzFastPath(f *testing.F) {
	memo := NewMemo(64)
	for _, s := range fuzzSeeds {
		f.Add("http://example.com/a/b/c?q=1", s)
	}
	f.Add("https://h:8443/a/", "../b/./c?x=%41")
	f.Add("http://h/a", "?")
	f.Add("http://h/a?b", "")
	f.Add("http://h/a", "//other:80/x")
	f.Add("http://h/a", "HTTP://WwW.Other.TEST:80/x?y")
	f.Add("https://h/a", "hTtPs://h:443/")
	f.Add("http://h/a%7e/b%2F?q=%41#f", "c")
	f.Add("http://h/a/b?q=%zz", "?x")
	f.Fuzz(func(t *testing.T, base, ref string) {
		if got, ok := fastNormalize(ref); ok {
			want, err := slowNormalize(ref)
			if err != nil || got != want {
				t.Fatalf("fastNormalize(%q) = %q; WHATWG says %q, %v", ref, got, want, err)
			}
		}
		b, err := NewBase(base)
		sb, serr := slowBase(base)
		if (err == nil) != (serr == nil) {
			t.Fatalf("NewBase(%q): %v; WHATWG says %v", base, err, serr)
		}
		if err != nil {
			return
		}
		if b.String() != sb.String() || (b.fast == nil) != (sb.fast == nil) || b.fast != nil && *b.fast != *sb.fast {
			t.Fatalf("NewBase(%q) = %q %+v; WHATWG says %q %+v", base, b.String(), b.fast, sb.String(), sb.fast)
		}
		checkMemo(t, memo, b, ref)
		if sib, err := NewBase(base + "x"); err == nil {
			checkMemo(t, memo, sib, ref)
		}
		if b.fast == nil {
			return
		}
		if got, ok := fastResolve(b.fast, ref); ok {
			want, err := slowResolve(sb, ref)
			if err != nil || got != want {
				t.Fatalf("fastResolve(%q, %q) = %q; WHATWG says %q, %v", base, ref, got, want, err)
			}
		}
	})
}

// TestFastPathRealLinks checks the fast path against the WHATWG parser on
// every link of 30 real documentation pages, and that it answers for most
// of them (it is the common case it exists for).
func TestFastPathRealLinks(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "links.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	bases := map[string]*Base{}
	fast, total := 0, 0
	for line := range strings.Lines(string(data)) {
		page, ref, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		if !ok {
			continue
		}
		b := bases[page]
		if b == nil {
			if b, err = NewBase(page); err != nil || b.fast == nil {
				t.Fatalf("base %q: %v, fast %v", page, err, b != nil && b.fast != nil)
			}
			bases[page] = b
		}
		total++
		got, ok := fastResolve(b.fast, ref)
		if !ok {
			continue
		}
		fast++
		want, err := slowResolve(b, ref)
		if err != nil || got != want {
			t.Errorf("fastResolve(%q, %q) = %q; WHATWG says %q, %v", page, ref, got, want, err)
		}
	}
	if total < 5000 || fast < total*9/10 {
		t.Fatalf("fast path answered %d of %d real links", fast, total)
	}
}

// TestFastResolveDotSegments pins the dot-segment cases of the fast
// resolver against the WHATWG parser.
func TestFastResolveDotSegments(t *testing.T) {
	bases := []string{"http://h/", "http://h/a/b/c", "http://h/a/b/", "https://h:8443/a?q=1"}
	refs := []string{"", ".", "..", "./", "../", "../..", "../../../x", "x/./y/../z", "x/..", "/.", "/..", "/a/./b/..",
		"?", "?y=2", "#f", "x#f", "a/b/c/../../d/", "...", "..x/.y", "/"}
	for _, base := range bases {
		b, err := NewBase(base)
		if err != nil || b.fast == nil {
			t.Fatalf("base %q: %v", base, err)
		}
		for _, ref := range refs {
			got, ok := fastResolve(b.fast, ref)
			if !ok {
				t.Errorf("fastResolve(%q, %q) declined", base, ref)
				continue
			}
			want, err := slowResolve(b, ref)
			if err != nil || got != want {
				t.Errorf("fastResolve(%q, %q) = %q; WHATWG says %q, %v", base, ref, got, want, err)
			}
		}
	}
}

// checkMemo checks that ResolveBytes through m answers as Resolve does.
func checkMemo(t *testing.T, m *Memo, b *Base, ref string) {
	t.Helper()
	want, werr := b.Resolve(ref)
	raw, got, err := b.ResolveBytes(m, []byte(ref))
	if raw != ref || got != want || (err == nil) != (werr == nil) || Reason(err) != Reason(werr) {
		t.Fatalf("ResolveBytes(%q, %q) = %q, %q, %v; Resolve says %q, %v", b.String(), ref, raw, got, err, want, werr)
	}
}
