package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/seedcrawl/seedcrawl/internal/version"
)

func runVersion(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fmt.Fprintln(stdout, "seedcrawl", version.Version, buildInfo())
	return nil
}

// buildInfo says what the binary was built from: the Go version, and the
// VCS revision when the build recorded one.
func buildInfo() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	out := bi.GoVersion
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			out += " " + s.Value[:12]
		}
	}
	return out
}
