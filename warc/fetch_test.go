package warc_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/warc"
)

// TestFromFetchCapture is the wiring the crawler uses: fetch with
// Options.Record over real loopback HTTP and HTTPS, hand the capture to
// WriteExchange, and read back records whose blocks are the captured bytes.
// The second fetch of a page carries its ETag and gets a 304, which becomes
// a server-not-modified revisit.
func TestFromFetchCapture(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte("<html><body>zipped</body></html>"))
	_ = zw.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html><body>page</body></html>"))
	})
	mux.HandleFunc("/gz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(gz.Bytes())
	})
	for _, tls := range []bool{false, true} {
		t.Run(fmt.Sprintf("tls=%v", tls), func(t *testing.T) {
			srv := httptest.NewUnstartedServer(mux)
			opts := fetch.Options{Record: true, AllowHosts: []string{"127.0.0.1"}}
			if tls {
				srv.EnableHTTP2 = true // offered; recording must still speak HTTP/1.1
				srv.StartTLS()
				tr, err := fetch.NewTransport(opts)
				if err != nil {
					t.Fatal(err)
				}
				tr.TLSClientConfig.RootCAs = srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
				opts.Transport = tr
			} else {
				srv.Start()
			}
			t.Cleanup(srv.Close)
			f, err := fetch.New(opts)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			w := warc.OpenWriter(t, warc.Options{Dir: dir})
			ctx := context.Background()
			var captured [][]byte
			write := func(req fetch.Request, prev time.Time) (fetch.Response, warc.Result) {
				start := time.Now()
				r := f.Fetch(ctx, req)
				if r.Err != nil || r.Capture == nil {
					t.Fatalf("%s: err %v capture %v", req.URL, r.Err, r.Capture)
				}
				res, err := w.WriteExchange(ctx, warc.Exchange{URL: r.URL, Date: start, IP: r.RemoteAddr,
					Request: r.Capture.Request, Response: r.Capture.Response, Truncated: r.Capture.Truncated, RefersToDate: prev})
				if err != nil {
					t.Fatal(err)
				}
				captured = append(captured, r.Capture.Response)
				return r, res
			}
			r1, res1 := write(fetch.Request{URL: srv.URL + "/page"}, time.Time{})
			_, res2 := write(fetch.Request{URL: srv.URL + "/gz"}, time.Time{})
			_, res3 := write(fetch.Request{URL: srv.URL + "/page", ETag: r1.ETag}, time.Now())
			if res1.Type != warc.TypeResponse || res2.Type != warc.TypeResponse || res3.Type != warc.TypeRevisit || res3.Status != 304 {
				t.Fatalf("types %s %s %s(%d)", res1.Type, res2.Type, res3.Type, res3.Status)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			recs := warc.ReadAll(t, filepath.Join(dir, w.Files()[0]))
			if got := warc.Types(recs); got != "warcinfo,response,request,response,request,revisit,request" {
				t.Fatalf("records %s", got)
			}
			for i, k := range []int{1, 3, 5} {
				if !bytes.Equal(recs[k].Block, captured[i]) {
					t.Errorf("record %d block differs from the capture", k)
				}
				if !bytes.HasPrefix(recs[k].Block, []byte("HTTP/1.1 ")) || recs[k].Header.Get("WARC-IP-Address") != "127.0.0.1" {
					t.Errorf("record %d: %q, IP %q", k, recs[k].Block[:20], recs[k].Header.Get("WARC-IP-Address"))
				}
			}
			// The gzip body is archived as sent: its payload digest is that
			// of the compressed bytes.
			if recs[3].Header.Get("WARC-Payload-Digest") != warc.Digest(gz.Bytes()) {
				t.Errorf("gzip payload digest %s, want digest of the encoded body", recs[3].Header.Get("WARC-Payload-Digest"))
			}
			if recs[5].Header.Get("WARC-Profile") != warc.ProfileServerNotModified {
				t.Errorf("304 profile %q", recs[5].Header.Get("WARC-Profile"))
			}
		})
	}
}
