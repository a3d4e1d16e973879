package sim

import (
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
)

// testData is a shared dataset with its PageRank, loaded once per test
// binary.
type testData struct {
	name string
	g    *graph.CSR
	pr   []float64
}

func loadData(name string) (*testData, error) {
	g, err := graph.ReadDataset(filepath.Join("..", "..", "shared", "data", name))
	if err != nil {
		return nil, err
	}
	pr, _ := graph.PageRank(g, graph.PageRankOptions{})
	return &testData{name: name, g: g, pr: pr}, nil
}

var datasets = map[string]func() (*testData, error){
	"epa":      sync.OnceValues(func() (*testData, error) { return loadData("epa") }),
	"hollins":  sync.OnceValues(func() (*testData, error) { return loadData("hollins") }),
	"cnr-2000": sync.OnceValues(func() (*testData, error) { return loadData("cnr-2000") }),
}

// dataset returns a shared dataset; a missing or unreadable file fails the
// test (the datasets live in ../shared/data beside the repository).
func dataset(tb testing.TB, name string) *testData {
	tb.Helper()
	d, err := datasets[name]()
	if err != nil {
		tb.Fatalf("dataset %s (expected in ../../shared/data relative to the package): %v", name, err)
	}
	return d
}

func topSeeds(tb testing.TB, d *testData, k int) []uint32 {
	tb.Helper()
	seeds, err := ParseSeeds("top-pagerank:"+strconv.Itoa(k), d.g, d.pr)
	if err != nil {
		tb.Fatal(err)
	}
	return seeds
}
