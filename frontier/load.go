package frontier

import (
	"fmt"

	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Stored is what LoadSnapshot reads a frontier's persisted state from;
// *storage.DB implements it.
type Stored interface {
	StoredHosts
	Budgets
	LoadFrontier(fn func(e Entry) error) error
	SchedulerState() ([]byte, error)
}

// StoredHosts is what LoadHosts reads host states from; *storage.DB
// implements it.
type StoredHosts interface {
	EachHost(fn func(h storage.Host) error) error
}

// Budgets is what LoadBudgets counts the per-host page budgets from;
// *storage.DB implements it.
type Budgets interface {
	// AdmittedByHost returns the URLs ever queued or fetched per host, an
	// index storage keeps with the pages.
	AdmittedByHost() (map[string]int64, error)
	EachPage(fn func(p *storage.Page) error) error
}

// Count says where the per-host counts of the host page budget
// (Snapshot.Admitted, Options.HostMaxPages) of a resumed crawl come from.
type Count int

const (
	// CountHosts counts each host's fetches plus its pending URLs: what
	// LoadSnapshot reads anyway, exact enough when no host budget is set.
	CountHosts Count = iota
	// CountIndex reads storage's admitted index (the URLs of a host ever
	// queued or fetched; refetches do not count): a recrawl cycle's
	// budgets without a pass over the pages, so a cycle's start does not
	// grow with the db.
	CountIndex
	// CountPages counts, in one cursor pass over the page records, every
	// URL that was queued whatever became of it (fetched, failed,
	// robots-denied, deferred); URLs only discovered, out of scope or
	// rejected do not count. The host records count fetch attempts,
	// retries included, and miss the URLs admitted but never requested,
	// so a resumed crawl with a host budget counts this way.
	CountPages
)

// LoadSnapshot reads the stored pending URLs, host states, per-host
// budget counts (as count says) and scheduler state into a Snapshot for
// Restore.
func LoadSnapshot(st Stored, count Count) (Snapshot, error) {
	var snap Snapshot
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
	if err := LoadBudgets(st, &snap, count); err != nil {
		return Snapshot{}, err
	}
	if snap.SchedState, err = st.SchedulerState(); err != nil {
		return Snapshot{}, fmt.Errorf("frontier: load scheduler state: %w", err)
	}
	return snap, nil
}

// LoadHosts adds the stored host states to snap (Restore decides, on the
// frontier's clock, what a ready time or a reason still means) and sets
// snap.Admitted (made if nil) for every host to its fetches plus
// perHost, its pending URLs: the CountHosts budgets.
func LoadHosts(st StoredHosts, snap *Snapshot, perHost map[string]int64) error {
	if snap.Admitted == nil {
		snap.Admitted = map[string]int64{}
	}
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

// LoadBudgets replaces snap.Admitted with the counts count names
// (CountHosts leaves what LoadHosts set).
func LoadBudgets(st Budgets, snap *Snapshot, count Count) error {
	switch count {
	case CountIndex:
		m, err := st.AdmittedByHost()
		if err != nil {
			return fmt.Errorf("frontier: per-host URL counts: %w", err)
		}
		snap.Admitted = m
	case CountPages:
		m := map[string]int64{}
		err := st.EachPage(func(p *storage.Page) error {
			switch p.Status {
			case storage.StatusDiscovered, storage.StatusOutOfScope, storage.StatusRejected:
			default:
				m[urlnorm.Authority(p.URL)]++
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("frontier: count admitted URLs: %w", err)
		}
		snap.Admitted = m
	}
	return nil
}
