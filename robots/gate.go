package robots

import (
	"context"
	"log/slog"
	"net/url"
	"sync"
	"time"

	"github.com/seedcrawl/seedcrawl/frontier"
)

// URLSource gives the URL of a storage id, committed or only interned;
// *storage.DB implements it.
type URLSource interface {
	URL(id uint64) (string, error)
}

// Checker answers robots.txt questions for a URL; *Cache implements it.
type Checker interface {
	Check(ctx context.Context, u *url.URL) (Decision, error)
}

// Gate is the frontier's robots.txt checker (frontier.RobotsChecker): the
// frontier asks by storage id, so Gate looks the URL of an id up in URLs
// and asks Robots, then turns the Decision into the frontier's Verdict.
// Build one per crawl database and pass it as frontier.Options.Robots.
type Gate struct {
	Robots Checker
	URLs   URLSource
	// Logger receives robots store and archive failures (the verdict is
	// still good) and, when the gate was made by NewGate, one line per
	// origin each time its robots.txt state changes (deferred, given up,
	// refused, reachable again), with the cause. nil: discard.
	Logger *slog.Logger

	states *sync.Map // origin -> last logged state; nil: no state lines
}

// NewGate returns a Gate that also reports each origin's
// changes of robots.txt state on Logger: a host that cannot be reached is
// said at once, with why, not found later in the counters. It keeps one
// small entry per origin that had a problem.
func NewGate(r Checker, urls URLSource, logger *slog.Logger) Gate {
	return Gate{Robots: r, URLs: urls, Logger: logger, states: &sync.Map{}}
}

// noteState logs d's state for u's origin if it differs from the last one
// logged. Only origins that had a problem are remembered.
func (g Gate) noteState(u *url.URL, d Decision) {
	if g.states == nil || g.Logger == nil {
		return
	}
	origin := u.Scheme + "://" + u.Host
	state := d.Reason
	if state == ReasonDisallowed {
		state = "" // rules are known: the origin is fine
	}
	prev, had := g.states.Load(origin)
	if (!had && state == "") || (had && prev.(string) == state) {
		return
	}
	g.states.Store(origin, state)
	switch state {
	case "":
		g.Logger.Warn("robots.txt reachable again", "origin", origin)
	case ReasonDeferred:
		g.Logger.Warn("robots.txt unreachable; host deferred", "origin", origin, "cause", d.Cause,
			"retry_at", d.RetryAt.Format(time.TimeOnly))
	case ReasonUnreachable:
		g.Logger.Warn("robots.txt unreachable; host given up until the robots TTL", "origin", origin, "cause", d.Cause)
	case ReasonPrivateAddress:
		g.Logger.Warn("address refused (private or special-purpose); host skipped", "origin", origin, "cause", d.Cause)
	default:
		g.Logger.Warn("robots.txt", "origin", origin, "state", state, "cause", d.Cause)
	}
}

// Check implements frontier.RobotsChecker. A URL it cannot look up or
// parse is allowed here: the crawl loop looks it up again and records the
// failure.
func (g Gate) Check(ctx context.Context, id uint64, _ string) (frontier.Verdict, error) {
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
	g.noteState(u, d)
	v := frontier.Verdict{Allowed: d.Allowed, Reason: d.Reason, CrawlDelay: d.CrawlDelay}
	if class := d.CauseClass(); class != "" && (d.Reason == ReasonDeferred || d.Reason == ReasonUnreachable) {
		// Stored and counted per cause: "robots-unreachable: refused".
		v.Reason = d.Reason + ": " + class
	}
	switch {
	case d.Reason == ReasonDeferred:
		v.RetryAt = d.RetryAt
	case !d.Allowed && d.Reason == "":
		// No decision (a URL robots cannot judge): not allowed, as before
		// the frontier asked.
		v.Reason = ReasonDisallowed
	}
	for _, r := range d.Requests {
		v.Requests = append(v.Requests, frontier.Request{Host: string(r.Host), At: r.At})
	}
	return v, nil
}
