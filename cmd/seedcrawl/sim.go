package main

import (
	"context"
	"errors"
	"io"
)

// PLACEHOLDER: replaced by the owner of this subcommand.
func runSim(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("sim: not built yet")
}
