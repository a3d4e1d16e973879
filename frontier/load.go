package frontier

import (
	"fmt"

	"github.com/seedcrawl/seedcrawl/storage"
)

// Stored is what LoadSnapshot reads a frontier's persisted state from;
// *storage.DB implements it.
type Stored interface {
	StoredHosts
	LoadFrontier(fn func(e Entry) error) error
	SchedulerState() ([]byte, error)
}

// StoredHosts is what LoadHosts reads host states from; *storage.DB
// implements it.
type StoredHosts interface {
	EachHost(fn func(h storage.Host) error) error
}

// LoadSnapshot reads the stored pending URLs, host states and scheduler
// state into a Snapshot for Restore. Its Admitted is admitted (which the
// caller may keep filling before Restore), set for every host to the
// host's fetches plus its pending URLs: the host page budget of a resumed
// crawl before a caller's own recount.
func LoadSnapshot(st Stored, admitted map[string]int64) (Snapshot, error) {
	snap := Snapshot{Admitted: admitted}
	perHost := map[string]int64{}
	err := st.LoadFrontier(func(e Entry) error {
		snap.Entries = append(snap.Entries, e)
		perHost[e.Host]++
		return nil
	})
	if err != nil {
		return Snapshot{}, fmt.Errorf("frontier: load stored frontier: %w", err)
	}
	if err := LoadHosts(st, &snap, perHost); err != nil {
		return Snapshot{}, err
	}
	var err2 error
	if snap.SchedState, err2 = st.SchedulerState(); err2 != nil {
		return Snapshot{}, fmt.Errorf("frontier: load scheduler state: %w", err2)
	}
	return snap, nil
}

// LoadHosts adds the stored host states to snap (Restore decides, on the
// frontier's clock, what a ready time or a reason still means) and sets
// snap.Admitted (which must not be nil) for every host to its fetches plus
// perHost, its pending URLs.
func LoadHosts(st StoredHosts, snap *Snapshot, perHost map[string]int64) error {
	err := st.EachHost(func(h storage.Host) error {
		snap.Admitted[h.Name] = int64(h.Fetches) + perHost[h.Name]
		delete(perHost, h.Name)
		if !h.ReadyAt.IsZero() || h.Reason != "" {
			snap.Hosts = append(snap.Hosts, HostState{Host: h.Name, ReadyAt: h.ReadyAt, Reason: h.Reason})
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("frontier: load stored hosts: %w", err)
	}
	for h, n := range perHost {
		snap.Admitted[h] = n
	}
	return nil
}
