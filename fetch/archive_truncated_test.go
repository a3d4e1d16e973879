package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/warc"
)

// TestArchiveTruncation fetches responses that end early for different
// reasons over loopback and archives them with a real warc.Writer: the
// response record's WARC-Truncated must say why (WARC 1.1, 5.13), not
// "length" for all: the body limit is "length", the fetch timeout "time",
// a connection the server cut "disconnect"; a whole response has none.
func TestArchiveTruncation(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/whole", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html>whole</html>")
	})
	mux.HandleFunc("/long", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html>"+strings.Repeat("x", 8<<10)+"</html>")
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Length", "100000")
		fmt.Fprint(w, "<html>first part")
		w.(http.Flusher).Flush()
		<-r.Context().Done() // the rest never comes; the client gives up
	})
	mux.HandleFunc("/cut", func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		fmt.Fprint(buf, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n<html>part of it")
		buf.Flush()
		conn.Close()
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	for _, tc := range []struct {
		path, want string
	}{
		{"/whole", ""},
		{"/long", warc.TruncatedLength},
		{"/slow", warc.TruncatedTime},
		{"/cut", warc.TruncatedDisconnect},
	} {
		t.Run(tc.path, func(t *testing.T) {
			f := newFetcher(t, Options{Record: true, MaxBody: 1 << 10, Timeout: 500 * time.Millisecond})
			r := f.Fetch(context.Background(), Request{URL: srv.URL + tc.path})
			dir := t.TempDir()
			w, err := warc.Open(warc.Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Archive(context.Background(), w, time.Now); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			file, err := os.Open(filepath.Join(dir, w.Files()[0]))
			if err != nil {
				t.Fatal(err)
			}
			defer file.Close()
			rd, err := warc.NewReader(file)
			if err != nil {
				t.Fatal(err)
			}
			var resp *warc.Record
			for resp == nil {
				rec, err := rd.Next()
				if err != nil {
					t.Fatalf("no response record (reason %q, fetch err %v): %v", r.Reason, r.Err, err)
				}
				if rec.Type() == warc.TypeResponse {
					resp = rec
				}
			}
			if got := resp.Header.Get("WARC-Truncated"); got != tc.want {
				t.Errorf("WARC-Truncated %q, want %q (fetch reason %q)", got, tc.want, r.Reason)
			}
		})
	}
}
