package main

import (
	"context"
	"fmt"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/storage"
)

// openDBReadOnly opens a crawl database for reading. It fails fast when the
// file does not exist rather than creating an empty one.
func openDBReadOnly(path string) (*storage.DB, error) {
	db, err := storage.Open(path, &storage.Options{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("open db %s: %w", path, err)
	}
	return db, nil
}

func loadDBGraph(ctx context.Context, dbPath string) (*graph.CSR, error) {
	db, err := openDBReadOnly(dbPath)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	g, err := graph.Load(db)
	if err != nil {
		return nil, fmt.Errorf("load graph from db %s: %w", dbPath, err)
	}
	return g, nil
}

func loadDBNodeFlags(ctx context.Context, dbPath string) (fetched, novel []bool, err error) {
	db, err := openDBReadOnly(dbPath)
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	fetched, novel, err = db.NodeFlags()
	if err != nil {
		return nil, nil, fmt.Errorf("read page flags from db %s: %w", dbPath, err)
	}
	return fetched, novel, nil
}
