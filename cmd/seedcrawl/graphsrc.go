package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/seedcrawl/seedcrawl/graph"
)

// graphFlagUsage and graphFormatUsage document --graph and --graph-format,
// the same for every command that reads a graph file.
const (
	graphFlagUsage = "graph `PATH`: a dataset BASENAME (BASENAME.arcs.tsv.gz [+ .urls.gz], ../shared/data format), " +
		"a BVGraph BASENAME (BASENAME.graph + .properties [+ .offsets], LAW WebGraph) or an edge-list file (SNAP style, .gz ok)"
	graphFormatUsage = "format of --graph: auto (tell by the files that exist), dataset, snap or bvgraph"
)

// stringFlagger is the part of a flag set graphFlags needs; the standard
// library's FlagSet and spf13/pflag's both provide it.
type stringFlagger interface {
	StringVar(p *string, name, value, usage string)
}

// graphFlags registers --graph and --graph-format on fs.
func graphFlags(fs stringFlagger) (path, format *string) {
	path, format = new(string), new(string)
	graphFlagsVar(fs, path, format)
	return path, format
}

// graphFlagsVar registers --graph and --graph-format on fs, storing their
// values in path and format.
func graphFlagsVar(fs stringFlagger, path, format *string) {
	fs.StringVar(path, "graph", "", graphFlagUsage)
	fs.StringVar(format, "graph-format", string(graph.FormatAuto), graphFormatUsage)
}

// loadGraphFormat returns the graph named by exactly one of --graph (a
// file in any format graph.ReadFile reads; format is --graph-format, "auto"
// to tell by the files that exist) or --db (a crawl database).
func loadGraphFormat(ctx context.Context, graphPath, format, dbPath string) (*graph.CSR, error) {
	switch {
	case graphPath != "" && dbPath != "":
		return nil, fmt.Errorf("%w: give --graph or --db, not both", errUsage)
	case graphPath != "":
		f, err := graph.ParseFormat(format)
		if err != nil {
			return nil, fmt.Errorf("%w: --graph-format: %w", errUsage, err)
		}
		g, err := graph.ReadFile(graphPath, f)
		if errors.Is(err, graph.ErrFormat) && f == graph.FormatAuto {
			if detected, _, derr := graph.DetectFormat(graphPath); derr == nil {
				err = fmt.Errorf("%w (read as %s; use --graph-format if that is wrong)", err, detected)
			}
		}
		return g, err
	case dbPath != "":
		return loadDBGraph(ctx, dbPath)
	default:
		return nil, fmt.Errorf("%w: give --graph BASENAME or --db FILE", errUsage)
	}
}
