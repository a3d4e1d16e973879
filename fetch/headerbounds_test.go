package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
)

// Header values a fetch keeps are stored with the page and sent back in
// conditional requests: one longer than any real value is dropped, not
// stored, where a server sending a 500 KB ETag on every page put 500 KB
// into every page record and every If-None-Match.
func TestHeaderValuesBounded(t *testing.T) {
	huge := strings.Repeat("x", 500<<10)
	tests := []struct {
		name   string
		header string
		value  string
		want   func(r Response, rec storage.Fetch) string // the kept value
		kept   bool
	}{
		{"huge ETag", "ETag", `"` + huge + `"`, func(r Response, rec storage.Fetch) string { return r.ETag + rec.ETag }, false},
		{"real ETag", "ETag", `W/"5e1b-61f0a3c2b8e40"`, func(r Response, rec storage.Fetch) string { return rec.ETag }, true},
		{"huge Last-Modified", "Last-Modified", huge, func(r Response, rec storage.Fetch) string { return r.LastModified + rec.LastModified }, false},
		{"real Last-Modified", "Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT", func(r Response, rec storage.Fetch) string { return rec.LastModified }, true},
		{"huge Date", "Date", huge, func(r Response, rec storage.Fetch) string { return rec.Date }, false},
		{"huge Content-Type", "Content-Type", "text/" + huge, func(r Response, rec storage.Fetch) string { return r.ContentType + rec.ContentType }, false},
		{"real Content-Type", "Content-Type", "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
			func(r Response, rec storage.Fetch) string { return rec.ContentType }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set(tt.header, tt.value)
				w.Write([]byte("<p>page"))
			}))
			t.Cleanup(srv.Close)
			f := newFetcher(t, Options{})
			r := f.Fetch(context.Background(), Request{URL: srv.URL + "/"})
			if r.Err != nil || r.Code != 200 {
				t.Fatalf("code %d err %v", r.Code, r.Err)
			}
			rec, _ := r.Record(&storage.Page{}, false)
			got := tt.want(r, rec)
			if tt.kept && got != tt.value {
				t.Errorf("kept %q, want %q", got, tt.value)
			}
			if !tt.kept && got != "" {
				t.Errorf("kept %d bytes of %s, want none", len(got), tt.header)
			}
		})
	}
}
