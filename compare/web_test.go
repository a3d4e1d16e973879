package compare

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/seedcrawl/seedcrawl/graph"
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
