package urlnorm

import (
	"net/url"
	"testing"
)

func TestHostOf(t *testing.T) {
	tests := []struct {
		name, in          string
		host, hname, bare string
		origin            string // "" when the input does not parse as a URL with a host
	}{
		{"plain", "http://example.com/a", "example.com", "example.com", "example.com", "http://example.com"},
		{"upper case", "HTTP://Example.COM/a", "example.com", "example.com", "example.com", "http://example.com"},
		{"other port", "http://Example.COM:8080/a", "example.com:8080", "example.com", "example.com", "http://example.com:8080"},
		{"default http port", "http://example.com:80/", "example.com", "example.com", "example.com", "http://example.com"},
		{"default https port", "https://example.com:443/", "example.com", "example.com", "example.com", "https://example.com"},
		{"http port on https", "https://example.com:80/", "example.com:80", "example.com", "example.com", "https://example.com:80"},
		{"userinfo", "http://user:pw@example.com/", "example.com", "example.com", "example.com", "http://example.com"},
		{"ipv6 with port", "http://[::1]:8080/", "[::1]:8080", "[::1]", "::1", "http://[::1]:8080"},
		{"ipv6 default port", "https://[2001:DB8::1]:443/x", "[2001:db8::1]", "[2001:db8::1]", "2001:db8::1", "https://[2001:db8::1]"},
		{"ipv6", "http://[::1]/", "[::1]", "[::1]", "::1", "http://[::1]"},
		{"query right after host", "https://example.com?x", "example.com", "example.com", "example.com", "https://example.com"},
		{"no path", "https://example.com", "example.com", "example.com", "example.com", "https://example.com"},
		{"scheme-relative", "//example.com/a", "example.com", "example.com", "example.com", ""},
		{"malformed kept", "http://www.oznet.ksu.edu>", "www.oznet.ksu.edu>", "www.oznet.ksu.edu>", "www.oznet.ksu.edu>", ""},
		{"no authority", "mailto:x@y", "", "", "", ""},
		{"not a url", "not a url", "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := HostOf(tt.in)
			if string(h) != tt.host || h.Name() != tt.hname || h.Bare() != tt.bare {
				t.Errorf("HostOf(%q) = %q (name %q, bare %q), want %q (%q, %q)", tt.in, h, h.Name(), h.Bare(), tt.host, tt.hname, tt.bare)
			}
			if Authority(tt.in) != tt.host {
				t.Errorf("Authority(%q) = %q, want %q", tt.in, Authority(tt.in), tt.host)
			}
			if tt.origin == "" {
				return
			}
			u, err := url.Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := HostOfURL(u); got != h {
				t.Errorf("HostOfURL(%q) = %q, HostOf gives %q", tt.in, got, h)
			}
			if got := Origin(u); got != tt.origin {
				t.Errorf("Origin(%q) = %q, want %q", tt.in, got, tt.origin)
			}
		})
	}
}

func TestBareName(t *testing.T) {
	for in, want := range map[string]string{"[::1]": "::1", "::1": "::1", "Example.COM": "example.com", "[2001:DB8::1]": "2001:db8::1"} {
		if got := BareName(in); got != want {
			t.Errorf("BareName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsScheme(t *testing.T) {
	for in, want := range map[string]bool{"http": true, "HTTPS": true, "svn+ssh": true, "a.b-c1": true,
		"": false, "1http": false, "+x": false, "ex ample": false, "a/b": false, "[::1]": false} {
		if got := IsScheme(in); got != want {
			t.Errorf("IsScheme(%q) = %v, want %v", in, got, want)
		}
	}
}
