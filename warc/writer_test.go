package warc

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestWriteExchanges writes one exchange of each kind and reads the file
// back: record types and links, exact blocks, revisit fields, digests.
func TestWriteExchanges(t *testing.T) {
	dir := t.TempDir()
	w := openWriter(t, Options{Dir: dir, Info: Header{{"operator", "test"}}})
	ctx := context.Background()
	gzBody := gzipBytes(t, "<html>compressed</html>")
	chunkedGzip := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n" +
		fmt.Sprintf("%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n", 5, gzBody[:5], len(gzBody)-5, gzBody[5:])
	first := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name      string
		ex        Exchange
		typ       string
		profile   string
		refersURI string
		block     string // expected response/revisit block
		payload   string // the payload the digest covers
	}{
		{"plain 200", Exchange{URL: "http://example.com/a", Date: first, IP: "192.0.2.1", Request: request("/a"), Response: htmlResponse("<p>same</p>")},
			TypeResponse, "", "", string(htmlResponse("<p>same</p>")), "<p>same</p>"},
		{"chunked gzip kept as sent", Exchange{URL: "http://example.com/gz", IP: "192.0.2.1", Request: request("/gz"), Response: []byte(chunkedGzip)},
			TypeResponse, "", "", chunkedGzip, string(gzBody)},
		{"same payload elsewhere", Exchange{URL: "http://example.com/b", IP: "192.0.2.1", Request: request("/b"), Response: htmlResponse("<p>same</p>")},
			TypeRevisit, ProfileIdenticalPayload, "http://example.com/a", "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 11\r\n\r\n", "<p>same</p>"},
		{"304", Exchange{URL: "http://example.com/a", IP: "192.0.2.1", Request: request("/a"), Response: []byte("HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n"), RefersToDate: first},
			TypeRevisit, ProfileServerNotModified, "http://example.com/a", "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n", ""},
		{"404 is a response", Exchange{URL: "http://example.com/missing", Request: request("/missing"), Response: []byte("HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nno!")},
			TypeResponse, "", "", "HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nno!", "no!"},
		{"truncated is kept whole, not deduplicated", Exchange{URL: "http://example.com/cut", Request: request("/cut"), Response: htmlResponse("<p>same</p>")[:60], Truncated: true},
			TypeResponse, "", "", string(htmlResponse("<p>same</p>")[:60]), ""},
		{"no request record", Exchange{URL: "http://example.com/solo", Response: htmlResponse("<p>solo</p>")},
			TypeResponse, "", "", string(htmlResponse("<p>solo</p>")), "<p>solo</p>"},
	}
	var results []Result
	for _, tt := range tests {
		res, err := w.WriteExchange(ctx, tt.ex)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if res.Type != tt.typ {
			t.Fatalf("%s: type %s, want %s", tt.name, res.Type, tt.typ)
		}
		results = append(results, res)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files := w.Files()
	if len(files) != 1 {
		t.Fatalf("files %v", files)
	}
	recs := readAll(t, filepath.Join(dir, files[0]))
	want := "warcinfo,response,request,response,request,revisit,request,revisit,request,response,request,response,request,response"
	if got := types(recs); got != want {
		t.Fatalf("records %s\nwant    %s", got, want)
	}
	info := recs[0]
	if info.Header.Get("WARC-Filename") != files[0] || !bytes.Contains(info.Block, []byte("operator: test\r\n")) ||
		!bytes.Contains(info.Block, []byte("format: WARC File Format 1.1")) {
		t.Errorf("warcinfo %v %q", info.Header, info.Block)
	}
	i := 1
	for k, tt := range tests {
		rec := recs[i]
		h := rec.Header
		if h.Get("WARC-Record-ID") != results[k].RecordID || rec.Offset != results[k].Offset || rec.Length != results[k].Length {
			t.Errorf("%s: id %s offset %d length %d; result %+v", tt.name, h.Get("WARC-Record-ID"), rec.Offset, rec.Length, results[k])
		}
		if string(rec.Block) != tt.block {
			t.Errorf("%s: block %q\nwant %q", tt.name, rec.Block, tt.block)
		}
		if h.Get("WARC-Target-URI") != tt.ex.URL || h.Get("Content-Type") != "application/http;msgtype=response" ||
			h.Get("WARC-IP-Address") != tt.ex.IP || h.Get("WARC-Profile") != tt.profile ||
			h.Get("WARC-Refers-To-Target-URI") != tt.refersURI || !strings.HasPrefix(h.Get("WARC-Record-ID"), "<urn:uuid:") {
			t.Errorf("%s: header %v", tt.name, h)
		}
		if tt.payload != "" && h.Get("WARC-Payload-Digest") != Digest([]byte(tt.payload)) {
			t.Errorf("%s: payload digest %s, want digest of %q", tt.name, h.Get("WARC-Payload-Digest"), tt.payload)
		}
		if (h.Get("WARC-Truncated") == "length") != tt.ex.Truncated {
			t.Errorf("%s: WARC-Truncated %q", tt.name, h.Get("WARC-Truncated"))
		}
		switch tt.profile {
		case ProfileIdenticalPayload:
			if h.Get("WARC-Refers-To") != results[0].RecordID || h.Get("WARC-Refers-To-Date") != "2026-01-02T03:04:05Z" {
				t.Errorf("%s: refers to %s at %s", tt.name, h.Get("WARC-Refers-To"), h.Get("WARC-Refers-To-Date"))
			}
		case ProfileServerNotModified:
			if h.Get("WARC-Refers-To-Date") != "2026-01-02T03:04:05Z" {
				t.Errorf("%s: refers-to-date %q", tt.name, h.Get("WARC-Refers-To-Date"))
			}
		}
		i++
		if tt.ex.Request == nil {
			if len(h.Values("WARC-Concurrent-To")) != 0 {
				t.Errorf("%s: concurrent-to without a request", tt.name)
			}
			continue
		}
		req := recs[i]
		i++
		if req.Header.Get("WARC-Concurrent-To") != h.Get("WARC-Record-ID") || h.Get("WARC-Concurrent-To") != req.Header.Get("WARC-Record-ID") {
			t.Errorf("%s: request and response not linked", tt.name)
		}
		if !bytes.Equal(req.Block, tt.ex.Request) || req.Header.Get("Content-Type") != "application/http;msgtype=request" ||
			req.Header.Get("WARC-Date") != h.Get("WARC-Date") {
			t.Errorf("%s: request record %v %q", tt.name, req.Header, req.Block)
		}
	}
	checkIndex(t, dir, files[0], len(tests))
}

// checkIndex checks the CDXJ file of a WARC file: sorted, one line per
// response or revisit, each locating a gzip member that holds exactly the
// record for its URL; and equal to what IndexFile rebuilds.
func checkIndex(t *testing.T, dir, file string, n int) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(file, ".warc.gz")+".cdxj"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != n || !sort.StringsAreSorted(lines) {
		t.Fatalf("%d index lines (want %d), sorted %v", len(lines), n, sort.StringsAreSorted(lines))
	}
	warc, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^(\S+) (\d{14}) (\{.*\})$`)
	for _, l := range lines {
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("bad line %q", l)
		}
		var e map[string]string
		if err := json.Unmarshal([]byte(m[3]), &e); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if e["filename"] != file || SURT(e["url"]) != m[1] || e["status"] == "" {
			t.Errorf("line %q", l)
		}
		off, _ := strconv.ParseInt(e["offset"], 10, 64)
		length, _ := strconv.ParseInt(e["length"], 10, 64)
		zr, err := gzip.NewReader(bytes.NewReader(warc[off : off+length]))
		if err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		zr.Multistream(false)
		rec, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("line %q: member: %v", l, err)
		}
		if !bytes.Contains(rec, []byte("\r\nWARC-Target-URI: "+e["url"]+"\r\n")) || !bytes.HasSuffix(rec, []byte("\r\n\r\n")) {
			t.Errorf("line %q points at %q", l, rec[:min(len(rec), 200)])
		}
		if (e["mime"] == "warc/revisit") != bytes.Contains(rec, []byte("WARC-Type: revisit\r\n")) {
			t.Errorf("line %q: mime does not match the record type", l)
		}
	}
	rebuilt, err := IndexFile(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rebuilt, "\n") != strings.Join(lines, "\n") {
		t.Errorf("IndexFile:\n%s\nwriter:\n%s", strings.Join(rebuilt, "\n"), strings.Join(lines, "\n"))
	}
	return lines
}

func gzipBytes(t testing.TB, s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, _ = zw.Write([]byte(s))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestRotation writes past MaxSize and MaxRecords: several files, each
// starting with its own warcinfo, named PREFIX-TIMESTAMP-SERIAL.warc.gz,
// each with its index, and every exchange in exactly one of them.
func TestRotation(t *testing.T) {
	tests := []struct {
		name string
		opts Options
	}{
		{"by size", Options{MaxSize: 3000}},
		{"by record count", Options{MaxRecords: 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.opts.Dir, tt.opts.Prefix = dir, "crawl"
			w := openWriter(t, tt.opts)
			const n = 20
			for i := 0; i < n; i++ {
				body := fmt.Sprintf("<p>page %d %s</p>", i, strings.Repeat(strconv.Itoa(i*7919), 40))
				u := fmt.Sprintf("http://example.com/%d", i)
				if _, err := w.WriteExchange(context.Background(), Exchange{URL: u, Request: request("/"), Response: htmlResponse(body)}); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			files := w.Files()
			if len(files) < 3 {
				t.Fatalf("%d files", len(files))
			}
			name := regexp.MustCompile(`^crawl-\d{14}-\d{5}\.warc\.gz$`)
			seen := map[string]int{}
			total := 0
			for k, f := range files {
				if !name.MatchString(f) || !strings.HasSuffix(f, fmt.Sprintf("-%05d.warc.gz", k)) {
					t.Errorf("file name %q", f)
				}
				st, err := os.Stat(filepath.Join(dir, f))
				if err != nil {
					t.Fatal(err)
				}
				if tt.opts.MaxSize > 0 && st.Size() > tt.opts.MaxSize {
					t.Errorf("%s is %d bytes, over %d", f, st.Size(), tt.opts.MaxSize)
				}
				recs := readAll(t, filepath.Join(dir, f))
				if recs[0].Type() != TypeWarcinfo || recs[0].Header.Get("WARC-Filename") != f {
					t.Errorf("%s does not start with its warcinfo", f)
				}
				responses := 0
				for _, r := range recs {
					if r.Type() == TypeResponse {
						seen[r.Header.Get("WARC-Target-URI")]++
						responses++
					}
				}
				if tt.opts.MaxRecords > 0 && responses > tt.opts.MaxRecords {
					t.Errorf("%s holds %d responses", f, responses)
				}
				total += responses
				checkIndex(t, dir, f, responses)
			}
			if total != n || len(seen) != n {
				t.Fatalf("%d responses for %d URLs, want %d each once", total, len(seen), n)
			}
		})
	}
}

// TestConcurrentWriters writes from several goroutines at once: every
// pair is whole, adjacent and linked, and nothing is lost.
func TestConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	w := openWriter(t, Options{Dir: dir, MaxSize: 64 << 10})
	const workers, each = 8, 40
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for g := 0; g < workers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				u := fmt.Sprintf("http://w%d.example/%d", g, i)
				body := fmt.Sprintf("<p>%s %s</p>", u, strings.Repeat("x", i*37))
				if _, err := w.WriteExchange(context.Background(), Exchange{URL: u, Request: request("/"), Response: htmlResponse(body)}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	urls := map[string]bool{}
	for _, f := range w.Files() {
		recs := readAll(t, filepath.Join(dir, f))
		for i := 1; i < len(recs); i += 2 {
			resp, req := recs[i], recs[i+1]
			if resp.Type() != TypeResponse || req.Type() != TypeRequest ||
				req.Header.Get("WARC-Concurrent-To") != resp.Header.Get("WARC-Record-ID") ||
				req.Header.Get("WARC-Target-URI") != resp.Header.Get("WARC-Target-URI") {
				t.Fatalf("%s: records %d,%d are not a pair", f, i, i+1)
			}
			u := resp.Header.Get("WARC-Target-URI")
			if urls[u] || !bytes.Contains(resp.Block, []byte(u)) {
				t.Fatalf("%s twice or with another's body", u)
			}
			urls[u] = true
		}
	}
	if len(urls) != workers*each {
		t.Fatalf("%d exchanges read back, wrote %d", len(urls), workers*each)
	}
}

// TestUnclosedFileIsReadable reads a file while its writer is still open,
// as after a crash: every record written so far is whole, and IndexFile
// rebuilds the index that Close would have written.
func TestUnclosedFileIsReadable(t *testing.T) {
	dir := t.TempDir()
	w := openWriter(t, Options{Dir: dir})
	for i := 0; i < 5; i++ {
		u := fmt.Sprintf("http://example.com/%d", i)
		if _, err := w.WriteExchange(context.Background(), Exchange{URL: u, Request: request("/"), Response: htmlResponse(u)}); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, w.Files()[0])
	if got := types(readAll(t, path)); got != "warcinfo"+strings.Repeat(",response,request", 5) {
		t.Fatalf("records of the open file: %s", got)
	}
	lines, err := IndexFile(path)
	if err != nil || len(lines) != 5 {
		t.Fatalf("IndexFile: %d lines, %v", len(lines), err)
	}
	if _, err := os.Stat(strings.TrimSuffix(path, ".warc.gz") + ".cdxj"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("index written before Close: %v", err)
	}
}

// countingStore is a DigestStore that records its calls, standing in for
// a database-backed store.
type countingStore struct {
	mu       sync.Mutex
	m        map[string]Ref
	gets     int
	puts     int
	failGets bool
}

func (s *countingStore) Get(_ context.Context, d string) (Ref, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gets++
	if s.failGets {
		return Ref{}, false, errors.New("store down")
	}
	r, ok := s.m[d]
	return r, ok, nil
}

func (s *countingStore) Put(_ context.Context, d string, r Ref) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.puts++
	s.m[d] = r
	return nil
}

// TestDigestStore: the writer asks its DigestStore, so an earlier run's
// captures (pre-loaded here) turn into revisits, and store errors are
// reported.
func TestDigestStore(t *testing.T) {
	store := &countingStore{m: map[string]Ref{}}
	earlier := Ref{URI: "http://example.com/old", Date: time.Date(2025, 5, 5, 5, 5, 5, 0, time.UTC)}
	store.m[Digest([]byte("<p>old</p>"))] = earlier
	w := openWriter(t, Options{Digests: store})
	ctx := context.Background()
	res, err := w.WriteExchange(ctx, Exchange{URL: "http://example.com/new", Response: htmlResponse("<p>old</p>")})
	if err != nil || res.Type != TypeRevisit {
		t.Fatalf("type %s err %v", res.Type, err)
	}
	res, err = w.WriteExchange(ctx, Exchange{URL: "http://example.com/fresh", Response: htmlResponse("<p>fresh</p>")})
	if err != nil || res.Type != TypeResponse || store.puts != 1 || store.gets != 2 {
		t.Fatalf("type %s err %v puts %d gets %d", res.Type, err, store.puts, store.gets)
	}
	store.failGets = true
	if _, err := w.WriteExchange(ctx, Exchange{URL: "http://example.com/x", Response: htmlResponse("<p>x</p>")}); err == nil || !strings.Contains(err.Error(), "store down") {
		t.Fatalf("store error not reported: %v", err)
	}
}

func TestMemoryDigestsBounded(t *testing.T) {
	d := NewMemoryDigests(3)
	ctx := context.Background()
	for i := 0; i < 5; i++ {
		_ = d.Put(ctx, strconv.Itoa(i), Ref{URI: strconv.Itoa(i)})
	}
	if d.Len() != 3 {
		t.Fatalf("len %d", d.Len())
	}
	for i, want := range []bool{false, false, true, true, true} {
		if _, ok, _ := d.Get(ctx, strconv.Itoa(i)); ok != want {
			t.Errorf("digest %d present %v, want %v", i, ok, want)
		}
	}
	_ = d.Put(ctx, "4", Ref{URI: "other"})
	if r, _, _ := d.Get(ctx, "4"); r.URI != "4" {
		t.Errorf("first capture replaced by %q", r.URI)
	}
}

func TestWriterErrors(t *testing.T) {
	if _, err := Open(Options{}); !errors.Is(err, ErrOptions) {
		t.Errorf("no dir: %v", err)
	}
	if _, err := Open(Options{Dir: t.TempDir(), Level: 12}); !errors.Is(err, ErrOptions) {
		t.Errorf("level 12: %v", err)
	}
	w := openWriter(t, Options{})
	ctx := context.Background()
	if _, err := w.WriteExchange(ctx, Exchange{URL: "http://example.com/"}); !errors.Is(err, ErrExchange) {
		t.Errorf("no response: %v", err)
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := w.WriteExchange(canceled, Exchange{URL: "http://example.com/", Response: htmlResponse("x")}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteExchange(ctx, Exchange{URL: "http://example.com/", Response: htmlResponse("x")}); !errors.Is(err, ErrClosed) {
		t.Errorf("after close: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
}

func TestSURT(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://www.Example.com/A?b=1&a=2", "com,example)/a?a=2&b=1"},
		{"https://example.com", "com,example)/"},
		{"https://sub.example.co.uk:8443/x#frag", "uk,co,example,sub:8443)/x"},
		{"http://example.com:80/x", "com,example)/x"},
		{"http://127.0.0.1:8080/p", "127.0.0.1:8080)/p"},
		{"http://www.com/", "com,www)/"},
	}
	for _, tt := range tests {
		if got := SURT(tt.in); got != tt.want {
			t.Errorf("SURT(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
