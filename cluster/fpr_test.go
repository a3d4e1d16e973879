package cluster

import (
	"context"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/scheduler"
)

// massNode is one node of TestFPRAcrossNodes: a real frontier and
// scheduler, with the URLs of other nodes' hosts handed off through the
// node and theirs credited on arrival (what the crawler does with
// frontier.Target.Remote and frontier.Credit).
type massNode struct {
	w    web
	node *Node
	fr   *frontier.Frontier

	mu       sync.Mutex
	seen     map[uint64]bool // the node's db: URLs it has interned
	arrived  int             // URL messages credited
	arrivals chan struct{}
}

func (m *massNode) id(pg [2]int) uint64 { return uint64(pg[0]*m.w.P + pg[1]) }

func (m *massNode) Inject(_ context.Context, urls []URL) error {
	m.mu.Lock()
	ts := make([]frontier.Target, len(urls))
	for i, u := range urls {
		var h, p int
		if _, err := fmt.Sscanf(u.URL, "http://h%d.test/p%d", &h, &p); err != nil {
			m.mu.Unlock()
			return err
		}
		id := m.id([2]int{h, p})
		ts[i] = frontier.Target{ID: id, Host: m.w.host(h), Depth: u.Depth, Mass: u.Mass, New: !m.seen[id]}
		m.seen[id] = true
	}
	m.fr.Credit(ts, nil)
	m.arrived += len(urls)
	m.mu.Unlock()
	m.arrivals <- struct{}{}
	return nil
}

// Idle is false: the test ends the nodes itself.
func (m *massNode) Idle() bool { return false }

// TestFPRAcrossNodes: three nodes on one embedded server crawl a
// synthetic web in lockstep, one download at a time, each waiting until
// the URLs it handed off are credited by their owners. Every page is then
// handed out with exactly the priority one FPR (or FPR@M) process computes
// for the same sequence of downloads: the seeds' (1−d)/|S| over all
// seeds, and every in-link's share, whichever node downloaded it.
func TestFPRAcrossNodes(t *testing.T) {
	for _, name := range []string{"fpr", "fpr@4"} {
		t.Run(name, func(t *testing.T) {
			s := startServer(t)
			w := web{H: 11, P: 9}
			const k = 3
			ctx := testContext(t, 60*time.Second)
			seeds := [][2]int{{0, 0}, {4, 3}, {9, 5}, {2, 7}}
			nodes := make([]*massNode, k)
			var wg sync.WaitGroup
			rctx, stop := context.WithCancel(ctx)
			for i := range nodes {
				sched, err := scheduler.ByName(name, scheduler.Options{})
				if err != nil {
					t.Fatal(err)
				}
				fr, err := frontier.New(frontier.Options{Scheduler: sched})
				if err != nil {
					t.Fatal(err)
				}
				n := &massNode{w: w, node: openNode(t, s.URL(), i, k), fr: fr, seen: map[uint64]bool{}, arrivals: make(chan struct{}, 64)}
				nodes[i] = n
				var ts []frontier.Target
				for _, sd := range seeds {
					id := n.id(sd)
					n.seen[id] = true
					ts = append(ts, frontier.Target{ID: id, Host: w.host(sd[0]), New: true, Remote: !n.node.Owns(w.host(sd[0]))})
				}
				if err := fr.Seed(ts, nil); err != nil {
					t.Fatal(err)
				}
				wg.Add(1)
				go func() { defer wg.Done(); n.node.Run(rctx, n) }()
			}
			defer func() { stop(); wg.Wait() }()

			type download struct {
				id   uint64
				pg   [2]int
				prio float64
			}
			var order []download
			sent := make([]int, k) // URL messages handed to each node
			for progress := true; progress; {
				progress = false
				for _, n := range nodes {
					if n.fr.Len() == 0 {
						continue
					}
					progress = true
					j, err := n.fr.Next(ctx)
					if err != nil {
						t.Fatal(err)
					}
					pg := [2]int{int(j.ID) / w.P, int(j.ID) % w.P}
					order = append(order, download{j.ID, pg, j.Prio})
					var links []frontier.Target
					dup := map[uint64]bool{}
					for _, l := range w.links(pg[0], pg[1]) {
						id := n.id(l)
						if dup[id] {
							continue
						}
						dup[id] = true
						tg := frontier.Target{ID: id, Host: w.host(l[0]), Depth: j.Depth + 1}
						if n.node.Owns(tg.Host) {
							n.mu.Lock()
							tg.New = !n.seen[id]
							n.seen[id] = true
							n.mu.Unlock()
						} else {
							tg.Remote = true
						}
						links = append(links, tg)
					}
					n.mu.Lock()
					err = n.fr.Complete(j, frontier.Outcome{Downloaded: true, Links: links}, nil)
					n.mu.Unlock()
					if err != nil {
						t.Fatal(err)
					}
					for _, tg := range links {
						if !tg.Remote {
							continue
						}
						u := w.url(int(tg.ID)/w.P, int(tg.ID)%w.P)
						if err := n.node.Handoff(u, tg.Host, tg.Depth, tg.Mass, fmt.Sprint(j.ID)); err != nil {
							t.Fatal(err)
						}
						sent[n.node.Owner(tg.Host)]++
					}
					if err := n.node.Flush(ctx); err != nil {
						t.Fatal(err)
					}
					// Lockstep: the next download waits until every owner
					// credited what this one handed off.
					for o, m := range nodes {
						for {
							m.mu.Lock()
							got := m.arrived
							m.mu.Unlock()
							if got == sent[o] {
								break
							}
							select {
							case <-m.arrivals:
							case <-ctx.Done():
								t.Fatalf("node %d credited %d of %d URLs", o, got, sent[o])
							}
						}
					}
				}
			}

			// One process: the same downloads in the same order.
			d, m := 0.85, 1.0
			if name == "fpr@4" {
				m = 4
			}
			prio := map[uint64]float64{}
			done := map[uint64]bool{}
			for _, sd := range seeds {
				prio[nodes[0].id(sd)] += (1 - d) / float64(len(seeds))
			}
			exact, total := 0, 0
			for _, dl := range order {
				want := prio[dl.id]
				if done[dl.id] {
					t.Fatalf("page %v downloaded twice", dl.pg)
				}
				done[dl.id] = true
				total++
				if dl.prio == want {
					exact++
				} else if math.Abs(dl.prio-want) > 1e-12*math.Abs(want) {
					t.Errorf("page %v handed out at %v, one process computes %v", dl.pg, dl.prio, want)
				}
				var out []uint64
				dup := map[uint64]bool{}
				inter := 0
				for _, l := range w.links(dl.pg[0], dl.pg[1]) {
					id := nodes[0].id(l)
					if !dup[id] {
						dup[id] = true
						out = append(out, id)
						if l[0] != dl.pg[0] {
							inter++
						}
					}
				}
				share := d * want / (float64(len(out)-inter) + m*float64(inter))
				for _, q := range out {
					if done[q] {
						continue
					}
					if int(q)/w.P != dl.pg[0] {
						prio[q] += m * share
					} else {
						prio[q] += share
					}
				}
			}
			if total != w.H*w.P {
				t.Errorf("%d pages downloaded, want all %d", total, w.H*w.P)
			}
			t.Logf("%d downloads, %d with bit-identical priorities, %d messages", total, exact, sent[0]+sent[1]+sent[2])
		})
	}
}
