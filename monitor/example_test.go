package monitor_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/seedcrawl/seedcrawl/monitor"
)

// Example shows the wiring a command does for --listen: a Recorder the
// crawler calls per event, a Source over the crawl's state, warnings teed
// from the logger, and the server stopping with the crawl's context.
func Example() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	rec := monitor.NewRecorder()
	warn := monitor.NewWarnings(50)
	log := slog.New(warn.Handler(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
	src := monitor.SourceFunc(func() monitor.Status {
		return monitor.Status{Command: "crawl", Cycle: 1, Frontier: 3,
			Hosts: []monitor.Host{{Name: "a.test", Queue: 3}}}
	})
	srv, err := monitor.Start(ctx, "127.0.0.1:0", monitor.Options{Source: src, Recorder: rec, Warnings: warn, Logger: log})
	if err != nil {
		fmt.Println(err)
		return
	}
	// (A command would now call db.Advertise(srv.Addr()).)

	// The crawler, per event:
	rec.ObserveFetch(200, 2048, 40*time.Millisecond)
	rec.Count("fetch/fetched", 1)
	log.Warn("robots.txt unreachable", "host", "b.test")

	// stats, in another process, after storage.Holder gave it the address:
	st, err := monitor.FetchStatus(ctx, srv.Addr())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st.Command, st.Frontier, st.Hosts[0].Name, st.Hosts[0].State, st.Recorded.Pages["fetched"], st.Warnings[0].Message)
	// Output: crawl 3 a.test ready 1 robots.txt unreachable host=b.test
}
