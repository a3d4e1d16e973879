package main

import (
	"context"
	"errors"
	"io"
)

// PLACEHOLDER: replaced by the owner of this subcommand.
func runSeeds(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("seeds: not built yet")
}
