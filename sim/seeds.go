package sim

import (
	"bufio"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/seedcrawl/seedcrawl/graph"
)

// SeedSpecHelp describes the forms ParseSeeds accepts.
const SeedSpecHelp = "top-pagerank:K, random:K:SEED, or a file with one node id or URL per line"

// ParseSeeds selects seed nodes of g by spec:
//
//	top-pagerank:K   the K nodes of highest pr (ties: lower id first),
//	                 in increasing id order
//	random:K:SEED    K distinct nodes drawn uniformly with a PCG seeded by SEED
//	FILE             one node id or URL per line; blank lines and lines
//	                 starting with # are skipped (gzip if FILE ends in .gz)
//
// K larger than the graph selects every node.
func ParseSeeds(spec string, g *graph.CSR, pr []float64) ([]uint32, error) {
	n := g.N()
	switch {
	case strings.HasPrefix(spec, "top-pagerank:"):
		k, err := parseK(spec, strings.TrimPrefix(spec, "top-pagerank:"))
		if err != nil {
			return nil, err
		}
		if len(pr) != n {
			return nil, fmt.Errorf("sim: seeds %s: %d PageRank values for %d nodes", spec, len(pr), n)
		}
		ids := make([]uint32, n)
		for i := range ids {
			ids[i] = uint32(i)
		}
		slices.SortStableFunc(ids, func(a, b uint32) int { return cmp.Compare(pr[b], pr[a]) })
		// Hand them out by id, not by PageRank: in PageRank order a FIFO
		// queue would download the seeds best first, so bfs would be given
		// the true ranking of the seeds and match the upper bound for the
		// first K pages.
		top := ids[:min(k, n)]
		slices.Sort(top)
		return top, nil
	case strings.HasPrefix(spec, "random:"):
		kStr, seedStr, ok := strings.Cut(strings.TrimPrefix(spec, "random:"), ":")
		if !ok {
			return nil, fmt.Errorf("%w: %q: want random:K:SEED, e.g. random:160:1", ErrSeedSpec, spec)
		}
		k, err := parseK(spec, kStr)
		if err != nil {
			return nil, err
		}
		seed, err := strconv.ParseUint(seedStr, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: %q: SEED must be an unsigned integer", ErrSeedSpec, spec)
		}
		return randomNodes(n, k, seed), nil
	}
	ids, err := readSeedFile(spec, g)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("%w: seed file %s lists no node", ErrNoSeeds, spec)
	}
	return ids, nil
}

func parseK(spec, s string) (int, error) {
	k, err := strconv.Atoi(s)
	if err != nil || k < 1 {
		return 0, fmt.Errorf("%w: %q: K must be a positive integer (%s)", ErrSeedSpec, spec, SeedSpecHelp)
	}
	return k, nil
}

// randomNodes draws k distinct nodes of n by a partial Fisher–Yates shuffle.
func randomNodes(n, k int, seed uint64) []uint32 {
	r := rand.New(rand.NewPCG(seed, 0x5eedc4a71))
	k = min(k, n)
	perm := make([]uint32, n)
	for i := range perm {
		perm[i] = uint32(i)
	}
	for i := 0; i < k; i++ {
		j := i + r.IntN(n-i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	return perm[:k]
}

func readSeedFile(path string, g *graph.CSR) ([]uint32, error) {
	rc, err := openMaybeGzip(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w: %q is not a file, nor top-pagerank:K or random:K:SEED (%s)", ErrSeedSpec, path, SeedSpecHelp)
		}
		return nil, fmt.Errorf("sim: read seed file: %w", err)
	}
	defer rc.Close()
	n := g.N()
	var byURL map[string]uint32
	var ids []uint32
	sc := bufio.NewScanner(rc)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if id, err := strconv.ParseUint(t, 10, 32); err == nil {
			if id >= uint64(n) {
				return nil, fmt.Errorf("%w: %s:%d: node %d out of range 0..%d", ErrSeedSpec, path, line, id, n-1)
			}
			ids = append(ids, uint32(id))
			continue
		}
		if g.URLs == nil {
			return nil, fmt.Errorf("%w: %s:%d: %q is not a node id, and the graph has no URLs to look it up in", ErrSeedSpec, path, line, t)
		}
		if byURL == nil {
			byURL = make(map[string]uint32, n)
			for i, u := range g.URLs {
				if _, dup := byURL[u]; !dup {
					byURL[u] = uint32(i)
				}
			}
		}
		id, ok := byURL[t]
		if !ok {
			return nil, fmt.Errorf("%w: %s:%d: URL %q is not in the graph", ErrSeedSpec, path, line, t)
		}
		ids = append(ids, id)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("sim: read seed file %s: %w", path, err)
	}
	return ids, nil
}

// ReadHostsFile reads a host map for a graph of n nodes: n lines, line i the
// host name or the URL of node i (gzip if path ends in .gz). A URL's host is
// graph.HostOf(URL); a host name is lower-cased. So a dataset's .urls.gz file
// is a host map.
func ReadHostsFile(path string, n int) ([]uint32, error) {
	rc, err := openMaybeGzip(path)
	if err != nil {
		return nil, fmt.Errorf("sim: read host map: %w", err)
	}
	defer rc.Close()
	return ReadHosts(rc, path, n)
}

// ReadHosts reads a host map (see ReadHostsFile) from r; name is used in
// errors. Equal hosts get equal values.
func ReadHosts(r io.Reader, name string, n int) ([]uint32, error) {
	idx := map[string]uint32{}
	hosts := make([]uint32, 0, n)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if len(hosts) == n {
			return nil, fmt.Errorf("%w: %s:%d: more lines than the graph's %d nodes", ErrHosts, name, n+1, n)
		}
		t := strings.TrimSpace(sc.Text())
		var h string
		if strings.Contains(t, "://") {
			h = graph.HostOf(t)
		} else {
			h = strings.ToLower(t)
		}
		id, ok := idx[h]
		if !ok {
			id = uint32(len(idx))
			idx[h] = id
		}
		hosts = append(hosts, id)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %s:%d: %w", ErrHosts, name, len(hosts)+1, err)
	}
	if len(hosts) != n {
		return nil, fmt.Errorf("%w: %s: %d lines for %d nodes (want one host or URL per node)", ErrHosts, name, len(hosts), n)
	}
	return hosts, nil
}

type gzFile struct {
	*gzip.Reader
	f *os.File
}

func (g gzFile) Close() error {
	err := g.Reader.Close()
	if cerr := g.f.Close(); err == nil {
		err = cerr
	}
	return err
}

func openMaybeGzip(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: not gzip: %w", path, err)
	}
	return gzFile{zr, f}, nil
}
