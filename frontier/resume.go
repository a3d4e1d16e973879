package frontier

import "fmt"

// Restorer is what Resume hands a stored snapshot to; *Frontier
// implements it.
type Restorer interface {
	Restore(s Snapshot) error
}

// CountFor is the Count a resumed crawl with host page budget
// hostMaxPages (0: none) rebuilds its per-host counts with: CountPages
// with a budget, CountHosts without.
func CountFor(hostMaxPages int64) Count {
	if hostMaxPages > 0 {
		return CountPages
	}
	return CountHosts
}

// Resume loads the stored frontier, host ready times, scheduler state and
// per-host budget counts (as count says) from st into f, a fresh frontier,
// and returns the pending URLs restored. A db with nothing of the kind
// stored (a new crawl) leaves f untouched.
func Resume(st Stored, f Restorer, count Count) ([]Entry, error) {
	snap, err := LoadSnapshot(st, count)
	if err != nil {
		return nil, err
	}
	if len(snap.Entries) == 0 && len(snap.Hosts) == 0 && snap.SchedState == nil && len(snap.Admitted) == 0 {
		return nil, nil
	}
	if err := f.Restore(snap); err != nil {
		return nil, fmt.Errorf("frontier: restore stored frontier: %w", err)
	}
	return snap.Entries, nil
}
