package scope

import (
	"fmt"

	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Interner interns URLs and says which are new; *storage.DB implements
// it.
type Interner interface {
	Intern(urls []string, from uint64, depth uint32) ([]storage.Interned, error)
}

// Budget counts the URLs queued as pages against their host's page
// budget; *frontier.Frontier implements it.
type Budget interface {
	Admit(host string)
}

// Seeder gives targets the scheduler's seed weight and queues the new
// ones; crawler.Loop implements it.
type Seeder interface {
	Seed(targets []frontier.Target) error
}

// SeedOptions say which seeds Seed queues and how. The zero value queues
// the URLs seen for the first time, at depth 0, every one of them here,
// each counted against its host's budget.
type SeedOptions struct {
	// Known queues URLs seen before too (a crawl with --refetch, the seeds
	// injected into a recrawl cycle, the URLs a comparison asks for).
	Known bool
	// AdmitNew counts only the URLs seen for the first time against their
	// host's budget: a known URL was counted when it was first queued.
	AdmitNew bool
	// Remote reports that another node of a cluster owns host: its seed
	// counts among the seeds (FPR gives each (1−d)/|S|) but is queued by
	// its owner only. Nil: every host is this node's.
	Remote func(host string) bool
	// Pick, when set, is asked about each URL Known (and New) lets through,
	// urls[i] interned as in: whether it is queued (ok), at which depth.
	// Nil: every one is, at depth 0.
	Pick func(i int, in storage.Interned) (depth int, ok bool, err error)
}

// Seeded is what Seed did.
type Seeded struct {
	// IDs are the ids of the URLs, in order, whether queued or not.
	IDs []uint64
	// Queued is how many seeds were queued here (not another node's).
	Queued int
}

// Seed interns urls (normalized) through st and queues the ones o lets
// through as seeds through q, counting the ones queued here against their
// host's budget in b.
func Seed(st Interner, b Budget, q Seeder, urls []string, o SeedOptions) (Seeded, error) {
	if len(urls) == 0 {
		return Seeded{}, nil
	}
	ints, err := st.Intern(urls, storage.NoPage, 0)
	if err != nil {
		return Seeded{}, fmt.Errorf("scope: intern %d seeds: %w", len(urls), err)
	}
	out := Seeded{IDs: make([]uint64, len(urls))}
	targets := make([]frontier.Target, 0, len(urls))
	for i, u := range urls {
		out.IDs[i] = ints[i].ID
		if !ints[i].New && !o.Known {
			continue
		}
		depth := 0
		if o.Pick != nil {
			d, ok, err := o.Pick(i, ints[i])
			if err != nil {
				return Seeded{}, err
			}
			if !ok {
				continue
			}
			depth = d
		}
		host := urlnorm.Authority(u)
		if o.Remote != nil && o.Remote(host) {
			targets = append(targets, frontier.Target{ID: ints[i].ID, Host: host, Remote: true})
			continue
		}
		targets = append(targets, frontier.Target{ID: ints[i].ID, Host: host, Depth: depth, New: true})
		if ints[i].New || !o.AdmitNew {
			b.Admit(host)
		}
		out.Queued++
	}
	if len(targets) == 0 {
		return out, nil
	}
	if err := q.Seed(targets); err != nil {
		return Seeded{}, fmt.Errorf("scope: queue %d seeds: %w", len(targets), err)
	}
	return out, nil
}
