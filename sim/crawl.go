package sim

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/pq"
	"github.com/seedcrawl/seedcrawl/scheduler"
)

// Cost is what one simulated crawl cost the scheduler and its queue.
type Cost struct {
	Elapsed time.Duration
	Pages   int // pages downloaded
	Links   int // out-arcs of downloaded pages examined
	// PeakBytes is the peak heap in use above the level before the run,
	// sampled every 4096 pages and at the end, when Measured
	// (Options.MeasureMemory).
	PeakBytes uint64
	Measured  bool
}

// NsPerLink returns the time per link examined, in nanoseconds.
func (c Cost) NsPerLink() float64 {
	if c.Links == 0 {
		return 0
	}
	return float64(c.Elapsed.Nanoseconds()) / float64(c.Links)
}

// UsPerPage returns the time per page downloaded, in microseconds.
func (c Cost) UsPerPage() float64 {
	if c.Pages == 0 {
		return 0
	}
	return float64(c.Elapsed.Nanoseconds()) / 1e3 / float64(c.Pages)
}

// Node states in a simulated crawl, numbered as scheduler.State so that a
// state converts to a Link's State as is.
const (
	unseen = uint8(scheduler.New)
	queued = uint8(scheduler.Queued)
	done   = uint8(scheduler.Done)
)

const (
	ctxEvery = 1024 // pages between context checks
	memEvery = 4096 // pages between heap samples
	heapUsed = "/memory/classes/heap/objects:bytes"
)

// node is what the simulated queue knows of a node.
type node struct {
	prio  float64 // priority while queued
	stamp uint32  // page number when last seen as a link target (merges parallel arcs)
	state uint8
}

// Crawl replays sch on the graph from the seeds until the frontier is empty,
// calling visit with each downloaded node in download order. It returns the
// cost of the crawl, visit's included.
func (s *Sim) Crawl(ctx context.Context, sch scheduler.Scheduler, visit func(v uint32)) (Cost, error) {
	var sample []metrics.Sample
	var base uint64
	if s.o.MeasureMemory {
		runtime.GC()
		sample = []metrics.Sample{{Name: heapUsed}}
		metrics.Read(sample)
		base = sample[0].Value.Uint64()
	}
	var c Cost
	peak := func() {
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > base && v-base > c.PeakBytes {
			c.PeakBytes = v - base
		}
	}
	start := time.Now()

	g := s.g
	n := g.N()
	h := pq.NewDense(n)
	// One record per node, so that looking at a link target costs one cache
	// miss, not three.
	nodes := make([]node, n)
	hosts := s.hosts
	var seq uint64

	seeds := make([]scheduler.Link, len(s.seeds))
	for i, v := range s.seeds {
		seeds[i] = scheduler.Link{ID: uint64(v), Intra: true, State: scheduler.New}
	}
	sch.Seed(seeds)
	for _, l := range seeds {
		v := uint32(l.ID)
		nodes[v].state, nodes[v].prio = queued, l.Prio
		h.Push(pq.Item{ID: l.ID, Prio: l.Prio, Seq: seq})
		seq++
	}
	batcher, _ := sch.(scheduler.Batcher)
	emit := func(id uint64, p float64) {
		if id < uint64(n) && nodes[id].state == queued && nodes[id].prio != p {
			nodes[id].prio = p
			h.Update(id, p)
		}
	}

	var out []scheduler.Link
	for h.Len() > 0 {
		if c.Pages%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return c, fmt.Errorf("sim: %s after %d pages: %w", sch.Name(), c.Pages, err)
			}
			if sample != nil && c.Pages%memEvery == 0 {
				peak()
			}
		}
		it, _ := h.Pop()
		v := uint32(it.ID)
		nodes[v].state = done
		c.Pages++
		visit(v)

		targets := g.Out(v)
		c.Links += len(targets)
		mark := uint32(c.Pages)
		if cap(out) < len(targets) {
			out = make([]scheduler.Link, len(targets))
		}
		out = out[:len(targets)]
		k := 0
		if hosts == nil {
			for _, t := range targets {
				nd := &nodes[t]
				if nd.stamp == mark {
					continue // parallel arc
				}
				nd.stamp = mark
				out[k] = scheduler.Link{ID: uint64(t), Intra: true, State: scheduler.State(nd.state), Prio: nd.prio}
				k++
			}
		} else {
			hv := hosts[v]
			for _, t := range targets {
				nd := &nodes[t]
				if nd.stamp == mark {
					continue
				}
				nd.stamp = mark
				out[k] = scheduler.Link{ID: uint64(t), Intra: hosts[t] == hv, State: scheduler.State(nd.state), Prio: nd.prio}
				k++
			}
		}
		out = out[:k]
		sch.Downloaded(scheduler.Link{ID: it.ID, Intra: true, State: scheduler.Done, Prio: it.Prio}, out)
		for i := range out {
			l := &out[i]
			switch l.State {
			case scheduler.New:
				nd := &nodes[l.ID]
				nd.state, nd.prio = queued, l.Prio
				h.Push(pq.Item{ID: l.ID, Prio: l.Prio, Seq: seq})
				seq++
			case scheduler.Queued:
				if nd := &nodes[l.ID]; l.Prio != nd.prio {
					nd.prio = l.Prio
					h.Update(l.ID, l.Prio)
				}
			}
		}
		if batcher != nil && batcher.Due(h.Len()) {
			batcher.Flush(emit)
		}
	}
	c.Elapsed = time.Since(start)
	if sample != nil {
		peak()
		c.Measured = true
	}
	return c, nil
}

// Order returns the download order of sch.
func (s *Sim) Order(ctx context.Context, sch scheduler.Scheduler) ([]uint32, error) {
	order := make([]uint32, 0, s.reachable)
	_, err := s.Crawl(ctx, sch, func(v uint32) { order = append(order, v) })
	return order, err
}

// OrderOf returns the download order of the scheduler named name, as
// Scheduler builds it.
func (s *Sim) OrderOf(ctx context.Context, name string) ([]uint32, error) {
	sch, err := s.Scheduler(name)
	if err != nil {
		return nil, fmt.Errorf("sim: order of %s: %w", name, err)
	}
	return s.Order(ctx, sch)
}
