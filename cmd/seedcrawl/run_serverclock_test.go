package main

import (
	"io"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// TestRunServerClock runs three cycles of `run` over real HTTP against an
// evolving test web, one epoch per cycle (seconds apart on the crawler's
// clock, a day apart on the web's), and checks that the fetch history
// holds each fetch's Date and Last-Modified on the web's clock: the
// change-rate estimator of the optimal refresh policy reads them.
func TestRunServerClock(t *testing.T) {
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 3, Pages: 400, Hosts: 5, Preset: testweb.Clean,
		Evolution: testweb.Evolution{Model: testweb.EvolveWeb, Change: 0.3}}, testweb.Options{})
	db := filepath.Join(t.TempDir(), "r.db")
	const epochs = 3
	truths := make([]*testweb.Truth, epochs)
	for e := range epochs {
		w.toEpoch(t, e)
		truths[e] = w.web.Truth()
		args := []string{"--db", db, "--resolve-file", w.resolve, "--ca-file", w.srv.CAFile(), "--scope", "hosts:.test",
			"--delay", "0", "--delay-factor", "0", "--workers", "4", "--progress", "0", "--commit-interval", "100ms",
			"--refresh-policy", "optimal", "--refresh-share", "0.5", "--pages-per-cycle", "300", "--cycles", strconv.Itoa(e + 1)}
		if err := runCycles(t.Context(), append(args, w.site.Seeds()...), io.Discard, io.Discard); err != nil {
			t.Fatalf("cycle %d: %v", e+1, err)
		}
	}
	d := openDB(t, db)
	dated, refetched, moved := 0, 0, 0
	err := d.EachPage(func(p *storage.Page) error {
		hist, err := d.History(p.ID)
		if err != nil {
			return err
		}
		var prev storage.FetchRecord
		for _, r := range hist {
			if r.Change != storage.ChangeNew && r.Change != storage.ChangeChanged && r.Change != storage.ChangeUnchanged {
				continue
			}
			e := int(r.Cycle) - 1
			tr := truths[e]
			id, ok := tr.ID(p.URL)
			if !ok || tr.Nodes[id].Status != 200 {
				continue
			}
			if !r.Date.Equal(testweb.EpochTime(e)) {
				t.Errorf("%s, cycle %d: Date %v, want the web's clock %v", p.URL, r.Cycle, r.Date, testweb.EpochTime(e))
			}
			if want := tr.Nodes[id].LastModified; !r.LastModified.Equal(want.Truncate(time.Second)) {
				t.Errorf("%s, cycle %d: Last-Modified %v, want %v", p.URL, r.Cycle, r.LastModified, want)
			}
			dated++
			if !prev.Date.IsZero() {
				refetched++
				if r.LastModified.After(prev.Date) != (r.Change == storage.ChangeChanged) {
					t.Errorf("%s, cycle %d: %v, Last-Modified %v against the previous Date %v", p.URL, r.Cycle, r.Change, r.LastModified, prev.Date)
				}
				if r.Change == storage.ChangeChanged {
					moved++
				}
			}
			prev = r
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if dated < 300 || refetched < 50 || moved < 5 {
		t.Errorf("%d dated fetches, %d refetches, %d of them changed; want ≥ 300, 50, 5", dated, refetched, moved)
	}
}
