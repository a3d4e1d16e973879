package config

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"
)

// Load reads a configuration file over the defaults: YAML for .yaml and
// .yml, TOML for .toml. The file is a flat map of setting keys (see Keys).
// An unknown key or a bad value is a *KeyError naming the key and, where the
// decoder reports it, the file's line; a file with several is reported
// whole, its *KeyErrors joined (errors.Join) in the order of the file. The
// result is not validated: apply flags with Overlay, then call Validate.
func Load(path string) (Config, error) {
	c, _, err := LoadOrigins(path)
	return c, err
}

// LoadOrigins is Load that also returns where the file sets each key (its
// file and line), so that an error Validate finds later in a value of the
// file can name them (Origins.Locate).
func LoadOrigins(path string) (Config, Origins, error) {
	c := Default()
	data, err := os.ReadFile(path)
	if err != nil {
		return c, nil, fmt.Errorf("config: read %s: %w", path, err)
	}
	var o Origins
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		o, err = c.loadYAML(path, data)
	case ".toml":
		o, err = c.loadTOML(path, data)
	default:
		return c, nil, fmt.Errorf("config: %s: %w: want a .yaml, .yml or .toml file", path, ErrFormat)
	}
	return c, o, err
}

// entry is one key of a file with its value(s) as text.
type entry struct {
	key    string
	line   int
	texts  []string
	isList bool // the file gave a sequence
}

// apply sets the entries of the file at path and returns where each known
// key is. It goes on past a bad entry and returns every problem, those the
// loader found (errs) first, joined in the order of the file, so that one
// edit fixes them all.
func (c *Config) apply(path string, entries []entry, errs []error) (Origins, error) {
	byKey := map[string]setting{}
	for _, s := range settings() {
		byKey[s.key] = s
	}
	seen := map[string]int{}
	o := Origins{}
	for _, e := range entries {
		if _, ok := byKey[e.key]; ok {
			if _, dup := seen[e.key]; !dup {
				o[e.key] = Origin{File: path, Line: e.line}
			}
		}
		if err := c.applyEntry(path, e, byKey, seen); err != nil {
			errs = append(errs, err)
		}
	}
	sort.SliceStable(errs, func(i, j int) bool { return errLine(errs[i]) < errLine(errs[j]) })
	return o, errors.Join(errs...)
}

func (c *Config) applyEntry(path string, e entry, byKey map[string]setting, seen map[string]int) error {
	s, ok := byKey[e.key]
	if !ok {
		if near := nearKey(e.key); near != "" {
			return &KeyError{Origin: Origin{File: path, Line: e.line}, Key: e.key, Err: fmt.Errorf("%w: did you mean %s?", ErrUnknownKey, near)}
		}
		return &KeyError{Origin: Origin{File: path, Line: e.line}, Key: e.key, Err: fmt.Errorf("%w (known keys: %s)", ErrUnknownKey, strings.Join(Keys(), ", "))}
	}
	if prev, dup := seen[e.key]; dup {
		return &KeyError{Origin: Origin{File: path, Line: e.line}, Key: e.key, Err: fmt.Errorf("%w: set twice (first at line %d)", ErrBadValue, prev)}
	}
	seen[e.key] = e.line
	v := s.val(c)
	if e.isList && !v.list() {
		return &KeyError{Origin: Origin{File: path, Line: e.line}, Key: e.key, Err: fmt.Errorf("%w: want a single value, got a list", ErrBadValue)}
	}
	for _, t := range e.texts {
		if err := v.Set(t); err != nil {
			return &KeyError{Origin: Origin{File: path, Line: e.line}, Key: e.key, Err: fmt.Errorf("%w: %w", ErrBadValue, err)}
		}
	}
	return nil
}

// nearKey returns the key a mistyped key most likely meant (Nearest).
func nearKey(typed string) string { return Nearest(typed, Keys()) }

// Nearest returns the name of names a mistyped name most likely meant: the
// same with '_' or ' ' for '-', or in another case, or at most two edits
// away (and then the closest); "" when none is. The command line uses it
// for flags too.
func Nearest(typed string, names []string) string {
	norm := strings.ToLower(strings.NewReplacer("_", "-", " ", "-").Replace(typed))
	best, bestDist := "", 3
	for _, k := range names {
		if k == norm {
			return k
		}
		if d := editDistance(norm, k); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, sub)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// errLine is the file line of a *KeyError, for ordering.
func errLine(err error) int {
	var ke *KeyError
	if errors.As(err, &ke) {
		return ke.Line
	}
	return 0
}

func (c *Config) loadYAML(path string, data []byte) (Origins, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("config: %s: %w: not valid YAML: %w", path, ErrFormat, err)
	}
	if doc.Kind == 0 { // empty file
		return nil, nil
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("config: %s:%d: %w: want a map of settings", path, root.Line, ErrFormat)
	}
	var entries []entry
	var errs []error
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		e := entry{key: k.Value, line: k.Line}
		switch v.Kind {
		case yaml.ScalarNode:
			if v.Tag != "!!null" {
				e.texts = []string{v.Value}
			}
		case yaml.SequenceNode:
			e.isList = true
			for _, it := range v.Content {
				if it.Kind != yaml.ScalarNode {
					errs = append(errs, &KeyError{Origin: Origin{File: path, Line: it.Line}, Key: e.key, Err: fmt.Errorf("%w: list items must be plain values", ErrBadValue)})
					continue
				}
				e.texts = append(e.texts, it.Value)
			}
		default:
			errs = append(errs, &KeyError{Origin: Origin{File: path, Line: v.Line}, Key: e.key, Err: fmt.Errorf("%w: want a value or a list, got a map (the file is flat: no sections)", ErrBadValue)})
			continue
		}
		entries = append(entries, e)
	}
	return c.apply(path, entries, errs)
}

func (c *Config) loadTOML(path string, data []byte) (Origins, error) {
	var m map[string]any
	md, err := toml.Decode(string(data), &m)
	if err != nil {
		if pe, ok := err.(toml.ParseError); ok {
			return nil, fmt.Errorf("config: %s:%d: %w: not valid TOML: %s", path, pe.Position.Line, ErrFormat, pe.Message)
		}
		return nil, fmt.Errorf("config: %s: %w: not valid TOML: %w", path, ErrFormat, err)
	}
	lines := tomlKeyLines(data)
	known := map[string]bool{}
	for _, s := range settings() {
		known[s.key] = true
	}
	var entries []entry
	var errs []error
	for _, k := range md.Keys() {
		if len(k) != 1 {
			continue // keys inside a table: the table itself is reported below
		}
		name := k[0]
		e := entry{key: name, line: lines[name]}
		if !known[name] {
			entries = append(entries, e) // apply reports it with the known keys
			continue
		}
		switch v := m[name].(type) {
		case []any:
			e.isList = true
			for _, it := range v {
				t, ok := tomlText(it)
				if !ok {
					errs = append(errs, &KeyError{Origin: Origin{File: path, Line: e.line}, Key: name, Err: fmt.Errorf("%w: list items must be plain values", ErrBadValue)})
					continue
				}
				e.texts = append(e.texts, t)
			}
		default:
			t, ok := tomlText(v)
			if !ok {
				errs = append(errs, &KeyError{Origin: Origin{File: path, Line: e.line}, Key: name, Err: fmt.Errorf("%w: want a value or a list, got %s (the file is flat: no tables)", ErrBadValue, md.Type(name))})
				continue
			}
			e.texts = []string{t}
		}
		entries = append(entries, e)
	}
	return c.apply(path, entries, errs)
}

// tomlText returns the text form of a TOML scalar, as a flag would take it.
func tomlText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true
	case bool:
		return strconv.FormatBool(x), true
	case time.Time:
		return x.Format(time.RFC3339Nano), true
	default:
		return "", false
	}
}

var tomlTableLine = regexp.MustCompile(`^\s*\[\[?\s*([^\]]+?)\s*\]`)

var tomlKeyLine = regexp.MustCompile(`^\s*(?:"([^"]+)"|'([^']+)'|([A-Za-z0-9_-]+))\s*=`)

// tomlKeyLines maps each top-level key of a TOML file to its line: the
// decoder validates the syntax but does not expose key positions.
func tomlKeyLines(data []byte) map[string]int {
	lines := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	n := 0
	inTables := false
	for sc.Scan() {
		n++
		t := sc.Text()
		if m := tomlTableLine.FindStringSubmatch(t); m != nil {
			// A table starts: later keys are not top-level; the table's own
			// name is (as the first part of its dotted name).
			k := strings.Trim(strings.TrimSpace(strings.SplitN(m[1], ".", 2)[0]), `"'`)
			if _, ok := lines[k]; !ok {
				lines[k] = n
			}
			inTables = true
			continue
		}
		if m := tomlKeyLine.FindStringSubmatch(t); m != nil && !inTables {
			k := m[1] + m[2] + m[3]
			if _, ok := lines[k]; !ok {
				lines[k] = n
			}
		}
	}
	return lines
}
