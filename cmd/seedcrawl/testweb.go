package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/internal/version"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// runTestweb serves the deterministic test web on loopback until ctx ends,
// or with --dump writes its ground truth and exits. Every input is checked
// before anything listens.
func runTestweb(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("testweb", stderr)
	// Where to listen and what to write.
	addr := fs.String("addr", "127.0.0.1:0", "http listen `address` (port 0 picks a free port)")
	httpsAddr := fs.String("https-addr", "", "https listen `address` (default: --addr's IP, free port; - for none)")
	controlAddr := fs.String("control-addr", "", "control endpoint `address`, GET /epoch?n=N (default: --addr's IP, free port; - for none)")
	resolveOut := fs.String("resolve-out", "testweb.resolve", "write the resolve file (HOST:PORT ADDR lines) to `FILE`")
	caOut := fs.String("ca-out", "testweb-ca.pem", "write the CA certificate of the https hosts to `FILE`")
	seedsOut := fs.String("seeds-out", "", "also write the seed URLs to `FILE` (for crawl --seeds)")
	accessLog := fs.String("access-log", "", "write an access log line per request to `FILE` (- for stdout)")
	dump := fs.String("dump", "", "write the ground truth of --epoch as `BASENAME`.{arcs.tsv.gz,urls.gz,nodes.tsv.gz,seeds.txt} and exit")
	token := fs.String("token", version.Token, "robots.txt product `token` for the robots column of --dump")
	// What to serve.
	seed := fs.Int64("seed", 1, "random seed: the same seed and epoch serve the same bytes")
	pages := fs.Int("pages", 1000, "regular pages of the generated web")
	hosts := fs.Int("hosts", 20, "regular hosts of the generated web, or of a --graph without URLs (0: one per 500 nodes)")
	interHost := fs.Float64("inter-host", 0.05, "fraction of generated links to another host")
	graphBase := fs.String("graph", "", "serve the graph `BASENAME`.arcs.tsv.gz (+ .urls.gz) instead of generating one")
	preset := fs.String("preset", "hostile", "clean (regular hosts only) or hostile (plus traps, bombs, failing hosts, ...)")
	epoch := fs.Int("epoch", 0, "epoch to serve first (the control endpoint changes it)")
	profile := fs.String("profile", "default", "regular pages: default (small) or docs (documentation-site pages: ~30 KB, ~75 links, mostly navigation)")
	scheme := fs.String("scheme", "mixed", "regular hosts' scheme: mixed (every eighth host https), http or https")
	sitemaps := fs.Bool("sitemaps", false, "add sitemap.test: robots.txt Sitemap: lines, index, gzipped, text, huge and bomb sitemaps, pages only sitemaps lead to")
	// Behaviour.
	slow := fs.Duration("slow-latency", 500*time.Millisecond, "delay of every answer of slow.test")
	rate := fs.Duration("rate-interval", time.Second, "minimum gap between requests ratelimit.test allows")
	crawlDelay := fs.Duration("crawl-delay", 500*time.Millisecond, "Crawl-delay rules.test asks of seedcrawl (0 for none)")
	if err := parseFlagsOnly(fs, args, `usage: seedcrawl testweb [flags]

Serves a seeded multi-host test web (or a ../shared/data graph) on loopback, with
http, https and a control endpoint; writes a resolve file and the CA certificate
for seedcrawl crawl --resolve-file/--ca-file; runs until interrupted.
`); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *graphBase != "" && (set["pages"] || set["inter-host"] || set["profile"]) {
		return fmt.Errorf("%w: --pages, --inter-host and --profile apply to generated webs, not to --graph", errUsage)
	}
	// Generate and FromGraph read 0 as "default" and negative fractions as
	// "none"; on the command line those are typos, so they are refused here
	// rather than silently served as something else.
	switch {
	case *epoch < 0:
		return fmt.Errorf("%w: --epoch %d: want 0 or more", errUsage, *epoch)
	case *graphBase == "" && *pages < 1:
		return fmt.Errorf("%w: --pages %d: want at least 1", errUsage, *pages)
	case *graphBase == "" && *hosts < 1:
		return fmt.Errorf("%w: --hosts %d: want at least 1", errUsage, *hosts)
	case *hosts < 0:
		return fmt.Errorf("%w: --hosts %d: want 0 (one host per 500 nodes) or more", errUsage, *hosts)
	case !(*interHost >= 0 && *interHost <= 1):
		return fmt.Errorf("%w: --inter-host %v: want a fraction from 0 to 1", errUsage, *interHost)
	case *crawlDelay < 0:
		return fmt.Errorf("%w: --crawl-delay %v: want 0 (none) or more", errUsage, *crawlDelay)
	}
	var noHTTPS, allHTTPS bool
	switch *scheme {
	case "mixed":
	case "http":
		noHTTPS = true
	case "https":
		allHTTPS = true
	default:
		return fmt.Errorf("%w: --scheme %q: want mixed, http or https", errUsage, *scheme)
	}
	if *graphBase != "" && set["scheme"] {
		return fmt.Errorf("%w: --scheme applies to generated webs, not to --graph", errUsage)
	}
	p, err := testweb.ParsePreset(*preset)
	if err != nil {
		return fmt.Errorf("%w: --preset: %v", errUsage, err)
	}
	prof, err := testweb.ParseProfile(*profile)
	if err != nil {
		return fmt.Errorf("%w: --profile: %v", errUsage, err)
	}
	if *crawlDelay == 0 {
		*crawlDelay = -1 // testweb: negative means no Crawl-delay line
	}

	var site *testweb.Site
	if *graphBase != "" {
		g, err := graph.ReadDataset(*graphBase)
		if err != nil {
			return fmt.Errorf("load graph: %w", err)
		}
		h := *hosts
		if !set["hosts"] {
			h = 0
		}
		site, err = testweb.FromGraph(g, testweb.GraphOptions{Seed: *seed, Name: filepath.Base(*graphBase),
			Hosts: h, Preset: p, CrawlDelay: *crawlDelay, Sitemaps: *sitemaps})
		if err != nil {
			return fmt.Errorf("serve graph %s: %w", *graphBase, err)
		}
	} else {
		site, err = testweb.Generate(testweb.GenOptions{Seed: *seed, Pages: *pages, Hosts: *hosts,
			InterHostFraction: interHostFlag(*interHost), Preset: p, CrawlDelay: *crawlDelay, Sitemaps: *sitemaps, Profile: prof,
			NoHTTPS: noHTTPS, AllHTTPS: allHTTPS})
		if err != nil {
			return fmt.Errorf("generate web: %w", err)
		}
	}

	if *dump != "" {
		truth, err := site.Truth(*epoch)
		if err != nil {
			return fmt.Errorf("%w: --epoch %d: %v", errUsage, *epoch, err)
		}
		if err := truth.WriteDataset(*dump, *token); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "nodes\t%d\narcs\t%d\nwrote\t%s.arcs.tsv.gz %s.urls.gz %s.nodes.tsv.gz %s.seeds.txt\n",
			truth.Graph.N(), truth.Graph.M(), *dump, *dump, *dump, *dump)
		return nil
	}

	opts := testweb.Options{Epoch: *epoch, SlowLatency: *slow, RateInterval: *rate}
	var logFile *os.File
	switch *accessLog {
	case "":
	case "-":
		opts.AccessLog = stdout
	default:
		if logFile, err = os.Create(*accessLog); err != nil {
			return fmt.Errorf("open access log: %w", err)
		}
		defer logFile.Close()
		opts.AccessLog = logFile
	}
	web, err := testweb.New(site, opts)
	if err != nil {
		return fmt.Errorf("%w: --epoch, --slow-latency or --rate-interval: %v", errUsage, err)
	}
	srv, err := web.StartAddrs(ctx, testweb.Addrs{HTTP: *addr, HTTPS: *httpsAddr, Control: *controlAddr})
	if err != nil {
		return err
	}
	defer srv.Close()
	if err := srv.WriteResolveFile(*resolveOut); err != nil {
		return err
	}
	if srv.HTTPSAddr() != "" {
		if err := srv.WriteCA(*caOut); err != nil {
			return err
		}
	}
	seeds := site.Seeds()
	if *seedsOut != "" {
		if err := os.WriteFile(*seedsOut, []byte("# seeds of "+site.Name()+"\n"+strings.Join(seeds, "\n")+"\n"), 0o644); err != nil {
			return fmt.Errorf("write seeds: %w", err)
		}
	}

	fmt.Fprintf(stdout, "http\t%s\n", srv.HTTPAddr())
	if a := srv.HTTPSAddr(); a != "" {
		fmt.Fprintf(stdout, "https\t%s\n", a)
	}
	if a := srv.ControlAddr(); a != "" {
		fmt.Fprintf(stdout, "control\t%s\n", a)
	}
	fmt.Fprintf(stdout, "resolve\t%s\n", *resolveOut)
	if srv.HTTPSAddr() != "" {
		fmt.Fprintf(stdout, "ca\t%s\n", *caOut)
	}
	for _, s := range seeds {
		fmt.Fprintf(stdout, "seed\t%s\n", s)
	}
	truth := web.Truth()
	fmt.Fprintf(stderr, "seedcrawl testweb: serving %d URLs on %d hosts (%s, epoch %d) until interrupted\n",
		truth.Graph.N(), len(site.Hosts()), site.Name(), web.Epoch())
	caFlag := ""
	if srv.HTTPSAddr() != "" {
		caFlag = " --ca-file " + *caOut
	}
	fmt.Fprintf(stderr, "  crawl it: seedcrawl crawl --resolve-file %s%s --scope hosts:.test %s\n",
		*resolveOut, caFlag, strings.Join(seeds, " "))
	if a := srv.ControlAddr(); a != "" {
		fmt.Fprintf(stderr, "  next epoch: curl 'http://%s/epoch?n=%d'\n", a, web.Epoch()+1)
	}
	select {
	case <-ctx.Done():
	case <-srv.Done():
	}
	return srv.Close()
}

// interHostFlag maps the flag's 0 (no inter-host links) to testweb's
// negative value; testweb reads 0 as "default".
func interHostFlag(f float64) float64 {
	if f == 0 {
		return -1
	}
	return f
}
