package main

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/internal/crawltest"
	"github.com/seedcrawl/seedcrawl/internal/testhttp"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/warc"
)

// warcRec is one WARC record as the test's own parser reads it.
type warcRec struct {
	head  map[string]string // field names lower-cased
	block []byte
}

func (r warcRec) get(name string) string { return r.head[strings.ToLower(name)] }

// warcParse reads every record of a .warc.gz file without package warc:
// the gzip members are one stream; each record is "WARC/1.1", fields up to
// an empty line, Content-Length bytes of block, and CRLF CRLF.
func warcParse(t *testing.T, path string) []warcRec {
	t.Helper()
	br := bufio.NewReader(bytes.NewReader(crawltest.ReadGzip(t, path)))
	var out []warcRec
	for {
		line, err := br.ReadString('\n')
		if err == io.EOF && line == "" {
			return out
		}
		if err != nil || line != "WARC/1.1\r\n" {
			t.Fatalf("%s: record %d starts with %q (%v)", path, len(out), line, err)
		}
		r := warcRec{head: map[string]string{}}
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				t.Fatalf("%s: record %d head: %v", path, len(out), err)
			}
			if line == "\r\n" {
				break
			}
			k, v, ok := strings.Cut(strings.TrimRight(line, "\r\n"), ":")
			if !ok {
				t.Fatalf("%s: record %d: bad field %q", path, len(out), line)
			}
			r.head[strings.ToLower(k)] = strings.TrimSpace(v)
		}
		n, err := strconv.Atoi(r.get("Content-Length"))
		if err != nil {
			t.Fatalf("%s: record %d: Content-Length %q", path, len(out), r.get("Content-Length"))
		}
		r.block = make([]byte, n)
		if _, err := io.ReadFull(br, r.block); err != nil {
			t.Fatalf("%s: record %d block: %v", path, len(out), err)
		}
		var end [4]byte
		if _, err := io.ReadFull(br, end[:]); err != nil || string(end[:]) != "\r\n\r\n" {
			t.Fatalf("%s: record %d ends with %q (%v)", path, len(out), end, err)
		}
		out = append(out, r)
	}
}

// sha1Digest is the WARC digest form, computed here independently.
func sha1Digest(b []byte) string {
	s := sha1.Sum(b)
	return "sha1:" + base32.StdEncoding.EncodeToString(s[:])
}

// warcFiles returns the WARC files in dir and checks each has its CDXJ
// index beside it.
func warcFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no WARC file in %s (%v)", dir, err)
	}
	for _, f := range files {
		idx := strings.TrimSuffix(f, ".warc.gz") + ".cdxj"
		b, err := os.ReadFile(idx)
		if err != nil {
			t.Fatalf("CDXJ index of %s: %v", f, err)
		}
		want, err := warc.IndexFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(string(b), "\n"); got != len(want) || got == 0 {
			t.Errorf("%s: %d index lines, want %d (one per response or revisit)", idx, got, len(want))
		}
	}
	return files
}

// warcReadAll reads every record of the files with both parsers and checks
// they agree; it returns the test parser's records.
func warcReadAll(t *testing.T, files []string) []warcRec {
	t.Helper()
	var all []warcRec
	for _, path := range files {
		own := warcParse(t, path)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		rd, err := warc.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		for ; ; i++ {
			rec, err := rd.Next() // validates block and payload digests
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: warc reader, record %d: %v", path, i, err)
			}
			if i >= len(own) || rec.Type() != own[i].get("WARC-Type") || rec.Header.Get("WARC-Record-ID") != own[i].get("WARC-Record-ID") {
				t.Fatalf("%s: record %d: the readers disagree", path, i)
			}
			if d := own[i].get("WARC-Block-Digest"); d != sha1Digest(own[i].block) {
				t.Errorf("%s: record %d: block digest %s, computed %s", path, i, d, sha1Digest(own[i].block))
			}
		}
		f.Close()
		if i != len(own) {
			t.Fatalf("%s: warc reader read %d records, the test's parser %d", path, i, len(own))
		}
		all = append(all, own...)
	}
	return all
}

// warcDirectGet asks the test web for the URL of a response record again,
// with the crawler's recorded request headers, and returns the response
// and its body as sent (no decompression, chunking removed).
func warcDirectGet(t *testing.T, client *http.Client, u string, request []byte) (*http.Response, []byte) {
	t.Helper()
	rq, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(request)))
	if err != nil {
		t.Fatalf("%s: request record: %v", u, err)
	}
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range rq.Header {
		req.Header[k] = v
	}
	return testhttp.Do(t, client, req)
}

// TestCrawlWARC crawls the test web with --warc and checks that every
// response the crawler got is in the WARC files exactly once, with the
// status, headers and payload bytes the server sends for that request.
func TestCrawlWARC(t *testing.T) {
	w := cleanWeb(t, 11, 80, 3)
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	cfg := demoConfig(db, w.site.Seeds(), w.srv, 0, 4)
	cfg.DelayFactor = 0
	cfg.WARC = filepath.Join(dir, "warc")
	sum := crawlRun(t, cfg, crawlExtras{})

	// What the db says got a response.
	want := map[string]storage.Page{}
	sdb := openDB(t, db)
	err := sdb.EachPage(func(p *storage.Page) error {
		if p.Fetches > 0 && p.Code != 0 {
			want[p.URL] = *p
		}
		return nil
	})
	sdb.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 20 || sum.Fetches != uint64(len(want)) {
		t.Fatalf("crawl: %d fetches, %d pages with a response; want one fetch per page, at least 20", sum.Fetches, len(want))
	}

	recs := warcReadAll(t, warcFiles(t, cfg.WARC))
	requests := map[string][]byte{} // record id → request block
	for _, r := range recs {
		if r.get("WARC-Type") == "request" {
			requests[r.get("WARC-Record-ID")] = r.block
		}
	}
	client := w.srv.Client()
	seen := map[string]int{}
	var truncated, revisits int
	for _, r := range recs {
		typ := r.get("WARC-Type")
		if typ != "response" && typ != "revisit" {
			continue
		}
		u := r.get("WARC-Target-URI")
		if strings.HasSuffix(u, "/robots.txt") {
			continue // not a page: TestCrawlWARCRobots checks these
		}
		seen[u]++
		req, ok := requests[r.get("WARC-Concurrent-To")]
		if !ok {
			t.Errorf("%s: no request record for %s", u, r.get("WARC-Record-ID"))
			continue
		}
		got, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(r.block)), nil)
		if err != nil {
			t.Errorf("%s: record block is not an HTTP response: %v", u, err)
			continue
		}
		payload, perr := io.ReadAll(got.Body)
		direct, body := warcDirectGet(t, client, u, req)
		if got.StatusCode != direct.StatusCode || got.StatusCode != want[u].Code {
			t.Errorf("%s: status %d in the WARC, %d direct, %d stored", u, got.StatusCode, direct.StatusCode, want[u].Code)
		}
		for _, h := range []string{"Content-Type", "Content-Encoding", "Content-Length", "ETag", "Last-Modified", "Location"} {
			if g, d := got.Header.Get(h), direct.Header.Get(h); g != d && !(h == "Content-Length" && g == "" && d != "") {
				t.Errorf("%s: header %s %q in the WARC, %q direct", u, h, g, d)
			}
		}
		if pd := r.get("WARC-Payload-Digest"); pd != "" && pd != sha1Digest(body) {
			t.Errorf("%s: payload digest %s, the server's body has %s", u, pd, sha1Digest(body))
		}
		switch {
		case typ == "revisit":
			revisits++ // identical payload: the head only, the digest checked above
		case r.get("WARC-Truncated") != "":
			truncated++
			if !bytes.HasPrefix(body, payload) {
				t.Errorf("%s: truncated payload is not a prefix of the server's body", u)
			}
		case perr != nil || !bytes.Equal(payload, body):
			t.Errorf("%s: payload of %d bytes (%v) differs from the server's %d bytes", u, len(payload), perr, len(body))
		}
	}
	for u := range want {
		if seen[u] != 1 {
			t.Errorf("%s: %d records in the WARC, want 1", u, seen[u])
		}
	}
	if len(seen) != len(want) {
		t.Errorf("%d URLs in the WARC, %d fetched", len(seen), len(want))
	}
	t.Logf("%d responses archived (%d identical-payload revisits, %d truncated) in %d records", len(seen), revisits, truncated, len(recs))
	if truncated > len(seen)/4 {
		t.Errorf("%d of %d responses truncated: the crawler's captures are not whole", truncated, len(seen))
	}
}

// TestRunWARCRevisits runs two cycles with --warc: the second refetches
// every known page with conditional GET, and each 304 must be a
// server-not-modified revisit record whose WARC-Refers-To-Date is the
// date of the first cycle's response record for the URL.
func TestRunWARCRevisits(t *testing.T) {
	w := cleanWeb(t, 5, 60, 3)
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	warcDir := filepath.Join(dir, "warc")
	runCmd(t, runArgs(t, w, db, append([]string{"--cycles", "2", "--seed-algo", "given", "--revisit-initial", "0",
		"--warc", warcDir}, w.site.Seeds()...)...))

	st := runReadDB(t, db)
	var notModified []string
	for u, r := range st.fetch[2] {
		if r.Status == storage.StatusNotModified {
			notModified = append(notModified, u)
		}
	}
	if len(notModified) < 10 {
		t.Fatalf("cycle 2 had %d 304s, want at least 10 (is the test web answering conditional GETs?)", len(notModified))
	}
	recs := warcReadAll(t, warcFiles(t, warcDir))
	firstDate := map[string]string{} // URL → date of its first response record
	revisits := map[string]warcRec{}
	for _, r := range recs {
		u := r.get("WARC-Target-URI")
		switch {
		case r.get("WARC-Type") == "response":
			if _, ok := firstDate[u]; !ok {
				firstDate[u] = r.get("WARC-Date")
			}
		case r.get("WARC-Profile") == warc.ProfileServerNotModified:
			if _, dup := revisits[u]; dup {
				t.Errorf("%s: two 304 revisit records", u)
			}
			revisits[u] = r
		}
	}
	for _, u := range notModified {
		r, ok := revisits[u]
		if !ok {
			t.Errorf("%s: 304 in cycle 2 without a revisit record", u)
			continue
		}
		if !strings.HasPrefix(string(r.block), "HTTP/1.1 304") {
			t.Errorf("%s: revisit block starts %q, want the 304 response", u, firstLine(r.block))
		}
		if got, want := r.get("WARC-Refers-To-Date"), firstDate[u]; got == "" || got != want {
			t.Errorf("%s: WARC-Refers-To-Date %q, want the first capture's date %q", u, got, want)
		}
	}
	t.Logf("cycle 2: %d 304s, %d server-not-modified revisit records", len(notModified), len(revisits))
	if len(revisits) != len(notModified) {
		t.Errorf("%d 304 revisit records, %d 304s stored", len(revisits), len(notModified))
	}
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\r\n")
	return fmt.Sprintf("%.60s", s)
}

// TestCrawlWARCIdenticalPayload crawls a loopback server whose two pages
// have the same body and no validators: the second response must be an
// identical-payload-digest revisit naming the first capture, holding the
// response head only.
func TestCrawlWARCIdenticalPayload(t *testing.T) {
	same := "<html><body>the same text on two URLs</body></html>"
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<html><body><a href="/one">1</a> <a href="/two">2</a></body></html>`)
	})
	for _, p := range []string{"/one", "/two"} {
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, same)
		})
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()

	dir := t.TempDir()
	cfg := config.Default()
	cfg.DB = filepath.Join(dir, "d.db")
	cfg.Seeds = []string{srv.URL + "/"}
	cfg.Workers = 1
	cfg.Delay = 0
	cfg.DelayFactor = 0
	cfg.WARC = filepath.Join(dir, "warc")
	crawlRun(t, cfg, crawlExtras{})

	recs := warcReadAll(t, warcFiles(t, cfg.WARC))
	byURL := map[string]warcRec{}
	for _, r := range recs {
		if typ := r.get("WARC-Type"); typ == "response" || typ == "revisit" {
			byURL[strings.TrimPrefix(r.get("WARC-Target-URI"), srv.URL)] = r
		}
	}
	first, second := byURL["/one"], byURL["/two"]
	if first.get("WARC-Type") != "response" || second.get("WARC-Type") != "revisit" {
		t.Fatalf("/one is a %q record, /two a %q record; want response then revisit", first.get("WARC-Type"), second.get("WARC-Type"))
	}
	if second.get("WARC-Profile") != warc.ProfileIdenticalPayload || second.get("WARC-Refers-To") != first.get("WARC-Record-ID") ||
		second.get("WARC-Refers-To-Target-URI") != srv.URL+"/one" {
		t.Errorf("revisit of /two: profile %q refers to %q (%q), want the capture of /one %q",
			second.get("WARC-Profile"), second.get("WARC-Refers-To"), second.get("WARC-Refers-To-Target-URI"), first.get("WARC-Record-ID"))
	}
	if d := sha1Digest([]byte(same)); first.get("WARC-Payload-Digest") != d || second.get("WARC-Payload-Digest") != d {
		t.Errorf("payload digests %q and %q, want %q", first.get("WARC-Payload-Digest"), second.get("WARC-Payload-Digest"), d)
	}
	if bytes.Contains(second.block, []byte(same)) || !bytes.HasSuffix(second.block, []byte("\r\n\r\n")) {
		t.Errorf("revisit block holds more than the response head: %q", second.block)
	}
}
