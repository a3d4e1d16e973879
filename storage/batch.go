package storage

import "time"

// Batch collects the writes of one transaction. DB.Commit applies all of it
// atomically, together with every URL interned before Commit was called.
//
// A Batch copies what it is given (link slices, byte slices), so callers may
// reuse their buffers. The zero value is an empty batch; Reset empties it and
// keeps its memory. A Batch is not safe for concurrent use.
//
// Operations on the same key apply in call order, last one wins: a page
// fetched twice keeps the later fetch; PutFrontier after AddFetch of the same
// id re-queues it (a retry); DeleteFrontier after PutFrontier removes it.
type Batch struct {
	ops      []pageOp             // AddFetch and SetStatus in call order
	links    []Link               // arena for link lists of ops
	frontier map[uint64]int       // id -> index in fput, or -1 for delete
	fput     []Entry              // frontier puts; superseded ones are skipped via frontier
	ready    map[string]hostReady // SetHostReady, last wins
	counters map[string]uint64
	state    map[string][]byte
	runs     []Run
	retries  uint64 // AddRetries
	cycle    *Cycle
	sm       sitemapWrites // SetLastMod, MarkSitemap
	owed     owedWrites    // PutOwed, DeleteOwed
}

type opKind uint8

const (
	opFetch opKind = iota
	opStatus
)

// pageOp is one AddFetch or SetStatus.
type pageOp struct {
	kind       opKind
	f          Fetch // opFetch: the fetch; opStatus: ID, Status, Reason
	linkOff    int   // links[linkOff:linkEnd] in the batch arena
	linkEnd    int
	keepLinks  bool // opFetch: leave the stored link list as it is
	frontierID bool // op deletes the frontier entry (resolved at commit)
}

type hostReady struct {
	at     time.Time
	reason string
}

// Reset empties b for reuse.
func (b *Batch) Reset() {
	b.ops = b.ops[:0]
	b.links = b.links[:0]
	clear(b.frontier)
	b.fput = b.fput[:0]
	clear(b.ready)
	clear(b.counters)
	clear(b.state)
	b.runs = b.runs[:0]
	b.retries = 0
	b.cycle = nil
	b.sm.reset()
	clear(b.owed)
}

// Pages returns the number of page results (AddFetch and SetStatus calls)
// in b, for the crawl loop's "N pages per transaction" rule.
func (b *Batch) Pages() int { return len(b.ops) }

// Empty reports whether b holds nothing to write.
func (b *Batch) Empty() bool {
	return len(b.ops) == 0 && len(b.frontier) == 0 && len(b.ready) == 0 &&
		len(b.counters) == 0 && len(b.state) == 0 && len(b.runs) == 0 && b.retries == 0 && b.cycle == nil && b.sm.empty() && len(b.owed) == 0
}

// AddRetries counts n requests that failed and are to be tried again in
// the cycle's figures (CycleStats.Retries): they write no fetch record.
func (b *Batch) AddRetries(n uint64) { b.retries += n }

// AddFetch records one fetch of page f.ID (f.Status one of fetched,
// not-modified, redirect, http-error, fetch-error, gone; others fail the
// commit with ErrBadStatus) and, in the same transaction,
// removes f.ID from the stored frontier (ARCHITECTURE.md, crash consistency;
// a later PutFrontier in the same batch re-queues it).
//
// links are the page's distinct out-links in document order; duplicates of
// a target are dropped at commit, first occurrence (and its kind) wins.
// Whether they replace the stored list depends on the status:
//   - fetched, redirect, http-error, gone (a response other than 304): the
//     stored list becomes links (nil clears it);
//   - not-modified, fetch-error: links is ignored and the stored list is
//     kept, so the graph is the one "as of the page's last fetch".
//
// Commit also derives Page.Novel, Cycle, Fetches, Successes, ChangedAt,
// writes a FetchRecord for the current cycle and updates the cycle's and
// the host's counters.
func (b *Batch) AddFetch(f Fetch, links []Link) {
	op := pageOp{kind: opFetch, f: f, linkOff: len(b.links), frontierID: true}
	if f.Status.responded() {
		b.links = append(b.links, links...)
	} else {
		op.keepLinks = true
	}
	op.linkEnd = len(b.links)
	b.ops = append(b.ops, op)
	b.frontierDelete(f.ID)
}

// SetStatus records a disposition of page id that is not a fetch
// (robots-denied, out-of-scope, rejected, deferred, queued ...) with its
// reason. Unless status is StatusQueued or StatusDiscovered, id also leaves
// the stored frontier in this transaction. Fetch fields and links are kept.
func (b *Batch) SetStatus(id uint64, status Status, reason string) {
	op := pageOp{kind: opStatus, f: Fetch{ID: id, Status: status, Reason: reason}}
	b.ops = append(b.ops, op)
	if status != StatusQueued && status != StatusDiscovered {
		b.frontierDelete(id)
	}
}

// PutFrontier stores e as a pending URL (new, or an update of priority or
// attempts). e.URL is ignored.
func (b *Batch) PutFrontier(e Entry) {
	if b.frontier == nil {
		b.frontier = make(map[uint64]int)
	}
	e.URL = ""
	if i, ok := b.frontier[e.ID]; ok && i >= 0 {
		b.fput[i] = e
		return
	}
	b.frontier[e.ID] = len(b.fput)
	b.fput = append(b.fput, e)
}

// DeleteFrontier removes id from the stored frontier.
func (b *Batch) DeleteFrontier(id uint64) { b.frontierDelete(id) }

func (b *Batch) frontierDelete(id uint64) {
	if b.frontier == nil {
		b.frontier = make(map[uint64]int)
	}
	b.frontier[id] = -1
}

// SetHostReady stores the earliest time the next request to host may start
// and why (reason "" for ordinary politeness delays).
func (b *Batch) SetHostReady(host string, at time.Time, reason string) {
	if b.ready == nil {
		b.ready = make(map[string]hostReady)
	}
	b.ready[host] = hostReady{at: at, reason: reason}
}

// Count adds delta to the named counter (rejections and errors by reason:
// "reject/url-too-long", "error/timeout" ...). Counters only grow.
func (b *Batch) Count(name string, delta uint64) {
	if b.counters == nil {
		b.counters = make(map[string]uint64)
	}
	b.counters[name] += delta
}

// SetState stores a named state blob (nil deletes it). StateScheduler is the
// scheduler's MarshalState; the frontier may keep others.
func (b *Batch) SetState(name string, v []byte) {
	if b.state == nil {
		b.state = make(map[string][]byte)
	}
	if v == nil {
		b.state[name] = nil
		return
	}
	b.state[name] = append(make([]byte, 0, len(v)), v...)
}

// SetSchedulerState is SetState(StateScheduler, v).
func (b *Batch) SetSchedulerState(v []byte) { b.SetState(StateScheduler, v) }

// PutRun stores r (counters, end time), replacing the record with r.ID,
// which must come from DB.StartRun.
func (b *Batch) PutRun(r Run) {
	c := make(map[string]uint64, len(r.Counters))
	for k, v := range r.Counters {
		c[k] = v
	}
	r.Counters = c
	b.runs = append(b.runs, r)
}

// PutCycle stores cycle c. c.N must be the current cycle (an update: end
// time, replacements) or the next one, which then becomes current: fetches
// and new URLs of this same batch already belong to it. c.Stats is ignored.
func (b *Batch) PutCycle(c Cycle) {
	c.Seeds = append([]Seed(nil), c.Seeds...)
	c.Replaced = append([]Replacement(nil), c.Replaced...)
	c.Stats = CycleStats{}
	b.cycle = &c
}

// StateScheduler is the SetState name of the scheduler's state blob.
const StateScheduler = "scheduler"
