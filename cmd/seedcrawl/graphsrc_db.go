package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/storage"
)

// openDBReadOnly opens a crawl database for reading, as every command that
// reads one does. It fails fast when the file does not exist rather than
// creating an empty one, and tells a user whose db a crawl holds to wait.
func openDBReadOnly(path string) (*storage.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open db: %w", err)
	}
	db, err := storage.Open(path, &storage.Options{ReadOnly: true})
	if errors.Is(err, storage.ErrLocked) {
		return nil, fmt.Errorf("open db %s: %w; a crawl holds it: wait for it to stop", path, err)
	}
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

// loadDBPageFlags reads, by node id, which pages of a crawl database were
// fetched and which had content new to the crawl, and which may be seeds:
// fetched, live HTML pages (a seed is a page to start crawling from, so
// never a redirect, an error, an image or a sitemap file). n is the
// graph's node count.
func loadDBPageFlags(dbPath string, n int) (fetched, novel, candidates []bool, err error) {
	db, err := openDBReadOnly(dbPath)
	if err != nil {
		return nil, nil, nil, err
	}
	defer db.Close()
	fetched, novel, err = db.NodeFlags()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read page flags from db %s: %w", dbPath, err)
	}
	candidates = make([]bool, n)
	err = db.EachPage(func(p *storage.Page) error {
		if p.ID < uint64(n) {
			candidates[p.ID] = p.Status.Fetched() && fetch.IsHTML(p.ContentType)
		}
		return nil
	})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read pages of db %s: %w", dbPath, err)
	}
	return fetched, novel, candidates, nil
}
