package scope

import (
	"fmt"
	"testing"

	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/storage"
)

// queue notes the hosts admitted and the seeds queued.
type queue struct {
	admitted []string
	seeded   []frontier.Target
}

func (q *queue) Admit(host string) { q.admitted = append(q.admitted, host) }
func (q *queue) Seed(targets []frontier.Target) error {
	q.seeded = append(q.seeded, targets...)
	return nil
}

// TestSeed queues the seeds of a crawl, of a recrawl cycle's injection and
// of a comparison: which URLs each queues, at which depth, and which count
// against their host's budget.
func TestSeed(t *testing.T) {
	const (
		h1, h4 = "127.0.0.1:8080", "127.0.0.4:8080"
		known  = "http://" + h1 + "/known" // interned before: id 1
		fresh  = "http://" + h1 + "/new"
		other  = "http://" + h4 + "/r" // the host another node owns
	)
	tests := []struct {
		name     string
		urls     []string
		opts     SeedOptions
		want     []frontier.Target
		admitted []string
		ids      []uint64
		queued   int
	}{
		{name: "new URLs only (a crawl)", urls: []string{known, fresh},
			want: []frontier.Target{{ID: 2, Host: h1, New: true}}, admitted: []string{h1}, ids: []uint64{1, 2}, queued: 1},
		{name: "known ones too, each admitted (a crawl with --refetch)", urls: []string{known, fresh}, opts: SeedOptions{Known: true},
			want:     []frontier.Target{{ID: 1, Host: h1, New: true}, {ID: 2, Host: h1, New: true}},
			admitted: []string{h1, h1}, ids: []uint64{1, 2}, queued: 2},
		{name: "another node's seed is counted, not queued (a cluster crawl)", urls: []string{fresh, other},
			opts:     SeedOptions{Remote: func(h string) bool { return h == h4 }},
			want:     []frontier.Target{{ID: 2, Host: h1, New: true}, {ID: 3, Host: h4, Remote: true}},
			admitted: []string{h1}, ids: []uint64{2, 3}, queued: 1},
		{name: "known ones not admitted again (a recrawl's injected seeds)", urls: []string{known, other},
			opts:     SeedOptions{Known: true, AdmitNew: true},
			want:     []frontier.Target{{ID: 1, Host: h1, New: true}, {ID: 2, Host: h4, New: true}},
			admitted: []string{h4}, ids: []uint64{1, 2}, queued: 2},
		{name: "picked ones at their depth (a comparison)", urls: []string{known, fresh},
			opts: SeedOptions{Known: true, Pick: func(_ int, in storage.Interned) (int, bool, error) {
				return 3, in.ID != 1, nil
			}},
			want: []frontier.Target{{ID: 2, Host: h1, Depth: 3, New: true}}, admitted: []string{h1}, ids: []uint64{1, 2}, queued: 1},
		{name: "nothing new: nothing queued", urls: []string{known}, ids: []uint64{1}},
	}
	for _, tt := range tests {
		cr := &crawl{ids: map[string]uint64{known: 1}}
		q := &queue{}
		got, err := Seed(cr, q, q, tt.urls, tt.opts)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if fmt.Sprint(q.seeded) != fmt.Sprint(tt.want) || fmt.Sprint(q.admitted) != fmt.Sprint(tt.admitted) ||
			fmt.Sprint(got.IDs) != fmt.Sprint(tt.ids) || got.Queued != tt.queued {
			t.Errorf("%s:\n seeded %v, want %v\n admitted %v, want %v\n ids %v, want %v\n queued %d, want %d", tt.name,
				q.seeded, tt.want, q.admitted, tt.admitted, got.IDs, tt.ids, got.Queued, tt.queued)
		}
	}
}
