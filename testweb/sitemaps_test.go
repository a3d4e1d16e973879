package testweb

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/robots"
	"github.com/seedcrawl/seedcrawl/sitemap"
)

const token = "seedcrawl"

func sitemapSite(t testing.TB, preset Preset) *Site {
	return mustGenerate(t, GenOptions{Seed: 7, Pages: 200, Hosts: 4, Preset: preset, Sitemaps: true})
}

func urlsOf(tr *Truth, ids []uint32) []string {
	out := make([]string, len(ids))
	for i, v := range ids {
		out[i] = tr.URL(v)
	}
	slices.Sort(out)
	return out
}

func TestSitemapOnly(t *testing.T) {
	for _, preset := range []Preset{Clean, Hostile} {
		tr, err := sitemapSite(t, preset).Truth(0)
		if err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name string
			lim  SitemapLimits
			want []string // paths on sitemap.test
		}{
			{"default bounds", SitemapLimits{}, []string{"/only/default.html", "/only/deep-ok.html", "/only/gz.html",
				"/only/huge.html", "/only/index-1.html", "/only/index-2.html", "/only/index-3.html",
				"/only/linked-from-only.html", "/only/text.html", "/private/listed.html"}},
			{"no bounds that bite", SitemapLimits{MaxDepth: 4, MaxURLs: hugeEntries}, []string{"/only/deep-beyond.html",
				"/only/default.html", "/only/deep-ok.html", "/only/gz.html", "/only/huge-beyond.html", "/only/huge.html",
				"/only/index-1.html", "/only/index-2.html", "/only/index-3.html", "/only/linked-from-only.html",
				"/only/text.html", "/private/listed.html"}},
			{"depth 1", SitemapLimits{MaxDepth: 1}, []string{"/only/default.html", "/only/gz.html",
				"/only/huge.html", "/only/index-1.html", "/only/index-2.html", "/only/index-3.html",
				"/only/linked-from-only.html", "/only/text.html", "/private/listed.html"}},
		}
		for _, tc := range tests {
			t.Run(preset.String()+"/"+tc.name, func(t *testing.T) {
				ids, err := tr.SitemapOnly(tr.Seeds, token, tc.lim)
				if err != nil {
					t.Fatal(err)
				}
				var want []string
				for _, p := range tc.want {
					want = append(want, "http://sitemap.test"+p)
				}
				slices.Sort(want)
				if got := urlsOf(tr, ids); !slices.Equal(got, want) {
					t.Errorf("SitemapOnly = %q,\nwant %q", got, want)
				}
				r, _ := tr.ReachableWithSitemaps(tr.Seeds, token, tc.lim)
				for _, v := range ids {
					// robots.txt forbids /private/: listed, discovered, not fetched.
					if fetched := r.Fetched(v); fetched == strings.Contains(tr.URL(v), "/private/") {
						t.Errorf("%s: fetched %v", tr.URL(v), fetched)
					}
				}
			})
		}
	}
}

func TestSitemapsOff(t *testing.T) {
	opts := GenOptions{Seed: 7, Pages: 200, Hosts: 4}
	off := mustGenerate(t, opts)
	if hs := off.HostsWith(RoleSitemap); len(hs) != 0 {
		t.Fatalf("sitemap hosts without the option: %v", hs)
	}
	tOff, _ := off.Truth(0)
	if e := tOff.SitemapEntries(); len(e) != 0 {
		t.Fatalf("%d sitemap entries without the option", len(e))
	}
	opts.Sitemaps = true
	tOn, _ := mustGenerate(t, opts).Truth(0)
	// The option only appends: every node of the plain web keeps its id
	// and URL, and only the first seed gains an arc.
	for v, u := range tOff.Graph.URLs {
		if tOn.Graph.URLs[v] != u {
			t.Fatalf("node %d: %s with sitemaps, %s without", v, tOn.Graph.URLs[v], u)
		}
		a, b := tOff.Graph.Out(uint32(v)), tOn.Graph.Out(uint32(v))
		if u == tOff.Seeds[0] {
			b = b[:len(b)-1]
		}
		if !slices.Equal(a, b) {
			t.Fatalf("%s: arcs %v with sitemaps, %v without", u, b, a)
		}
	}
	_, srv := startWeb(t, off, testOptions())
	if code, _, _ := fetch(t, srv.Client(), tOff.Seeds[0]+"sitemap.xml"); code != http.StatusNotFound {
		t.Errorf("/sitemap.xml without the option: %d, want 404", code)
	}
}

// TestSitemapWalk reads sitemap.test over loopback HTTP with package
// sitemap's Walker and checks it against the truth: the URLs within the
// default bounds, their lastmod, and a recorded cut for each bomb.
func TestSitemapWalk(t *testing.T) {
	site := sitemapSite(t, Clean)
	w, srv := startWeb(t, site, testOptions())
	tr := w.Truth()
	c := srv.Client()
	get := func(ctx context.Context, u string) (io.ReadCloser, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return nil, fmt.Errorf("GET %s: %s", u, resp.Status)
		}
		return resp.Body, nil
	}
	code, _, body := fetch(t, c, "http://sitemap.test/robots.txt")
	lines := robots.Sitemaps(body)
	if code != 200 || len(lines) != 4 {
		t.Fatalf("robots.txt: %d, Sitemap lines %q", code, lines)
	}
	wk := &sitemap.Walker{Fetch: get}
	got := map[uint32]bool{}
	wr, err := wk.Walk(context.Background(), "http://sitemap.test", lines, func(e sitemap.Entry) error {
		id, ok := tr.ID(e.URL)
		if !ok {
			t.Errorf("walk delivered %q, not a URL of the web", e.URL)
			return nil
		}
		if !e.LastMod.IsZero() && !e.LastMod.Equal(EpochTime(tr.Nodes[id].Modified)) {
			t.Errorf("%s: lastmod %v, want %v", e.URL, e.LastMod, EpochTime(tr.Nodes[id].Modified))
		}
		got[id] = true
		return nil
	})
	if err != nil {
		t.Fatalf("Walk: %v", err)
	}
	want := map[uint32]bool{}
	for _, e := range tr.SitemapEntries() {
		if e.Depth <= sitemap.DefaultMaxDepth && e.Position < sitemap.DefaultMaxURLs {
			want[e.ID] = true
		}
	}
	for id := range want {
		if !got[id] {
			t.Errorf("walk missed %s", tr.URL(id))
		}
	}
	for id := range got {
		if !want[id] {
			t.Errorf("walk found %s, beyond the bounds", tr.URL(id))
		}
	}
	reports := map[string]sitemap.Report{}
	for _, r := range wr.Reports {
		reports[strings.TrimPrefix(r.URL, "http://sitemap.test")] = r
	}
	checks := []struct {
		path, cut, skipped string
		kind               sitemap.Kind
	}{
		{"/sitemap-index.xml", "", "", sitemap.KindIndex},
		{"/maps/pages-2.xml.gz", "", "", sitemap.KindURLSet},
		{"/maps/deep-2.xml", "", "depth", sitemap.KindIndex},
		{"/urls.txt", "", "", sitemap.KindText},
		{"/huge.xml", "urls", "", sitemap.KindURLSet},
		{"/bomb.xml.gz", "gzip-ratio", "", sitemap.KindURLSet},
		{"/sitemap.xml", "", "", sitemap.KindURLSet},
	}
	for _, ck := range checks {
		r, ok := reports[ck.path]
		switch {
		case !ok:
			t.Errorf("%s not fetched", ck.path)
		case r.Err != nil:
			t.Errorf("%s: %v", ck.path, r.Err)
		case !strings.HasPrefix(r.Result.Cut, ck.cut) || (ck.cut == "") != (r.Result.Cut == ""):
			t.Errorf("%s: cut %q, want %q", ck.path, r.Result.Cut, ck.cut)
		case !strings.HasPrefix(r.Skipped, ck.skipped) || (ck.skipped == "") != (r.Skipped == ""):
			t.Errorf("%s: skipped %q, want %q", ck.path, r.Skipped, ck.skipped)
		case r.Result.Kind != ck.kind:
			t.Errorf("%s: kind %v, want %v", ck.path, r.Result.Kind, ck.kind)
		}
	}
	if _, ok := reports["/maps/deep-3.xml"]; ok {
		t.Errorf("deep-3.xml fetched beyond the depth bound")
	}
	// Every sitemap-only page answers 200 (except the robots-forbidden one,
	// which a polite crawler never asks for).
	ids, _ := tr.SitemapOnly(tr.Seeds, token, SitemapLimits{MaxDepth: 9, MaxURLs: hugeEntries})
	for _, v := range ids {
		if code, _, _ := fetch(t, c, tr.URL(v)); code != http.StatusOK {
			t.Errorf("%s: %d", tr.URL(v), code)
		}
	}
}

// TestSitemapFilesDeterministic fetches every sitemap file from two
// servers of the same seed: same status, type and bytes.
func TestSitemapFilesDeterministic(t *testing.T) {
	_, a := startWeb(t, sitemapSite(t, Hostile), testOptions())
	_, b := startWeb(t, sitemapSite(t, Hostile), testOptions())
	spec := a.Web().Site().hosts[a.Web().Site().hostIndex[sitemapHost]]
	paths := []string{"/robots.txt"}
	for p := range spec.sitemaps.files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		u := "http://" + sitemapHost + p
		ca, ha, ba := fetch(t, a.Client(), u)
		cb, hb, bb := fetch(t, b.Client(), u)
		if ca != http.StatusOK || ca != cb || !bytes.Equal(ba, bb) || !equalHeaders(ha, hb) {
			t.Errorf("%s: %d %v (%d bytes) vs %d %v (%d bytes)", u, ca, ha, len(ba), cb, hb, len(bb))
		}
		if strings.HasSuffix(p, ".gz") != (ha.Get("Content-Type") == "application/gzip") || ha.Get("Content-Encoding") != "" {
			t.Errorf("%s: Content-Type %q, Content-Encoding %q", u, ha.Get("Content-Type"), ha.Get("Content-Encoding"))
		}
	}
}
