package config

import (
	"errors"
	"testing"
)

// FuzzLoad feeds arbitrary bytes to the YAML and TOML readers: they must
// never panic, and a failure must be a clear error of the package's kinds
// (a *KeyError naming the key, or ErrFormat), never a silent success that
// leaves an invalid value behind Validate.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		"workers: 4\ndelay: 500ms\n",
		"seeds: [http://a.test/, http://b.test/]\nmax-body: 1MiB\n",
		"workers = 4\ndelay = \"2s\"\nresolve = [\"a.test=127.0.0.1\"]\n",
		"workers: -1\n", "nope: 1\n", "workers: [1, 2]\n", "\x00\xff", "delay: 1e400s\n",
	} {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, yamlFile bool) {
		c := Default()
		var err error
		if yamlFile {
			_, err = c.loadYAML("f.yaml", data)
		} else {
			_, err = c.loadTOML("f.toml", data)
		}
		if err != nil {
			var ke *KeyError
			if !errors.As(err, &ke) && !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v (%T) is neither a *KeyError nor ErrFormat", err, err)
			}
			return
		}
		_ = c.Validate() // must not panic on whatever the file set
	})
}
