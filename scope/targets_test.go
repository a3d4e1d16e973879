package scope

import (
	"fmt"
	"testing"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// crawl interns URLs in memory and notes what Targets asked of it.
type crawl struct {
	ids     map[string]uint64
	remote  string          // the host another node owns
	again   map[uint64]bool // known URLs a recrawl queues again
	queued  []uint64
	refused []string
}

func (c *crawl) Intern(urls []string, _ uint64, _ uint32) ([]storage.Interned, error) {
	out := make([]storage.Interned, len(urls))
	for i, u := range urls {
		id, ok := c.ids[u]
		if !ok {
			id = uint64(len(c.ids) + 1)
			c.ids[u] = id
		}
		out[i] = storage.Interned{ID: id, New: !ok}
	}
	return out, nil
}
func (c *crawl) Remote(host string) bool         { return host == c.remote }
func (c *crawl) Requeue(id uint64) (bool, error) { return c.again[id], nil }
func (c *crawl) Queue(id uint64, _ *Link)        { c.queued = append(c.queued, id) }
func (c *crawl) Refused(s storage.Status, r string) {
	c.refused = append(c.refused, fmt.Sprint(s, "/", r))
}

// TestTargets admits the links of pages one after the other, as a crawl's
// disposer does: each page's targets, skips and queued URLs depend on
// what the pages before it admitted.
func TestTargets(t *testing.T) {
	r := newRules(t, true) // MaxDepth 2, MaxRedirects 1
	a := r.Admission()
	cr := &crawl{ids: map[string]uint64{}, remote: "127.0.0.4:8080", again: map[uint64]bool{}}
	link := func(u string) Link { l, _, _ := r.Vet(u, storage.LinkA); return l }
	const (
		deep   = "http://127.0.0.1:8080/deep"
		out    = "http://127.0.0.9:8080/x"
		remote = "http://127.0.0.4:8080/r"
	)
	rl := link(remote)
	rl.InScope = true // in the cluster's scope, owned by another node
	tests := []struct {
		name    string
		page    Page
		want    []frontier.Target // ID, Depth, New, Skip, Remote (Host from the link)
		skips   []Skip
		queued  []uint64
		disc    int // new URLs queued
		refused []string
	}{
		{name: "too deep, out of scope", page: Page{ID: 100, Depth: 2, Links: []Link{link(deep), link(out)}},
			want:    []frontier.Target{{ID: 1, Depth: 3, New: true, Skip: true}, {ID: 2, Depth: 3, New: true, Skip: true}},
			skips:   []Skip{{1, storage.StatusRejected, "max-depth"}, {2, storage.StatusOutOfScope, ""}},
			refused: []string{"rejected/max-depth", "out-of-scope/"}},
		{name: "reached at an allowed depth lifts the refusal", page: Page{ID: 101, Depth: 0, Links: []Link{link(deep), link(out)}},
			want:   []frontier.Target{{ID: 1, Depth: 1, New: true}, {ID: 2, Depth: 1, Skip: true}},
			skips:  []Skip{{1, storage.StatusQueued, ""}},
			queued: []uint64{1}}, // not new: not discovered
		{name: "another node's URL is handed on", page: Page{ID: 102, Links: []Link{rl}},
			want: []frontier.Target{{ID: 3, Depth: 1, New: true, Remote: true}}},
		{name: "a known URL a recrawl queues again", page: Page{ID: 103, Links: []Link{link(deep)}},
			want: []frontier.Target{{ID: 1, Depth: 1, New: true}}},
		{name: "stored only", page: Page{ID: 104, Links: []Link{link("http://127.0.0.1:8080/s"), rl}, StoreOnly: true},
			want: []frontier.Target{{ID: 4, Depth: 1, New: true, Skip: true}, {ID: 3, Depth: 1, Skip: true}}},
		{name: "a seed's redirect brings its host in", page: Page{ID: 105, Redirect: &Link{URL: out + "2", Host: "127.0.0.9:8080"}},
			want:   []frontier.Target{{ID: 5, New: true}},
			queued: []uint64{5}, disc: 1},
	}
	for _, tt := range tests {
		cr.queued, cr.refused = nil, nil
		if tt.name == "a known URL a recrawl queues again" {
			cr.again[1] = true
		}
		got, err := a.Targets(cr, &tt.page)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for i := range tt.want {
			tt.want[i].Host = urlnorm.Authority(cr.url(tt.want[i].ID))
		}
		if fmt.Sprint(got.Targets) != fmt.Sprint(tt.want) || fmt.Sprint(got.Skips) != fmt.Sprint(tt.skips) ||
			fmt.Sprint(cr.queued) != fmt.Sprint(tt.queued) || fmt.Sprint(cr.refused) != fmt.Sprint(tt.refused) {
			t.Errorf("%s:\n targets %v, want %v\n skips %v, want %v\n queued %v, want %v\n refused %v, want %v", tt.name,
				got.Targets, tt.want, got.Skips, tt.skips, cr.queued, tt.queued, cr.refused, tt.refused)
		}
		if got.Discovered != tt.disc {
			t.Errorf("%s: Discovered %d, want %d", tt.name, got.Discovered, tt.disc)
		}
		if len(got.Links) != len(got.Targets) {
			t.Errorf("%s: %d links stored for %d targets", tt.name, len(got.Links), len(got.Targets))
		}
		if want := tt.page.Redirect != nil; got.SeedRedirect != want {
			t.Errorf("%s: SeedRedirect %v, want %v", tt.name, got.SeedRedirect, want)
		}
		if want := uint64(storage.NoPage); tt.page.Redirect != nil && got.RedirectTo != tt.want[len(tt.want)-1].ID ||
			tt.page.Redirect == nil && got.RedirectTo != want {
			t.Errorf("%s: RedirectTo %d", tt.name, got.RedirectTo)
		}
	}
}

func (c *crawl) url(id uint64) string {
	for u, i := range c.ids {
		if i == id {
			return u
		}
	}
	return ""
}

// TestOffer admits links from outside one after the other, as a cluster
// node's disposer applies other nodes' links: a refusal beyond MaxDepth is
// remembered and lifted by a later offer at an allowed depth.
func TestOffer(t *testing.T) {
	a := newRules(t, false).Admission() // MaxDepth 2
	cr := &crawl{ids: map[string]uint64{}}
	const ok, dropped = "http://127.0.0.1:8080/a", "http://127.0.0.2:8080/b"
	tests := []struct {
		name         string
		id           uint64
		url          string
		depth        int
		isNew, again bool
		queued       bool
		skips        []Skip
		refused      int // len(cr.refused) after
	}{
		{name: "new, passes", id: 1, url: ok, depth: 1, isNew: true, queued: true},
		{name: "known, left", id: 1, url: ok, depth: 1},
		{name: "known, again", id: 1, url: ok, depth: 1, again: true, queued: true, skips: []Skip{{1, storage.StatusQueued, ""}}},
		{name: "new, too deep", id: 2, url: ok + "/deep", depth: 3, isNew: true,
			skips: []Skip{{2, storage.StatusRejected, "max-depth"}}, refused: 1},
		{name: "known, lifted at an allowed depth", id: 2, url: ok + "/deep", depth: 2, queued: true,
			skips: []Skip{{2, storage.StatusQueued, ""}}, refused: 1},
		{name: "new, host dropped", id: 3, url: dropped, depth: 1, isNew: true,
			skips: []Skip{{3, storage.StatusDeferred, "crawl-delay 60s"}}, refused: 2},
	}
	var queued []uint64
	for _, tc := range tests {
		got, skips := a.Offer(cr, tc.id, tc.url, tc.depth, tc.isNew, tc.again)
		if tc.queued {
			queued = append(queued, tc.id)
		}
		if got != tc.queued || fmt.Sprint(skips) != fmt.Sprint(tc.skips) || len(cr.refused) != tc.refused ||
			fmt.Sprint(cr.queued) != fmt.Sprint(queued) {
			t.Errorf("%s: queued %v, skips %v, refused %v, crawl queued %v; want %v, %v, %d refusals, %v",
				tc.name, got, skips, cr.refused, cr.queued, tc.queued, tc.skips, tc.refused, queued)
		}
	}
}

// budget is a frontier's page budget per host: HostFull once max URLs of
// the host were queued.
type budget struct {
	max    int
	queued map[string]int
}

func (b *budget) Dropped(string) (string, bool) { return "", false }
func (b *budget) HostFull(host string) bool     { return b.queued[host] >= b.max }

// budgetCrawl queues into a budget, as the crawler's Queue counts a queued
// URL against its host's budget.
type budgetCrawl struct {
	*crawl
	b *budget
}

func (c budgetCrawl) Queue(id uint64, l *Link) {
	c.crawl.Queue(id, l)
	c.b.queued[l.Host]++
}

// TestTargetsFillBudget admits a page whose new links fill their host's
// budget part way: the links after the one that filled it are refused.
func TestTargetsFillBudget(t *testing.T) {
	sc, err := urlnorm.ParseScope(urlnorm.ScopeSeedHosts, []string{"http://127.0.0.1:8080/"}, "")
	if err != nil {
		t.Fatal(err)
	}
	b := &budget{max: 3, queued: map[string]int{}}
	r := New(Options{Scope: sc, Settings: config.Default(), Hosts: b})
	cr := budgetCrawl{&crawl{ids: map[string]uint64{}}, b}
	var links []Link
	for _, p := range []string{"a", "b", "c", "d", "e"} {
		l, _, _ := r.Vet("http://127.0.0.1:8080/"+p, storage.LinkA)
		links = append(links, l)
	}
	got, err := r.Admission().Targets(cr, &Page{ID: 100, Links: links})
	if err != nil {
		t.Fatal(err)
	}
	want := []Skip{{4, storage.StatusRejected, "host-max-pages"}, {5, storage.StatusRejected, "host-max-pages"}}
	if fmt.Sprint(cr.queued) != "[1 2 3]" || fmt.Sprint(got.Skips) != fmt.Sprint(want) || got.Discovered != 3 {
		t.Errorf("queued %v, skips %v, discovered %d; want [1 2 3], %v, 3", cr.queued, got.Skips, got.Discovered, want)
	}
}
