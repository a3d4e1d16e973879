package crawler

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"

	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// The seeds of a recrawl cycle: vanished seeds and their replacements,
// seeds injected by --reseed-every. Everything here runs on the disposer
// goroutine, so the cycle record changes in the batch that holds their
// cause and survives a crash with it.

// seedFetched checks the final fetch of seed id: a redirect is followed
// (the target, queued like any redirect target, replaces the seed); 404,
// 410 and failures that outlived the retries make the seed vanished.
func (c *Crawler) seedFetched(id uint64, rec *storage.Fetch, redirectTo uint64) error {
	switch {
	case rec.Status == storage.StatusRedirect:
		if redirectTo == storage.NoPage || c.replacedBefore(id) {
			return nil
		}
		c.rc.Cycle.Replaced = append(c.rc.Cycle.Replaced, storage.Replacement{Old: id, New: redirectTo, Reason: VanishedRedirect})
		if !c.seedSet[redirectTo] {
			c.seedSet[redirectTo] = true
			c.rc.Cycle.Seeds = append(c.rc.Cycle.Seeds, storage.Seed{ID: redirectTo,
				Why: fmt.Sprintf("replaces seed %d: its redirect target (code %d)", id, rec.Code)})
		}
		c.batch.PutCycle(c.rc.Cycle)
		c.count("seeds/vanished/"+VanishedRedirect, 1)
		return nil
	case rec.Code == http.StatusNotFound || rec.Code == http.StatusGone:
		return c.seedVanished(id, strconv.Itoa(rec.Code))
	case rec.Status == storage.StatusFetchError || rec.Status == storage.StatusHTTPError && rec.Code >= 500:
		return c.seedVanished(id, VanishedUnreachable)
	}
	return nil
}

// replacedBefore reports whether seed id already has a replacement in this
// cycle.
func (c *Crawler) replacedBefore(id uint64) bool {
	for _, r := range c.rc.Cycle.Replaced {
		if r.Old == id {
			return true
		}
	}
	return false
}

// seedVanished records that seed id vanished and injects its replacement,
// if the Replacer finds one.
func (c *Crawler) seedVanished(id uint64, reason string) error {
	if c.replacedBefore(id) {
		return nil
	}
	rep := storage.Replacement{Old: id, New: storage.NoPage, Reason: reason}
	if c.rc.Replacer != nil {
		p, ok, err := c.rc.Replacer.Replace(c.workCtx, id, reason, func(x uint64) bool { return c.seedSet[x] })
		switch {
		case err != nil && !errors.Is(err, context.Canceled):
			c.opts.Logger.Warn("replace vanished seed", "seed", id, "reason", reason, "err", err)
		case err == nil && ok:
			ids, err := c.inject([]Pick{p})
			if err != nil {
				return err
			}
			if len(ids) == 1 {
				rep.New = ids[0]
			}
		}
	}
	c.rc.Cycle.Replaced = append(c.rc.Cycle.Replaced, rep)
	c.batch.PutCycle(c.rc.Cycle)
	c.count("seeds/vanished/"+reason, 1)
	return nil
}

// inject queues picks as seeds of the cycle with the scheduler's seed
// weight: a pending URL gains the weight, a URL not pending is queued (a
// page fetched earlier in the cycle is then traversed from storage, not
// fetched again). It returns the picks' ids; picks that are already seeds
// gain the weight again but are recorded once.
func (c *Crawler) inject(picks []Pick) ([]uint64, error) {
	urls := make([]string, 0, len(picks))
	kept := make([]Pick, 0, len(picks))
	for _, p := range picks {
		u, err := urlnorm.Normalize(p.URL)
		if err != nil || len(u) > storage.MaxURLLen {
			c.opts.Logger.Warn("injected seed ignored", "url", p.URL, "err", err)
			continue
		}
		urls = append(urls, u)
		kept = append(kept, p)
	}
	if len(urls) == 0 {
		return nil, nil
	}
	ints, err := c.opts.Store.Intern(urls, storage.NoPage, 0)
	if err != nil {
		return nil, fmt.Errorf("crawler: intern %d injected seeds: %w", len(urls), err)
	}
	ids := make([]uint64, len(urls))
	targets := make([]frontier.Target, 0, len(urls))
	for i, u := range urls {
		id := ints[i].ID
		ids[i] = id
		host := urlnorm.Authority(u)
		targets = append(targets, frontier.Target{ID: id, Host: host, New: true})
		if ints[i].New {
			c.opts.Frontier.Admit(host)
		}
		if !c.seedSet[id] {
			c.seedSet[id] = true
			c.rc.Cycle.Seeds = append(c.rc.Cycle.Seeds, storage.Seed{ID: id, Score: kept[i].Score, Why: kept[i].Why})
		}
	}
	if err := c.opts.Frontier.Seed(targets, &c.changes); err != nil {
		return nil, fmt.Errorf("crawler: inject %d seeds: %w", len(targets), err)
	}
	c.flushChanges()
	c.count("seeds/injected", uint64(len(targets)))
	return ids, nil
}

// reseeder runs Recrawl.Reseeder on its own goroutine, one selection at a
// time; the disposer receives the result on out.
type reseeder struct {
	running bool
	next    uint64 // fetches after which the next selection starts
	out     chan reseedResult
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

type reseedResult struct {
	at    uint64
	picks []Pick
	err   error
}

// maybeReseed starts a selection when ReseedEvery more pages were fetched
// since the last one started.
func (c *Crawler) maybeReseed() {
	rc, r := c.rc, &c.reseed
	if rc.ReseedEvery == 0 || r.running {
		return
	}
	n := c.fetches.Load()
	if r.next == 0 {
		r.next = rc.ReseedEvery
	}
	if n < r.next {
		return
	}
	if r.out == nil {
		r.out = make(chan reseedResult, 1)
		r.ctx, r.cancel = context.WithCancel(c.workCtx)
	}
	r.running = true
	r.next = n + rc.ReseedEvery
	seeds := make([]uint64, 0, len(c.seedSet))
	for id := range c.seedSet {
		seeds = append(seeds, id)
	}
	slices.Sort(seeds)
	r.wg.Add(1)
	go func(ctx context.Context) {
		defer r.wg.Done()
		picks, err := rc.Reseeder.Reseed(ctx, n, seeds)
		r.out <- reseedResult{at: n, picks: picks, err: err}
	}(r.ctx)
}

// reseeded injects the seeds of a finished selection.
func (c *Crawler) reseeded(res reseedResult) error {
	c.reseed.running = false
	if res.err != nil {
		if !errors.Is(res.err, context.Canceled) {
			c.opts.Logger.Warn("reseed", "after", res.at, "err", res.err)
			c.count("seeds/reseed-failed", 1)
		}
		return nil
	}
	if len(res.picks) == 0 {
		return nil
	}
	before := len(c.rc.Cycle.Seeds)
	if _, err := c.inject(res.picks); err != nil {
		return err
	}
	if len(c.rc.Cycle.Seeds) > before {
		c.batch.PutCycle(c.rc.Cycle)
	}
	c.count("seeds/reseeds", 1)
	return nil
}

// stop cancels a selection still running and waits for it.
func (r *reseeder) stop() {
	if r.cancel != nil {
		r.cancel()
	}
	r.wg.Wait()
}
