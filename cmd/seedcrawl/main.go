// Command seedcrawl is a polite web crawler whose frontier is ordered by
// pluggable schedulers (FPR, FPR@M, BFS, OPIC, ...) and which learns its own
// seeds from the link graph it stores. See README.md for the subcommands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"maps"
	"os"
	"os/signal"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/seedcrawl/seedcrawl/cluster"
	"github.com/seedcrawl/seedcrawl/config"
)

// command is one subcommand: it parses its own flags from args and writes
// results to stdout, progress and logs to stderr.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func commands() map[string]command {
	return map[string]command{
		"crawl":   {"crawl from seed URLs into a bbolt file", runCrawl},
		"compare": {"compare crawl schedulers on the live web at the cost of one crawl", runCompare},
		"score":   {"score the fetch order of a crawl db on its own graph", runScore},
		"demo":    {"start the built-in test web in-process, crawl it, print the summary", runDemo},
		"stats":   {"print what a crawl db holds", runStats},
		"export":  {"export pages, links or the graph of a crawl db", runExport},
		"testweb": {"serve a deterministic multi-host test web on loopback", runTestweb},
		"sim":     {"replay crawl schedulers on a known graph and score them", runSim},
		"rank":    {"compute PageRank or HITS of a graph", runRank},
		"seeds":   {"select crawl seeds from a stored or given graph", runSeeds},
		"eval":    {"evaluate seed selectors (eval seeds) and recrawl cycles on a test web (eval recrawl)", runEval},
		"run":     {"incremental crawl cycles with reseeding", runCycles},
		"version": {"print the version", runVersion},
		"node":    {"crawl the hosts one node of a cluster owns (NATS JetStream)", runNode},
		"cluster": {"start NATS and K node processes on this machine, crawl, merge", runCluster},
		"merge":   {"merge node dbs into one db for rank, seeds, sim, compare and score", runMerge},
	}
}

// errUsage marks errors caused by bad command-line input (exit code 2).
var errUsage = errors.New("usage")

func main() {
	cluster.StopProcessSampler()
	log.SetFlags(0)
	log.SetOutput(newLibraryLog(os.Stderr))
	ctx, stop := stopOnSignal(context.Background(), os.Stderr, os.Interrupt, syscall.SIGTERM)
	stopProfile := startCPUProfile(os.Stderr)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stopProfile()
	stop()
	os.Exit(code)
}

// stopOnSignal returns a context that the first of sigs cancels, saying so
// on stderr; from then on the default action applies, so a second signal
// ends the process at once (the db stays consistent: every commit is
// atomic). stop releases the signals and waits for the watcher, which
// says nothing unless a signal came: a command that ends by itself must
// not print "stopping".
func stopOnSignal(parent context.Context, stderr io.Writer, sigs ...os.Signal) (ctx context.Context, stop func()) {
	ctx, release := signal.NotifyContext(parent, sigs...)
	done := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-ctx.Done():
			release()
		case <-done:
		}
		// Until release, only a signal (or the parent) cancels ctx.
		if ctx.Err() != nil && parent.Err() == nil {
			fmt.Fprintln(stderr, "seedcrawl: stopping; signal again to quit at once")
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			close(done)
			<-watched
			release()
		})
	}
}

// isHelpWord reports whether arg asks for help: `help help` and
// `help -h` are `help`.
func isHelpWord(arg string) bool {
	return arg == "help" || arg == "-h" || arg == "--help" || arg == "-help"
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 {
		usage(stderr, cmds)
		return 2
	}
	if isHelpWord(args[0]) {
		// Help asked for is the result: stdout, exit 0, so that
		// `seedcrawl help | less` pages it. `help CMD` is `CMD -h`, an
		// unknown CMD the same usage error.
		if args[0] == "help" && len(args) > 1 && !isHelpWord(args[1]) {
			if _, ok := cmds[args[1]]; !ok {
				return unknownCommand(stderr, args[1], cmds)
			}
			return run(ctx, append(append([]string{}, args[1:]...), "-h"), stdout, stderr)
		}
		usage(stdout, cmds)
		return 0
	}
	if args[0] == "--version" || args[0] == "-version" {
		args = []string{"version"}
	}
	c, ok := cmds[args[0]]
	if !ok {
		return unknownCommand(stderr, args[0], cmds)
	}
	err := c.run(ctx, args[1:], stdout, helpTo{Writer: stderr, help: stdout})
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "seedcrawl %s: %v\n", args[0], err)
		return 2
	default:
		fmt.Fprintf(stderr, "seedcrawl %s: %v\n", args[0], err)
		return 1
	}
}

// unknownCommand says on stderr that name is no command, suggesting the
// nearest, and returns the exit code of a usage error.
func unknownCommand(stderr io.Writer, name string, cmds map[string]command) int {
	fmt.Fprintf(stderr, "seedcrawl: unknown command %q%s\n", name, nearCommand(name, cmds))
	fmt.Fprintf(stderr, "run 'seedcrawl help' for the list of commands\n")
	return 2
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: seedcrawl <command> [flags] [args]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'seedcrawl <command> -h' (or 'seedcrawl help <command>') for a command's flags.")
}

// helpTo is the stderr a command gets: its messages go to Writer, while
// help asked for with -h or --help goes to help (stdout), as the result of
// the command, so that `seedcrawl crawl --help | less` pages it. A usage
// error stays on stderr.
type helpTo struct {
	io.Writer
	help io.Writer
}

// helpOutput returns where fs prints help asked for: stdout when the
// command got it through helpTo, else fs's own output.
func helpOutput(out io.Writer) io.Writer {
	if h, ok := out.(helpTo); ok {
		return h.help
	}
	return out
}

// newFlagSet returns a FlagSet that reports errors instead of exiting.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("seedcrawl "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses args and wraps a parse failure in errUsage. Flags may
// follow positional arguments (`crawl URL --max-pages 5`), as with GNU
// getopt and spf13/pflag, while every flag keeps its name and both -flag and
// --flag forms keep working: the arguments are put in order (flags first)
// before the standard library parses them. "--" ends the flags.
//
// A malformed flag is one short error that points to -h: the flag package
// would print the whole flag list after it (over a hundred lines for crawl,
// the error scrolled out of sight); -h and --help still print the list.
func parseFlags(fs *flag.FlagSet, args []string) error {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	ordered := flagsFirst(fs, args)
	var badValue error
	restore := flagValueErrors(fs, &badValue)
	err := fs.Parse(ordered)
	restore()
	fs.SetOutput(out)
	fs.Usage = usage
	switch {
	case err == nil:
		return nil
	case badValue != nil:
		err = badValue // names the flag as typed (--delay) and a good value
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(helpOutput(out))
		if usage == nil {
			fs.PrintDefaults()
		} else {
			usage()
		}
		fs.SetOutput(out)
		return err
	default:
		err = unknownFlagHint(fs, err)
	}
	return fmt.Errorf("%w: %w (%s -h lists the flags)", errUsage, err, fs.Name())
}

// flagsFirst returns args with every flag (and the value of a flag that
// takes one) moved before the positional arguments, which keep their order
// after a "--". An unknown flag is left for Parse to report.
func flagsFirst(fs *flag.FlagSet, args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		if i+1 == len(args) {
			// The value is missing: left last, without the positional
			// arguments, for Parse to say so (not to take "--" as the value).
			return flags
		}
		i++
		flags = append(flags, args[i])
	}
	if len(pos) == 0 {
		return flags
	}
	return append(append(flags, "--"), pos...)
}

// nearCommand suggests the command name was most likely meant
// ("; did you mean crawl?", as flags get), or "" when none is close.
func nearCommand(name string, cmds map[string]command) string {
	if near := config.Nearest(name, slices.Sorted(maps.Keys(cmds))); near != "" {
		return "; did you mean " + near + "?"
	}
	return ""
}
