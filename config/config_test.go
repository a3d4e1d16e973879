package config

import (
	"errors"
	"flag"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/version"
)

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDefaultIsValid(t *testing.T) {
	c := Default()
	if err := c.Validate(); err != nil {
		t.Fatalf("Default().Validate() = %v", err)
	}
	if c.Delay != time.Second || c.MaxCrawlDelay != 30*time.Second || c.HostConcurrency != 1 ||
		c.MaxBody != 10*MiB || c.MaxURLLength != 2048 || c.RobotsTTL != 24*time.Hour ||
		c.UserAgent != version.UserAgent || c.DB != "seedcrawl.db" || c.Scheduler != "bfs" ||
		c.Scope != "seeds-hosts" || !c.RespectNofollow || !c.RespectNoindex || c.MaxDepth != 20 || c.MaxOutLinks != 10000 {
		t.Errorf("defaults differ from the documented ones: %+v", c)
	}
}

func TestLoadGood(t *testing.T) {
	want := Default()
	want.Delay = 250 * time.Millisecond
	want.MaxPages = 500
	want.Workers = 4
	want.DelayFactor = 1.5
	want.RespectNofollow = false
	want.Resolve = []string{"a.test=127.0.0.1:8080", "b.test=::1"}
	want.MaxBody = 512 * KiB
	want.Scope = `regexp:^https?://a\.test/`

	for _, tc := range []struct{ name, body string }{
		{"c.yaml", `# a comment
delay: 250ms
max-pages: 500
workers: 4
delay-factor: 1.5
respect-nofollow: false
resolve:
  - a.test=127.0.0.1:8080
  - b.test=::1
max-body: 512KiB
scope: 'regexp:^https?://a\.test/'
`},
		{"c.yml", "delay: 250ms\nmax-pages: 0x1f4\nworkers: 4\ndelay-factor: 1.5\nrespect-nofollow: false\nresolve: [a.test=127.0.0.1:8080, b.test=::1]\nmax-body: 524288\nscope: \"regexp:^https?://a\\\\.test/\"\n"},
		{"c.toml", `# a comment
delay = "250ms"
max-pages = 500
workers = 4
delay-factor = 1.5
respect-nofollow = false
resolve = ["a.test=127.0.0.1:8080", "b.test=::1"]
max-body = "512KiB"
scope = 'regexp:^https?://a\.test/'
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Load(writeFile(t, tc.name, tc.body))
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Load =\n%+v\nwant\n%+v", got, want)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

func TestLoadEmptyFileGivesDefaults(t *testing.T) {
	for _, name := range []string{"e.yaml", "e.toml"} {
		got, err := Load(writeFile(t, name, "# nothing\n"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, Default()) {
			t.Errorf("%s: got %+v, want defaults", name, got)
		}
	}
}

// TestLoadBad checks that every bad file names the key and, where the
// decoder reports it, the line.
func TestLoadBad(t *testing.T) {
	for _, tc := range []struct {
		name, file, body string
		sentinel         error
		want             string // substring of the error
	}{
		{"unknown yaml key", "u.yaml", "delay: 1s\ndelai: 2s\n", ErrUnknownKey, "u.yaml:2: delai: unknown key"},
		{"unknown toml key", "u.toml", "delay = \"1s\"\n\nmax_pages = 3\n", ErrUnknownKey, "u.toml:3: max_pages: unknown key"},
		{"toml table", "t.toml", "delay = \"1s\"\n[politeness]\ndelay = \"2s\"\n", ErrUnknownKey, "t.toml:2: politeness: unknown key"},
		{"yaml nested map", "n.yaml", "delay:\n  min: 1s\n", ErrBadValue, "n.yaml:2: delay: bad value: want a value or a list, got a map"},
		{"toml table for a known key", "k.toml", "[delay]\nmin = \"1s\"\n", ErrBadValue, "k.toml:1: delay: bad value"},
		{"bad duration yaml", "d.yaml", "workers: 3\ndelay: fast\n", ErrBadValue, `d.yaml:2: delay: bad value: "fast" is not a duration`},
		{"duration without unit toml", "d.toml", "delay = 1\n", ErrBadValue, `d.toml:1: delay: bad value: "1" is not a duration`},
		{"bad int", "i.yaml", "max-pages: lots\n", ErrBadValue, `i.yaml:1: max-pages: bad value: "lots" is not an integer`},
		{"bad bool", "b.toml", "allow-private = \"maybe\"\n", ErrBadValue, `b.toml:1: allow-private: bad value: "maybe" is not true or false`},
		{"bad size", "s.yaml", "max-body: 10 parsecs\n", ErrBadValue, `s.yaml:1: max-body: bad value: "10 parsecs" is not a size`},
		{"list for a scalar", "l.yaml", "db:\n  - a.db\n  - b.db\n", ErrBadValue, "l.yaml:1: db: bad value: want a single value, got a list"},
		{"duplicate key", "dup.yaml", "delay: 1s\ndelay: 2s\n", ErrBadValue, "dup.yaml:2: delay: bad value: set twice (first at line 1)"},
		{"not a map", "m.yaml", "- delay\n", ErrFormat, "m.yaml:1"},
		{"yaml syntax", "y.yaml", "delay: [1s\n", ErrFormat, "y.yaml"},
		{"toml syntax", "y.toml", "delay = \n", ErrFormat, "y.toml:1"},
		{"unknown extension", "c.json", "{}", ErrFormat, "want a .yaml, .yml or .toml file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(writeFile(t, tc.file, tc.body))
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			if !errors.Is(err, tc.sentinel) {
				t.Errorf("error %q is not %v", err, tc.sentinel)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

// TestLoadBadAll checks that a file with several bad keys names every one
// of them, each with its line, so one edit fixes the file.
func TestLoadBadAll(t *testing.T) {
	for _, tc := range []struct {
		name, file, body string
		want             []string
	}{
		{"yaml", "all.yaml", "workers: 4\nmax-pages: lots\ndelay: 1x\nfrobnicate: 3\nscope:\n  a: b\n", []string{
			`all.yaml:2: max-pages: bad value`, `all.yaml:3: delay: bad value`, `all.yaml:4: frobnicate: unknown key`, `all.yaml:6: scope: bad value`}},
		{"toml", "all.toml", "workers = \"four\"\ndelay = 1\n[section]\nx = 1\n", []string{
			`all.toml:1: workers: bad value`, `all.toml:2: delay: bad value`, `all.toml:3: section: unknown key`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(writeFile(t, tc.file, tc.body))
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			var ke *KeyError
			if !errors.As(err, &ke) {
				t.Errorf("error %q holds no *KeyError", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.yaml"))
	if err == nil || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "nope.yaml") {
		t.Fatalf("Load(missing) = %v, want a not-exist error naming the file", err)
	}
}

// TestValidateBad checks that every out-of-range value names its key, also
// when it came from a file that parsed.
func TestValidateBad(t *testing.T) {
	for _, tc := range []struct {
		key string
		mod func(c *Config)
	}{
		{"db", func(c *Config) { c.DB = "" }},
		{"scheduler", func(c *Config) { c.Scheduler = "" }},
		{"max-pages", func(c *Config) { c.MaxPages = -1 }},
		{"max-depth", func(c *Config) { c.MaxDepth = -2 }},
		{"max-duration", func(c *Config) { c.MaxDuration = -time.Second }},
		{"host-max-pages", func(c *Config) { c.HostMaxPages = -5 }},
		{"workers", func(c *Config) { c.Workers = 0 }},
		{"host-concurrency", func(c *Config) { c.HostConcurrency = 0 }},
		{"delay", func(c *Config) { c.Delay = -time.Millisecond }},
		{"max-crawl-delay", func(c *Config) { c.MaxCrawlDelay = -time.Second }},
		{"delay-factor", func(c *Config) { c.DelayFactor = -1 }},
		{"delay-factor", func(c *Config) { c.DelayFactor = math.NaN() }},
		{"max-backoff", func(c *Config) { c.MaxBackoff = c.Backoff / 2 }},
		{"refresh-share", func(c *Config) { c.RefreshShare = math.NaN() }},
		{"refresh-share", func(c *Config) { c.RefreshShare = -0.1 }},
		{"refresh-share", func(c *Config) { c.RefreshShare = 1.5 }},
		{"max-retries", func(c *Config) { c.MaxRetries = -1 }},
		{"user-agent", func(c *Config) { c.UserAgent = " " }},
		{"user-agent", func(c *Config) { c.UserAgent = "a\r\nX-Evil: 1" }},
		{"robots-token", func(c *Config) { c.RobotsToken = "seed crawl" }},
		{"robots-ttl", func(c *Config) { c.RobotsTTL = 0 }},
		{"robots-backoff", func(c *Config) { c.RobotsBackoff = -time.Second }},
		{"connect-timeout", func(c *Config) { c.ConnectTimeout = 0 }},
		{"tls-timeout", func(c *Config) { c.TLSTimeout = 0 }},
		{"header-timeout", func(c *Config) { c.HeaderTimeout = 0 }},
		{"fetch-timeout", func(c *Config) { c.FetchTimeout = 0 }},
		{"max-body", func(c *Config) { c.MaxBody = 0 }},
		{"max-compression-ratio", func(c *Config) { c.MaxCompressionRatio = 0 }},
		{"backoff", func(c *Config) { c.Backoff = 0 }},
		{"max-query-params", func(c *Config) { c.MaxQueryParams = 0 }},
		{"max-redirects", func(c *Config) { c.MaxRedirects = -1 }},
		{"max-url-length", func(c *Config) { c.MaxURLLength = 3 }},
		{"max-path-segments", func(c *Config) { c.MaxPathSegments = 0 }},
		{"max-repeated-segments", func(c *Config) { c.MaxRepeatedSegments = 0 }},
		{"max-out-links", func(c *Config) { c.MaxOutLinks = 0 }},
		{"commit-interval", func(c *Config) { c.CommitInterval = 0 }},
		{"commit-pages", func(c *Config) { c.CommitPages = 0 }},
		{"listen", func(c *Config) { c.Listen = "localhost" }},
		{"listen", func(c *Config) { c.Listen = "127.0.0.1:http" }},
		{"scope", func(c *Config) { c.Scope = "everything" }},
		{"scope", func(c *Config) { c.Scope = "regexp:(" }},
		{"scope", func(c *Config) { c.Scope = "hosts:," }},
		{"scope", func(c *Config) { c.Scope = "hosts:a.test/x" }},
		{"seeds", func(c *Config) { c.Seeds = []string{"ftp://a.test/"} }},
		{"seeds", func(c *Config) { c.Seeds = []string{"/relative"} }},
		{"resolve", func(c *Config) { c.Resolve = []string{"a.test"} }},
		{"resolve", func(c *Config) { c.Resolve = []string{"a.test=localhost"} }},
	} {
		t.Run(tc.key, func(t *testing.T) {
			c := Default()
			tc.mod(&c)
			err := c.Validate()
			var ke *KeyError
			if !errors.As(err, &ke) || ke.Key != tc.key || !errors.Is(err, ErrBadValue) {
				t.Fatalf("Validate() = %v, want a bad-value error for key %q", err, tc.key)
			}
			if !strings.HasPrefix(err.Error(), "config: "+tc.key+": ") {
				t.Errorf("error %q does not start with the key", err)
			}
		})
	}
}

// TestValidateAll checks that Validate names every bad setting, not only
// the first, so one edit fixes a command line.
func TestValidateAll(t *testing.T) {
	c := Default()
	c.Workers = 0
	c.Delay = -time.Second
	c.Scope = "nope"
	c.Seeds = []string{"ftp://a.test/", "b.test"}
	err := c.Validate()
	for _, want := range []string{"config: workers: ", "config: delay: ", "config: scope: ", `"ftp://a.test/"`, `"b.test"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want it to name %q", err, want)
		}
	}
	var ke *KeyError
	if !errors.As(err, &ke) || !errors.Is(err, ErrBadValue) {
		t.Errorf("Validate() = %v, want *KeyErrors of ErrBadValue", err)
	}
}

// TestValidateSeedAdvice checks what a bad seed's error tells the user:
// a URL without a scheme gets the https form to try, a URL of another
// scheme is named as such (not turned into "https://ftp://...").
func TestValidateSeedAdvice(t *testing.T) {
	for _, tc := range []struct {
		seed, want, not string
	}{
		{"example.org", "such as https://example.org/", ""},
		{"example.org/docs/", "such as https://example.org/docs/", ""},
		{"//example.org/", "such as https://example.org/", ""},
		{"localhost:8080", "such as https://localhost:8080/", ""},
		{"ftp://example.org/", `scheme "ftp" is not crawled`, "https://ftp"},
		{"mailto:a@example.org", `scheme "mailto" is not crawled`, "https://mailto"},
		{"javascript:alert(1)", `scheme "javascript" is not crawled`, "https://javascript"},
		{"http:///path", "has no host", "https://http"},
		{"http//www.example.org/", "such as http://www.example.org/", "https://http"},
		{"https:/www.example.org/a", "such as https://www.example.org/a", "/a/"},
		{"HTTP:www.example.org", "such as http://www.example.org/", "https://HTTP"},
		{"www.example.org/path", "such as https://www.example.org/path", "/path/"},
		{"httpbin.org", "such as https://httpbin.org/", ""},
		{"https//", "such as https://example.org/", "https://https"},
		{"http:?q", "such as https://example.org/", "http://?q"},
		{`https:\\example.org\`, "", `\/`},
		// A password is never repeated, also when the URL does not parse.
		{"http://admin:s3cret@a.example/%zz", "…@a.example", "s3cret"},
		{"http:admin:s3cret@a.example/", "…@a.example", "s3cret"},
		{"admin:s3cret@a.example/docs", "…@a.example", "s3cret"},
	} {
		t.Run(tc.seed, func(t *testing.T) {
			c := Default()
			c.Seeds = []string{tc.seed}
			err := c.Validate()
			if err == nil {
				t.Fatalf("Validate(seed %q) = nil, want an error", tc.seed)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			if tc.not != "" && strings.Contains(err.Error(), tc.not) {
				t.Errorf("error %q suggests %q", err, tc.not)
			}
		})
	}
}

func TestFlagsOverrideFile(t *testing.T) {
	path := writeFile(t, "c.yaml", "delay: 2s\nworkers: 3\nresolve: [a.test=127.0.0.1]\nmax-pages: 10\n")

	flagCfg := Default()
	fs := flag.NewFlagSet("crawl", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	flagCfg.RegisterFlags(fs)
	args := []string{"--delay", "50ms", "--resolve", "b.test=127.0.0.2:81", "--resolve", "c.test=::1",
		"--allow-private", "--seeds", "seeds.txt", "--max-body", "1MiB"}
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	keys := SetKeys(fs)
	wantKeys := []string{"allow-private", "delay", "max-body", "resolve", "seeds-file"}
	if !reflect.DeepEqual(keys, wantKeys) {
		t.Errorf("SetKeys = %v, want %v", keys, wantKeys)
	}

	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := Overlay(&cfg, &flagCfg, keys); err != nil {
		t.Fatal(err)
	}
	if cfg.Delay != 50*time.Millisecond {
		t.Errorf("delay = %v, want the flag's 50ms", cfg.Delay)
	}
	if cfg.Workers != 3 || cfg.MaxPages != 10 {
		t.Errorf("workers, max-pages = %d, %d, want the file's 3, 10", cfg.Workers, cfg.MaxPages)
	}
	if want := []string{"b.test=127.0.0.2:81", "c.test=::1"}; !reflect.DeepEqual(cfg.Resolve, want) {
		t.Errorf("resolve = %v, want the flags' %v (replacing the file's)", cfg.Resolve, want)
	}
	if !cfg.AllowPrivate || cfg.SeedsFile != "seeds.txt" || cfg.MaxBody != MiB {
		t.Errorf("flag values not applied: %+v", cfg)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestBadFlagValueNamesFlag(t *testing.T) {
	c := Default()
	fs := flag.NewFlagSet("crawl", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c.RegisterFlags(fs)
	err := fs.Parse([]string{"--delay", "soon"})
	if err == nil || !strings.Contains(err.Error(), "-delay") || !strings.Contains(err.Error(), `"soon" is not a duration`) {
		t.Fatalf("Parse = %v, want an error naming -delay", err)
	}
}

func TestSetAndKeys(t *testing.T) {
	c := Default()
	for _, k := range Keys() {
		if FlagName(k) == "" {
			t.Errorf("key %q has no flag name", k)
		}
	}
	if err := c.Set("max-depth", "3"); err != nil || c.MaxDepth != 3 {
		t.Errorf("Set(max-depth, 3) = %v, MaxDepth %d", err, c.MaxDepth)
	}
	if err := c.Set("max_depth", "3"); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("Set(unknown) = %v, want ErrUnknownKey", err)
	}
	if err := c.Set("max-depth", "x"); !errors.Is(err, ErrBadValue) || !strings.Contains(err.Error(), "max-depth") {
		t.Errorf("Set(bad) = %v, want ErrBadValue naming the key", err)
	}
}

func TestByteSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ByteSize
		ok   bool
	}{
		{"0", 0, true}, {"1000", 1000, true}, {"10MiB", 10 * MiB, true}, {"10 MiB", 10 * MiB, true},
		{"512KiB", 512 * KiB, true}, {"2GiB", 2 * GiB, true}, {"5KB", 5000, true}, {"3MB", 3000000, true},
		{"7B", 7, true}, {"-1", 0, false}, {"1.5MiB", 0, false}, {"MiB", 0, false}, {"9999999999GiB", 0, false},
	} {
		var b ByteSize
		err := b.Set(tc.in)
		if (err == nil) != tc.ok || tc.ok && b != tc.want {
			t.Errorf("Set(%q) = %v, %v; want %v, ok=%v", tc.in, b, err, tc.want, tc.ok)
		}
	}
	for _, tc := range []struct {
		b    ByteSize
		want string
	}{{10 * MiB, "10MiB"}, {3 * KiB, "3KiB"}, {GiB, "1GiB"}, {1000, "1000"}, {0, "0"}} {
		if got := tc.b.String(); got != tc.want {
			t.Errorf("%d.String() = %q, want %q", int64(tc.b), got, tc.want)
		}
	}
}

func TestCheckScope(t *testing.T) {
	for _, tc := range []struct {
		spec string
		ok   bool
	}{
		{"seeds-hosts", true}, {"seeds-domains", true}, {"all", true},
		{"hosts:A.test, .b.test", true}, {`regexp:^https://a\.test/`, true},
		{"regexp:[", false}, {"hosts:", false}, {"hosts:a.test/x", false}, {"domains", false},
		{"all:x", false}, {"", false},
	} {
		if err := checkScope(tc.spec); (err == nil) != tc.ok {
			t.Errorf("checkScope(%q) = %v, want ok=%v", tc.spec, err, tc.ok)
		}
	}
}

func TestCheckResolve(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"A.Test=127.0.0.1", true}, {"a.test=127.0.0.1:8443", true}, {"a.test:8080=[::1]:80", true},
		{"a.test=::1", true}, {"=127.0.0.1", false}, {"a.test=", false}, {"a.test", false},
		{"a.test=example.com:80", false}, {"a b=127.0.0.1", false},
	} {
		if err := checkResolve(tc.in); (err == nil) != tc.ok {
			t.Errorf("checkResolve(%q) = %v, want ok=%v", tc.in, err, tc.ok)
		}
	}
}
