package testweb

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

func setEpochViaControl(t *testing.T, srv *Server, n string) (int, string) {
	t.Helper()
	resp, err := http.Post("http://"+srv.ControlAddr()+"/epoch?n="+n, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestEpochs advances a running server through the control endpoint and
// checks, page by page, what changed against what a client cached at
// epoch 0: unchanged pages answer 304, changed ones 200 with a new ETag and
// Last-Modified, removed ones 404/410, moved ones 301 to their new URL, and
// new pages exist and are linked.
func TestEpochs(t *testing.T) {
	site := mustGenerate(t, GenOptions{Seed: 11, Pages: 600, Hosts: 8, Preset: Clean})
	w, srv := startWeb(t, site, testOptions())
	c := srv.Client()
	t0 := w.Truth()
	type cached struct{ etag, lm string }
	cache := map[uint32]cached{}
	for v, u := range t0.Graph.URLs {
		if t0.Nodes[v].Kind != KindPage {
			continue
		}
		status, hdr, _ := fetch(t, c, u)
		if status != 200 {
			t.Fatalf("epoch 0: GET %s: %d", u, status)
		}
		cache[uint32(v)] = cached{hdr.Get("ETag"), hdr.Get("Last-Modified")}
	}
	if status, body := setEpochViaControl(t, srv, "1"); status != 200 || body != "{\"epoch\":1}\n" {
		t.Fatalf("control /epoch?n=1: %d %q", status, body)
	}
	t1 := w.Truth()
	if t1.Epoch != 1 || t1.Graph.N() <= t0.Graph.N() {
		t.Fatalf("epoch 1 truth: epoch %d, %d nodes (epoch 0: %d)", t1.Epoch, t1.Graph.N(), t0.Graph.N())
	}
	counts := map[string]int{}
	for v, old := range cache {
		u := t0.Graph.URLs[v]
		if t1.Graph.URLs[v] != u {
			t.Fatalf("node %d changed URL: %s -> %s", v, u, t1.Graph.URLs[v])
		}
		status, hdr, _ := fetch(t, c, u, "If-None-Match", old.etag)
		info := t1.Nodes[v]
		switch info.Kind {
		case KindPage:
			changed := info.Modified == 1
			if changed != (info.ETag != old.etag) {
				t.Errorf("%s: Modified %d but ETag %s -> %s", u, info.Modified, old.etag, info.ETag)
			}
			switch {
			case changed && status == 200 && hdr.Get("ETag") == info.ETag && hdr.Get("Last-Modified") != old.lm:
				counts["changed"]++
			case !changed && status == 304 && hdr.Get("ETag") == old.etag:
				counts["unchanged"]++
				if s, _, _ := fetch(t, c, u, "If-Modified-Since", old.lm); s != 304 {
					t.Errorf("%s: If-Modified-Since unchanged page: %d", u, s)
				}
			default:
				t.Errorf("%s: changed=%v, got %d ETag %s (was %s)", u, changed, status, hdr.Get("ETag"), old.etag)
			}
		case KindGone:
			if status != info.Status || (status != 404 && status != 410) {
				t.Errorf("%s: gone page answers %d, truth %d", u, status, info.Status)
			}
			counts["gone"]++
		case KindRedirect:
			target := t1.Graph.URLs[t1.Graph.Out(v)[0]]
			if status != 301 || hdr.Get("Location") != target || !strings.Contains(target, "/moved/1/") {
				t.Errorf("%s: moved page answers %d Location %q, truth %s", u, status, hdr.Get("Location"), target)
			}
			counts["moved"]++
		default:
			t.Errorf("%s: kind %v at epoch 1", u, info.Kind)
		}
	}
	newLinked := 0
	for v := t0.Graph.N(); v < t1.Graph.N(); v++ {
		u := t1.Graph.URLs[v]
		if status, _, _ := fetch(t, c, u); status != 200 {
			t.Errorf("new page %s: %d", u, status)
		}
		if strings.Contains(u, "/new/1/") {
			counts["new"]++
		}
	}
	for v := 0; v < t1.Graph.N(); v++ {
		for _, x := range t1.Graph.Out(uint32(v)) {
			if int(x) >= t0.Graph.N() && strings.Contains(t1.Graph.URLs[x], "/new/") {
				newLinked++
			}
		}
	}
	for _, k := range []string{"changed", "unchanged", "gone", "moved", "new"} {
		if counts[k] == 0 {
			t.Errorf("no %s pages at epoch 1: %v", k, counts)
		}
	}
	if newLinked == 0 {
		t.Error("no links to new pages")
	}
	if counts["unchanged"] < counts["changed"] {
		t.Errorf("more changed than unchanged pages: %v", counts)
	}
	// Back to epoch 0: the old version again.
	u := t0.Graph.URLs[0]
	if err := w.SetEpoch(0); err != nil {
		t.Fatal(err)
	}
	if _, hdr, _ := fetch(t, c, u); hdr.Get("ETag") != cache[0].etag {
		t.Errorf("epoch 0 again: ETag %s, want %s", hdr.Get("ETag"), cache[0].etag)
	}
	for _, bad := range []string{"-1", "x", fmt.Sprint(maxEpoch + 1)} {
		if status, _ := setEpochViaControl(t, srv, bad); status != 400 {
			t.Errorf("control /epoch?n=%s: %d, want 400", bad, status)
		}
	}
	if err := w.SetEpoch(-1); !errors.Is(err, ErrEpoch) {
		t.Errorf("SetEpoch(-1) = %v, want ErrEpoch", err)
	}
}

// TestEpochDeterminism checks that an epoch is the same web however it is
// reached: directly on a fresh site, or through the epochs before it, and
// that two servers at the same epoch serve the same bytes.
func TestEpochDeterminism(t *testing.T) {
	opts := GenOptions{Seed: 5, Pages: 300, Hosts: 6}
	a := mustGenerate(t, opts)
	b := mustGenerate(t, opts)
	for e := 0; e <= 3; e++ {
		if _, err := a.Truth(e); err != nil {
			t.Fatal(err)
		}
	}
	ta, _ := a.Truth(3)
	tb, _ := b.Truth(3)
	if !sameTruth(ta, tb) {
		t.Fatal("epoch 3 differs between step-by-step and direct computation")
	}
	o := testOptions()
	o.Epoch = 3
	_, sa := startWeb(t, a, o)
	_, sb := startWeb(t, b, o)
	ca, cb := sa.Client(), sb.Client()
	for v, u := range ta.Graph.URLs {
		if k := ta.Nodes[v].Kind; k != KindPage && k != KindRedirect && k != KindGone {
			continue
		}
		s1, h1, b1 := fetch(t, ca, u)
		s2, h2, b2 := fetch(t, cb, u)
		if s1 != s2 || !bytes.Equal(b1, b2) || !equalHeaders(h1, h2) {
			t.Fatalf("%s differs at epoch 3", u)
		}
	}
}

func sameTruth(a, b *Truth) bool {
	if a.Graph.N() != b.Graph.N() || a.Graph.M() != b.Graph.M() || len(a.Nofollow) != len(b.Nofollow) {
		return false
	}
	for v := range a.Graph.URLs {
		if a.Graph.URLs[v] != b.Graph.URLs[v] || a.Nodes[v] != b.Nodes[v] {
			return false
		}
	}
	for i := range a.Graph.Targets {
		if a.Graph.Targets[i] != b.Graph.Targets[i] {
			return false
		}
	}
	return true
}
