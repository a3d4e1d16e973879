package scheduler

import (
	"math"
	"math/rand/v2"
	"testing"
)

// testGraph is a small web graph for the tests: out[v] lists v's out-arcs in
// document order (parallel arcs and self-loops allowed); host[v] is v's host,
// nil for a graph without hosts (every link intra-host).
type testGraph struct {
	out  [][]int
	host []int
}

// step is one download of a replay: the page and the priority it had.
type step struct {
	id   int
	prio float64
}

// replay drives s over g from seeds with the checking queue of driver and
// returns the downloads in order.
func replay(t testing.TB, s Scheduler, g testGraph, seeds []int) []step {
	t.Helper()
	return newDriver(t, s, g, seeds).run(-1)
}

// replayN is replay stopped after limit downloads; it also returns the sum
// of the priorities still pending.
func replayN(t testing.TB, s Scheduler, g testGraph, seeds []int, limit int) ([]step, float64) {
	t.Helper()
	d := newDriver(t, s, g, seeds)
	order := d.run(limit)
	return order, d.pendingSum()
}

// driver is a deliberately naive queue that drives a scheduler over a
// testGraph and checks the Scheduler contract on every call: it picks the
// pending URL of highest priority, ties by discovery order, by a linear scan,
// and handles Batcher. The checks:
//   - Seed and Downloaded change only Prio, and never the Prio of a Done link;
//   - every priority is finite and not negative;
//   - the priority of a pending URL never decreases (true of every policy
//     here: shares, counts and rank mass only accumulate);
//   - Flush emits only ids the queue has seen.
//
// s may be swapped between runs, as a resumed crawl does.
type driver struct {
	t       testing.TB
	s       Scheduler
	g       testGraph
	state   []State
	known   []bool
	prio    []float64
	seq     []int
	nextSeq int
	pending []int
}

func newDriver(t testing.TB, s Scheduler, g testGraph, seeds []int) *driver {
	t.Helper()
	n := len(g.out)
	d := &driver{t: t, s: s, g: g, state: make([]State, n), known: make([]bool, n), prio: make([]float64, n), seq: make([]int, n)}
	var sl []Link
	seen := map[int]bool{}
	for _, v := range seeds {
		if !seen[v] {
			seen[v] = true
			sl = append(sl, Link{ID: uint64(v), Intra: true, State: New})
		}
	}
	before := append([]Link(nil), sl...)
	s.Seed(sl)
	d.check("Seed", before, sl)
	for _, l := range sl {
		d.enqueue(l)
	}
	return d
}

func (d *driver) check(what string, before, after []Link) {
	t, name := d.t, d.s.Name()
	t.Helper()
	if len(before) != len(after) {
		t.Fatalf("%s: %s changed the number of links", name, what)
	}
	for i := range after {
		b, a := before[i], after[i]
		if a.ID != b.ID || a.State != b.State || a.Intra != b.Intra {
			t.Fatalf("%s: %s changed link %d from %+v to %+v", name, what, i, b, a)
		}
		if a.Prio < 0 || math.IsNaN(a.Prio) || math.IsInf(a.Prio, 0) {
			t.Fatalf("%s: %s set priority %v on id %d", name, what, a.Prio, a.ID)
		}
		if b.State == Done && a.Prio != b.Prio {
			t.Fatalf("%s: %s changed the priority of Done id %d", name, what, a.ID)
		}
		if b.State == Queued && a.Prio < b.Prio {
			t.Fatalf("%s: %s lowered queued id %d from %v to %v", name, what, a.ID, b.Prio, a.Prio)
		}
	}
}

func (d *driver) enqueue(l Link) {
	v := int(l.ID)
	switch l.State {
	case New:
		d.known[v], d.state[v], d.seq[v] = true, Queued, d.nextSeq
		d.nextSeq++
		d.pending = append(d.pending, v)
		d.prio[v] = l.Prio
	case Queued:
		d.prio[v] = l.Prio
	}
}

// run downloads until the queue is empty or limit pages (if not negative)
// are downloaded.
func (d *driver) run(limit int) []step {
	t := d.t
	t.Helper()
	n := len(d.g.out)
	intra := func(a, b int) bool { return d.g.host == nil || d.g.host[a] == d.g.host[b] }
	b, _ := d.s.(Batcher)
	var order []step
	for len(d.pending) > 0 && len(order) != limit {
		bi := 0
		for i, v := range d.pending {
			w := d.pending[bi]
			if d.prio[v] > d.prio[w] || d.prio[v] == d.prio[w] && d.seq[v] < d.seq[w] {
				bi = i
			}
		}
		v := d.pending[bi]
		d.pending = append(d.pending[:bi], d.pending[bi+1:]...)
		d.state[v] = Done
		order = append(order, step{v, d.prio[v]})
		var out []Link
		dup := map[int]bool{}
		for _, u := range d.g.out[v] {
			if dup[u] {
				continue
			}
			dup[u] = true
			out = append(out, Link{ID: uint64(u), Intra: intra(v, u), State: d.state[u], Prio: d.prio[u]})
		}
		before := append([]Link(nil), out...)
		d.s.Downloaded(Link{ID: uint64(v), Intra: true, State: Done, Prio: d.prio[v]}, out)
		d.check("Downloaded", before, out)
		for _, l := range out {
			d.enqueue(l)
		}
		if b != nil && b.Due(len(d.pending)) {
			b.Flush(func(id uint64, p float64) {
				if id >= uint64(n) || !d.known[id] {
					t.Fatalf("%s: Flush emitted unknown id %d", d.s.Name(), id)
				}
				if p < 0 || math.IsNaN(p) || math.IsInf(p, 0) {
					t.Fatalf("%s: Flush emitted priority %v for id %d", d.s.Name(), p, id)
				}
				if d.state[id] == Queued {
					if p < d.prio[id] {
						t.Fatalf("%s: Flush lowered queued id %d from %v to %v", d.s.Name(), id, d.prio[id], p)
					}
					d.prio[id] = p
				}
			})
		}
	}
	return order
}

func (d *driver) pendingSum() float64 {
	var sum float64
	for _, v := range d.pending {
		sum += d.prio[v]
	}
	return sum
}

func ids(order []step) []int {
	out := make([]int, len(order))
	for i, s := range order {
		out[i] = s.id
	}
	return out
}

// randomGraph returns a graph of n nodes on hosts hosts (nil hosts when
// hosts is 0) with out-degrees 0..maxOut, about one link in four leaving the
// host, and some parallel arcs and self-loops.
func randomGraph(r *rand.Rand, n, hosts, maxOut int) testGraph {
	g := testGraph{out: make([][]int, n)}
	if hosts > 0 {
		g.host = make([]int, n)
		for v := range g.host {
			g.host[v] = r.IntN(hosts)
		}
	}
	byHost := map[int][]int{}
	for v := 0; v < n; v++ {
		if g.host != nil {
			byHost[g.host[v]] = append(byHost[g.host[v]], v)
		}
	}
	for v := 0; v < n; v++ {
		k := r.IntN(maxOut + 1)
		for i := 0; i < k; i++ {
			var u int
			switch {
			case r.IntN(20) == 0:
				u = v // self-loop
			case i > 0 && r.IntN(10) == 0:
				u = g.out[v][r.IntN(len(g.out[v]))] // parallel arc
			case g.host != nil && r.IntN(4) != 0:
				same := byHost[g.host[v]]
				u = same[r.IntN(len(same))]
			default:
				u = r.IntN(n)
			}
			g.out[v] = append(g.out[v], u)
		}
	}
	return g
}
