package main

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

func TestParseSeeds(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string
		badLine []string // substrings the error must hold, one per bad line
	}{
		{"BOM and CRLF", "\ufeffhttp://a.test/\r\n# comment\r\nhttp://b.test/x # trailing\r\n", []string{"http://a.test/", "http://b.test/x"}, nil},
		{"every bad line listed", "http://a.test/\nnot a url\nftp://c.test/\nhttp://ok.test/\nhttp://x y/\n",
			nil, []string{"f:2:", "f:3:", "f:5:"}},
		{"empty", "\n# nothing\n", nil, nil},
		// The advice an argument gets, and one line said as one.
		{"a mistake's advice", "www.a.test/docs\n", nil, []string{"1 bad line:", "f:1:", "such as https://www.a.test/docs"}},
		{"credentials refused", "http://u:pw@a.test/\nhttp//b.test/\n", nil, []string{"f:1: ", "userinfo", "f:2:", "such as http://b.test/"}},
		{"credentials not repeated", "http://admin:s3cret@a.test/%zz\nhttp:admin:s3cret@a.test/\nhttp://admin:s3 cret@a.test/\n", nil, []string{"f:1: ", "f:2: ", "f:3: ", "…@a.test"}},
		// The db would refuse it when the crawl starts, exit 1 without
		// naming the line.
		{"URL longer than a db holds", "http://a.test/\nhttp://b.test/" + strings.Repeat("a", storage.MaxURLLen) + "\n",
			nil, []string{"f:2:", "URL of 32782 bytes: a crawl db holds URLs of at most 32768"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseSeeds(strings.NewReader(tc.in), "f")
			if tc.badLine != nil {
				if !errors.Is(err, errUsage) {
					t.Fatalf("err %v, want a usage error", err)
				}
				for _, s := range tc.badLine {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error does not name %q:\n%v", s, err)
					}
				}
				if strings.Contains(err.Error(), "s3cret") {
					t.Errorf("the error repeats a password:\n%v", err)
				}
				if strings.Contains(err.Error(), "f:4:") {
					t.Errorf("a good line is listed as bad:\n%v", err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// A seeds file of long garbage lines is refused with an error that says
// enough of each line to find it, not the lines: a megabyte line was quoted
// whole, twice, in the message.
func TestParseSeedsLongBadLines(t *testing.T) {
	line := "\x01" + strings.Repeat("x", 1<<20-2) + "\n"
	_, err := parseSeeds(strings.NewReader(line+line+line), "f")
	if !errors.Is(err, errUsage) {
		t.Fatalf("err %v, want a usage error", err)
	}
	if !strings.Contains(err.Error(), "f:3:") || len(err.Error()) > 3*400 {
		t.Errorf("error of %d bytes for 3 bad lines (want at most 1200, naming f:3): %.500s", len(err.Error()), err)
	}
}

// FuzzSeedsFile: any bytes give either URLs that normalize or a usage error
// that names lines of the file; never a panic.
func FuzzSeedsFile(f *testing.F) {
	for _, s := range []string{"\ufeffhttp://a.test/\r\n# c\n", "not a url\nhttp://x y/\n", "", "http://a.test/#x\n\x00\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		urls, err := parseSeeds(strings.NewReader(in), "f")
		if err != nil {
			if errors.Is(err, errUsage) && !strings.Contains(err.Error(), "f:") {
				t.Fatalf("usage error names no line: %v", err)
			}
			return
		}
		for _, u := range urls {
			if _, err := urlnorm.Normalize(u); err != nil {
				t.Fatalf("accepted %q, which does not normalize: %v", u, err)
			}
		}
	})
}
