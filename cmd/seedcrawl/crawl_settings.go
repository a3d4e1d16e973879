package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
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

// load returns the settings of the parsed flags; see loadSettings.
func (f *crawlFlags) load(fs *flag.FlagSet, noSeeds string) (config.Config, error) {
	return loadSettings(f.configPath, &f.cfg, fs, noSeeds)
}

// warnLogger is the logger of a crawling subcommand: warnings and errors,
// as text on w (stderr).
func warnLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// loadSettings is the one loader of the crawl settings, shared by every
// subcommand that crawls (crawl, run): the defaults, then the file at path
// (if any), then the flags that were set, then --seeds FILE and the
// positional arguments as seeds; the result is validated. With no seed at
// all, the db must exist (a crawl to resume), else the error is errUsage
// with noSeeds.
func loadSettings(path string, flagCfg *config.Config, fs *flag.FlagSet, noSeeds string) (config.Config, error) {
	cfg := config.Default()
	var fileErr error // the file's bad keys and values, reported with the other problems
	if path != "" {
		var err error
		if cfg, err = config.Load(path); err != nil {
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
	if err := config.Overlay(&cfg, flagCfg, config.SetKeys(fs)); err != nil {
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
	valErr := cfg.Validate()
	if path != "" && valErr != nil {
		// A value out of range that no flag set came from the file: say
		// which file (the defaults are valid).
		flagKeys := config.SetKeys(fs)
		for _, ke := range settingErrors(valErr) {
			if !slices.Contains(flagKeys, ke.Key) && ke.Key != "seeds" {
				ke.File = path
			}
		}
	}
	if err := joinSettingErrors(fileErr, valErr); err != nil {
		return cfg, fmt.Errorf("%w: %w", errUsage, err)
	}
	if len(cfg.Seeds) == 0 {
		if _, err := os.Stat(cfg.DB); errors.Is(err, os.ErrNotExist) {
			return cfg, fmt.Errorf("%w: %s", errUsage, noSeeds)
		}
	}
	return cfg, nil
}

// settingErrors returns the problems err holds when each names a setting
// (*config.KeyError: an unknown key, a value that does not parse), nil
// when err is of another kind (a file that is no flat map of settings).
func settingErrors(err error) []*config.KeyError {
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	var out []*config.KeyError
	for _, e := range errs {
		ke, ok := e.(*config.KeyError)
		if !ok || ke.Key == "" {
			return nil
		}
		out = append(out, ke)
	}
	return out
}

// joinSettingErrors returns the file's problems (fileErr), then the
// settings Validate refused (valErr) for keys the file's problems do not
// name, so that a file with a value that does not parse and another out of
// range reports both at once; nil when there are none.
func joinSettingErrors(fileErr, valErr error) error {
	if fileErr == nil {
		return valErr
	}
	named := map[string]bool{}
	for _, ke := range settingErrors(fileErr) {
		named[ke.Key] = true
	}
	errs := []error{fileErr}
	if valErr != nil {
		for _, ke := range settingErrors(valErr) {
			if !named[ke.Key] {
				errs = append(errs, ke)
			}
		}
	}
	return errors.Join(errs...)
}

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

// maxSeedErrors bounds the bad lines a seeds-file error lists.
const maxSeedErrors = 20

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
			why = fmt.Sprintf("want one URL per line, got %q", line)
		} else if _, err := urlnorm.Normalize(line); err != nil {
			why = err.Error()
		}
		if why != "" {
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
		return nil, fmt.Errorf("%w: seeds file %s has %d bad lines:\n%s%s", errUsage, name, nbad, strings.Join(bad, "\n"), more)
	}
	return out, nil
}
