package robots

import (
	"context"
	"errors"
	"net/url"
	"reflect"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/frontier"
)

// decisionChecker answers every Check with one Decision.
type decisionChecker struct{ d Decision }

func (c decisionChecker) Check(context.Context, *url.URL) (Decision, error) { return c.d, nil }

// idURLs maps storage ids to URLs; a missing id is an error.
type idURLs map[uint64]string

func (m idURLs) URL(id uint64) (string, error) {
	if u, ok := m[id]; ok {
		return u, nil
	}
	return "", errors.New("no such id")
}

// TestGateVerdicts checks how a Decision becomes the frontier's Verdict.
func TestGateVerdicts(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name string
		id   uint64
		d    Decision
		want frontier.Verdict
	}{
		{"allowed with crawl-delay", 1, Decision{Allowed: true, CrawlDelay: 2 * time.Second},
			frontier.Verdict{Allowed: true, CrawlDelay: 2 * time.Second}},
		{"disallowed", 1, Decision{Reason: ReasonDisallowed}, frontier.Verdict{Reason: ReasonDisallowed}},
		{"no decision is a disallow", 1, Decision{}, frontier.Verdict{Reason: ReasonDisallowed}},
		{"deferred keeps its retry time and cause class", 1,
			Decision{Reason: ReasonDeferred, RetryAt: at, Cause: "refused: dial tcp: connection refused"},
			frontier.Verdict{Reason: ReasonDeferred + ": refused", RetryAt: at}},
		{"unreachable has no retry time", 1,
			Decision{Reason: ReasonUnreachable, RetryAt: at, Cause: "http-503: 503 Service Unavailable"},
			frontier.Verdict{Reason: ReasonUnreachable + ": http-503"}},
		{"requests made count for their hosts", 1,
			Decision{Allowed: true, Requests: []Request{{Host: "a.test", At: at}, {Host: "b.test:8080", At: at.Add(time.Second)}}},
			frontier.Verdict{Allowed: true, Requests: []frontier.Request{{Host: "a.test", At: at}, {Host: "b.test:8080", At: at.Add(time.Second)}}}},
		{"an id without URL is allowed: the crawl loop records the failure", 9, Decision{Reason: ReasonDisallowed},
			frontier.Verdict{Allowed: true}},
	}
	urls := idURLs{1: "http://a.test/x"}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := Gate{Robots: decisionChecker{tc.d}, URLs: urls}
			got, err := g.Check(context.Background(), tc.id, "a.test")
			if err != nil {
				t.Fatalf("Check: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Check = %+v, want %+v", got, tc.want)
			}
		})
	}
}
