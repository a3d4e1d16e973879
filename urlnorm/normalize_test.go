package urlnorm

import (
	"errors"
	"net/url"
	"strings"
	"sync"
	"testing"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name, in, want string
		err            error
	}{
		{"plain", "http://example.com/a/b", "http://example.com/a/b", nil},
		{"empty path gets slash", "http://example.com", "http://example.com/", nil},
		{"scheme and host lower-cased", "HTTP://ExAmPlE.CoM/Path", "http://example.com/Path", nil},
		{"default port http", "http://example.com:80/x", "http://example.com/x", nil},
		{"default port https", "https://example.com:443/x", "https://example.com/x", nil},
		{"other port kept", "http://example.com:8080/x", "http://example.com:8080/x", nil},
		{"https on port 80 kept", "https://example.com:80/x", "https://example.com:80/x", nil},
		{"leading zeros in port", "http://example.com:0080/x", "http://example.com/x", nil},
		{"fragment dropped", "http://example.com/a#frag", "http://example.com/a", nil},
		{"empty query dropped", "http://example.com/a?", "http://example.com/a", nil},
		{"query kept", "http://example.com/a?b=c&d=e", "http://example.com/a?b=c&d=e", nil},
		{"dot segments", "http://example.com/a/./b/../c", "http://example.com/a/c", nil},
		{"dot segments above root", "http://example.com/../../a", "http://example.com/a", nil},
		{"encoded dot segments", "http://example.com/a/%2e%2E/b", "http://example.com/b", nil},
		{"trailing dot segment", "http://example.com/a/b/..", "http://example.com/a/", nil},
		{"unreserved decoded", "http://example.com/%7Euser/%41%62%2D%5F%2E", "http://example.com/~user/Ab-_.", nil},
		{"hex upper-cased", "http://example.com/a%2fb?x=%3d%c3%a4", "http://example.com/a%2Fb?x=%3D%C3%A4", nil},
		{"reserved escape kept", "http://example.com/a%2Fb", "http://example.com/a%2Fb", nil},
		{"lone percent", "http://example.com/100%/x%zz?p=%", "http://example.com/100%25/x%25zz?p=%25", nil},
		{"space and quotes encoded", "http://example.com/a b\"c<d>?q=a b'c", "http://example.com/a%20b%22c%3Cd%3E?q=a%20b%27c", nil},
		{"unsafe ascii encoded", "http://example.com/a|b^c`d{e}f[g]?x=|^[]\\", "http://example.com/a%7Cb%5Ec%60d%7Be%7Df%5Bg%5D?x=%7C%5E%5B%5D%5C", nil},
		{"non-ascii path", "http://example.com/ä/ü", "http://example.com/%C3%A4/%C3%BC", nil},
		{"idn host", "http://Bücher.example/", "http://xn--bcher-kva.example/", nil},
		{"idn host already punycode", "http://xn--bcher-kva.example/", "http://xn--bcher-kva.example/", nil},
		{"backslashes are slashes", "http:\\\\example.com\\a\\b", "http://example.com/a/b", nil},
		{"tabs and newlines removed", "http://exa\tmple.com/a\nb", "http://example.com/ab", nil},
		{"surrounding space trimmed", "  http://example.com/  ", "http://example.com/", nil},
		{"ipv4", "http://127.0.0.1:8080/", "http://127.0.0.1:8080/", nil},
		{"ipv4 in hex", "http://0x7f.1/", "http://127.0.0.1/", nil},
		{"ipv6", "http://[0:0:0:0:0:0:0:1]:8080/", "http://[::1]:8080/", nil},
		{"userinfo dropped", "http://user:pa;ss@example.com/", "http://example.com/", nil},
		{"trailing dot dropped", "http://Example.COM./a", "http://example.com/a", nil},
		{"trailing dots dropped", "https://example.com..:8443/", "https://example.com:8443/", nil},
		{"user only dropped", "http://user@Example.com:8080/a", "http://example.com:8080/a", nil},
		{"underscore host", "http://my_host.example/", "http://my_host.example/", nil},
		{"mailto", "mailto:a@example.com", "", ErrScheme},
		{"javascript", "javascript:alert(1)", "", ErrScheme},
		{"ftp", "ftp://example.com/", "", ErrScheme},
		{"relative", "/a/b", "", ErrParse},
		{"empty", "", "", ErrParse},
		{"no host", "http:///", "", ErrParse},
		{"bad port", "http://example.com:99999/", "", ErrParse},
		{"bad ipv4", "http://1.2.3.999/", "", ErrParse},
		{"host with odd characters", "http://a!b.example/", "", ErrHost},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Normalize(tt.in)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("Normalize(%q) = %q, %v; want error %v", tt.in, got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Normalize(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
			again, err := Normalize(got)
			if err != nil || again != got {
				t.Fatalf("not idempotent: Normalize(%q) = %q, %v", got, again, err)
			}
			if _, err := url.Parse(got); err != nil {
				t.Fatalf("net/url cannot parse %q: %v", got, err)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	const base = "http://example.com/a/b/c.html?q=1#top"
	tests := []struct {
		name, ref, want string
		err             error
	}{
		{"absolute", "https://other.example/x", "https://other.example/x", nil},
		{"scheme-relative", "//other.example/x", "http://other.example/x", nil},
		{"root-relative", "/x/y", "http://example.com/x/y", nil},
		{"sibling", "d.html", "http://example.com/a/b/d.html", nil},
		{"parent", "../d.html", "http://example.com/a/d.html", nil},
		{"too many parents", "../../../../d", "http://example.com/d", nil},
		{"query only", "?z=2", "http://example.com/a/b/c.html?z=2", nil},
		{"fragment only", "#sec", "http://example.com/a/b/c.html?q=1", nil},
		{"empty", "", "http://example.com/a/b/c.html?q=1", nil},
		{"dot", ".", "http://example.com/a/b/", nil},
		{"whitespace around", "  d.html\n", "http://example.com/a/b/d.html", nil},
		{"backslash relative", "\\x\\y", "http://example.com/x/y", nil},
		{"special scheme relative", "http:d.html", "http://example.com/a/b/d.html", nil},
		{"upper-case scheme", "HTTP://Other.Example/", "http://other.example/", nil},
		{"mailto", "mailto:x@example.com", "", ErrScheme},
		{"javascript", "javascript:void(0)", "", ErrScheme},
		{"data", "data:text/html,hi", "", ErrScheme},
		{"bad host", "http://exa mple.com/", "", ErrParse},
	}
	b, err := NewBase(base)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, got := range []func() (string, error){
				func() (string, error) { return Resolve(base, tt.ref) },
				func() (string, error) { return b.Resolve(tt.ref) },
			} {
				s, err := got()
				if tt.err != nil {
					if !errors.Is(err, tt.err) {
						t.Fatalf("Resolve(%q) = %q, %v; want error %v", tt.ref, s, err, tt.err)
					}
					continue
				}
				if err != nil || s != tt.want {
					t.Fatalf("Resolve(%q) = %q, %v; want %q", tt.ref, s, err, tt.want)
				}
			}
		})
	}
	if b.String() != base {
		t.Fatalf("base changed by resolving: %q", b.String())
	}
}

func TestBaseConcurrent(t *testing.T) {
	b, err := NewBase("http://example.com/a/b/c")
	if err != nil {
		t.Fatal(err)
	}
	refs := []string{"../x", "y", "/z", "?q", "../../w/./v", "é"}
	want := make([]string, len(refs))
	for i, r := range refs {
		want[i], _ = b.Resolve(r)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 200; n++ {
				for i, r := range refs {
					if got, _ := b.Resolve(r); got != want[i] {
						t.Errorf("Resolve(%q) = %q, want %q", r, got, want[i])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

func TestRebase(t *testing.T) {
	b, err := NewBase("http://example.com/dir/page.html")
	if err != nil {
		t.Fatal(err)
	}
	nb, err := b.Rebase("/other/")
	if err != nil {
		t.Fatal(err)
	}
	got, err := nb.Resolve("x.html")
	if err != nil || got != "http://example.com/other/x.html" {
		t.Fatalf("resolve against rebased = %q, %v", got, err)
	}
}

func TestHostName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://example.com/a", "example.com"},
		{"http://Example.COM:8080/a", "example.com"},
		{"http://user:pw@example.com/", "example.com"},
		{"http://[::1]:8080/", "[::1]"},
		{"https://example.com?x", "example.com"},
		{"https://example.com", "example.com"},
		{"not a url", ""},
	}
	for _, tt := range tests {
		if got := HostName(tt.in); got != tt.want {
			t.Errorf("HostName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestReason(t *testing.T) {
	for _, tt := range []struct {
		in, want string
	}{
		{"mailto:x@y", ReasonBadScheme},
		{"http://a!b/", ReasonBadHost},
		{"http://", ReasonBadURL},
	} {
		_, err := Normalize(tt.in)
		if got := Reason(err); got != tt.want {
			t.Errorf("Reason(Normalize(%q)) = %q (err %v), want %q", tt.in, got, err, tt.want)
		}
	}
	if Reason(nil) != "" || Reason(errors.New("other")) != "" {
		t.Error("Reason of nil or foreign error is not empty")
	}
}

func TestNormalizeLongInputClippedInError(t *testing.T) {
	_, err := Normalize("ftp://" + strings.Repeat("a", 5000))
	if err == nil || len(err.Error()) > 400 {
		t.Fatalf("error not clipped: %d bytes", len(err.Error()))
	}
}
