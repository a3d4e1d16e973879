package storage_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/storage"
)

// Both the DB and its views are graph streams.
var (
	_ graph.Stream = (*storage.DB)(nil)
	_ graph.Stream = (*storage.View)(nil)
)

// dataDir is ../shared/data beside the repository.
var dataDir = filepath.Join("..", "..", "shared", "data")

// readDataset reads a shared dataset; a missing file fails the test.
func readDataset(t testing.TB, name string) *graph.CSR {
	t.Helper()
	g, err := graph.ReadDataset(filepath.Join(dataDir, name))
	if err != nil {
		t.Fatalf("dataset %s is required (../shared/data beside the repo): %v", name, err)
	}
	return g
}

// storeGraph writes g into db as a crawl would: intern every node's URL
// (g.URLs, or synthetic ones) in id order, then one fetch with its out-links
// per node, committing every batch pages.
func storeGraph(t testing.TB, db *storage.DB, g *graph.CSR, batch int) {
	t.Helper()
	n := g.N()
	const chunk = 4096
	urls := make([]string, 0, chunk)
	for v := 0; v < n; v += chunk {
		urls = urls[:0]
		for u := v; u < min(v+chunk, n); u++ {
			if g.URLs != nil {
				urls = append(urls, g.URLs[u])
			} else {
				urls = append(urls, fmt.Sprintf("http://h%d.test/%d", u%97, u))
			}
		}
		res, err := db.Intern(urls, storage.NoPage, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range res {
			if r.ID != uint64(v+i) || !r.New {
				t.Fatalf("node %d interned as %+v (duplicate URL in dataset?)", v+i, r)
			}
		}
	}
	var b storage.Batch
	var ls []storage.Link
	for v := range n {
		ls = ls[:0]
		for _, d := range g.Out(uint32(v)) {
			ls = append(ls, storage.Link{To: uint64(d)})
		}
		b.AddFetch(storage.Fetch{ID: uint64(v), Status: storage.StatusFetched, Code: 200}, ls)
		if b.Pages() >= batch || v == n-1 {
			commit(t, db, &b)
			b.Reset()
		}
	}
	if n == 0 {
		commit(t, db, &b)
	}
}

// TestLoadDataset stores real web graphs and loads them back with
// graph.Load: same nodes, URLs and arcs in the same order.
func TestLoadDataset(t *testing.T) {
	for _, name := range []string{"hollins", "epa"} {
		t.Run(name, func(t *testing.T) {
			g := readDataset(t, name)
			db, _ := openTest(t, &storage.Options{NoSync: true})
			storeGraph(t, db, g, 1000)
			got, err := graph.Load(db)
			if err != nil {
				t.Fatal(err)
			}
			if got.N() != g.N() || got.M() != g.M() {
				t.Fatalf("loaded n=%d m=%d, want n=%d m=%d", got.N(), got.M(), g.N(), g.M())
			}
			if !reflect.DeepEqual(got.Offsets, g.Offsets) || !reflect.DeepEqual(got.Targets, g.Targets) {
				t.Fatal("loaded arcs differ from the dataset")
			}
			if !reflect.DeepEqual(got.URLs, g.URLs) {
				t.Fatal("loaded URLs differ from the dataset")
			}
			// EachLink sees the same lists.
			arcs := 0
			err = db.EachLink(func(src uint64, ls []storage.Link) error {
				out := g.Out(uint32(src))
				if len(out) != len(ls) {
					return fmt.Errorf("node %d: %d links, want %d", src, len(ls), len(out))
				}
				for i, l := range ls {
					if uint32(l.To) != out[i] || l.Kind != storage.LinkA {
						return fmt.Errorf("node %d link %d = %+v, want %d", src, i, l, out[i])
					}
				}
				arcs += len(ls)
				return nil
			})
			if err != nil || arcs != g.M() {
				t.Fatalf("EachLink: %v, %d arcs", err, arcs)
			}
			st, err := db.Stats()
			if err != nil || st.Links != uint64(g.M()) || st.Pages != uint64(g.N()) || st.Fetched != uint64(g.N()) {
				t.Fatalf("stats = %+v, %v", st, err)
			}
		})
	}
}

// TestGraphViewPinned loads a pinned view while another goroutine keeps
// committing pages that link to newer pages: every load must succeed with
// the node count of its view.
func TestGraphViewPinned(t *testing.T) {
	db, _ := openTest(t, &storage.Options{NoSync: true})
	first := intern(t, db, storage.NoPage, 0, "http://a.test/")
	commit(t, db, &storage.Batch{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		prev := first[0]
		for i := range 200 {
			ids, err := db.Intern([]string{fmt.Sprintf("http://a.test/%d", i)}, prev, 1)
			if err != nil {
				t.Error(err)
				return
			}
			var b storage.Batch
			b.AddFetch(storage.Fetch{ID: prev, Status: storage.StatusFetched, Code: 200}, links(storage.LinkA, ids[0].ID, first[0]))
			if err := db.Commit(&b); err != nil {
				t.Error(err)
				return
			}
			prev = ids[0].ID
		}
	}()
	for range 50 {
		v, err := db.Graph()
		if err != nil {
			t.Fatal(err)
		}
		g, err := graph.Load(v)
		if err != nil {
			t.Fatalf("load pinned view: %v", err)
		}
		n, _ := v.Nodes()
		if g.N() != n || len(g.URLs) != n {
			t.Fatalf("view n=%d, loaded n=%d urls=%d", n, g.N(), len(g.URLs))
		}
	}
	wg.Wait()
	g, err := graph.Load(db)
	if err != nil || g.N() != 201 || g.M() != 400 {
		t.Fatalf("final graph n=%d m=%d err=%v, want 201 nodes, 400 arcs", g.N(), g.M(), err)
	}
}
