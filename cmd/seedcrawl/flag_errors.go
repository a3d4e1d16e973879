package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
)

// flagValueErrors makes a flag whose value does not parse a
// *config.KeyError naming the flag as typed (--delay), the value and what
// a good value looks like, in place of the flag package's
// `invalid value "5" for flag -delay: parse error`. It wraps the values of
// fs until restore is called (before fs prints its defaults, which look at
// the values' types); *first is the first such error of a Parse.
func flagValueErrors(fs *flag.FlagSet, first *error) (restore func()) {
	var wrapped []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		r := recordedValue{Value: f.Value, name: f.Name, first: first}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			f.Value = recordedBool{r}
		} else {
			f.Value = r
		}
		wrapped = append(wrapped, f)
	})
	return func() {
		for _, f := range wrapped {
			switch v := f.Value.(type) {
			case recordedValue:
				f.Value = v.Value
			case recordedBool:
				f.Value = v.Value
			}
		}
	}
}

// recordedValue is a flag.Value that keeps its first Set error.
type recordedValue struct {
	flag.Value
	name  string
	first *error
}

func (v recordedValue) Set(s string) error {
	err := v.Value.Set(s)
	if err != nil && *v.first == nil {
		key, ok := config.FlagKey(v.name)
		if !ok {
			key = v.name // a command's own flag
		}
		*v.first = &config.KeyError{Origin: config.Origin{Flag: v.name}, Key: key,
			Err: fmt.Errorf("%w: %w", config.ErrBadValue, flagValueError(v.Value, s, err))}
	}
	return err
}

// recordedBool is a recordedValue of a boolean flag (--json, not --json
// true).
type recordedBool struct{ recordedValue }

func (recordedBool) IsBoolFlag() bool { return true }

// flagValueError says what is wrong with s for the flag value v, whose
// Set returned err: the flag package's own values say only "parse error"
// or "value out of range", so for them it says what a good value is; the
// values of package config say it already.
func flagValueError(v flag.Value, s string, err error) error {
	g, ok := v.(flag.Getter)
	if !ok {
		return err
	}
	t := strings.TrimSpace(s)
	switch g.Get().(type) {
	case time.Duration:
		return fmt.Errorf("%q is not a duration like 500ms, 1s or 24h", s)
	case bool:
		return fmt.Errorf("%q is not true or false", s)
	case float64:
		return fmt.Errorf("%q is not a number", s)
	case int, int64:
		if _, perr := strconv.ParseInt(t, 0, 64); errors.Is(perr, strconv.ErrRange) {
			return fmt.Errorf("%q is out of range", s)
		}
		return fmt.Errorf("%q is not an integer", s)
	case uint, uint64:
		if _, perr := strconv.ParseUint(t, 0, 64); errors.Is(perr, strconv.ErrRange) {
			return fmt.Errorf("%q is out of range", s)
		}
		return fmt.Errorf("%q is not a whole number (0 or more)", s)
	}
	return err
}

// unknownFlagHint adds to the flag package's error for an unknown flag
// the flag of fs its name most likely meant: --worker, did you mean
// --workers? Other errors are returned as they are.
func unknownFlagHint(fs *flag.FlagSet, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return err
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if near := config.Nearest(strings.TrimLeft(name, "-"), names); near != "" {
		return fmt.Errorf("%w; did you mean --%s?", err, near)
	}
	return err
}
