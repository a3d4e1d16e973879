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

// KeyError is a problem with one setting. Key names it; File and Line locate
// it when it came from a file (Line is 0 when the decoder did not report it).
// Err wraps ErrUnknownKey or ErrBadValue and says what is wrong.
type KeyError struct {
	File string
	Line int
	Key  string
	Err  error
}

// Error formats the problem as "config: FILE:LINE: KEY: what is wrong".
func (e *KeyError) Error() string {
	switch {
	case e.File != "" && e.Line > 0:
		return fmt.Sprintf("config: %s:%d: %s: %v", e.File, e.Line, e.Key, e.Err)
	case e.File != "":
		return fmt.Sprintf("config: %s: %s: %v", e.File, e.Key, e.Err)
	default:
		return fmt.Sprintf("config: %s: %v", e.Key, e.Err)
	}
}

// Unwrap returns the wrapped error.
func (e *KeyError) Unwrap() error { return e.Err }

func badValue(key string, format string, args ...any) error {
	return &KeyError{Key: key, Err: fmt.Errorf("%w: %s", ErrBadValue, fmt.Sprintf(format, args...))}
}
