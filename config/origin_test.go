package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeyErrorNamesOrigin checks that a problem names where its value came
// from as the user wrote it, and keeps its sentinel for errors.Is.
func TestKeyErrorNamesOrigin(t *testing.T) {
	bad := fmt.Errorf("%w: must be in 1..4096, got -1", ErrBadValue)
	for _, tc := range []struct {
		name string
		at   Origin
		want string
	}{
		{"flag", Origin{Flag: "workers"}, "--workers: bad value: must be in 1..4096, got -1"},
		{"argument", Origin{Arg: "SEED_URL"}, "SEED_URL argument: bad value: must be in 1..4096, got -1"},
		{"file and line", Origin{File: "c.yaml", Line: 3}, "config file c.yaml:3: workers: bad value: must be in 1..4096, got -1"},
		{"file", Origin{File: "c.toml"}, "config file c.toml: workers: bad value: must be in 1..4096, got -1"},
		{"default", Origin{Default: true}, "workers, left at its default: bad value: must be in 1..4096, got -1"},
		{"nowhere", Origin{}, "config: workers: bad value: must be in 1..4096, got -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := &KeyError{Origin: tc.at, Key: "workers", Err: bad}
			if err.Error() != tc.want {
				t.Errorf("Error() = %q, want %q", err.Error(), tc.want)
			}
			if !errors.Is(err, ErrBadValue) {
				t.Errorf("%v is not ErrBadValue", err)
			}
		})
	}
}

// TestLocateOutOfRange checks that a value a file sets in range of its
// type but out of the setting's range (found by Validate, after Load) is
// reported with the file's name and the key's line, and that a flag set
// over the file is reported as the flag.
func TestLocateOutOfRange(t *testing.T) {
	for _, tc := range []struct {
		name, file, body string
		flags            []string
		want             []string
		not              string
	}{
		{"yaml", "c.yaml", "delay: 1s\nworkers: -1\n", nil,
			[]string{"config file " + "c.yaml:2: workers: bad value: must be in 1..4096, got -1"}, "--workers"},
		{"toml", "c.toml", "# settings\n\nmax-redirects = 500\n", nil,
			[]string{"c.toml:3: max-redirects: bad value: must be in 0..100, got 500"}, ""},
		{"flag over the file", "f.yaml", "workers: 4\n", []string{"--workers", "0"},
			[]string{"--workers: bad value: must be in 1..4096, got 0"}, "f.yaml"},
		{"both", "b.yaml", "host-concurrency: 0\n", []string{"--delay", "-1s"},
			[]string{"--delay: bad value: must not be negative, got -1s", "b.yaml:1: host-concurrency: bad value: must be in 1..1024, got 0"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, tc.file, tc.body)
			cfg, origins, err := LoadOrigins(path)
			if err != nil {
				t.Fatal(err)
			}
			flagCfg := Default()
			fs := flag.NewFlagSet("crawl", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			flagCfg.RegisterFlags(fs)
			if err := fs.Parse(tc.flags); err != nil {
				t.Fatal(err)
			}
			origins.AddFlags(fs)
			if err := Overlay(&cfg, &flagCfg, SetKeys(fs)); err != nil {
				t.Fatal(err)
			}
			err = origins.Locate(cfg.Validate())
			if !errors.Is(err, ErrBadValue) {
				t.Fatalf("Validate = %v, want ErrBadValue", err)
			}
			msg := strings.ReplaceAll(err.Error(), filepath.Dir(path)+string(filepath.Separator), "")
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not contain %q", msg, w)
				}
			}
			if tc.not != "" && strings.Contains(msg, tc.not) {
				t.Errorf("error %q names %q, where the value did not come from", msg, tc.not)
			}
		})
	}
}

// TestValueMessages checks what a value that does not parse is told: what
// is wrong with it and what a good one looks like.
func TestValueMessages(t *testing.T) {
	for _, tc := range []struct {
		key, text, want string
	}{
		{"workers", "99999999999999999999", `"99999999999999999999" is out of range`},
		{"workers", "many", `"many" is not an integer`},
		{"max-pages", "1e3", `"1e3" is not an integer`},
		{"max-body", "10M", "optional unit B, KB, MB, GB, KiB, MiB or GiB"},
		{"max-body", "-5", `"-5" is not a size: must not be negative`},
		{"max-body", "99999999999GiB", `"99999999999GiB" is too large a size: at most 4294967296GiB`},
		{"delay", "5", `"5" is not a duration like 500ms, 1s or 24h`},
	} {
		t.Run(tc.key+" "+tc.text, func(t *testing.T) {
			c := Default()
			err := c.Set(tc.key, tc.text)
			if !errors.Is(err, ErrBadValue) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Set(%s, %q) = %v, want ErrBadValue saying %q", tc.key, tc.text, err, tc.want)
			}
		})
	}
}

// TestFlagKey checks that FlagKey inverts FlagName for every setting with
// a flag.
func TestFlagKey(t *testing.T) {
	for _, k := range Keys() {
		if k == "seeds" {
			continue // positional arguments
		}
		if got, ok := FlagKey(FlagName(k)); !ok || got != k {
			t.Errorf("FlagKey(%q) = %q, %v; want %q", FlagName(k), got, ok, k)
		}
	}
	if k, ok := FlagKey("seeds"); !ok || k != "seeds-file" {
		t.Errorf("FlagKey(seeds) = %q, %v; want seeds-file", k, ok)
	}
	if _, ok := FlagKey("progress"); ok {
		t.Errorf("FlagKey(progress) found a setting; progress is a command's own flag")
	}
}

// TestUnknownKeySuggests checks that a mistyped key gets the key it most
// likely meant, and a key like no other the list of keys.
func TestUnknownKeySuggests(t *testing.T) {
	for _, tc := range []struct {
		file, body, want string
	}{
		{"u.toml", "max_pages = 10\n", "max_pages: unknown key: did you mean max-pages?"},
		{"c.yaml", "Workers: 4\n", "Workers: unknown key: did you mean workers?"},
		{"t.yaml", "worker: 4\n", "worker: unknown key: did you mean workers?"},
		{"d.yaml", "dealy: 1s\n", "dealy: unknown key: did you mean delay?"},
		{"f.yaml", "frobnicate: 1\n", "frobnicate: unknown key (known keys: allow-private, backoff,"},
	} {
		t.Run(tc.body, func(t *testing.T) {
			_, err := Load(writeFile(t, tc.file, tc.body))
			if !errors.Is(err, ErrUnknownKey) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load = %v, want ErrUnknownKey saying %q", err, tc.want)
			}
		})
	}
}
