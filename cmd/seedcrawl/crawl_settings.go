package main

import (
	"bufio"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// crawlFlags are the flags every subcommand that crawls shares: the crawl
// settings, --config and --progress.
type crawlFlags struct {
	cfg        config.Config // the settings as the flags set them
	configPath string
	progress   time.Duration
}

func registerCrawlFlags(fs *flag.FlagSet) *crawlFlags {
	f := &crawlFlags{cfg: config.Default()}
	f.cfg.RegisterFlags(fs)
	fs.StringVar(&f.configPath, "config", "", "read settings from `FILE` (.yaml, .yml or .toml); flags override it")
	fs.DurationVar(&f.progress, "progress", 2*time.Second, "print a progress line to stderr every `DURATION` (0: never)")
	return f
}

// load returns the settings of the parsed flags; see loadSettings. With no
// seed at all, the db must exist (a crawl to resume), else the error is
// errUsage with noSeeds.
func (f *crawlFlags) load(fs *flag.FlagSet, noSeeds string) (config.Config, error) {
	cfg, err := f.settings(fs)
	if err != nil {
		return cfg, err
	}
	if len(cfg.Seeds) == 0 {
		if _, err := os.Stat(cfg.DB); errors.Is(err, os.ErrNotExist) {
			return cfg, fmt.Errorf("%w: %s", errUsage, noSeeds)
		}
	}
	return cfg, nil
}

// settings returns the settings of the parsed flags, checked, with the
// seeds they name; see loadSettings. A bad value is errUsage.
func (f *crawlFlags) settings(fs *flag.FlagSet) (config.Config, error) {
	var extra []error
	if f.progress < 0 {
		extra = append(extra, &config.KeyError{Origin: config.Origin{Flag: "progress"}, Key: "progress",
			Err: fmt.Errorf("%w: must be 0 (never) or more, got %v", config.ErrBadValue, f.progress)})
	}
	return loadSettings(f.configPath, &f.cfg, fs, extra...)
}

// textLogger is a subcommand's logger: records from level up, as text on
// w (stderr).
func textLogger(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

// warnLogger is the logger of a crawling subcommand: warnings and errors.
func warnLogger(w io.Writer) *slog.Logger { return textLogger(w, slog.LevelWarn) }

// progressLogger is the logger of sim and rank: their progress (info) on
// stderr, nothing with -q.
func progressLogger(stderr io.Writer, quiet bool) *slog.Logger {
	if quiet {
		stderr = io.Discard
	}
	return textLogger(stderr, slog.LevelInfo)
}

// seedArg is the placeholder of the positional arguments in the usage of
// the commands that crawl.
const seedArg = "SEED_URL"

// loadSettings is the one loader of the crawl settings, shared by every
// subcommand that crawls (crawl, run, compare, node, cluster): the
// defaults, then the file at path (if any), then the flags that were set,
// then --seeds FILE and the positional arguments as seeds. The result is
// checked: Validate, then what config cannot check without the packages
// that use the value (the scheduler name, the CA and resolve files). Every
// problem is reported at once, with extra (the command's own flags), each
// naming where its value came from in the user's terms: the flag
// (--workers), the file's key and line (workers in crawl.yaml:3) or the
// seed argument; the error is errUsage.
func loadSettings(path string, flagCfg *config.Config, fs *flag.FlagSet, extra ...error) (config.Config, error) {
	cfg := config.Default()
	origins := config.Origins{}
	var fileErr error // the file's bad keys and values, reported with the other problems
	if path != "" {
		var err error
		if cfg, origins, err = config.LoadOrigins(path); err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				return cfg, err // a file that cannot be read is not a usage error
			}
			if settingErrors(err) == nil {
				return cfg, fmt.Errorf("%w: %w", errUsage, err) // not a flat map of settings
			}
			fileErr = err
		}
	}
	origins.AddFlags(fs)
	origins.AddDefaults()
	if err := config.Overlay(&cfg, flagCfg, config.SetKeys(fs)); err != nil {
		return cfg, fmt.Errorf("%w: %w", errUsage, err)
	}
	// The seeds of the file (key seeds) are checked by Validate; those of
	// --seeds FILE when it is read, and the positional ones apart, so that
	// each error names where its seed came from.
	if err := readableFiles(cfg); err != nil {
		return cfg, err // a file that cannot be read is not a usage error
	}
	valErr := cfg.Validate()
	argSeeds := config.Default()
	argSeeds.Seeds = fs.Args()
	argErr := config.Origins{"seeds": {Arg: seedArg}}.Locate(argSeeds.Validate()) // the defaults are valid: seed errors only
	checks := append([]error{valErr, argErr, checkScheduler(cfg.Scheduler), checkFiles(cfg)}, extra...)
	if err := joinSettingErrors(fileErr, origins.Locate(errors.Join(checks...))); err != nil {
		return cfg, fmt.Errorf("%w: %w", errUsage, err)
	}
	if cfg.SeedsFile != "" {
		seeds, err := crawlReadSeedsFile(cfg.SeedsFile)
		if err != nil {
			return cfg, err
		}
		cfg.Seeds = append(cfg.Seeds, seeds...)
	}
	cfg.Seeds = append(cfg.Seeds, fs.Args()...)
	return cfg, nil
}

// checkScheduler checks a scheduler name as a crawl builds it (config
// cannot: it imports no crawl package).
func checkScheduler(name string) error {
	_, err := scheduler.ByName(name, scheduler.Options{})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, scheduler.ErrNoTruth):
		err = fmt.Errorf("%q ranks by the true graph, which only a simulation knows (seedcrawl sim); a crawl takes one of %s",
			name, strings.Join(crawlSchedulerNames(), ", "))
	case errors.Is(err, scheduler.ErrUnknown):
		err = fmt.Errorf("unknown scheduler %q: want one of %s", name, strings.Join(crawlSchedulerNames(), ", "))
	}
	return &config.KeyError{Key: "scheduler", Err: fmt.Errorf("%w: %w", config.ErrBadValue, err)}
}

// crawlSchedulerNames are the scheduler names a crawl takes: all but
// omniscient, which needs the true graph of a simulation.
func crawlSchedulerNames() []string {
	return slices.DeleteFunc(scheduler.Names(), func(n string) bool { return n == "omniscient" })
}

// readableFiles returns the error of the first file setting (--ca-file,
// --resolve-file) that cannot be opened, as a file the commands read
// (exit 1, like --config or --seeds); what a readable file holds is
// checked with the other settings (checkFiles).
func readableFiles(cfg config.Config) error {
	for _, f := range []struct{ key, path string }{{"ca-file", cfg.CAFile}, {"resolve-file", cfg.ResolveFile}} {
		if f.path == "" {
			continue
		}
		fh, err := os.Open(f.path)
		if err != nil {
			return fmt.Errorf("read --%s: %w", f.key, err)
		}
		fh.Close()
	}
	return nil
}

// checkFiles reads the files the settings name that config does not read
// (the CA certificates, the resolve file), before any db is made, so that
// a bad one creates none and is reported with the other problems.
func checkFiles(cfg config.Config) error {
	var errs []error
	if cfg.CAFile != "" {
		if err := fetch.CheckCAFile(cfg.CAFile); err != nil {
			errs = append(errs, &config.KeyError{Key: "ca-file", Err: fmt.Errorf("%w: %w", config.ErrBadValue, err)})
		}
	}
	if cfg.ResolveFile != "" {
		if _, err := fetch.LoadResolveFile(cfg.ResolveFile); err != nil {
			errs = append(errs, &config.KeyError{Key: "resolve-file", Err: fmt.Errorf("%w: %w", config.ErrBadValue, err)})
		}
	}
	return errors.Join(errs...)
}

// settingErrors returns the problems err holds when each names a setting
// (*config.KeyError: an unknown key, a value that does not parse), nil
// when err is of another kind (a file that is no flat map of settings).
func settingErrors(err error) []*config.KeyError {
	if ke, ok := err.(*config.KeyError); ok && ke.Key != "" {
		return []*config.KeyError{ke}
	}
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return nil
	}
	var out []*config.KeyError
	for _, e := range j.Unwrap() { // errors.Join, maybe of joins
		in := settingErrors(e)
		if in == nil {
			return nil
		}
		out = append(out, in...)
	}
	return out
}

// joinSettingErrors returns the file's problems (fileErr), then the
// other problems (valErr) for keys the file's problems do not name, so
// that a file with a value that does not parse and another out of range
// reports both at once; nil when there are none. Several are a
// badSettings, in the order a user fixes them: flags and arguments first,
// then the file's keys by line.
func joinSettingErrors(fileErr, valErr error) error {
	all := settingErrors(fileErr)
	named := map[string]bool{}
	for _, ke := range all {
		named[ke.Key] = true
	}
	others := settingErrors(valErr)
	if valErr != nil && others == nil {
		return errors.Join(fileErr, valErr) // not only settings: as they are
	}
	for _, ke := range others {
		if !named[ke.Key] {
			all = append(all, ke)
		}
	}
	slices.SortStableFunc(all, func(a, b *config.KeyError) int {
		return cmp.Compare(fileOrder(a), fileOrder(b))
	})
	switch len(all) {
	case 0:
		return nil
	case 1:
		return all[0]
	}
	bad := make(badSettings, len(all))
	for i, ke := range all {
		bad[i] = ke
	}
	return bad
}

// fileOrder orders a problem: a flag's or an argument's first (0), then a
// file's by line (a line the decoder did not report: last).
func fileOrder(ke *config.KeyError) int {
	switch {
	case ke.File == "":
		return 0
	case ke.Line > 0:
		return ke.Line
	}
	return math.MaxInt
}

// badSettings is several problems with the settings, each a
// *config.KeyError: its message counts them and lists one a line.
type badSettings []error

func (b badSettings) Error() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d bad settings:", len(b))
	for _, e := range b {
		sb.WriteString("\n  ")
		sb.WriteString(e.Error())
	}
	return sb.String()
}

// Unwrap returns the problems, for errors.Is and errors.As.
func (b badSettings) Unwrap() []error { return b }

// crawlReadSeedsFile reads a seeds file: one URL per line, '#' starts a
// comment, a UTF-8 byte-order mark and CRLF line ends are accepted. A file
// with bad lines is refused with every bad line listed (up to
// maxSeedErrors), not only the first, so one edit fixes them all.
func crawlReadSeedsFile(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read seeds: %w", err)
	}
	defer f.Close()
	return parseSeeds(f, path)
}

// maxSeedErrors bounds the bad lines a seeds-file error lists, and
// maxSeedErrorLen the bytes it says of each.
const (
	maxSeedErrors   = 20
	maxSeedErrorLen = 300
)

// parseSeeds parses a seeds file's content; name is used in errors.
func parseSeeds(r io.Reader, name string) ([]string, error) {
	var out []string
	var bad []string
	nbad := 0
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if n == 1 {
			line = strings.TrimPrefix(line, "\uFEFF")
		}
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		var why string
		if strings.ContainsAny(line, " \t") {
			why = fmt.Sprintf("want one URL per line, got %q", urlnorm.RedactUserinfo(line))
		} else if err := config.CheckSeed(line); err != nil {
			why = err.Error()
		} else if u, err := urlnorm.NormalizeSeed(line); err != nil {
			why = err.Error()
		} else if len(u) > storage.MaxURLLen {
			why = fmt.Sprintf("URL of %d bytes: a crawl db holds URLs of at most %d", len(u), storage.MaxURLLen)
		}
		if why != "" {
			// A line of garbage may be a megabyte, quoted in why: the
			// list names each line, its start is enough.
			if len(why) > maxSeedErrorLen {
				why = why[:maxSeedErrorLen] + "…"
			}
			if nbad++; nbad <= maxSeedErrors {
				bad = append(bad, fmt.Sprintf("  %s:%d: %s", name, n, why))
			}
			continue
		}
		out = append(out, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read seeds file %s: %w", name, err)
	}
	if nbad > 0 {
		more := ""
		if nbad > len(bad) {
			more = fmt.Sprintf("\n  ... and %d more", nbad-len(bad))
		}
		lines := "lines"
		if nbad == 1 {
			lines = "line"
		}
		return nil, fmt.Errorf("%w: seeds file %s has %d bad %s:\n%s%s", errUsage, name, nbad, lines, strings.Join(bad, "\n"), more)
	}
	return out, nil
}
