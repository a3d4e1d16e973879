package config

import (
	"errors"
	"fmt"
)

var (
	// ErrUnknownKey marks a key in a configuration file (or a flag) that
	// names no setting.
	ErrUnknownKey = errors.New("unknown key")
	// ErrBadValue marks a value that does not parse or is out of range.
	ErrBadValue = errors.New("bad value")
	// ErrFormat marks a configuration file whose extension is neither YAML
	// nor TOML, whose content does not parse, or is not a flat map of keys.
	ErrFormat = errors.New("bad configuration file")
)

// KeyError is a problem with one setting. Key names it; the Origin fields
// say where its value came from, in the user's terms: a command-line flag
// (Flag), a positional argument (Arg), or a key of a configuration file
// (File, and Line when the decoder reported it; 0 otherwise). All empty: the
// value came from no known place (a Config built in code, or a default).
// Err wraps ErrUnknownKey or ErrBadValue and says what is wrong.
type KeyError struct {
	Origin
	Key string
	Err error
}

// Error names where the value came from, then what is wrong with it:
//
//	--workers: bad value: must be in 1..4096, got -1
//	config file crawl.yaml:3: workers: bad value: must be in 1..4096, got -1
//	SEED_URL argument: bad value: seed "ftp://a.test/": ...
//	max-backoff, left at its default: bad value: must be at least backoff (1h0m0s), got 10m0s
//	config: workers: bad value: ... (no origin)
func (e *KeyError) Error() string {
	switch {
	case e.Flag != "":
		return fmt.Sprintf("--%s: %v", e.Flag, e.Err)
	case e.Arg != "":
		return fmt.Sprintf("%s argument: %v", e.Arg, e.Err)
	case e.File != "" && e.Line > 0:
		return fmt.Sprintf("config file %s:%d: %s: %v", e.File, e.Line, e.Key, e.Err)
	case e.File != "":
		return fmt.Sprintf("config file %s: %s: %v", e.File, e.Key, e.Err)
	case e.Default:
		return fmt.Sprintf("%s, left at its default: %v", e.Key, e.Err)
	default:
		return fmt.Sprintf("config: %s: %v", e.Key, e.Err)
	}
}

// Unwrap returns the wrapped error.
func (e *KeyError) Unwrap() error { return e.Err }

func badValue(key string, format string, args ...any) error {
	return &KeyError{Key: key, Err: fmt.Errorf("%w: %s", ErrBadValue, fmt.Sprintf(format, args...))}
}

// Origin is where a setting's value came from, as a user would name it.
// At most one of Flag, Arg, File and Default is set.
type Origin struct {
	// Flag is the command-line flag, without dashes ("workers" for
	// --workers).
	Flag string
	// Arg is the placeholder of a positional argument ("SEED_URL").
	Arg string
	// File is a configuration file; Line the line of the key in it (0:
	// unknown).
	File string
	Line int
	// Default says that nothing set the value: it is the default, which
	// another setting makes wrong (max-backoff below a raised backoff).
	Default bool
}

// known reports whether o names a place.
func (o Origin) known() bool { return o.Flag != "" || o.Arg != "" || o.File != "" || o.Default }

// Origins maps setting keys to where their values came from: LoadOrigins
// fills it from a file, AddFlags from the flags set on a command line,
// AddDefaults the rest.
type Origins map[string]Origin

// AddDefaults records every setting o has no origin for as left at its
// default; call it after the file and the flags.
func (o Origins) AddDefaults() {
	for _, k := range Keys() {
		if _, ok := o[k]; !ok {
			o[k] = Origin{Default: true}
		}
	}
}

// Locate sets the Origin of every *KeyError in err (one, or several joined
// by errors.Join or wrapped by fmt.Errorf) that has none, from its Key; an
// error whose key has no origin keeps none. It returns err.
func (o Origins) Locate(err error) error {
	switch e := err.(type) {
	case nil:
	case *KeyError:
		if at, ok := o[e.Key]; ok && !e.known() {
			e.Origin = at
		}
	case interface{ Unwrap() []error }:
		for _, inner := range e.Unwrap() {
			o.Locate(inner)
		}
	case interface{ Unwrap() error }:
		o.Locate(e.Unwrap())
	}
	return err
}
