package crawler

import (
	"context"
	"log/slog"
	"net/url"

	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/robots"
)

// URLSource gives the URL of a storage id, committed or only interned;
// *storage.DB implements it.
type URLSource interface {
	URL(id uint64) (string, error)
}

// RobotsGate is the frontier's robots.txt checker (frontier.RobotsChecker):
// it looks the URL of an id up in URLs and asks Robots. Build one per crawl
// database and pass it as frontier.Options.Robots.
type RobotsGate struct {
	Robots Robots
	URLs   URLSource
	// Logger receives robots store failures (the verdict is still good).
	// nil: discard.
	Logger *slog.Logger
}

// Check implements frontier.RobotsChecker. A URL it cannot look up or
// parse is allowed here: the crawl loop looks it up again and records the
// failure.
func (g RobotsGate) Check(ctx context.Context, id uint64, _ string) (frontier.Verdict, error) {
	raw, err := g.URLs.URL(id)
	if err != nil {
		return frontier.Verdict{Allowed: true}, nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return frontier.Verdict{Allowed: true}, nil
	}
	d, err := g.Robots.Check(ctx, u)
	if err != nil {
		if ctx.Err() != nil {
			return frontier.Verdict{}, err
		}
		if g.Logger != nil {
			g.Logger.Warn("robots.txt cache", "url", raw, "err", err)
		}
	}
	v := frontier.Verdict{Allowed: d.Allowed, Reason: d.Reason, CrawlDelay: d.CrawlDelay}
	switch {
	case d.Reason == robots.ReasonDeferred:
		v.RetryAt = d.RetryAt
	case !d.Allowed && d.Reason == "":
		// No decision (a URL robots cannot judge): not allowed, as before
		// the frontier asked.
		v.Reason = robots.ReasonDisallowed
	}
	for _, r := range d.Requests {
		v.Requests = append(v.Requests, frontier.Request{Host: string(r.Host), At: r.At})
	}
	return v, nil
}
