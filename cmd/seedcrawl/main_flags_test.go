package main

import (
	"flag"
	"io"
	"slices"
	"testing"
)

func TestFlagsFollowPositionals(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantPos  []string
		wantMax  int
		wantJSON bool
	}{
		{"flags first", []string{"--max-pages", "5", "http://a/"}, []string{"http://a/"}, 5, false},
		{"flag after url", []string{"http://a/", "--max-pages", "5"}, []string{"http://a/"}, 5, false},
		{"single dash and equals", []string{"http://a/", "-max-pages=7", "http://b/"}, []string{"http://a/", "http://b/"}, 7, false},
		{"bool flag takes no value", []string{"http://a/", "--json", "http://b/"}, []string{"http://a/", "http://b/"}, 0, true},
		{"double dash ends flags", []string{"--json", "--", "--max-pages", "5"}, []string{"--max-pages", "5"}, 0, true},
		{"lone dash is positional", []string{"-", "--max-pages", "2"}, []string{"-"}, 2, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := newFlagSet("t", io.Discard)
			maxPages := fs.Int("max-pages", 0, "")
			asJSON := fs.Bool("json", false, "")
			if err := parseFlags(fs, tc.args); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(fs.Args(), tc.wantPos) || *maxPages != tc.wantMax || *asJSON != tc.wantJSON {
				t.Fatalf("args %q max %d json %v; want %q %d %v", fs.Args(), *maxPages, *asJSON, tc.wantPos, tc.wantMax, tc.wantJSON)
			}
		})
	}
	fs := newFlagSet("t", io.Discard)
	fs.Int("max-pages", 0, "")
	if err := parseFlags(fs, []string{"http://a/", "--nope"}); err == nil || err == flag.ErrHelp {
		t.Fatalf("unknown flag after a URL: err %v, want a usage error", err)
	}
}
