package graph

import (
	"fmt"
	"os"
	"strings"
)

// Format names a graph file format ReadFile understands.
type Format string

// The formats ReadFile reads. FormatAuto tells them apart by the files
// that exist (see DetectFormat).
const (
	FormatAuto    Format = "auto"
	FormatDataset Format = "dataset" // BASENAME.arcs.tsv.gz [+ BASENAME.urls.gz], ReadDataset
	FormatSNAP    Format = "snap"    // one edge-list file, plain or gzip, ReadSNAPFile
	FormatBVGraph Format = "bvgraph" // BASENAME.graph + .properties [+ .offsets], ReadBVGraph
)

// Formats lists the formats ReadFile accepts, FormatAuto first.
func Formats() []Format { return []Format{FormatAuto, FormatDataset, FormatSNAP, FormatBVGraph} }

// ParseFormat returns the Format named s ("" means FormatAuto).
func ParseFormat(s string) (Format, error) {
	if s == "" {
		return FormatAuto, nil
	}
	for _, f := range Formats() {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("%w: %q (want auto, dataset, snap or bvgraph)", ErrUnknownFormat, s)
}

// DetectFormat says which format path names, and the basename or file to
// read it from:
//
//   - path.arcs.tsv.gz exists, or path ends in ".arcs.tsv.gz": dataset;
//   - path.graph and path.properties exist, or path ends in ".graph",
//     ".properties" or ".offsets" and those two exist beside it: BVGraph;
//   - path is a regular file: a SNAP-style edge list.
//
// The dataset is tried first because its basename is never a file itself.
// When nothing matches, the error wraps os.ErrNotExist and says what was
// looked for.
func DetectFormat(path string) (Format, string, error) {
	if base, ok := strings.CutSuffix(path, ".arcs.tsv.gz"); ok {
		return FormatDataset, base, nil
	}
	if isFile(path + ".arcs.tsv.gz") {
		return FormatDataset, path, nil
	}
	if IsBVGraph(path) {
		return FormatBVGraph, path, nil
	}
	for _, ext := range []string{".graph", ".properties", ".offsets"} {
		if base, ok := strings.CutSuffix(path, ext); ok && IsBVGraph(base) {
			return FormatBVGraph, base, nil
		}
	}
	if isFile(path) {
		return FormatSNAP, path, nil
	}
	return "", "", fmt.Errorf("graph: %s: no %s.arcs.tsv.gz (dataset), no %s.graph with .properties (BVGraph), and no edge-list file of that name: %w",
		path, path, path, os.ErrNotExist)
}

func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// ReadFile reads the graph at path in format f, detecting it first when f
// is FormatAuto (see DetectFormat). With an explicit format, path is the
// basename (dataset, BVGraph) or the file (SNAP) that format reads.
func ReadFile(path string, f Format) (*CSR, error) {
	if f == FormatAuto || f == "" {
		var err error
		if f, path, err = DetectFormat(path); err != nil {
			return nil, err
		}
	}
	switch f {
	case FormatDataset:
		return ReadDataset(path)
	case FormatSNAP:
		return ReadSNAPFile(path)
	case FormatBVGraph:
		return ReadBVGraph(path)
	}
	return nil, fmt.Errorf("%w: %q (want auto, dataset, snap or bvgraph)", ErrUnknownFormat, f)
}
