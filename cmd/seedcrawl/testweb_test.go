package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/testweb"
)

func TestTestwebBadInput(t *testing.T) {
	dir := t.TempDir()
	header := "# name: x\n# source: test\n# nodes: 3 arcs: 2\n# self-loops: 0\n"
	malformed := filepath.Join(dir, "malformed")
	writeGzFile(t, malformed+".arcs.tsv.gz", header+"0\t1\n1 two\n")
	outOfRange := filepath.Join(dir, "range")
	writeGzFile(t, outOfRange+".arcs.tsv.gz", header+"0\t1\n1\t7\n")
	badURLs := filepath.Join(dir, "urls")
	writeGzFile(t, badURLs+".arcs.tsv.gz", header+"0\t1\n1\t2\n")
	writeGzFile(t, badURLs+".urls.gz", "http://a.test/\nhttp://b.test/\nhttp://c.test/\nhttp://d.test/\n")
	cases := []struct {
		name string
		args []string
		code int
		want []string // substrings of stderr
	}{
		{"malformed graph line", []string{"--graph", malformed}, 1, []string{malformed + ".arcs.tsv.gz:6:", "two"}},
		{"id out of range", []string{"--graph", outOfRange}, 1, []string{outOfRange + ".arcs.tsv.gz:6:", "out of range"}},
		{"too many URLs", []string{"--graph", badURLs}, 1, []string{badURLs + ".urls.gz:4:"}},
		{"missing graph", []string{"--graph", filepath.Join(dir, "nope")}, 1, []string{filepath.Join(dir, "nope")}},
		{"unknown flag", []string{"--colour", "red"}, 2, []string{"flag provided but not defined: -colour"}},
		{"stray argument", []string{"http://www.alpha.test/"}, 2, []string{`unexpected argument "http://www.alpha.test/"`}},
		{"bad preset", []string{"--preset", "evil"}, 2, []string{"--preset", "evil"}},
		{"pages with graph", []string{"--graph", malformed, "--pages", "10"}, 2, []string{"--pages"}},
		{"bad epoch", []string{"--epoch", "-2"}, 2, []string{"epoch"}},
		{"too few pages", []string{"--pages", "3", "--hosts", "5"}, 1, []string{"pages 3 fewer than hosts 5"}},
		{"bad address", []string{"--addr", "nonsense"}, 1, []string{"nonsense"}},
		// Values the library would read as "default" or "none".
		{"zero pages", []string{"--pages", "0"}, 2, []string{"--pages 0"}},
		{"zero hosts", []string{"--hosts", "0"}, 2, []string{"--hosts 0"}},
		{"negative hosts with graph", []string{"--graph", malformed, "--hosts", "-1"}, 2, []string{"--hosts -1"}},
		{"inter-host above 1", []string{"--inter-host", "1.5"}, 2, []string{"--inter-host 1.5"}},
		{"negative inter-host", []string{"--inter-host", "-0.2"}, 2, []string{"--inter-host -0.2"}},
		{"NaN inter-host", []string{"--inter-host", "NaN"}, 2, []string{"--inter-host NaN"}},
		{"negative crawl-delay", []string{"--crawl-delay", "-1s"}, 2, []string{"--crawl-delay -1s"}},
		{"bad profile", []string{"--profile", "huge"}, 2, []string{"--profile", "huge"}},
		{"profile with graph", []string{"--graph", malformed, "--profile", "docs"}, 2, []string{"--profile"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resolve := filepath.Join(t.TempDir(), "resolve")
			args := append([]string{"testweb", "--resolve-out", resolve, "--pages", "50", "--hosts", "3"}, c.args...)
			if c.name == "pages with graph" || strings.HasPrefix(c.args[0], "--graph") {
				args = append([]string{"testweb", "--resolve-out", resolve}, c.args...)
			}
			if stdout, _ := checkExit(t, args, c.code, c.want...); stdout != "" {
				t.Errorf("stdout not empty: %q", stdout)
			}
			if _, err := os.Stat(resolve); err == nil {
				t.Error("resolve file written although nothing was served")
			}
		})
	}
}

// twClient builds an HTTP client from the files the command wrote, the way
// a crawler uses them: the resolve file and the CA certificate.
func twClient(t *testing.T, resolveFile, caFile string) *http.Client {
	t.Helper()
	f, err := os.Open(resolveFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("resolve line %q", line)
		}
		m[k] = v
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatal("CA file holds no certificate")
	}
	return &http.Client{
		Transport: &http.Transport{
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				var d net.Dialer
				return d.DialContext(ctx, network, m[addr])
			},
			TLSClientConfig: &tls.Config{RootCAs: pool},
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

func TestTestwebServes(t *testing.T) {
	dir := t.TempDir()
	resolve, ca, log, seeds := filepath.Join(dir, "r.txt"), filepath.Join(dir, "ca.pem"), filepath.Join(dir, "access.log"), filepath.Join(dir, "seeds.txt")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr outBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"testweb", "--pages", "120", "--hosts", "4", "--seed", "3", "--resolve-out", resolve,
			"--ca-out", ca, "--access-log", log, "--seeds-out", seeds, "--slow-latency", "10ms"}, &stdout, &stderr)
	}()
	wctx, wcancel := context.WithTimeout(ctx, 20*time.Second)
	defer wcancel()
	printed := make(chan error, 1)
	go func() { printed <- stdout.Wait(wctx, "seed\t") }()
	select {
	case code := <-done:
		t.Fatalf("testweb exited %d early: %s", code, stderr.String())
	case err := <-printed:
		if err != nil {
			t.Fatalf("no seed printed within 20s (%v); stdout %q stderr %q", err, stdout.String(), stderr.String())
		}
	}
	out := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		k, v, _ := strings.Cut(line, "\t")
		out[k] = append(out[k], v)
	}
	if len(out["http"]) != 1 || len(out["https"]) != 1 || len(out["control"]) != 1 || out["seed"][0] != "http://www.alpha.test/" {
		t.Fatalf("stdout %q", stdout.String())
	}
	c := twClient(t, resolve, ca)
	for _, u := range []string{"http://www.alpha.test/", "https://www.delta.test/", "http://rules.test/robots.txt"} {
		resp, err := c.Get(u)
		if err != nil {
			t.Fatalf("GET %s: %v", u, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("GET %s: %s", u, resp.Status)
		}
	}
	resp, err := http.Get("http://" + out["control"][0] + "/epoch?n=2")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "{\"epoch\":2}\n" {
		t.Errorf("control answered %q", body)
	}
	if b, _ := os.ReadFile(seeds); !strings.Contains(string(b), "http://www.alpha.test/\n") {
		t.Errorf("seeds file %q", b)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d after interrupt: %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("testweb did not stop within 10s of the interrupt")
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 3 {
		t.Fatalf("access log has %d lines:\n%s", len(lines), b)
	}
	if e, err := testweb.ParseEntry(lines[1]); err != nil || e.URL() != "https://www.delta.test/" || e.Status != 200 {
		t.Errorf("access log line %q: %+v %v", lines[1], e, err)
	}
}

func TestTestwebDump(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name   string
		args   []string
		nodes  int // 0: do not check
		arcs   int
		noURLs bool
	}{
		{"generated", []string{"--pages", "150", "--hosts", "5", "--preset", "clean", "--epoch", "1"}, 0, 0, false},
		{"generated docs profile", []string{"--pages", "150", "--hosts", "5", "--profile", "docs"}, 0, 0, false},
		{"hollins", []string{"--graph", sharedDataPath("hollins"), "--preset", "clean"}, 6012, 23875, false},
		// sitemap.test: 14 pages, 17 arcs (one of them from the first seed).
		{"hollins with sitemaps", []string{"--graph", sharedDataPath("hollins"), "--preset", "clean", "--sitemaps"}, 6012 + 14, 23875 + 17, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := filepath.Join(dir, c.name)
			resolve := filepath.Join(dir, c.name+".resolve")
			var stdout, stderr bytes.Buffer
			args := append([]string{"testweb", "--dump", base, "--resolve-out", resolve}, c.args...)
			if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			g, err := graph.ReadDataset(base)
			if err != nil {
				t.Fatalf("dump does not read back: %v", err)
			}
			if c.nodes != 0 && (g.N() != c.nodes || g.M() != c.arcs) {
				t.Errorf("dump has %d nodes %d arcs, want %d %d", g.N(), g.M(), c.nodes, c.arcs)
			}
			if g.URLs == nil || !strings.Contains(stdout.String(), "nodes\t") {
				t.Errorf("dump without URLs, or stdout %q", stdout.String())
			}
			for _, ext := range []string{".nodes.tsv.gz", ".seeds.txt"} {
				if _, err := os.Stat(base + ext); err != nil {
					t.Errorf("dump lacks %s: %v", ext, err)
				}
			}
			if _, err := os.Stat(resolve); err == nil {
				t.Error("--dump served the web")
			}
		})
	}
}
