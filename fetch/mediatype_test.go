package fetch

import (
	"mime"
	"strings"
	"testing"
)

// The allocation-free mediaType and charsetOf answer what the full
// mime.ParseMediaType parse does, on the values servers send and on
// malformed ones.
func TestMediaTypeMatchesParser(t *testing.T) {
	values := []string{
		"", "text/html", "TEXT/HTML", " text/html ", "text/html; charset=utf-8", "text/html;charset=UTF-8",
		"text/html; Charset=ISO-8859-1", "text/html; charset=\"utf-8\"", "text/html; charset=utf-8; q=1",
		"text/html; q=1; charset=utf-8", "text/html; charset=", "text/html; charset", "text/html;",
		"text html", "text/", "/html", "text/html/x", "text/h\u00e9ml; charset=utf-8", "text/html; charset=ut\u00e9",
		"application/xhtml+xml; charset=windows-1252", "text/html; charset=utf-8;", "text/html; charset = utf-8",
		"text/html; charset=utf 8", "text/html; foo=bar", "text/plain; charset=us-ascii (plain)", ";charset=x",
	}
	for _, ct := range values {
		wantMT := ""
		if ct != "" {
			mt, _, err := mime.ParseMediaType(ct)
			if err != nil {
				base, _, _ := strings.Cut(ct, ";")
				mt = strings.ToLower(strings.TrimSpace(base))
			}
			wantMT = mt
		}
		if got := mediaType(ct); got != wantMT {
			t.Errorf("mediaType(%q) = %q, want %q", ct, got, wantMT)
		}
		wantCS := ""
		if _, params, err := mime.ParseMediaType(ct); err == nil {
			wantCS = strings.ToLower(strings.TrimSpace(params["charset"]))
		}
		if got := charsetOf(ct); got != wantCS {
			t.Errorf("charsetOf(%q) = %q, want %q", ct, got, wantCS)
		}
	}
}

func BenchmarkContentType(b *testing.B) {
	for _, ct := range []string{"text/html", "text/html; charset=utf-8", "text/html; charset=\"utf-8\""} {
		b.Run(ct, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if mediaType(ct) != "text/html" || charsetOf(ct) == "x" {
					b.Fatal(ct)
				}
			}
		})
	}
}
