package config

import (
	"errors"
	"flag"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// setting binds one key to a field of a Config.
type setting struct {
	key  string
	help string
	val  func(c *Config) value
}

// value is a flag.Value that can also copy its field between two Configs.
type value interface {
	flag.Value
	list() bool
}

// settings lists every setting, in the order flags are documented: the
// crawl settings, then runSettings.
func settings() []setting {
	return append(crawlSettings(), runSettings()...)
}

// runSettings are the settings of seedcrawl run's cycles: RegisterRunFlags
// defines their flags, RegisterFlags does not (a crawl has no cycles), and
// every command accepts them in a file.
func runSettings() []setting {
	return []setting{
		{key: "revisit-gone", help: "refetch a redirect, 404/410, 401/403/451 or robots-denied URL every `N`th cycle (0: by its interval like any page)",
			val: func(c *Config) value { return (*intVal)(&c.RevisitGone) }},
		{key: "refresh-policy", help: "spread the refresh share over known pages by `POLICY`: " + strings.Join(RefreshPolicies(), ", ") + " (optimal: by change rate and stored PageRank; count: by change rate, every page alike)",
			val: func(c *Config) value { return (*strVal)(&c.RefreshPolicy) }},
		{key: "refresh-share", help: "at most this share `F` (0..1) of a cycle's budget (--pages-per-cycle, else --max-pages) refetches known pages; the rest is kept for new URLs. " +
			"The default, 0.5, keeps half of each budgeted cycle for discovery and paces the refetches over the cycle (--refresh-pace). " +
			"1 is no cap: known pages due for a revisit compete with new URLs in the scheduler's order and may take the whole budget (run warns after a cycle that spent it without fetching a new page). " +
			"Without a budget it does nothing: given below 1 as a flag, that is an error; a config file value other than the default, a warning",
			val: func(c *Config) value { return (*floatVal)(&c.RefreshShare) }},
		{key: "refresh-pace", help: "how a cycle spends a --refresh-share below 1 with --pages-per-cycle: `PACE` " + strings.Join(RefreshPaces(), " or ") +
			" (even: refetches spread evenly over the budget, so new URLs are fetched from the start; front: refetches first, as the crawl reaches known pages). " +
			"Needs a budget and a share below 1: without them, a flag is an error and a config file value a warning",
			val: func(c *Config) value { return (*strVal)(&c.RefreshPace) }},
	}
}

// crawlSettings are the settings of every crawl (RegisterFlags).
func crawlSettings() []setting {
	return []setting{
		{"seeds-file", "read seed URLs from `FILE`, one per line, # comments", func(c *Config) value { return (*strVal)(&c.SeedsFile) }},
		{"seeds", "seed `URL` (repeatable; positional arguments of crawl)", func(c *Config) value { return (*listVal)(&c.Seeds) }},
		{"db", "bbolt `FILE` the crawl reads and writes", func(c *Config) value { return (*strVal)(&c.DB) }},
		{"scope", "which URLs to crawl (`SCOPE`): seeds-hosts | seeds-domains | hosts:H1,H2 (.example.com: with subdomains) | regexp:RE | all", func(c *Config) value { return (*strVal)(&c.Scope) }},
		{"scheduler", "crawl-ordering policy `NAME` (bfs, fpr, fpr@M, opic, ...)", func(c *Config) value { return (*strVal)(&c.Scheduler) }},
		{"max-pages", "stop after `N` page requests in this run, retries and error answers included (0: no limit)", func(c *Config) value { return (*int64Val)(&c.MaxPages) }},
		{"max-depth", "largest link distance `N` from a seed to fetch (-1: no limit)", func(c *Config) value { return (*intVal)(&c.MaxDepth) }},
		{"max-duration", "stop after `DURATION` (0: no limit)", func(c *Config) value { return (*durVal)(&c.MaxDuration) }},
		{"host-max-pages", "most URLs `N` queued per host, a trap guard (0: no limit)", func(c *Config) value { return (*int64Val)(&c.HostMaxPages) }},
		{"workers", "concurrent fetchers `N`", func(c *Config) value { return (*intVal)(&c.Workers) }},
		{"host-concurrency", "most requests `N` in flight per host", func(c *Config) value { return (*intVal)(&c.HostConcurrency) }},
		{"delay", "minimum `DURATION` between requests to one host", func(c *Config) value { return (*durVal)(&c.Delay) }},
		{"max-crawl-delay", "cap `DURATION` on robots.txt Crawl-delay; hosts asking more are deferred", func(c *Config) value { return (*durVal)(&c.MaxCrawlDelay) }},
		{"delay-factor", "per-host delay is at least `F` times the host's last response time (0: off)", func(c *Config) value { return (*floatVal)(&c.DelayFactor) }},
		{"backoff", "wait `DURATION` after a failure or a 429/503 without Retry-After; doubles per failure", func(c *Config) value { return (*durVal)(&c.Backoff) }},
		{"max-backoff", "cap `DURATION` on the exponential back-off of failing or rate-limiting hosts", func(c *Config) value { return (*durVal)(&c.MaxBackoff) }},
		{"max-retries", "retries `N` of a URL whose fetch failed transiently", func(c *Config) value { return (*intVal)(&c.MaxRetries) }},
		{"host-max-failures", "give a host up after `N` of its URLs in a row failed after their retries (0: never)", func(c *Config) value { return (*intVal)(&c.HostMaxFailures) }},
		{"user-agent", "User-Agent header `STRING`", func(c *Config) value { return (*strVal)(&c.UserAgent) }},
		{"robots-token", "product `TOKEN` matched against robots.txt User-agent lines", func(c *Config) value { return (*strVal)(&c.RobotsToken) }},
		{"robots-ttl", "how long (`DURATION`) a fetched robots.txt is trusted", func(c *Config) value { return (*durVal)(&c.RobotsTTL) }},
		{"robots-backoff", "wait `DURATION` after a failed robots.txt fetch; doubles per failure", func(c *Config) value { return (*durVal)(&c.RobotsBackoff) }},
		{"respect-nofollow", "skip links of meta-robots-nofollow pages and rel=nofollow links", func(c *Config) value { return (*boolVal)(&c.RespectNofollow) }},
		{"respect-noindex", "mark meta-robots-noindex pages as noindex", func(c *Config) value { return (*boolVal)(&c.RespectNoindex) }},
		{"sitemaps", "read each host's sitemaps (robots.txt Sitemap: lines, /sitemap.xml) and queue the URLs they list", func(c *Config) value { return (*boolVal)(&c.Sitemaps) }},
		{"resolve", "connect to `HOST=ADDR` instead of resolving HOST (ADDR: IP or IP:PORT; repeatable)", func(c *Config) value { return (*listVal)(&c.Resolve) }},
		{"resolve-file", "read HOST ADDR lines from `FILE` (# comments)", func(c *Config) value { return (*strVal)(&c.ResolveFile) }},
		{"ca-file", "extra trusted root certificates, `PEM` file", func(c *Config) value { return (*strVal)(&c.CAFile) }},
		{"http2", "offer HTTP/2 to https servers (default HTTP/1.1: one request at a time per host needs no multiplexing, and costs less CPU)", func(c *Config) value { return (*boolVal)(&c.HTTP2) }},
		{"allow-private", "allow hosts resolving to loopback, private, link-local or multicast addresses", func(c *Config) value { return (*boolVal)(&c.AllowPrivate) }},
		{"connect-timeout", "TCP connect timeout `DURATION`", func(c *Config) value { return (*durVal)(&c.ConnectTimeout) }},
		{"tls-timeout", "TLS handshake timeout `DURATION`", func(c *Config) value { return (*durVal)(&c.TLSTimeout) }},
		{"header-timeout", "wait `DURATION` for response headers", func(c *Config) value { return (*durVal)(&c.HeaderTimeout) }},
		{"fetch-timeout", "whole-fetch timeout `DURATION`, body included", func(c *Config) value { return (*durVal)(&c.FetchTimeout) }},
		{"max-body", "body bytes kept per page (`SIZE`, e.g. 10MiB); longer bodies are truncated and marked", func(c *Config) value { return (*ByteSize)(&c.MaxBody) }},
		{"max-compression-ratio", "refuse compressed bodies expanding more than `N` times past max-body (bombs)", func(c *Config) value { return (*int64Val)(&c.MaxCompressionRatio) }},
		{"max-redirects", "longest redirect chain `N` followed", func(c *Config) value { return (*intVal)(&c.MaxRedirects) }},
		{"max-url-length", "reject URLs longer than `N` bytes", func(c *Config) value { return (*intVal)(&c.MaxURLLength) }},
		{"max-path-segments", "reject URLs with more than `N` path segments", func(c *Config) value { return (*intVal)(&c.MaxPathSegments) }},
		{"max-repeated-segments", "reject URLs repeating a path segment run more than `N` times", func(c *Config) value { return (*intVal)(&c.MaxRepeatedSegments) }},
		{"max-query-params", "reject URLs with more than `N` query parameters", func(c *Config) value { return (*intVal)(&c.MaxQueryParams) }},
		{"link-selector", "follow only links inside elements matching the CSS `SELECTOR` (like Scrapy's restrict_css)", func(c *Config) value { return (*strVal)(&c.LinkSelector) }},
		{"max-out-links", "most links `N` taken from one page", func(c *Config) value { return (*intVal)(&c.MaxOutLinks) }},
		{"commit-interval", "wait `DURATION` before fetched results are committed (fewer than 8 results wait up to 10 times as long, except on a cluster node)", func(c *Config) value { return (*durVal)(&c.CommitInterval) }},
		{"commit-pages", "commit once a batch holds `N` results", func(c *Config) value { return (*intVal)(&c.CommitPages) }},
		{"warc", "write WARC/1.1 files of every response, with CDXJ indexes, to `DIR` (HTTP/1.1 only)", func(c *Config) value { return (*strVal)(&c.WARC) }},
		{"listen", "serve /metrics, /status, /debug/pprof and a status page on `ADDR` (host:port) while crawling", func(c *Config) value { return (*strVal)(&c.Listen) }},
	}
}

// Keys returns every setting's key, sorted.
func Keys() []string {
	var ks []string
	for _, s := range settings() {
		ks = append(ks, s.key)
	}
	sort.Strings(ks)
	return ks
}

// FlagName returns the command-line flag of a key: the key itself, except
// "seeds-file", whose flag is --seeds (seed URLs are positional arguments).
func FlagName(key string) string {
	if key == "seeds-file" {
		return "seeds"
	}
	return key
}

// RegisterFlags defines one flag per setting on fs, bound to c, with c's
// current values as defaults. The "seeds" list has no flag of its own (seed
// URLs are positional arguments); its flag name is taken by "seeds-file".
// Use SetKeys after fs.Parse to learn which settings the flags set, and
// Overlay to apply them over a loaded file.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	for _, s := range crawlSettings() {
		if s.key == "seeds" {
			continue
		}
		fs.Var(s.val(c), FlagName(s.key), s.help)
	}
}

// RegisterRunFlags defines the flags of the settings only seedcrawl run
// uses (its recrawl cycles: "revisit-gone", "refresh-policy",
// "refresh-share", "refresh-pace"), bound to c
// like RegisterFlags, which leaves them out.
func (c *Config) RegisterRunFlags(fs *flag.FlagSet) {
	for _, s := range runSettings() {
		fs.Var(s.val(c), FlagName(s.key), s.help)
	}
}

// FlagKey returns the key of the setting whose flag is name (without
// dashes), the inverse of FlagName; false when name is no setting's flag.
func FlagKey(name string) (string, bool) {
	for _, s := range settings() {
		if s.key != "seeds" && FlagName(s.key) == name {
			return s.key, true
		}
	}
	return "", false
}

// SetKeys returns the keys of the settings whose flags were set on fs
// (parsed after RegisterFlags).
func SetKeys(fs *flag.FlagSet) []string {
	var keys []string
	fs.Visit(func(f *flag.Flag) {
		if k, ok := FlagKey(f.Name); ok {
			keys = append(keys, k)
		}
	})
	return keys
}

// AddFlags records the settings whose flags were set on fs (SetKeys) as
// coming from those flags, over any file: flags override the file
// (Overlay).
func (o Origins) AddFlags(fs *flag.FlagSet) {
	for _, k := range SetKeys(fs) {
		o[k] = Origin{Flag: FlagName(k)}
	}
}

// Overlay copies the settings named by keys from src into dst: flags
// override the file. A list setting is replaced, not appended to.
func Overlay(dst *Config, src *Config, keys []string) error {
	byKey := map[string]setting{}
	for _, s := range settings() {
		byKey[s.key] = s
	}
	for _, k := range keys {
		s, ok := byKey[k]
		if !ok {
			return &KeyError{Key: k, Err: ErrUnknownKey}
		}
		copyField(s.val(dst), s.val(src))
	}
	return nil
}

func copyField(dst, src value) {
	switch d := dst.(type) {
	case *strVal:
		*d = *src.(*strVal)
	case *listVal:
		*d = append([]string(nil), *src.(*listVal)...)
	case *intVal:
		*d = *src.(*intVal)
	case *int64Val:
		*d = *src.(*int64Val)
	case *floatVal:
		*d = *src.(*floatVal)
	case *boolVal:
		*d = *src.(*boolVal)
	case *durVal:
		*d = *src.(*durVal)
	case *ByteSize:
		*d = *src.(*ByteSize)
	default:
		panic(fmt.Sprintf("config: no copy for %T", dst))
	}
}

// Set sets the setting named key from its text form, as a flag or a file
// value would. An unknown key or a bad value is a *KeyError.
func (c *Config) Set(key, text string) error {
	for _, s := range settings() {
		if s.key == key {
			if err := s.val(c).Set(text); err != nil {
				return &KeyError{Key: key, Err: fmt.Errorf("%w: %w", ErrBadValue, err)}
			}
			return nil
		}
	}
	return &KeyError{Key: key, Err: ErrUnknownKey}
}

type strVal string

func (v *strVal) String() string     { return string(*v) }
func (v *strVal) Set(s string) error { *v = strVal(s); return nil }
func (v *strVal) list() bool         { return false }

// listVal appends on every Set, so a repeated flag collects values.
type listVal []string

func (v *listVal) String() string { return strings.Join(*v, ",") }
func (v *listVal) Set(s string) error {
	*v = append(*v, s)
	return nil
}
func (v *listVal) list() bool { return true }

type intVal int

func (v *intVal) String() string { return strconv.Itoa(int(*v)) }
func (v *intVal) Set(s string) error {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 0, strconv.IntSize)
	if err != nil {
		return intErr(s, err)
	}
	*v = intVal(n)
	return nil
}
func (v *intVal) list() bool { return false }

// intErr says why s is not an integer setting: too large, or not an
// integer at all.
func intErr(s string, err error) error {
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("%q is out of range", s)
	}
	return fmt.Errorf("%q is not an integer", s)
}

type int64Val int64

func (v *int64Val) String() string { return strconv.FormatInt(int64(*v), 10) }
func (v *int64Val) Set(s string) error {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 0, 64)
	if err != nil {
		return intErr(s, err)
	}
	*v = int64Val(n)
	return nil
}
func (v *int64Val) list() bool { return false }

type floatVal float64

func (v *floatVal) String() string { return strconv.FormatFloat(float64(*v), 'g', -1, 64) }
func (v *floatVal) Set(s string) error {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return fmt.Errorf("%q is not a number", s)
	}
	*v = floatVal(f)
	return nil
}
func (v *floatVal) list() bool { return false }

type boolVal bool

func (v *boolVal) String() string { return strconv.FormatBool(bool(*v)) }
func (v *boolVal) Set(s string) error {
	b, err := strconv.ParseBool(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("%q is not true or false", s)
	}
	*v = boolVal(b)
	return nil
}
func (v *boolVal) IsBoolFlag() bool { return true }
func (v *boolVal) list() bool       { return false }

type durVal time.Duration

func (v *durVal) String() string { return time.Duration(*v).String() }
func (v *durVal) Set(s string) error {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("%q is not a duration like 500ms, 1s or 24h", s)
	}
	*v = durVal(d)
	return nil
}
func (v *durVal) list() bool { return false }

// ByteSize is a number of bytes. Its text form is an integer with an
// optional unit: B, KB, MB, GB (powers of 1000) or KiB, MiB, GiB (powers of
// 1024), e.g. "10MiB".
type ByteSize int64

// Byte-size units.
const (
	KiB ByteSize = 1 << 10
	MiB ByteSize = 1 << 20
	GiB ByteSize = 1 << 30
)

// String formats the size with the largest binary unit that divides it.
func (b ByteSize) String() string {
	switch {
	case b != 0 && b%GiB == 0:
		return fmt.Sprintf("%dGiB", b/GiB)
	case b != 0 && b%MiB == 0:
		return fmt.Sprintf("%dMiB", b/MiB)
	case b != 0 && b%KiB == 0:
		return fmt.Sprintf("%dKiB", b/KiB)
	default:
		return strconv.FormatInt(int64(b), 10)
	}
}

// Set parses a size such as "10MiB", "512KB" or "1000".
func (b *ByteSize) Set(s string) error {
	t := strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   int64
	}{
		{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
		{"KB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000},
		{"B", 1},
	}
	mult := int64(1)
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return fmt.Errorf("%q is not a size: want a whole number with an optional unit B, KB, MB, GB, KiB, MiB or GiB, like 10MiB, 512KB or 1000", s)
	case n < 0:
		return fmt.Errorf("%q is not a size: must not be negative", s)
	case err != nil || n > (1<<62)/mult:
		return fmt.Errorf("%q is too large a size: at most %dGiB", s, (1<<62)/GiB)
	}
	*b = ByteSize(n * mult)
	return nil
}

func (b *ByteSize) list() bool { return false }
