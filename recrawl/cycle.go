package recrawl

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seedcrawl/seedcrawl/crawler"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/internal/revisit"
	"github.com/seedcrawl/seedcrawl/robots"
	"github.com/seedcrawl/seedcrawl/scope"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Cycle runs a crawl as one recrawl cycle (CycleOptions); it implements
// crawler.Cycle, and a Cycle serves one crawl. It holds the start of a
// cycle (its frontier, written by the crawl's first commit), the refresh
// decision of known pages, and the cycle's seeds: vanished seeds and their
// replacements, seeds injected by --reseed-every. The outcome methods run
// on the crawl's disposer goroutine, so the cycle record changes in the
// batch that holds their cause and survives a crash with it.
type Cycle struct {
	rc        *CycleOptions
	l         crawler.Loop
	refreshed atomic.Int64    // refetches of known pages (MaxRefresh)
	seedSet   map[uint64]bool // the cycle's seeds (disposer only)
	// refetchSet holds CycleOptions.Refresh[:RefetchHead] (read only).
	refetchSet map[uint64]bool
	// seeds holds the seeds the cycle starts from, read by the workers
	// (Refresh): set before the crawl runs, never written again.
	seeds map[uint64]bool
	// inCycle is a bitmap of the ids queued in this cycle (CycleOptions.Lazy;
	// disposer only).
	inCycle []uint64
	reseed  reseeder
	// pace holds the owed refetches of a paced cycle; nil when not paced.
	pace *pacer
}

// NewCycle validates rc and returns the cycle it describes; rc is copied.
func NewCycle(r *CycleOptions) (*Cycle, error) {
	if r.Cycle.N == 0 {
		return nil, fmt.Errorf("%w: CycleOptions.Cycle.N is 0 (cycles count from 1)", crawler.ErrOptions)
	}
	if !r.Start && (len(r.Seeds) > 0 || len(r.Refresh) > 0) {
		return nil, fmt.Errorf("%w: CycleOptions.Seeds and Refresh start a cycle: set CycleOptions.Start", crawler.ErrOptions)
	}
	if r.Start && len(r.Owed) > 0 {
		return nil, fmt.Errorf("%w: CycleOptions.Owed resumes a cycle: a new one owes nothing", crawler.ErrOptions)
	}
	if r.ReseedEvery > 0 && r.Reseeder == nil {
		return nil, fmt.Errorf("%w: CycleOptions.ReseedEvery without a Reseeder", crawler.ErrOptions)
	}
	cp := *r
	if cp.Logger == nil {
		cp.Logger = slog.New(slog.DiscardHandler)
	}
	cp.Cycle.Seeds = slices.Clone(cp.Cycle.Seeds)
	cp.Cycle.Replaced = slices.Clone(cp.Cycle.Replaced)
	cy := &Cycle{rc: &cp, seedSet: map[uint64]bool{}, pace: newPacer(&cp)}
	if cp.RefetchHead > 0 {
		cy.refetchSet = make(map[uint64]bool, cp.RefetchHead)
		for _, id := range cp.Refresh[:min(cp.RefetchHead, len(cp.Refresh))] {
			cy.refetchSet[id] = true
		}
	}
	return cy, nil
}

// N is the cycle's number.
func (cy *Cycle) N() uint32 { return cy.rc.Cycle.N }

// Start builds a new cycle's frontier (CycleOptions.Start) or resumes the
// stored one.
func (cy *Cycle) Start(l crawler.Loop, seeds []string) (int, error) {
	cy.l = l
	if cy.rc.Start {
		if len(seeds) > 0 {
			return 0, fmt.Errorf("%w: a new recrawl cycle takes its seeds from CycleOptions.Seeds", crawler.ErrOptions)
		}
		return cy.startCycle()
	}
	// The stored frontier, host states and scheduler state are restored
	// as a resumed crawl's are, with the host budgets from storage's
	// admitted index: a recrawl's host budgets count URLs, not the
	// fetches of earlier cycles.
	entries, err := frontier.Resume(l.Store(), l.Frontier(), frontier.CountIndex)
	if err != nil {
		return 0, err
	}
	for _, e := range entries {
		cy.Queued(e.ID)
	}
	if cy.pace != nil && len(cy.rc.Owed) > 0 {
		// Which owed pages the restored frontier holds: a set of the owed
		// (at most MaxRefresh), not of the frontier.
		queued := make(map[uint64]bool, len(cy.rc.Owed))
		for _, o := range cy.rc.Owed {
			queued[o.ID] = false
			// Handed out earlier in the cycle: a link does not queue it
			// again (the pacer holds it), as in the uninterrupted run.
			cy.Queued(o.ID)
		}
		for _, e := range entries {
			if _, ok := queued[e.ID]; ok {
				queued[e.ID] = true
			}
		}
		n := cy.pace.restore(cy.rc.Owed, func(id uint64) bool { return queued[id] })
		l.Count("refresh/owed-resumed", uint64(n))
	}
	for _, s := range cy.rc.Cycle.Seeds {
		cy.seedSet[s.ID] = true
	}
	cy.seeds = maps.Clone(cy.seedSet)
	return len(entries), nil
}

// pageTable is what one pass over the page records tells a recrawl: the
// frontier host key and depth of every page.
type pageTable struct {
	host  []uint32 // index into names
	depth []uint32
	names []string
}

// scanPages returns every page's host and depth (a cycle that is not lazy
// queues every known page). One cursor pass over the page records.
func (cy *Cycle) scanPages() (*pageTable, error) {
	var t pageTable
	byName := map[string]uint32{}
	err := cy.l.Store().EachPage(func(p *storage.Page) error {
		h := urlnorm.Authority(p.URL)
		hi, ok := byName[h]
		if !ok {
			hi = uint32(len(t.names))
			byName[h] = hi
			t.names = append(t.names, h)
		}
		for uint64(len(t.host)) < p.ID {
			// Ids are dense; a gap would be a corrupt file, kept harmless.
			t.host = append(t.host, hi)
			t.depth = append(t.depth, 0)
		}
		t.host = append(t.host, hi)
		t.depth = append(t.depth, p.Depth)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("recrawl: read pages: %w", err)
	}
	return &t, nil
}

// startCycle builds the frontier of a new cycle from the stored one, the
// cycle's seeds and its refresh list, and puts the cycle record, every
// frontier entry (priorities reset) and the seeds' weights into the batch
// that the crawl commits first. It returns the number of URLs queued.
func (cy *Cycle) startCycle() (int, error) {
	rc, l, store := cy.rc, cy.l, cy.l.Store()
	var seedURLs []string
	var picks []Pick
	seen := map[string]bool{}
	for _, s := range rc.Seeds {
		n, err := urlnorm.NormalizeSeed(s.URL)
		if errors.Is(err, urlnorm.ErrUserinfo) {
			return 0, fmt.Errorf("%w: %w", crawler.ErrSeed, err) // s.URL holds a password
		}
		if err != nil {
			return 0, fmt.Errorf("%w: %q: %w", crawler.ErrSeed, urlnorm.RedactUserinfo(s.URL), err)
		}
		if !seen[n] {
			seen[n] = true
			seedURLs = append(seedURLs, n)
			picks = append(picks, s)
		}
	}
	var stored []storage.Entry
	if err := store.LoadFrontier(func(e storage.Entry) error {
		stored = append(stored, e)
		return nil
	}); err != nil {
		return 0, fmt.Errorf("recrawl: restore frontier: %w", err)
	}
	slices.SortFunc(stored, func(a, b storage.Entry) int {
		return cmp.Compare(frontier.SeqOrder(a.Seq), frontier.SeqOrder(b.Seq))
	})
	var snap frontier.Snapshot
	var tab *pageTable
	var err error
	// The stored host states, and the per-host URL counts of the host
	// budget from storage's admitted index (the URLs of a host ever queued
	// or fetched; refetches do not count): counts added to snap.Admitted
	// before Restore reach the frontier.
	if err = frontier.LoadHosts(store, &snap, nil); err == nil {
		err = frontier.LoadBudgets(store, &snap, frontier.CountIndex)
	}
	if err == nil && !rc.Lazy {
		tab, err = cy.scanPages()
	}
	if err != nil {
		return 0, err
	}
	var ints []storage.Interned
	if len(seedURLs) > 0 {
		if ints, err = store.Intern(seedURLs, storage.NoPage, 0); err != nil {
			return 0, fmt.Errorf("recrawl: intern %d seeds: %w", len(seedURLs), err)
		}
	}

	// Seeds first, then what was pending, then the refresh list: new
	// sequence numbers in that order, every priority 0 until the scheduler
	// weighs the seeds.
	in := map[uint64]bool{}
	seedIDs := map[uint64]bool{}
	for i := range seedURLs {
		seedIDs[ints[i].ID] = true
	}
	var seq uint64
	add := func(e frontier.Entry) {
		in[e.ID] = true
		if rc.Prior != nil && e.Prio == 0 && !seedIDs[e.ID] {
			if x := rc.Prior(e.ID); x > 0 && x < math.MaxFloat64 {
				e.Prio = x
			}
		}
		e.Seq = frontier.Renumber(e.Seq, seq)
		seq++
		snap.Entries = append(snap.Entries, e)
	}
	rc.Cycle.Seeds = rc.Cycle.Seeds[:0]
	remote := 0
	targets := make([]frontier.Target, 0, len(seedURLs))
	for i, u := range seedURLs {
		id := ints[i].ID
		if in[id] {
			continue
		}
		host := urlnorm.Authority(u)
		rc.Cycle.Seeds = append(rc.Cycle.Seeds, storage.Seed{ID: id, Score: picks[i].Score, Why: picks[i].Why})
		if l.Remote(host) {
			// Another node's seed: counted by the scheduler, queued by its
			// owner.
			in[id] = true
			targets = append(targets, frontier.Target{ID: id, Host: host, Remote: true})
			remote++
			continue
		}
		add(frontier.Entry{ID: id, Host: host})
		targets = append(targets, frontier.Target{ID: id, Host: host, New: true})
		if ints[i].New {
			snap.Admitted[host]++
		}
	}
	for _, e := range stored {
		if !in[e.ID] {
			// Seq: a sitemap keeps its place at its host's front.
			add(frontier.Entry{ID: e.ID, Host: e.Host, Depth: e.Depth, Attempt: e.Attempt, Seq: e.Seq})
		}
	}
	for _, id := range rc.Refresh {
		if in[id] {
			continue
		}
		if tab == nil {
			// Lazy: Refresh is about the cycle's budget; read each record.
			p, err := store.Page(id)
			if err != nil {
				return 0, fmt.Errorf("recrawl: refresh page %d: %w", id, err)
			}
			add(frontier.Entry{ID: id, Host: urlnorm.Authority(p.URL), Depth: p.Depth})
			continue
		}
		if id >= uint64(len(tab.host)) {
			continue
		}
		add(frontier.Entry{ID: id, Host: tab.names[tab.host[id]], Depth: tab.depth[id]})
	}
	if err := l.Frontier().Restore(snap); err != nil {
		return 0, fmt.Errorf("recrawl: start cycle %d: %w", rc.Cycle.N, err)
	}
	if rc.Cycle.Start.IsZero() {
		rc.Cycle.Start = l.Started()
	}
	b := l.Batch()
	b.PutCycle(rc.Cycle)
	for _, e := range snap.Entries {
		b.PutFrontier(e)
	}
	b.SetSchedulerState(nil)
	if err := l.Seed(targets); err != nil {
		return 0, fmt.Errorf("recrawl: seed cycle %d: %w", rc.Cycle.N, err)
	}
	for _, s := range rc.Cycle.Seeds {
		cy.seedSet[s.ID] = true
	}
	// Read by the workers from now on: never written again.
	cy.seeds = maps.Clone(cy.seedSet)
	for _, e := range snap.Entries {
		cy.Queued(e.ID)
	}
	l.Count("seeds", uint64(len(targets)-remote))
	l.Count("refresh/queued", uint64(len(snap.Entries)-len(targets)+remote))
	return len(snap.Entries), nil
}

// Refresh decides how a job for page prev, fetched in an earlier cycle or
// earlier in this one, is handled in a recrawl: fetched (reason
// refreshFetched, true) or traversed from storage (the reason, false).
func (cy *Cycle) Refresh(job uint64, prev *storage.Page, uncommitted bool) (string, bool) {
	rc := cy.rc
	if cy.pace != nil && cy.pace.take(job) {
		// An owed refetch queued again: traversed earlier in the cycle
		// (so uncommitted may be set), granted when it was released.
		return refreshFetched, true
	}
	if cy.pace != nil && prev.Cycle < rc.Cycle.N {
		if owed, fetch := cy.pace.popped(job, cy.l.Fetches(), &cy.refreshed); owed {
			if fetch {
				return refreshFetched, true
			}
			return refreshPaced, false
		}
	}
	if prev.Cycle >= rc.Cycle.N || uncommitted {
		return refreshSeen, false
	}
	// A seed is refetched whatever its revisit interval says: the cycle
	// starts from it for the links it has now, and traversed from storage
	// it would hand on only the links of its stored copy (a selector picks
	// seeds for the new links they gained). Seeds are few (k).
	seed := cy.seeds[job]
	if !seed && rc.Policy != nil && !rc.Policy.Due(prev, time.Now()) && !(rc.Changed != nil && rc.Changed(job, prev)) {
		return refreshNotDue, false
	}
	if seed && cy.pace != nil {
		return cy.pace.seed(job, &cy.refreshed)
	}
	if rc.RefetchHead > 0 && !cy.refetchSet[job] {
		return refreshOverShare, false
	}
	if rc.MaxRefresh < 0 {
		return refreshOverShare, false
	}
	if cy.pace != nil {
		return cy.pace.decide(prev, cy.l.Fetches(), &cy.refreshed)
	}
	if rc.MaxRefresh > 0 {
		if cy.refreshed.Add(1) > rc.MaxRefresh {
			cy.refreshed.Add(-1)
			return refreshOverShare, false
		}
	}
	return refreshFetched, true
}

// Committing stores the changes to a paced cycle's owed refetches with
// the batch the crawl commits next, which holds the traversals and
// refetches behind them.
func (cy *Cycle) Committing(b *storage.Batch) {
	if cy.pace != nil {
		cy.pace.save(cy.rc.Cycle.N, b)
	}
}

// NotFetched returns a refetch to the refresh share (MaxRefresh).
func (cy *Cycle) NotFetched() { cy.refreshed.Add(-1) }

// Interval is the revisit policy's interval; 0 without a policy.
func (cy *Cycle) Interval(prev *storage.Page, f *storage.Fetch) time.Duration {
	if cy.rc.Policy == nil {
		return 0
	}
	return cy.rc.Policy.Interval(prev, f)
}

// Queued notes that id was queued in this cycle (CycleOptions.Lazy).
func (cy *Cycle) Queued(id uint64) {
	if !cy.rc.Lazy {
		return
	}
	w := id / 64
	if w >= uint64(len(cy.inCycle)) {
		cy.inCycle = append(cy.inCycle, make([]uint64, w+1-uint64(len(cy.inCycle))+uint64(len(cy.inCycle))/4)...)
	}
	cy.inCycle[w] |= 1 << (id % 64)
}

// Requeue reports whether a link of this cycle to id, a URL seen before,
// queues it (CycleOptions.Lazy): not yet queued in this cycle, and a page
// fetched before, a URL an earlier cycle left pending, or one it deferred
// for its host (retryable). Either way id is
// not considered again in this cycle.
func (cy *Cycle) Requeue(id uint64) (bool, error) {
	if !cy.rc.Lazy {
		return false, nil
	}
	if w := id / 64; w < uint64(len(cy.inCycle)) && cy.inCycle[w]&(1<<(id%64)) != 0 {
		return false, nil
	}
	cy.Queued(id)
	p, err := cy.l.Store().Page(id)
	if errors.Is(err, storage.ErrNotFound) {
		return false, nil // interned in this cycle, not committed: queued when it was new
	}
	if err != nil {
		return false, fmt.Errorf("recrawl: look up linked page %d: %w", id, err)
	}
	return p.Fetches > 0 || p.Status == storage.StatusQueued || retryable(&p), nil
}

// Recorded implements crawler.Cycle: a job's final outcome, a fetch
// (fetched) or one recorded without a request (skipped).
func (cy *Cycle) Recorded(r *crawler.Recorded) error {
	if r.Fetch != nil {
		return cy.fetched(r.ID, r.Fetch, r.RedirectTo)
	}
	return cy.skipped(r.ID, r.Status, r.Reason)
}

// fetched starts a reseed when one is due and checks the final fetch of a
// seed: a redirect is followed (the target, queued like any redirect
// target, replaces the seed); a lasting answer (404, 410, or a refusal:
// 401, 403, 451; see revisit.Lasting) and failures that outlived the
// retries make the seed vanished.
func (cy *Cycle) fetched(id uint64, rec *storage.Fetch, redirectTo uint64) error {
	cy.maybeReseed()
	if cy.pace != nil {
		cy.pace.release(id, cy.l.Fetches(), &cy.refreshed, func(t frontier.Target) int {
			return cy.l.Credit([]frontier.Target{t})
		})
	}
	if !cy.seedSet[id] {
		return nil
	}
	switch {
	case rec.Status == storage.StatusRedirect:
		if redirectTo == storage.NoPage || cy.replacedBefore(id) {
			return nil
		}
		rc := cy.rc
		rc.Cycle.Replaced = append(rc.Cycle.Replaced, storage.Replacement{Old: id, New: redirectTo, Reason: VanishedRedirect})
		if !cy.seedSet[redirectTo] {
			cy.seedSet[redirectTo] = true
			rc.Cycle.Seeds = append(rc.Cycle.Seeds, storage.Seed{ID: redirectTo,
				Why: fmt.Sprintf("replaces seed %d: its redirect target (code %d)", id, rec.Code)})
		}
		cy.l.Batch().PutCycle(rc.Cycle)
		cy.l.Count("seeds/vanished/"+VanishedRedirect, 1)
		return nil
	case revisit.Lasting(rec.Code):
		return cy.seedVanished(id, strconv.Itoa(rec.Code))
	case rec.Status == storage.StatusFetchError || rec.Status == storage.StatusHTTPError && rec.Code >= 500:
		return cy.seedVanished(id, VanishedUnreachable)
	}
	return nil
}

// skipped makes a seed whose host's robots.txt stayed unreachable
// vanished.
func (cy *Cycle) skipped(id uint64, status storage.Status, reason string) error {
	if cy.seedSet[id] && status == storage.StatusDeferred && strings.HasPrefix(reason, robots.ReasonUnreachable) {
		return cy.seedVanished(id, VanishedUnreachable)
	}
	return nil
}

// replacedBefore reports whether seed id already has a replacement in this
// cycle.
func (cy *Cycle) replacedBefore(id uint64) bool {
	for _, r := range cy.rc.Cycle.Replaced {
		if r.Old == id {
			return true
		}
	}
	return false
}

// seedVanished records that seed id vanished and injects its replacement,
// if the Replacer finds one.
func (cy *Cycle) seedVanished(id uint64, reason string) error {
	if cy.replacedBefore(id) {
		return nil
	}
	rc := cy.rc
	rep := storage.Replacement{Old: id, New: storage.NoPage, Reason: reason}
	if rc.Replacer != nil {
		p, ok, err := rc.Replacer.Replace(cy.l.Context(), id, reason, func(x uint64) bool { return cy.seedSet[x] })
		switch {
		case err != nil && !errors.Is(err, context.Canceled):
			cy.rc.Logger.Warn("replace vanished seed", "seed", id, "reason", reason, "err", err)
		case err == nil && ok:
			ids, err := cy.inject([]Pick{p})
			if err != nil {
				return err
			}
			if len(ids) == 1 {
				rep.New = ids[0]
			}
		}
	}
	rc.Cycle.Replaced = append(rc.Cycle.Replaced, rep)
	cy.l.Batch().PutCycle(rc.Cycle)
	cy.l.Count("seeds/vanished/"+reason, 1)
	return nil
}

// inject queues picks as seeds of the cycle with the scheduler's seed
// weight: a pending URL gains the weight, a URL not pending is queued (a
// page fetched earlier in the cycle is then traversed from storage, not
// fetched again). It returns the picks' ids; picks that are already seeds
// gain the weight again but are recorded once.
func (cy *Cycle) inject(picks []Pick) ([]uint64, error) {
	urls := make([]string, 0, len(picks))
	kept := make([]Pick, 0, len(picks))
	for _, p := range picks {
		u, err := urlnorm.Normalize(p.URL)
		if err != nil || len(u) > storage.MaxURLLen {
			cy.rc.Logger.Warn("injected seed ignored", "url", p.URL, "err", err)
			continue
		}
		urls = append(urls, u)
		kept = append(kept, p)
	}
	if len(urls) == 0 {
		return nil, nil
	}
	// A known URL was counted against its host's budget when it was
	// first queued.
	s, err := scope.Seed(cy.l.Store(), cy.l.Frontier(), cy.l, urls, scope.SeedOptions{Known: true, AdmitNew: true})
	if err != nil {
		return nil, fmt.Errorf("recrawl: inject %d seeds: %w", len(urls), err)
	}
	for i, id := range s.IDs {
		if !cy.seedSet[id] {
			cy.seedSet[id] = true
			cy.rc.Cycle.Seeds = append(cy.rc.Cycle.Seeds, storage.Seed{ID: id, Score: kept[i].Score, Why: kept[i].Why})
		}
	}
	cy.l.Count("seeds/injected", uint64(s.Queued))
	return s.IDs, nil
}

// reseeder runs CycleOptions.Reseeder on its own goroutine, one selection at a
// time; the disposer runs the result (crawler.Loop.Post).
type reseeder struct {
	running bool
	next    uint64 // fetches after which the next selection starts
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

// maybeReseed starts a selection when ReseedEvery more pages were fetched
// since the last one started.
func (cy *Cycle) maybeReseed() {
	rc, r := cy.rc, &cy.reseed
	if rc.ReseedEvery == 0 || r.running {
		return
	}
	n := cy.l.Fetches()
	if r.next == 0 {
		r.next = rc.ReseedEvery
	}
	if n < r.next {
		return
	}
	if r.cancel == nil {
		r.ctx, r.cancel = context.WithCancel(cy.l.Context())
	}
	r.running = true
	r.next = n + rc.ReseedEvery
	seeds := make([]uint64, 0, len(cy.seedSet))
	for id := range cy.seedSet {
		seeds = append(seeds, id)
	}
	slices.Sort(seeds)
	r.wg.Add(1)
	go func(ctx context.Context) {
		defer r.wg.Done()
		picks, err := rc.Reseeder.Reseed(ctx, n, seeds)
		cy.l.Post(func() error { return cy.reseeded(n, picks, err) })
	}(r.ctx)
}

// reseeded injects the seeds of a finished selection.
func (cy *Cycle) reseeded(at uint64, picks []Pick, err error) error {
	cy.reseed.running = false
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			cy.rc.Logger.Warn("reseed", "after", at, "err", err)
			cy.l.Count("seeds/reseed-failed", 1)
		}
		return nil
	}
	if len(picks) == 0 {
		return nil
	}
	before := len(cy.rc.Cycle.Seeds)
	if _, err := cy.inject(picks); err != nil {
		return err
	}
	if len(cy.rc.Cycle.Seeds) > before {
		cy.l.Batch().PutCycle(cy.rc.Cycle)
	}
	cy.l.Count("seeds/reseeds", 1)
	return nil
}

// Stop cancels a selection still running and waits for it.
func (cy *Cycle) Stop() {
	if cy.reseed.cancel != nil {
		cy.reseed.cancel()
	}
	cy.reseed.wg.Wait()
}
