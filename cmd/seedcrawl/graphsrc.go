package main

import (
	"context"
	"fmt"

	"github.com/seedcrawl/seedcrawl/graph"
)

// loadGraph returns the graph named by exactly one of --graph (a dataset
// basename in the ../shared/data format) or --db (a crawl database).
func loadGraph(ctx context.Context, graphBase, dbPath string) (*graph.CSR, error) {
	switch {
	case graphBase != "" && dbPath != "":
		return nil, fmt.Errorf("%w: give --graph or --db, not both", errUsage)
	case graphBase != "":
		return graph.ReadDataset(graphBase)
	case dbPath != "":
		return loadDBGraph(ctx, dbPath)
	default:
		return nil, fmt.Errorf("%w: give --graph BASENAME or --db FILE", errUsage)
	}
}

// loadNodeFlags returns, for a crawl database, which pages were fetched and
// which had content new to the crawl, indexed by node id.
func loadNodeFlags(ctx context.Context, dbPath string) (fetched, novel []bool, err error) {
	return loadDBNodeFlags(ctx, dbPath)
}
