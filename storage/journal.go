package storage

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// Journal is a run as the crawl loop writes it: the Batch the next commit
// stores, when to commit it (Cadence), and the run's record, which every
// commit stores with the batch, so the record on disk always counts the
// results stored with it. Start opens the record, Commit writes a batch
// (and, given an end, closes the record). A Journal is used by one
// goroutine, but for Uncommitted.
type Journal struct {
	Batch   Batch
	Cadence Cadence
	run     Run

	mu       sync.RWMutex
	recorded map[uint64]struct{} // ids whose outcome awaits the next commit
}

// RunStore is what a Journal writes through; *DB is one.
type RunStore interface {
	StartRun(start time.Time, command, config string) (Run, error)
	Commit(b *Batch) error
}

// Start stores a new run record begun at start by command, with settings
// (encoded as JSON) as its configuration, and starts the Cadence there.
func (j *Journal) Start(db RunStore, start time.Time, command string, settings any) error {
	config, err := json.Marshal(settings)
	if err != nil {
		return fmt.Errorf("encode settings: %w", err)
	}
	if j.run, err = db.StartRun(start, command, string(config)); err != nil {
		return err
	}
	j.Cadence.Committed(start)
	return nil
}

// Run returns the run record as stored at Start.
func (j *Journal) Run() Run { return j.run }

// Commit stores the batch and the run record with counters in one
// transaction; end is when the run ended, zero while it goes on. It then
// empties the batch and notes the commit in the Cadence. On failure the
// batch is kept, with the run record added: a failed commit ends the run.
func (j *Journal) Commit(db RunStore, counters map[string]uint64, end time.Time) error {
	r := j.run
	r.End, r.Counters = end, counters
	j.Batch.PutRun(r)
	if err := db.Commit(&j.Batch); err != nil {
		return err
	}
	j.Batch.Reset()
	j.Cadence.Committed(time.Now())
	j.mu.Lock()
	clear(j.recorded)
	j.mu.Unlock()
	return nil
}

// Recorded notes that id's final outcome is decided in this batch, so its
// stored record does not show it until the next Commit.
func (j *Journal) Recorded(id uint64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.recorded == nil {
		j.recorded = map[uint64]struct{}{}
	}
	j.recorded[id] = struct{}{}
}

// Uncommitted reports that id was Recorded since the last Commit; safe to
// call from any goroutine.
func (j *Journal) Uncommitted(id uint64) bool {
	j.mu.RLock()
	defer j.mu.RUnlock()
	_, ok := j.recorded[id]
	return ok
}
