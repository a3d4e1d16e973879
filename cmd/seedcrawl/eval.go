package main

import (
	"context"
	"errors"
	"io"
)

// PLACEHOLDER: replaced by the owner of this subcommand.
func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("eval: not built yet")
}
