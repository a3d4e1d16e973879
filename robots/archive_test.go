package robots

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"

	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/warc"
)

var _ Archiver = fetch.Recording{}

// archive is a fetch.Archiver that keeps the URLs and statuses of what it
// is given and fails with err.
type archive struct {
	mu  sync.Mutex
	got []string // URL and status line
	err error
}

func (a *archive) WriteExchange(_ context.Context, x warc.Exchange) (warc.Result, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	line, _, _ := bytes.Cut(x.Response, []byte("\r\n"))
	a.got = append(a.got, x.URL+" "+string(line))
	return warc.Result{}, a.err
}

// archivingOptions are Options whose robots.txt requests go over a
// recording loopback transport into a.
func archivingOptions(t *testing.T, store Store, a *archive) Options {
	t.Helper()
	tr, err := fetch.NewTransport(fetch.Options{Record: true, AllowHosts: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tr.CloseIdleConnections)
	return Options{Client: &http.Client{Transport: tr}, Store: store, Archive: fetch.Recording{Archive: a}}
}

// TestArchive checks that each robots.txt exchange, redirect hops
// included, goes to Options.Archive, and that a failure to archive keeps
// the decision but leaves the entry out of the Store, so the next cache
// on that Store fetches robots.txt again and archives it.
func TestArchive(t *testing.T) {
	errFull := errors.New("disk full")
	rules := "User-agent: *\nDisallow: /private\n"
	for _, tc := range []struct {
		name        string
		handler     http.HandlerFunc
		wantAllowed bool
		want        []string // archived: path and status line
	}{
		{"200", serve(http.StatusOK, rules), false, []string{"/robots.txt HTTP/1.1 200 OK"}},
		{"404", serve(http.StatusNotFound, "none"), true, []string{"/robots.txt HTTP/1.1 404 Not Found"}},
		{"503", serve(http.StatusServiceUnavailable, "later"), false, []string{"/robots.txt HTTP/1.1 503 Service Unavailable"}},
		{"redirect", func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				http.Redirect(w, r, "/moved.txt", http.StatusFound)
				return
			}
			_, _ = w.Write([]byte(rules))
		}, false, []string{"/robots.txt HTTP/1.1 302 Found", "/moved.txt HTTP/1.1 200 OK"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newRobotsServer(t, tc.handler)
			store := &MemStore{}
			u := mustURL(t, s.URL+"/private")
			failing := &archive{err: errFull}
			d, err := newCache(t, archivingOptions(t, store, failing)).Check(context.Background(), u)
			if !errors.Is(err, errFull) {
				t.Fatalf("Check with a failing archive: %v, want the archive's error", err)
			}
			if d.Allowed != tc.wantAllowed || len(d.Requests) != len(tc.want) {
				t.Errorf("decision %+v, want allowed %v after %d requests", d, tc.wantAllowed, len(tc.want))
			}
			if store.Len() != 0 {
				t.Errorf("%d entries stored after a failure to archive, want none", store.Len())
			}

			working := &archive{}
			d2, err := newCache(t, archivingOptions(t, store, working)).Check(context.Background(), u)
			if err != nil || d2.Allowed != d.Allowed || d2.Reason != d.Reason {
				t.Fatalf("second cache: %+v, %v; want the first decision %+v", d2, err, d)
			}
			s.wantHits(t, 2, "after two caches")
			if store.Len() != 1 {
				t.Errorf("%d entries stored after archiving, want 1", store.Len())
			}
			for _, a := range []*archive{failing, working} {
				if len(a.got) != len(tc.want) {
					t.Fatalf("archived %q, want %q", a.got, tc.want)
				}
				for i, w := range tc.want {
					if a.got[i] != s.URL+w {
						t.Errorf("exchange %d: %q, want %q", i, a.got[i], s.URL+w)
					}
				}
			}
		})
	}
}
