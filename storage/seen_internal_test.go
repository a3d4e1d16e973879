package storage

import (
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// The filter never forgets a URL, across its growth, and its false
// positives stay near the rate it is sized for.
func TestSeenFilter(t *testing.T) {
	f := &seenFilter{seed: maphash.MakeSeed()}
	f.grow(1000)
	for i := range 20_000 {
		if !f.add(fmt.Sprintf("http://a.test/%d", i)) {
			t.Fatalf("add %d: filter full", i)
		}
	}
	if len(f.parts) < 4 {
		t.Fatalf("%d parts after 20 times the first part's room, want growth", len(f.parts))
	}
	for i := range 20_000 {
		if u := fmt.Sprintf("http://a.test/%d", i); !f.mayHave(u) {
			t.Fatalf("%s added but not found", u)
		}
	}
	fp := 0
	const probes = 100_000
	for i := range probes {
		if f.mayHave(fmt.Sprintf("http://b.test/%d", i)) {
			fp++
		}
	}
	// About 1% per part, and a probe meets every part.
	if rate := float64(fp) / probes; rate > 0.01*float64(len(f.parts)) {
		t.Fatalf("false positive rate %.4f over %d parts", rate, len(f.parts))
	}
}

// A first crawl's db answers Intern and Lookup from the filter where it
// can: with the same ids and New flags as a db that searches the urls
// bucket for every miss, repeats, commits and a reopen included.
func TestInternSeenMatchesSearch(t *testing.T) {
	dir := t.TempDir()
	open := func(name string) *DB {
		db, err := Open(filepath.Join(dir, name), &Options{NoSync: true, URLCache: -1})
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	reopen := func(db *DB) *DB {
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		return open(filepath.Base(db.path))
	}
	withFilter, without := open("f.db"), open("s.db")
	if withFilter.seen == nil {
		t.Fatal("a new db has no filter")
	}
	without.seen = nil
	r := rand.New(rand.NewPCG(3, 4))
	used := 0
	for step := range 60 {
		urls := make([]string, 40)
		for i := range urls {
			// Half new URLs, half repeats of earlier ones (and of
			// this batch's).
			n := used + i
			if r.IntN(2) == 0 && used > 0 {
				n = r.IntN(used + i)
			}
			urls[i] = fmt.Sprintf("http://h%d.test/p%d", n%7, n)
		}
		used += len(urls)
		if step == 30 {
			// A reopened db holds URLs it did not intern: no filter.
			withFilter, without = reopen(withFilter), reopen(without)
			if withFilter.seen != nil {
				t.Fatal("a reopened db that holds URLs kept a filter")
			}
		}
		got, err := withFilter.Intern(urls, NoPage, 1)
		if err != nil {
			t.Fatal(err)
		}
		want, err := without.Intern(urls, NoPage, 1)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("step %d: Intern = %v, searching every miss = %v", step, got, want)
		}
		probe := append(urls[:5:5], fmt.Sprintf("http://none.test/%d", step))
		gl, err1 := withFilter.Lookup(probe)
		wl, err2 := without.Lookup(probe)
		if err1 != nil || err2 != nil || fmt.Sprint(gl) != fmt.Sprint(wl) {
			t.Fatalf("step %d: Lookup = %v (%v), searching = %v (%v)", step, gl, err1, wl, err2)
		}
		if step%7 == 6 {
			for _, db := range []*DB{withFilter, without} {
				if err := db.Commit(&Batch{}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for _, db := range []*DB{withFilter, without} {
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
