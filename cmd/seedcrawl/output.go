package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/seedcrawl/seedcrawl/chart"
	"github.com/seedcrawl/seedcrawl/storage"
)

// Helpers shared by the subcommands (sim, seeds, eval, rank, stats, export,
// demo, testweb): flag parsing for commands without arguments, list flags,
// and result files that are opened before the work and replaced only when
// complete.

// parseFlagsUsage parses args with parseFlags after installing usage, the
// text -h prints above the flag list, as fs.Usage.
func parseFlagsUsage(fs *flag.FlagSet, args []string, usage string) error {
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	return parseFlags(fs, args)
}

// parseFlagsOnly parses args for a subcommand that takes flags and no
// arguments; -h prints usage, then "flags:" and the flag list.
func parseFlagsOnly(fs *flag.FlagSet, args []string, usage string) error {
	if err := parseFlagsUsage(fs, args, usage+"\nflags:\n"); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	return nil
}

// writeJSON writes v to w as indented JSON: what --json prints.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

// splitList splits a comma-separated flag value (--schedulers, --algos,
// ...), trimming spaces and dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// checkPlotPath rejects a --plot file whose extension names no format
// gonum can write, before any work is done; "" (no plot) passes. Shared by
// sim, compare and eval.
func checkPlotPath(path string) error {
	if path == "" {
		return nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg", ".png", ".pdf":
		return nil
	}
	return fmt.Errorf("%w: --plot %s: name a .svg or .png file (or .pdf)", errUsage, path)
}

// checkDamping rejects a --damping outside (0, 1), where PageRank and the
// schedulers built on it are undefined. Shared by compare, rank, score and
// sim.
func checkDamping(d float64) error {
	if !(d > 0 && d < 1) {
		return fmt.Errorf("%w: --damping %v: want a value in (0, 1), e.g. 0.85", errUsage, d)
	}
	return nil
}

// output is a result file of sim, seeds or eval (--out, --csv, --plot). It
// is opened before the work that fills it, as a temporary file beside the
// destination, so that an unwritable path fails at once rather than after a
// long simulation, and renamed into place only when complete, so a failed
// run leaves an earlier result file as it was.
type output struct {
	flag, path string
	tmp        *os.File
}

// createOutput opens the output for path; "" gives a nil *output, on which
// write and discard do nothing.
func createOutput(flagName, path string) (*output, error) {
	if path == "" {
		return nil, nil
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%w: %s %s: is a directory; name a file", errUsage, flagName, path)
	}
	if err := refuseDatabase(flagName, path); err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("%s %s: cannot create a file in %s: %w; pick a writable path", flagName, path, dir, err)
	}
	return &output{flag: flagName, path: path, tmp: tmp}, nil
}

// refuseDatabase refuses an output path that holds a database: an --out
// given the --db path by a slip of the keyboard would replace the crawl
// with a CSV, or truncate it under the open db (export). Any other file
// may be overwritten, as ever.
func refuseDatabase(flagName, path string) error {
	if !storage.IsDatabase(path) {
		return nil
	}
	return fmt.Errorf("%w: %s %s: is a seedcrawl database, not overwritten; name another file", errUsage, flagName, path)
}

// write fills the output with fn and moves it into place; on failure the
// temporary file is removed and the destination left alone.
func (o *output) write(fn func(io.Writer) error) error {
	if o == nil || o.tmp == nil {
		return nil
	}
	tmp := o.tmp
	o.tmp = nil
	err := fn(tmp)
	if err == nil {
		err = tmp.Chmod(0o644) // CreateTemp makes it 0600
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), o.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("%s: write %s: %w", o.flag, o.path, err)
	}
	return nil
}

// writeFigure renders fig into the output in the format its file's
// extension names (checked by checkPlotPath), and moves it into place.
func (o *output) writeFigure(fig *chart.Figure) error {
	if o == nil {
		return nil
	}
	format := strings.TrimPrefix(filepath.Ext(o.path), ".")
	return o.write(func(w io.Writer) error { return fig.Render(w, format) })
}

// discard removes an output that will not be written (the run failed).
func (o *output) discard() {
	if o == nil || o.tmp == nil {
		return
	}
	o.tmp.Close()
	os.Remove(o.tmp.Name())
	o.tmp = nil
}

// results are the table (CSV) and plot files of an evaluation, opened
// together before the work that fills them.
type results struct{ table, plot *output }

// createResults opens the table file given by tableFlag (--out or --csv)
// and the --plot file; an empty path gives a nil output.
func createResults(tableFlag, tablePath, plotPath string) (results, error) {
	table, err := createOutput(tableFlag, tablePath)
	if err != nil {
		return results{}, err
	}
	plot, err := createOutput("--plot", plotPath)
	if err != nil {
		table.discard()
		return results{}, err
	}
	return results{table, plot}, nil
}

// discard removes the files that were not written.
func (r results) discard() {
	r.table.discard()
	r.plot.discard()
}
