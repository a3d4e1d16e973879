package extract

import (
	"slices"
	"testing"
)

// TestFollow checks which links a crawler follows, with and without
// SkipNoFollow, and the robots directives of the page and its header.
func TestFollow(t *testing.T) {
	const links = `<a href="/a">a</a><a rel="nofollow" href="/b">b</a><a href="mailto:x@y">m</a><a href="/a">again</a>`
	tests := []struct {
		name      string
		skip      bool
		meta      string // meta robots content, "" for none
		header    string // X-Robots-Tag
		want      []string
		nofollow  int
		rejects   int
		noindex   bool
		nofollowR bool
	}{
		{name: "everything", want: []string{"/a", "/b"}, rejects: 1},
		{name: "rel=nofollow left out", skip: true, want: []string{"/a"}, nofollow: 1, rejects: 1},
		{name: "meta nofollow, not polite", meta: "nofollow", want: []string{"/a", "/b"}, rejects: 1, nofollowR: true},
		{name: "meta nofollow, polite", skip: true, meta: "nofollow", nofollow: 2, rejects: 1, nofollowR: true},
		{name: "header nofollow, polite", skip: true, header: "nofollow", nofollow: 2, rejects: 1, nofollowR: true},
		{name: "header noindex", header: "noindex", want: []string{"/a", "/b"}, rejects: 1, noindex: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := New(Options{SkipNoFollow: tt.skip})
			if err != nil {
				t.Fatal(err)
			}
			page := links
			if tt.meta != "" {
				page = `<meta name="robots" content="` + tt.meta + `">` + page
			}
			f, err := e.Follow("http://127.0.0.1:8080/", []byte(page), "", tt.header)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range f.Links {
				got = append(got, l.URL[len("http://127.0.0.1:8080"):])
			}
			if !slices.Equal(got, tt.want) || f.NoFollow != tt.nofollow || len(f.Rejects) != tt.rejects ||
				f.Robots.NoIndex != tt.noindex || f.Robots.NoFollow != tt.nofollowR {
				t.Errorf("Follow = %v nofollow %d rejects %v robots %+v, want %v %d %d noindex %v nofollow %v",
					got, f.NoFollow, f.Rejects, f.Robots, tt.want, tt.nofollow, tt.rejects, tt.noindex, tt.nofollowR)
			}
			e.Recycle(f.Links)
		})
	}
	e, _ := New(Options{})
	if _, err := e.Follow("not a url", []byte(links), "", ""); err == nil {
		t.Error("Follow of a relative page URL succeeded")
	}
}
