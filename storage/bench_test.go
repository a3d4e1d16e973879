package storage_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/storage"
)

// BenchmarkCommit measures the write rate of crawl-like batches: each page
// is one fetch with 20 out-links (5 of them to URLs it discovered, interned
// before the commit and queued) and a frontier delete. One op is one
// batch; pages/s and links/s count what the commits stored.
func BenchmarkCommit(b *testing.B) {
	for _, sync := range []bool{true, false} {
		for _, size := range []int{100, 1000, 10000} {
			name := fmt.Sprintf("batch=%d/sync=%v", size, sync)
			b.Run(name, func(b *testing.B) { benchCommit(b, size, !sync) })
		}
	}
}

func benchCommit(b *testing.B, size int, noSync bool) {
	db, _ := openTest(b, &storage.Options{NoSync: noSync})
	rng := rand.New(rand.NewPCG(1, 2))
	seed := intern(b, db, storage.NoPage, 0, "http://h0.bench.test/")
	if err := db.Commit(&storage.Batch{}); err != nil {
		b.Fatal(err)
	}
	next := seed[0] // next page to "fetch"
	var (
		batch storage.Batch
		urls  = make([]string, 5)
		ls    []storage.Link
		seq   uint64
		pages int
		arcs  int
		spent time.Duration
	)
	b.ResetTimer()
	b.StopTimer()
	for range b.N {
		batch.Reset()
		for range size {
			src := next
			next++
			for j := range urls {
				seq++
				urls[j] = fmt.Sprintf("http://h%d.bench.test/p/%d", seq%50, seq)
			}
			res, err := db.Intern(urls, src, 1)
			if err != nil {
				b.Fatal(err)
			}
			ls = ls[:0]
			for _, r := range res {
				ls = append(ls, storage.Link{To: r.ID})
				batch.PutFrontier(storage.Entry{ID: r.ID, Host: "bench.test", Prio: 1, Seq: r.ID, Depth: 1})
			}
			top := db.NextID()
			for range 15 {
				ls = append(ls, storage.Link{To: rng.Uint64N(top)})
			}
			batch.AddFetch(storage.Fetch{ID: src, Host: fmt.Sprintf("h%d.bench.test", src%50), Status: storage.StatusFetched,
				Code: 200, ContentType: "text/html", Length: 20000, Hash: storage.HashOf(fmt.Appendf(nil, "%d", src)),
				FetchedAt: time.Now(), Duration: 20 * time.Millisecond}, ls)
			arcs += len(ls)
		}
		pages += size
		start := time.Now()
		b.StartTimer()
		if err := db.Commit(&batch); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		spent += time.Since(start)
	}
	b.ReportMetric(float64(pages)/spent.Seconds(), "pages/s")
	b.ReportMetric(float64(arcs)/spent.Seconds(), "links/s")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkIntern measures Intern throughput in calls of 50 URLs: all new
// (the allocator and pending map; committed every 10,000 URLs off the
// clock), or all already committed (one read transaction of lookups).
func BenchmarkIntern(b *testing.B) {
	for _, known := range []int{0, 10_000, 100_000} {
		name := "new"
		if known > 0 {
			name = fmt.Sprintf("known=%d", known)
		}
		b.Run(name, func(b *testing.B) {
			db, _ := openTest(b, &storage.Options{NoSync: true})
			all := urlsN("i", max(known, 1))
			if known > 0 {
				for i := 0; i < known; i += 10_000 {
					intern(b, db, storage.NoPage, 0, all[i:min(i+10_000, known)]...)
					if err := db.Commit(&storage.Batch{}); err != nil {
						b.Fatal(err)
					}
				}
			}
			// URLs are made before the clock starts.
			rng := rand.New(rand.NewPCG(3, 4))
			calls := make([][]string, b.N)
			for i := range calls {
				calls[i] = make([]string, 50)
				for j := range calls[i] {
					if known > 0 {
						calls[i][j] = all[rng.IntN(known)]
					} else {
						calls[i][j] = fmt.Sprintf("http://h%d.new.test/p/%d/%d", j, i, j)
					}
				}
			}
			b.ResetTimer()
			for i, urls := range calls {
				if _, err := db.Intern(urls, storage.NoPage, 0); err != nil {
					b.Fatal(err)
				}
				if known == 0 && (i+1)%200 == 0 {
					b.StopTimer()
					if err := db.Commit(&storage.Batch{}); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
			}
			b.ReportMetric(float64(b.N*50)/b.Elapsed().Seconds(), "urls/s")
		})
	}
}

// BenchmarkInternPages interns the links of documentation-like pages, as
// a crawl does: each page (one op) links to the 60 navigation URLs of its
// host, the same on every page, and to 10 URLs of its own, new; pages take
// their hosts in turn and are committed 20 at a time. Only the time in
// Intern is reported (intern-ns/url): making the URLs and committing do
// not depend on the cache. hosts sets how many
// navigation blocks the crawl cycles through (60 URLs each); cache is
// Options.URLCache (-1: off).
func BenchmarkInternPages(b *testing.B) {
	const nav, own, perCommit = 60, 10, 20
	for _, hosts := range []int{1, 100, 2000} {
		for _, cache := range []int{0, -1} {
			name := fmt.Sprintf("hosts=%d/cache=default", hosts)
			if cache < 0 {
				name = fmt.Sprintf("hosts=%d/cache=off", hosts)
			}
			b.Run(name, func(b *testing.B) {
				db, _ := openTest(b, &storage.Options{NoSync: true, URLCache: cache})
				navs := make([][]string, hosts)
				for h := range navs {
					navs[h] = make([]string, nav)
					for i := range navs[h] {
						navs[h][i] = fmt.Sprintf("https://docs%d.example.test/library/section-%d.html", h, i)
					}
				}
				// Every navigation block is committed once before the clock starts.
				for h := range navs {
					intern(b, db, storage.NoPage, 0, navs[h]...)
				}
				commit(b, db, nil)
				urls := make([]string, nav+own)
				page := 0
				var spent time.Duration // in Intern only
				for b.Loop() {
					h := page % hosts
					copy(urls, navs[h])
					for i := range own {
						urls[nav+i] = fmt.Sprintf("https://docs%d.example.test/p/%d/%d.html", h, page, i)
					}
					t0 := time.Now()
					if _, err := db.Intern(urls, storage.NoPage, 1); err != nil {
						b.Fatal(err)
					}
					spent += time.Since(t0)
					if page++; page%perCommit == 0 {
						commit(b, db, nil)
					}
				}
				b.ReportMetric(float64(spent.Nanoseconds())/float64(b.N*(nav+own)), "intern-ns/url")
				b.ReportMetric(0, "ns/op") // the op includes making URLs and committing
			})
		}
	}
}

// benchDBs caches one stored copy of each dataset for the load benchmarks
// (storing cnr-2000 takes a while); TestMain removes benchDir.
var (
	benchMu  sync.Mutex
	benchDBs = map[string]string{}
	benchDir string
)

// benchStored returns the path of a database holding dataset name.
func benchStored(b *testing.B, name string) string {
	benchMu.Lock()
	defer benchMu.Unlock()
	if p, ok := benchDBs[name]; ok {
		return p
	}
	if benchDir == "" {
		d, err := os.MkdirTemp("", "storage-bench-")
		if err != nil {
			b.Fatal(err)
		}
		benchDir = d
	}
	g := readDataset(b, name)
	path := filepath.Join(benchDir, name+".db")
	db, err := storage.Open(path, &storage.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	storeGraph(b, db, g, 10_000)
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	fi, _ := os.Stat(path)
	b.Logf("stored %s (n=%d m=%d) in %v, file %d MiB", name, g.N(), g.M(), time.Since(start).Round(time.Millisecond), fi.Size()>>20)
	benchDBs[name] = path
	return path
}

// BenchmarkLoad measures graph.Load from bbolt (one cursor pass over pages
// for URLs, one over link lists for arcs) at three sizes.
func BenchmarkLoad(b *testing.B) {
	for _, name := range []string{"epa", "hollins", "cnr-2000"} {
		b.Run(name, func(b *testing.B) {
			path := benchStored(b, name)
			db, err := storage.Open(path, &storage.Options{ReadOnly: true})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			var m int
			b.ResetTimer()
			for range b.N {
				g, err := graph.Load(db)
				if err != nil {
					b.Fatal(err)
				}
				m = g.M()
			}
			b.ReportMetric(float64(m)*float64(b.N)/b.Elapsed().Seconds(), "arcs/s")
		})
	}
}

// BenchmarkNodeFlags measures the pass over page records that seed
// evaluation uses.
func BenchmarkNodeFlags(b *testing.B) {
	path := benchStored(b, "cnr-2000")
	db, err := storage.Open(path, &storage.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	b.ResetTimer()
	var n int
	for range b.N {
		f, _, err := db.NodeFlags()
		if err != nil {
			b.Fatal(err)
		}
		n = len(f)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}

// BenchmarkOutLinks reads a page's stored out-links with their URLs, as a
// recrawl does for every page it traverses or finds unchanged (a
// documentation page links about 75 pages).
func BenchmarkOutLinks(b *testing.B) {
	for _, n := range []int{10, 75, 500} {
		b.Run(fmt.Sprintf("links=%d", n), func(b *testing.B) {
			db, _ := openTest(b, &storage.Options{NoSync: true})
			urls := make([]string, n+1)
			for i := range urls {
				urls[i] = fmt.Sprintf("http://h%d.bench.test/p/%d", i%7, i)
			}
			ids := intern(b, db, storage.NoPage, 0, urls...)
			links := make([]storage.Link, n)
			for i := range links {
				links[i] = storage.Link{To: ids[i+1], Kind: storage.LinkA}
			}
			var batch storage.Batch
			batch.AddFetch(storage.Fetch{ID: ids[0], Status: storage.StatusFetched, Code: 200, FetchedAt: time.Unix(1, 0)}, links)
			if err := db.Commit(&batch); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if out, err := db.OutLinks(ids[0]); err != nil || len(out) != n {
					b.Fatalf("OutLinks = %d links, %v; want %d", len(out), err, n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/link")
		})
	}
}
