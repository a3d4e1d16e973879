package cluster

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/crawler"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// testContext returns a context that ends after d or with the test.
func testContext(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return ctx
}

// ownedHost returns the first of x0.test, x1.test, ... that n owns.
func ownedHost(n *Node) string {
	for i := 0; ; i++ {
		if h := fmt.Sprintf("x%d.test", i); n.Owns(h) {
			return h
		}
	}
}

// storeHandoff hands http://host/ off from n (from page "p", at depth and
// with mass) and flushes it: once it returns, the URL is stored in the
// stream for host's owner.
func storeHandoff(t *testing.T, ctx context.Context, n *Node, host string, depth int, mass float64) {
	t.Helper()
	if err := n.Handoff("http://"+host+"/", host, depth, mass, "p"); err != nil {
		t.Fatal(err)
	}
	if err := n.Flush(ctx); err != nil {
		t.Fatal(err)
	}
}

// newFakeCluster returns a fakeCluster over db that owns the hosts own.
func newFakeCluster(t *testing.T, db *storage.DB, own ...string) *fakeCluster {
	fc := &fakeCluster{t: t, db: db, own: map[string]bool{}, done: make(chan struct{})}
	for _, h := range own {
		fc.own[h] = true
	}
	return fc
}

// nodeCrawler builds the rig's crawler as the crawl side of the node fc:
// fed by the returned Crawl, within hosts:.test, at most maxDepth deep
// (-1: unlimited).
func (r *crawlRig) nodeCrawler(fc *fakeCluster, maxDepth int) (*Crawl, *crawler.Crawler) {
	r.t.Helper()
	o := r.opts
	cr := NewCrawl(fc)
	o.Feed = cr
	o.Settings.MaxDepth = maxDepth
	var err error
	if o.Scope, err = urlnorm.ParseScopeSpec("hosts:.test", nil); err != nil {
		r.t.Fatal(err)
	}
	o.Frontier = r.Frontier(o.Settings)
	c, err := crawler.New(o)
	if err != nil {
		r.t.Fatal(err)
	}
	return cr, c
}
