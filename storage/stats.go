package storage

import (
	"fmt"
	"os"

	bolt "go.etcd.io/bbolt"
)

// Stats is the summary seedcrawl stats prints.
type Stats struct {
	Path   string
	Size   int64 // file size in bytes
	Schema int
	Cycle  uint32 // current cycle

	Pages    uint64            // committed pages (= graph nodes)
	ByStatus map[Status]uint64 // pages by status
	Reasons  map[string]uint64 // "status/reason" of pages with a Reason, e.g. "fetch-error/timeout"
	Fetched  uint64            // pages whose Status.Fetched()
	Novel    uint64            // fetched pages that were novel

	Hosts       uint64 // host records
	LinkSources uint64 // pages with current out-links
	Links       uint64 // current arcs
	Frontier    uint64 // pending URLs

	Counters map[string]uint64 // rejections and errors by reason (Batch.Count)
	Runs     []Run
	Cycles   []Cycle
}

// Stats reads the summary in one read transaction (a pass over the page
// records and the link list headers) plus runs and cycles.
func (db *DB) Stats() (Stats, error) {
	s := Stats{
		Path:     db.path,
		Schema:   SchemaVersion,
		Cycle:    db.Cycle(),
		ByStatus: map[Status]uint64{},
		Reasons:  map[string]uint64{},
		Counters: map[string]uint64{},
	}
	if fi, err := os.Stat(db.path); err == nil {
		s.Size = fi.Size()
	}
	err := db.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(bktPages).Cursor()
		var p Page
		for k, v := c.First(); k != nil; k, v = c.Next() {
			id := getU64(k)
			if err := decodePage(id, v, &p); err != nil {
				return db.corrupt(err, "page %d", id)
			}
			s.Pages++
			s.ByStatus[p.Status]++
			if p.Reason != "" {
				s.Reasons[p.Status.String()+"/"+p.Reason]++
			}
			if p.Status.Fetched() {
				s.Fetched++
				if p.Novel {
					s.Novel++
				}
			}
		}
		s.Hosts = uint64(tx.Bucket(bktHosts).Stats().KeyN)
		s.Frontier = uint64(tx.Bucket(bktFrontier).Stats().KeyN)
		return tx.Bucket(bktCounters).ForEach(func(k, v []byte) error {
			if len(v) == 8 {
				s.Counters[string(k)] = getU64(v)
			}
			return nil
		})
	})
	if err == nil {
		err = db.eachLinkVersion(currentCycle, ^uint64(0), func(src uint64, v []byte) error {
			n, err := linkCount(v)
			if err != nil {
				return db.corrupt(err, "links of %d", src)
			}
			if n > 0 {
				s.LinkSources++
				s.Links += uint64(n)
			}
			return nil
		})
	}
	if err == nil {
		s.Runs, err = db.Runs()
	}
	if err == nil {
		s.Cycles, err = db.Cycles()
	}
	if err != nil {
		return Stats{}, fmt.Errorf("storage: stats %s: %w", db.path, err)
	}
	return s, nil
}
