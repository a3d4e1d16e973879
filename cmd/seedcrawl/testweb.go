package main

import (
	"context"
	"errors"
	"io"
)

// PLACEHOLDER: replaced by the owner of this subcommand.
func runTestweb(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("testweb: not built yet")
}
