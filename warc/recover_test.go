package warc_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/warc"
)

// childDirEnv names the directory a child process of
// TestRecoverKilledWriter writes its WARC file to.
const childDirEnv = "SEEDCRAWL_WARC_KILLED_CHILD"

// TestRecoverKilledWriter kills a process while its Writer has a file open
// (no CDXJ index yet), then opens a new Writer on the same directory, as a
// crawl rerun after kill -9 does. The killed writer's file must get its
// index, be cut back to its last whole exchange when the kill came in the
// middle of a record pair's write (keeping the pair's response when it is
// whole), and read to its end; a file another live Writer holds must be
// left alone.
func TestRecoverKilledWriter(t *testing.T) {
	if dir := os.Getenv(childDirEnv); dir != "" {
		writeAndWait(t, dir)
		return
	}
	for _, tc := range []struct {
		name string
		// tail is what the killed write left after the whole exchanges,
		// made from the bytes of one more exchange's pair.
		tail func(pair []byte) []byte
		// kept is how many bytes of the tail recovery keeps.
		kept     func(pair []byte) int
		wantRecs string
	}{
		{"whole records", func([]byte) []byte { return nil }, func([]byte) int { return 0 }, "warcinfo,response,request,response,request"},
		{"cut inside the response", func(p []byte) []byte { return p[:len(p)/4] }, func([]byte) int { return 0 }, "warcinfo,response,request,response,request"},
		{"cut between response and request", func(p []byte) []byte { return p[:firstMember(t, p)] }, func(p []byte) int { return firstMember(t, p) }, "warcinfo,response,request,response,request,response"},
		{"cut inside the request", func(p []byte) []byte { return p[:len(p)-5] }, func(p []byte) int { return firstMember(t, p) }, "warcinfo,response,request,response,request,response"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := pageServer(t)
			dir := t.TempDir()
			name := runKilledChild(t, dir, srv.URL)
			path := filepath.Join(dir, name)
			// The bytes the killed write got into the file, made from a pair
			// written the same way elsewhere.
			pair := onePair(t, srv.URL+"/p3")
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			tail := tc.tail(pair)
			if _, err := f.Write(tail); err != nil {
				t.Fatal(err)
			}
			f.Close()
			if _, err := os.Stat(strings.TrimSuffix(path, ".warc.gz") + ".cdxj"); !os.IsNotExist(err) {
				t.Fatalf("killed writer left an index: %v", err)
			}

			// A live writer on the same directory: its file has no index
			// yet and must not be touched.
			live := warc.OpenWriter(t, warc.Options{Dir: dir, Prefix: "live"})
			if _, err := live.WriteExchange(context.Background(), fetchExchange(t, srv.URL+"/p1")); err != nil {
				t.Fatal(err)
			}
			livePath := filepath.Join(dir, live.Files()[0])
			liveSize := size(t, livePath)

			w := warc.OpenWriter(t, warc.Options{Dir: dir})
			if got, want := w.Recovered(), (warc.Recovery{Name: name, Cut: int64(len(tail) - tc.kept(pair))}); len(got) != 1 || got[0] != want {
				t.Fatalf("recovered %v, want [%v]", got, want)
			}
			if got := warc.Types(warc.ReadAll(t, path)); got != tc.wantRecs {
				t.Errorf("records after recovery: %s, want %s", got, tc.wantRecs)
			}
			want, err := warc.IndexFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(strings.TrimSuffix(path, ".warc.gz") + ".cdxj")
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Count(tc.wantRecs, "response")
			if string(got) != strings.Join(want, "\n")+"\n" || len(want) != lines {
				t.Errorf("index\n%s\nwant the %d lines\n%s", got, lines, strings.Join(want, "\n"))
			}
			// The live writer's file: no index written for it, not cut.
			if _, err := os.Stat(strings.TrimSuffix(livePath, ".warc.gz") + ".cdxj"); !os.IsNotExist(err) {
				t.Errorf("a live writer's file was indexed: %v", err)
			}
			if size(t, livePath) != liveSize {
				t.Errorf("a live writer's file changed size")
			}
			if err := live.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := warc.IndexFile(livePath); err != nil {
				t.Errorf("live writer's file after its close: %v", err)
			}
		})
	}
}

// runKilledChild runs this test binary as a child that writes two pages
// fetched from base into a Writer on dir, kills it with SIGKILL once it
// says they are written, and returns the name of the file it left.
func runKilledChild(t *testing.T, dir, base string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestRecoverKilledWriter$")
	cmd.Env = append(os.Environ(), childDirEnv+"="+dir, "SEEDCRAWL_WARC_KILLED_BASE="+base)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	name, ok := strings.CutPrefix(strings.TrimSpace(line), "written ")
	if err != nil || !ok {
		t.Fatalf("child said %q: %v", line, err)
	}
	return name
}

// writeAndWait is the child's side: two exchanges written, the file named
// on stdout, then it waits to be killed.
func writeAndWait(t *testing.T, dir string) {
	base := os.Getenv("SEEDCRAWL_WARC_KILLED_BASE")
	w, err := warc.Open(warc.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/p1", "/p2"} {
		if _, err := w.WriteExchange(context.Background(), fetchExchange(t, base+p)); err != nil {
			t.Fatal(err)
		}
	}
	fmt.Printf("written %s\n", w.Files()[0])
	time.Sleep(time.Hour) // killed by the parent long before
}

// pageServer serves distinct small pages on loopback.
func pageServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><body>page %s %s</body></html>", r.URL.Path, strings.Repeat("x", 500))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// fetchExchange fetches url over loopback with the wire capture on.
func fetchExchange(t *testing.T, url string) warc.Exchange {
	t.Helper()
	f, err := fetch.New(fetch.Options{Record: true, AllowHosts: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	r := f.Fetch(context.Background(), fetch.Request{URL: url})
	if r.Err != nil || r.Capture == nil {
		t.Fatalf("%s: %v", url, r.Err)
	}
	return warc.Exchange{URL: r.URL, Date: time.Now(), IP: r.RemoteAddr, Request: r.Capture.Request, Response: r.Capture.Response}
}

// onePair returns the bytes of url's response and request records as a
// Writer appends them in one write.
func onePair(t *testing.T, url string) []byte {
	t.Helper()
	dir := t.TempDir()
	w := warc.OpenWriter(t, warc.Options{Dir: dir})
	res, err := w.WriteExchange(context.Background(), fetchExchange(t, url))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, res.File))
	if err != nil {
		t.Fatal(err)
	}
	return b[res.Offset:]
}

// firstMember returns the length of the first gzip member of a pair.
func firstMember(t *testing.T, pair []byte) int {
	t.Helper()
	recs, err := readMembers(pair)
	if err != nil || len(recs) != 2 {
		t.Fatalf("pair: %d records, %v", len(recs), err)
	}
	return int(recs[1].Offset)
}

func readMembers(b []byte) ([]*warc.Record, error) {
	rd, err := warc.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	var out []*warc.Record
	for {
		rec, err := rd.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return out, err
		}
		out = append(out, rec)
	}
}

func size(t *testing.T, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}
