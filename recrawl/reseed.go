package recrawl

import (
	"context"
	"fmt"
	"sync/atomic"
)

// Reseeder reruns seed selection on the graph stored so far, inside a cycle
// (--reseed-every): the seeds it returns are injected into the frontier
// with the scheduler's seed weight. It implements SeedReseeder.
type Reseeder struct {
	r     *Runner
	n     uint32
	count atomic.Int32
}

func (r *Runner) newReseeder(n uint32) *Reseeder {
	if r.o.ReseedEvery == 0 {
		return nil
	}
	return &Reseeder{r: r, n: n}
}

// Reseed selects new seeds (not among seeds, the cycle's seeds so far) on
// the current graph, after fetched pages of this run.
func (x *Reseeder) Reseed(ctx context.Context, fetched uint64, seeds []uint64) ([]Pick, error) {
	l, err := x.r.load(0)
	if err != nil {
		return nil, err
	}
	for _, id := range seeds {
		if id < uint64(len(l.cs.live)) {
			l.cs.live[id] = false
		}
	}
	k := x.count.Add(1)
	var p Plan
	if x.r.o.SeedAlgo == AlgoNewPages {
		// newpages reads the fetch history by cycle number: the cycle's
		// own, not the generator salt selectSeeds takes.
		_, err = x.r.newPages(ctx, l, x.n, nil, &p)
	} else {
		_, err = x.r.selectSeeds(ctx, l, x.n<<8|uint32(k&0xff), &p)
	}
	if err != nil {
		return nil, err
	}
	for i := range p.Seeds {
		p.Seeds[i].Why = fmt.Sprintf("reseed %d after %d pages: %s", k, fetched, p.Seeds[i].Why)
	}
	return p.Seeds, nil
}
