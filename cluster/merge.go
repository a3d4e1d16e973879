package cluster

import (
	"fmt"

	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// MergeStats describes a Merge.
type MergeStats struct {
	Pages uint64 // distinct URLs in the output
	// Fetched counts the pages whose content was downloaded (a 2xx or a
	// 304; storage.Status.Fetched), as seedcrawl stats counts fetched
	// pages.
	Fetched uint64
	// Outcomes counts the pages stored with the record of a request and
	// their links: the Fetched ones plus redirects, HTTP errors, gone
	// pages and fetch errors.
	Outcomes uint64
	Links    uint64 // links stored
	// Conflicts counts URLs fetched in more than one input: a host that
	// changed owner, or the same db given twice. The first input's fetch
	// is kept.
	Conflicts uint64
}

// mergeBatch is how many pages Merge writes per transaction.
const mergeBatch = 4096

// pick is the input record chosen for one output page.
type pick struct {
	db   int32 // input index; -1 until a record is seen
	rank int8
	old  uint64
}

// rank orders a page's records: a fetch beats what only the owner of a
// host decides (robots.txt denial, a deferred host), which beats what any
// node decides on discovery (scope, trap guards, --max-depth), which beats
// "queued", which beats "discovered". A node stores the URLs it handed to
// another node as discovered, and may reject at its depth a URL that the
// owner reached by a shorter path: the owner's record wins both times.
func rank(p *storage.Page) int8 {
	switch {
	case p.Status.Requested() && p.Fetches > 0:
		return 4
	case p.Status == storage.StatusRobotsDenied || p.Status == storage.StatusDeferred:
		return 3
	case p.Status == storage.StatusQueued:
		return 1
	case p.Status == storage.StatusDiscovered:
		return 0
	}
	return 2
}

// Merge writes the union of the node dbs in into out (a new, empty db):
// one page per distinct URL, with ids remapped, the best record of each
// URL (its fetch from the node that owns its host) and that fetch's links.
// Graph tools (rank, seeds, sim, compare, score) then see the whole crawl.
// Only the current state is merged: earlier cycles' fetch history and the
// inputs' frontiers, runs and robots caches are not.
func Merge(out *storage.DB, in []*storage.DB) (MergeStats, error) {
	var st MergeStats
	if n := out.NextID(); n != 0 {
		return st, fmt.Errorf("%w: merge into %s: it already holds %d URLs; use a new file", ErrOptions, out.Path(), n)
	}
	// Pass 1: intern every URL of every input in input and id order (a
	// page's From precedes it, so From remaps to an id already interned)
	// and choose each URL's record.
	remap := make([][]uint64, len(in))
	var picks []pick
	var empty storage.Batch
	sinceCommit := 0
	for i, db := range in {
		n := db.NextID()
		m := make([]uint64, n)
		for j := range m {
			m[j] = storage.NoPage
		}
		remap[i] = m
		err := db.EachPage(func(p *storage.Page) error {
			if p.ID >= n {
				return fmt.Errorf("page id %d beyond next id %d", p.ID, n)
			}
			from := storage.NoPage
			if p.From != storage.NoPage && p.From < n && m[p.From] != storage.NoPage {
				from = m[p.From]
			}
			ints, err := out.Intern([]string{p.URL}, from, p.Depth)
			if err != nil {
				return err
			}
			id := ints[0].ID
			m[p.ID] = id
			for uint64(len(picks)) <= id {
				picks = append(picks, pick{db: -1})
			}
			r := rank(p)
			pk := &picks[id]
			if r == 4 && pk.rank == 4 {
				st.Conflicts++
			}
			if pk.db < 0 || r > pk.rank {
				*pk = pick{db: int32(i), rank: r, old: p.ID}
			}
			if sinceCommit++; sinceCommit >= mergeBatch {
				sinceCommit = 0
				return out.Commit(&empty)
			}
			return nil
		})
		if err != nil {
			return st, fmt.Errorf("cluster: merge: read pages of %s: %w", db.Path(), err)
		}
	}
	if err := out.Commit(&empty); err != nil {
		return st, fmt.Errorf("cluster: merge: intern into %s: %w", out.Path(), err)
	}
	st.Pages = uint64(len(picks))

	// Pass 2: write each chosen record, with its links remapped.
	var b storage.Batch
	for i, db := range in {
		m := remap[i]
		err := db.EachPage(func(p *storage.Page) error {
			id := m[p.ID]
			if pk := picks[id]; pk.db != int32(i) || pk.old != p.ID {
				return nil
			}
			switch {
			case rank(p) == 4:
				links, err := db.Links(p.ID)
				if err != nil {
					return err
				}
				for k := range links {
					to := links[k].To
					if to >= uint64(len(m)) || m[to] == storage.NoPage {
						return fmt.Errorf("page %d links to unknown id %d", p.ID, to)
					}
					links[k].To = m[to]
				}
				b.AddFetch(storage.Fetch{ID: id, Host: urlnorm.Authority(p.URL), Status: p.Status, Reason: p.Reason,
					Code: p.Code, ContentType: p.ContentType, Length: p.Length, Truncated: p.Truncated,
					Hash: p.Hash, ETag: p.ETag, LastModified: p.LastModified, FetchedAt: p.FetchedAt,
					Duration: p.Duration, Interval: p.Interval}, links)
				st.Outcomes++
				if p.Status.Fetched() {
					st.Fetched++
				}
				st.Links += uint64(len(links))
			case p.Status != storage.StatusDiscovered || p.Reason != "":
				b.SetStatus(id, p.Status, p.Reason)
			}
			if b.Pages() >= mergeBatch {
				if err := out.Commit(&b); err != nil {
					return err
				}
				b.Reset()
			}
			return nil
		})
		if err != nil {
			return st, fmt.Errorf("cluster: merge: copy pages of %s: %w", db.Path(), err)
		}
	}
	if err := out.Commit(&b); err != nil {
		return st, fmt.Errorf("cluster: merge: write %s: %w", out.Path(), err)
	}
	return st, nil
}
