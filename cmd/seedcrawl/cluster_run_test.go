package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/seedcrawl/seedcrawl/cluster"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// TestRunCluster: three `seedcrawl run --cluster` nodes (in this process,
// each with its own db) crawl two cycles on an embedded NATS server. Cycle
// 2's seeds are one elected node's selection, recorded alike by all
// three; in each cycle every URL is fetched by its host's owner only.
//
// Two plans: seeds selected on the graph (--k 3, maxweight), and the seeds
// given with a page budget, whose cycle loads no graph and looks the agreed
// seeds up in the db.
func TestRunCluster(t *testing.T) {
	w := cleanWeb(t, 5, 300, 6)
	for _, tc := range []struct {
		name  string
		extra []string
	}{
		{"selected", []string{"--k", "3"}},
		{"given-budget", []string{"--seed-algo", "given", "--pages-per-cycle", "60"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w.log.Reset()
			runClusterCycles(t, w, tc.extra, tc.name == "selected")
		})
	}
}

func runClusterCycles(t *testing.T, w *crawlWeb, extra []string, checkResize bool) {
	srv, err := cluster.StartServer(cluster.ServerOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	const k = 3
	dir := t.TempDir()
	dbs := make([]string, k)
	errs := make([]error, k)
	logs := make([]bytes.Buffer, k)
	var wg sync.WaitGroup
	for i := range k {
		dbs[i] = filepath.Join(dir, fmt.Sprintf("n%d.db", i))
		flags := append([]string{"--cluster", srv.URL(), "--node-id", strconv.Itoa(i), "--nodes", strconv.Itoa(k),
			"--cycles", "2", "--sitemaps=false"}, extra...)
		args := append(runArgs(t, w, dbs[i], flags...), w.site.Seeds()...)
		wg.Add(1)
		go func() {
			defer wg.Done()
			var stdout bytes.Buffer
			errs[i] = runCycles(context.Background(), args, &stdout, &logs[i])
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v\n%s", i, err, logs[i].String())
		}
	}
	re := regexp.MustCompile(`seeds of cycle 2 were selected by node (\d+)`)
	leader := -1
	for i := range k {
		m := re.FindStringSubmatch(logs[i].String())
		if m == nil {
			t.Fatalf("node %d did not report the election:\n%s", i, logs[i].String())
		}
		l, _ := strconv.Atoi(m[1])
		if leader >= 0 && l != leader {
			t.Errorf("node %d followed node %d, another followed node %d", i, l, leader)
		}
		leader = l
	}
	ring := cluster.NewRingN(k)
	var want []string
	fetchedBy := map[uint32]map[string]int{1: {}, 2: {}}
	for i, db := range dbs {
		st := runReadDB(t, db)
		if len(st.cycles) != 2 || st.cycles[0].End.IsZero() || st.cycles[1].End.IsZero() {
			t.Fatalf("node %d: cycles %+v, want 2 complete", i, st.cycles)
		}
		var got []string
		for _, s := range st.cycles[1].Seeds {
			got = append(got, st.byID[s.ID]+" | "+s.Why)
		}
		if len(got) == 0 {
			t.Fatalf("node %d: no seeds recorded for cycle 2", i)
		}
		if want == nil {
			want = got
		} else if !slices.Equal(got, want) {
			t.Errorf("node %d recorded cycle 2 seeds %q, node 0 %q", i, got, want)
		}
		for n, recs := range st.fetch {
			for u := range recs {
				if o := ring.Owner(urlnorm.Authority(u)); o != i {
					t.Errorf("cycle %d: node %d fetched %s, owned by node %d", n, i, u, o)
				}
				if prev, dup := fetchedBy[n][u]; dup {
					t.Errorf("cycle %d: %s fetched by nodes %d and %d", n, u, prev, i)
				}
				fetchedBy[n][u] = i
			}
		}
	}
	if len(fetchedBy[1]) == 0 || len(fetchedBy[2]) == 0 {
		t.Fatalf("fetched %d URLs in cycle 1, %d in cycle 2", len(fetchedBy[1]), len(fetchedBy[2]))
	}
	t.Logf("node %d selected cycle 2's seeds %q; %d and %d URLs fetched", leader, want, len(fetchedBy[1]), len(fetchedBy[2]))

	if !checkResize {
		return
	}
	// A third cycle with another cluster size is refused: the db's refresh
	// planning assumes the hosts it was crawled with.
	args := append(runArgs(t, w, dbs[0], "--cluster", srv.URL(), "--node-id", "0", "--nodes", "2", "--cycles", "3", "--sitemaps=false"),
		w.site.Seeds()...)
	var out, errOut bytes.Buffer
	if err := runCycles(context.Background(), args, &out, &errOut); !errors.Is(err, errUsage) {
		t.Fatalf("run --nodes 2 on a db of 3 nodes: %v, want a usage error", err)
	}
}
