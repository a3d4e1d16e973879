package config

import (
	"errors"
	"testing"
	"time"
)

// TestCrawlDefaults fills in partial settings as a crawl given in code
// does: zero values take Default's, set ones stay, negative limits fail.
func TestCrawlDefaults(t *testing.T) {
	def := Default()
	for _, tc := range []struct {
		name string
		in   Config
		want Config // compared on MaxOutLinks, CommitInterval, CommitPages
		err  error
	}{
		{name: "zero takes the defaults", want: Config{MaxOutLinks: def.MaxOutLinks, CommitInterval: def.CommitInterval, CommitPages: def.CommitPages}},
		{
			name: "set values stay",
			in:   Config{MaxOutLinks: 7, CommitInterval: time.Minute, CommitPages: 3},
			want: Config{MaxOutLinks: 7, CommitInterval: time.Minute, CommitPages: 3},
		},
		{name: "negative max-pages", in: Config{MaxPages: -1}, err: ErrBadValue},
		{name: "negative commit-interval", in: Config{CommitInterval: -time.Second}, err: ErrBadValue},
		{name: "negative max-redirects", in: Config{MaxRedirects: -1}, err: ErrBadValue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.in
			err := c.CrawlDefaults()
			if !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Fatalf("CrawlDefaults = %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			if c.MaxOutLinks != tc.want.MaxOutLinks || c.CommitInterval != tc.want.CommitInterval || c.CommitPages != tc.want.CommitPages {
				t.Fatalf("got %d, %v, %d; want %d, %v, %d", c.MaxOutLinks, c.CommitInterval, c.CommitPages,
					tc.want.MaxOutLinks, tc.want.CommitInterval, tc.want.CommitPages)
			}
		})
	}
	d := Default()
	if err := d.CrawlDefaults(); err != nil || d.MaxOutLinks != def.MaxOutLinks {
		t.Fatalf("Default's settings changed: %v", err)
	}
}
