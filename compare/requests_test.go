package compare

import (
	"context"
	"testing"
	"time"
)

// stepWeb is a Web the test answers by hand: Request hands each URL to
// the test, which delivers its page when it chooses.
type stepWeb struct {
	asked   chan string
	results chan Page
}

func (w *stepWeb) Request(ctx context.Context, url string) error {
	select {
	case w.asked <- url:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (w *stepWeb) Results() <-chan Page { return w.results }

// TestRequestCounts steps one bfs crawl through three pages and checks,
// after each event, the two parts of Requests: pages requested from their
// server and URLs asked of the web not answered yet. A page answered
// without a request (robots-denied, say) leaves the asked count and never
// reaches the sent one.
func TestRequestCounts(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := New(&MemStore{}, Options{Schedulers: []string{"bfs"}, Seeds: []string{"http://a.test/"}, Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	web := &stepWeb{asked: make(chan string), results: make(chan Page)}
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, web) }()

	for i, step := range []struct {
		asked      string // the URL the web is asked for next
		sent, wait int    // RequestCounts once it is asked
		answer     Page   // then delivered
	}{
		{"http://a.test/", 0, 1, Page{URL: "http://a.test/", Status: 200, OutLinks: []string{"http://a.test/x", "http://a.test/y"}}},
		{"http://a.test/x", 1, 1, Page{URL: "http://a.test/x", Status: 200, Unrequested: true}},
		{"http://a.test/y", 1, 1, Page{URL: "http://a.test/y", Status: 200}},
	} {
		select {
		case u := <-web.asked:
			if u != step.asked {
				t.Fatalf("step %d: asked for %s, want %s", i, u, step.asked)
			}
		case err := <-done:
			t.Fatalf("step %d: Run ended (%v) before asking for %s", i, err, step.asked)
		case <-ctx.Done():
			t.Fatalf("step %d: no request for %s", i, step.asked)
		}
		sent, wait := c.RequestCounts()
		if sent != step.sent || wait != step.wait || c.Requests() != sent+wait {
			t.Errorf("step %d (%s asked): RequestCounts %d sent, %d asked, Requests %d; want %d, %d and their sum",
				i, step.asked, sent, wait, c.Requests(), step.sent, step.wait)
		}
		web.results <- step.answer
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if sent, wait := c.RequestCounts(); sent != 2 || wait != 0 {
		t.Errorf("after Run: %d sent, %d asked; want 2 (the unrequested page left out), 0", sent, wait)
	}
}
