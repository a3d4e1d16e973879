package compare

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// fakeWeb serves a known graph at the seam: node v is the page g.URLs[v]
// with the URLs of g.Out(v) as its links (parallel arcs and self-loops kept,
// so the crawls' merging is exercised). Requests complete out of order: one
// goroutine delivers a pending request chosen at random, which stands for
// random latencies without sleeping. Nodes in fail answer with that status
// (their links are still reported, and must be ignored).
type fakeWeb struct {
	g    *graph.CSR
	id   map[string]uint32
	fail map[uint32]int

	mu        sync.Mutex
	pending   []string
	requests  map[string]int // per URL, in this fake's life
	delivered map[string]int
	limit     int           // deliver at most this many pages; 0: no limit
	twice     bool          // deliver every page twice
	reached   chan struct{} // closed when limit pages are delivered
	kick      chan struct{}
	results   chan Page
}

func newFakeWeb(g *graph.CSR, fail map[uint32]int) *fakeWeb {
	w := &fakeWeb{g: g, id: map[string]uint32{}, fail: fail, requests: map[string]int{}, delivered: map[string]int{},
		kick: make(chan struct{}, 1), results: make(chan Page), reached: make(chan struct{})}
	for v, u := range g.URLs {
		w.id[u] = uint32(v)
	}
	return w
}

func (w *fakeWeb) Request(ctx context.Context, url string) error {
	w.mu.Lock()
	w.requests[url]++
	w.pending = append(w.pending, url)
	w.mu.Unlock()
	select {
	case w.kick <- struct{}{}:
	default:
	}
	return nil
}

func (w *fakeWeb) Results() <-chan Page { return w.results }

func (w *fakeWeb) page(url string) Page {
	v, ok := w.id[url]
	if !ok {
		return Page{URL: url, Err: fmt.Errorf("fake web: no page %s", url)}
	}
	p := Page{URL: url, Status: 200}
	if st, bad := w.fail[v]; bad {
		p.Status = st
	}
	for _, t := range w.g.Out(v) {
		p.OutLinks = append(p.OutLinks, w.g.URLs[t])
	}
	return p
}

// serve delivers pending requests in random order until ctx ends or the
// limit is reached.
func (w *fakeWeb) serve(ctx context.Context, rng *rand.Rand) {
	n := 0
	for {
		w.mu.Lock()
		if w.limit > 0 && n >= w.limit {
			w.mu.Unlock()
			close(w.reached)
			return
		}
		if len(w.pending) == 0 {
			w.mu.Unlock()
			select {
			case <-w.kick:
				continue
			case <-ctx.Done():
				return
			}
		}
		i := rng.IntN(len(w.pending))
		url := w.pending[i]
		w.pending[i] = w.pending[len(w.pending)-1]
		w.pending = w.pending[:len(w.pending)-1]
		w.delivered[url]++
		w.mu.Unlock()
		for range 1 + btoi(w.twice) {
			select {
			case w.results <- w.page(url):
			case <-ctx.Done():
				return
			}
		}
		n++
	}
}

// run runs the comparison against w until it finishes.
func runFake(ctx context.Context, c *Compare, w *fakeWeb, seed uint64) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); w.serve(ctx, rand.New(rand.NewPCG(seed, 1))) }()
	err := c.Run(ctx, w)
	cancel()
	wg.Wait()
	return err
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestFrontierShare runs a comparison with a frontier sample and checks, in
// order of events: the crawls are fetched as without it; then exactly
// FrontierSample's URLs are fetched, each once, up to the share of the
// union; the report counts them as frontier pages; a rerun on the same
// store asks the web for nothing; a share of +Inf fetches the whole
// frontier.
func TestFrontierShare(t *testing.T) {
	g := benchGraph(2000)
	seeds := []string{g.URLs[0], g.URLs[1]}
	scheds := []string{"bfs", "fpr", "opic"}
	for _, tc := range []struct {
		name  string
		share float64
	}{{"share 0.1", 0.1}, {"share 0.02", 0.02}, {"all", math.Inf(1)}} {
		t.Run(tc.name, func(t *testing.T) {
			store := &MemStore{}
			web := newFakeWeb(g, nil)
			c, err := New(store, Options{Schedulers: scheds, Seeds: seeds, Budget: 300, FrontierShare: tc.share})
			if err != nil {
				t.Fatal(err)
			}
			if err := runFake(context.Background(), c, web, 3); err != nil {
				t.Fatal(err)
			}
			seqs := c.Sequences()
			union := unionOfSeqs(seqs)
			down := map[string]bool{}
			for _, u := range union {
				down[u] = true
			}
			var all []Page
			frontier := map[string]bool{}
			for _, u := range union {
				p := web.page(u)
				all = append(all, p)
				for _, l := range p.OutLinks {
					if !down[l] {
						frontier[l] = true
					}
				}
			}
			want := len(frontier)
			if !math.IsInf(tc.share, 1) {
				want = min(want, int(tc.share*float64(len(union))))
			}
			sample, err := FrontierSample(all, seeds, seqs, 0, want)
			if err != nil {
				t.Fatal(err)
			}
			if len(sample) != want {
				t.Fatalf("FrontierSample gave %d URLs, want %d", len(sample), want)
			}
			for u, k := range web.requests {
				if k != 1 {
					t.Errorf("%s asked %d times", u, k)
				}
			}
			for _, u := range sample {
				if web.requests[u] != 1 {
					t.Errorf("sample URL %s asked %d times", u, web.requests[u])
				}
			}
			if len(web.requests) != len(union)+want || c.Requests() != len(union)+want {
				t.Errorf("%d requests at the web, %d counted, want union %d + sample %d", len(web.requests), c.Requests(), len(union), want)
			}
			r, err := c.Report(ScoreOptions{Frontier: true})
			if err != nil {
				t.Fatal(err)
			}
			if r.FrontierPages != want || r.Downloaded != len(union) {
				t.Errorf("report: %d frontier pages and %d downloaded, want %d and %d", r.FrontierPages, r.Downloaded, want, len(union))
			}
			again, err := New(store, Options{Schedulers: scheds, Seeds: seeds, Budget: 300, FrontierShare: tc.share})
			if err != nil {
				t.Fatal(err)
			}
			web2 := newFakeWeb(g, nil)
			if err := runFake(context.Background(), again, web2, 4); err != nil {
				t.Fatal(err)
			}
			if len(web2.requests) != 0 {
				t.Errorf("the rerun asked the web for %d pages, want none", len(web2.requests))
			}
		})
	}
}

// cleanWeb is a generated clean test web as the tests crawl it at the seam.
type cleanWeb struct {
	truth    *testweb.Truth
	g        *graph.CSR     // the ground-truth graph, with URLs
	fail     map[uint32]int // nodes that answer with an error status
	seeds    []uint32       // distinct, in the site's order
	seedURLs []string
	sg       *graph.CSR // g without the out-links of failing nodes: what sim crawls
	pr       []float64  // true PageRank
}

// newCleanWeb generates the clean test web of seed, pages and hosts and
// reads its ground truth.
func newCleanWeb(t testing.TB, seed int64, pages, hosts int) cleanWeb {
	t.Helper()
	site, err := testweb.Generate(testweb.GenOptions{Seed: seed, Pages: pages, Hosts: hosts, Preset: testweb.Clean})
	if err != nil {
		t.Fatal(err)
	}
	truth, err := site.Truth(0)
	if err != nil {
		t.Fatal(err)
	}
	w := cleanWeb{truth: truth, g: truth.Graph, fail: map[uint32]int{}, pr: truth.PageRank()}
	for v, nd := range truth.Nodes {
		if nd.Status >= 400 {
			w.fail[uint32(v)] = nd.Status
		}
	}
	for _, u := range truth.Seeds {
		if v, ok := truth.ID(u); ok && !slices.Contains(w.seeds, v) {
			w.seeds = append(w.seeds, v)
			w.seedURLs = append(w.seedURLs, w.g.URLs[v])
		}
	}
	w.sg = w.g.Filter(func(src, _ uint32) bool { _, bad := w.fail[src]; return !bad })
	w.sg.SetURLs(w.g.URLs)
	return w
}
