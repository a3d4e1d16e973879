package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/seedcrawl/seedcrawl/crawler"
	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/recrawl"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/warc"
)

// This file wires --warc and --listen into a crawl session. Both are set
// up by openCrawlBase and torn down by close; the monitor also needs the
// command's context, so it starts in serve.

// statusWarnings is how many recent warnings the status page keeps.
const statusWarnings = 100

// observer is the part of a crawl session that lets others see the crawl:
// the WARC writer, the monitor and what it reads.
type observer struct {
	warc     *warc.Writer
	rec      *monitor.Recorder // nil without --listen
	warnings *monitor.Warnings // nil without --listen
	started  time.Time

	live atomic.Pointer[liveCrawl] // the crawl running now (run: the current cycle's)
	// pause is run's wait for its next cycle, while it waits; else nil.
	pause atomic.Pointer[recrawl.Pause]

	stopMonitor context.CancelFunc
	monitor     *monitor.Server
}

// liveCrawl is what the status source reads of the crawl running now.
type liveCrawl struct {
	c      *crawler.Crawler
	fr     *frontier.Frontier
	cycle  uint32
	budget int64
}

// openObserver opens the WARC writer (--warc) and, for --listen, the
// recorder and the warnings ring, teeing logger's warnings into it. The
// returned logger is the one the crawl must use.
func (s *crawlSession) openObserver(logger *slog.Logger) (*slog.Logger, error) {
	s.obs.started = time.Now()
	if s.cfg.Listen != "" {
		s.obs.rec = monitor.NewRecorder()
		s.obs.warnings = monitor.NewWarnings(statusWarnings)
		logger = slog.New(s.obs.warnings.Handler(logger.Handler()))
	}
	if s.cfg.WARC != "" {
		// Payload digests are remembered in memory, bounded
		// (warc.DefaultDigestEntries): the db's content hashes are of
		// decoded bodies, not of the HTTP payload a WARC digest covers.
		w, err := warc.Open(warc.Options{Dir: s.cfg.WARC})
		if err != nil {
			return logger, fmt.Errorf("open warc: %w", err)
		}
		for _, r := range w.Recovered() {
			// Open cut a partial last record pair a killed run (or a
			// power cut) left in a file of its own, then indexed it:
			// bytes gone from the disk, which the user should hear of.
			if r.Cut > 0 {
				logger.Warn("warc: cut a partial last record pair from the end of a file found without an index, then indexed it",
					"file", filepath.Join(s.cfg.WARC, r.Name), "bytes", r.Cut)
			}
		}
		for _, err := range w.Unrecovered() {
			// A file found without an index that Open could not index
			// (damaged, another tool's, not a regular file, say) stays
			// as it is; err names it and says whether bytes were cut.
			// The crawl writes files of its own.
			logger.Warn("warc: skipped a file found without an index; this crawl writes files of its own", "err", err)
		}
		s.obs.warc = w
	}
	return logger, nil
}

// archive returns the crawler's Archive, nil without --warc.
func (s *crawlSession) archive() fetch.Archiver {
	if s.obs.warc == nil {
		return nil
	}
	return s.obs.warc
}

// recorder returns the crawler's Recorder, nil without --listen.
func (s *crawlSession) recorder() crawler.Recorder {
	if s.obs.rec == nil {
		return nil
	}
	return s.obs.rec
}

// publish makes a new crawler the one the status source reads.
func (s *crawlSession) publish(cy crawler.Cycle, budget int64) {
	cycle := uint32(1)
	if cy != nil {
		cycle = cy.N()
	}
	s.obs.live.Store(&liveCrawl{c: s.c, fr: s.fr, cycle: cycle, budget: budget})
}

// serve starts the monitor for --listen, advertises its address in the
// db's lock record and says where it is on w. It stops when ctx ends or
// the session closes.
func (s *crawlSession) serve(ctx context.Context, command string, w io.Writer) error {
	if s.cfg.Listen == "" {
		return nil
	}
	mctx, cancel := context.WithCancel(ctx)
	srv, err := monitor.Start(mctx, s.cfg.Listen, monitor.Options{
		Source:   monitor.SourceFunc(func() monitor.Status { return s.status(command) }),
		Recorder: s.obs.rec,
		Warnings: s.obs.warnings,
		Logger:   s.x.logger,
	})
	if err != nil {
		cancel()
		return fmt.Errorf("listen: %w", err)
	}
	s.obs.stopMonitor, s.obs.monitor = cancel, srv
	// The recorded address is one stats can dial and print: a wildcard
	// listener is recorded at its loopback address.
	if err := s.db.Advertise(srv.DialAddr()); err != nil {
		return fmt.Errorf("advertise status address: %w", err)
	}
	fmt.Fprintf(w, "status on %s\n", srv.URL())
	return nil
}

// statusHosts is how many hosts the source lists: the monitor shows at
// most this many (its default), so listing more would be wasted.
const statusHosts = 1000

// status is the monitor's Source: a snapshot of the crawl running now.
func (s *crawlSession) status(command string) monitor.Status {
	st := monitor.Status{Command: command, DB: s.cfg.DB, Start: s.obs.started, Cycle: 1}
	if p := s.obs.pause.Load(); p != nil {
		// Waiting for cycle Next: the last cycle done is the one before,
		// crawled by this process or (a rerun in the wait) an earlier one.
		st.NextCycle, st.NextCycleAt = p.Next, p.Until
		st.Cycle = max(p.Next-1, 1)
	}
	lc := s.obs.live.Load()
	if lc == nil {
		return st
	}
	p := lc.c.Progress()
	st.Cycle = lc.cycle
	st.Frontier, st.InFlight = p.Pending, p.InFlight
	st.Fetches, st.Pages, st.Discovered, st.Bytes = p.Fetches, p.Pages, p.Discovered, p.Bytes
	st.Counters = lc.c.Counters()
	if lc.budget > 0 {
		st.Budget = lc.budget
		st.BudgetLeft = max(lc.budget-int64(p.Fetches), 0)
	}
	st.Hosts, st.HostStates = lc.fr.Hosts(statusHosts)
	st.HostsTotal = p.Hosts
	return st
}

// closeObserver closes the WARC writer (the crawler has stopped, so no
// more writes come) and stops the monitor; both before the db closes.
func (s *crawlSession) closeObserver() error {
	var err error
	if s.obs.warc != nil {
		if err = s.obs.warc.Close(); err != nil {
			err = fmt.Errorf("close warc: %w", err)
		}
		s.obs.warc = nil
	}
	if s.obs.monitor != nil {
		s.obs.stopMonitor()
		<-s.obs.monitor.Done()
		s.obs.monitor = nil
	}
	return err
}

// statsLive prints the status of the crawl that holds the db at path,
// read from its monitor; ok is false when the holder advertises no
// address (a crawl without --listen).
func statsLive(ctx context.Context, path string, w io.Writer, asJSON bool) (ok bool, err error) {
	pid, addr, held := storage.Holder(path)
	if !held || addr == "" {
		return false, nil
	}
	fctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	st, err := monitor.FetchStatus(fctx, addr)
	if err != nil {
		return true, fmt.Errorf("read live status of %s from the crawl (pid %d) at %s: %w", path, pid, addr, err)
	}
	if st.PID != pid {
		return true, fmt.Errorf("read live status of %s: %s is served by pid %d, but pid %d holds the db", path, addr, st.PID, pid)
	}
	if asJSON {
		return true, writeJSON(w, struct {
			Live bool `json:"live"`
			monitor.Status
		}{true, st})
	}
	statsWriteLive(w, addr, st)
	return true, nil
}

// statsWriteLive prints a running crawl's status for a person.
func statsWriteLive(w io.Writer, addr string, st monitor.Status) {
	fmt.Fprintf(w, "db        %s (held by a running seedcrawl %s, pid %d; status on http://%s/)\n", st.DB, st.Command, st.PID, addr)
	fmt.Fprintf(w, "running   %s since %s, cycle %d\n", st.Now.Sub(st.Start).Round(time.Second), st.Start.Format(time.RFC3339), st.Cycle)
	if st.NextCycle > 0 {
		// Waiting between cycles (run --interval), as /status says in
		// next_cycle and next_cycle_at.
		fmt.Fprintf(w, "next      cycle %d starts at %s, in %s\n", st.NextCycle, st.NextCycleAt.Format(time.RFC3339),
			max(st.NextCycleAt.Sub(st.Now), 0).Round(time.Second))
	}
	fmt.Fprintf(w, "pages     %d recorded (URLs done), %d fetches (requests), %d new URLs queued, %s\n", st.Pages, st.Fetches, st.Discovered, monitor.ByteCount(st.Bytes))
	fmt.Fprintf(w, "frontier  %d pending, %d in flight\n", st.Frontier, st.InFlight)
	if st.Budget > 0 {
		fmt.Fprintf(w, "budget    %d of %d pages left\n", st.BudgetLeft, st.Budget)
	}
	states := map[string]uint64{}
	for k, n := range st.HostStates {
		states[k] = uint64(n)
	}
	fmt.Fprintf(w, "hosts     %d: %s\n", st.HostsTotal, crawlFormatCounts(states))
	groups := statsGroupCounters(st.Counters)
	for _, g := range []struct{ key, name string }{{"fetch", "fetch outcomes"}, {"skip", "not fetched or not queued"},
		{"reject", "links rejected"}, {"error", "errors"}, {"retry", "retries"}} {
		if m := groups[g.key]; len(m) > 0 {
			fmt.Fprintf(w, "  %-26s %s\n", g.name+":", crawlFormatCounts(m))
		}
	}
	for i, h := range st.Hosts {
		if i == 10 {
			break
		}
		line := fmt.Sprintf("  %-30s %6d queued  %s", h.Name, h.Queue, h.State)
		if h.Reason != "" {
			line += " (" + h.Reason + ")"
		}
		fmt.Fprintln(w, line)
	}
	for _, wn := range st.Warnings {
		fmt.Fprintf(w, "warning   %s %s\n", wn.Time.Format(time.TimeOnly), wn.Message)
	}
}
