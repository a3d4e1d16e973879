package main

import (
	"context"
	"fmt"
	"io"

	"github.com/seedcrawl/seedcrawl/internal/version"
)

func runVersion(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fmt.Fprintln(stdout, "seedcrawl", version.Version)
	return nil
}
