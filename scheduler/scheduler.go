package scheduler

// State says where a link target stands when its source page is downloaded.
type State uint8

const (
	// New means the target was first discovered by this download (Prio in is 0).
	New State = iota
	// Queued means the target is pending in the frontier (Prio in is its
	// current priority).
	Queued
	// Done means the target is downloaded or in flight; its share is dropped
	// and Prio must not be changed.
	Done
)

// Link is one distinct out-link target of a downloaded page, or a seed.
//
// Schedulers keep no per-URL state of their own beyond Prio: the frontier (or
// the simulator) stores Prio with each pending URL and persists it, so a
// resumed crawl continues with the same priorities.
type Link struct {
	ID    uint64  // URL id: a storage page id, or a graph node id in the simulator
	Intra bool    // target's exact lower-cased host equals the source page's host
	State State   // see State
	Prio  float64 // in: current priority (Queued) or 0 (New); out: new priority
}

// Scheduler is a crawl-ordering policy. The queue that uses it hands out the
// pending URL with the highest Prio; ties go to the URL discovered first
// (FIFO by discovery order), so a scheduler that never changes Prio is BFS.
//
// Implementations are not safe for concurrent use; the frontier serialises
// calls.
type Scheduler interface {
	// Name returns the name the scheduler was selected by, e.g. "fpr@100".
	Name() string
	// Seed sets the initial Prio of each seed (State New or Queued).
	Seed(seeds []Link)
	// Downloaded is called once per downloaded page. page.Prio is the
	// priority the page had when it was handed out, page.ID its id.
	// out holds the page's distinct out-link targets in document order,
	// self-links included (State Done). Downloaded sets Prio of every
	// target whose State is New or Queued.
	Downloaded(page Link, out []Link)
}

// Batcher is implemented by schedulers that re-rank queued URLs in batches
// rather than on every download (rankmass-window). After each Downloaded
// call the queue calls Due with the number of queued URLs; when it returns
// true the queue calls Flush, which emits new priorities for queued ids.
// Flush may emit an id that is no longer queued (downloaded or in flight
// since the scheduler last heard of it); the queue ignores such ids.
type Batcher interface {
	Due(queued int) bool
	Flush(emit func(id uint64, prio float64))
}

// Stateful is implemented by schedulers with state beyond per-URL Prio (an
// RNG position, running totals). The frontier stores the state with its own
// and restores it on resume.
type Stateful interface {
	MarshalState() ([]byte, error)
	UnmarshalState([]byte) error
}
