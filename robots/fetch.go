package robots

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// record is an entry with its rules parsed for our token.
type record struct {
	entry Entry
	group *group
}

func (c *Cache) record(e Entry) *record {
	r := &record{entry: e}
	if State(e.State) == StateRules {
		r.group = parse(e.Body).group(c.opts.Token)
	}
	return r
}

// flight is what one refresh of an origin hands every caller waiting on it:
// the record and the requests made to get it (none when it came from memory
// or the Store).
type flight struct {
	rec      *record
	requests []Request
}

// requestLog collects the requests of one robots.txt fetch, redirect hops
// included, and the first failure to archive them (Options.Archive); it
// travels in the request's context, so the client's CheckRedirect and
// archiving transport, shared by concurrent fetches, find the right one.
type requestLog struct {
	mu         sync.Mutex
	reqs       []Request
	archiveErr error
}

type requestLogKey struct{}

// noteRequest records req in the requestLog of its context, if any.
func noteRequest(req *http.Request, at time.Time) {
	l, ok := req.Context().Value(requestLogKey{}).(*requestLog)
	if !ok {
		return
	}
	l.mu.Lock()
	l.reqs = append(l.reqs, Request{Host: urlnorm.HostOfURL(req.URL), At: at})
	l.mu.Unlock()
}

// refresh finds a fresh record for origin: in memory (another flight may
// have just finished), in the Store, or by fetching. It always returns a
// flight; the error reports a Store failure.
func (c *Cache) refresh(origin string) (any, error) {
	now := c.opts.Now()
	var prev Entry
	if r, ok := c.lru.get(origin); ok {
		if now.Before(r.entry.Expires) {
			return flight{rec: r}, nil
		}
		prev = r.entry
	}
	var storeErr error
	if c.opts.Store != nil {
		e, ok, err := c.opts.Store.LoadRobots(origin)
		switch {
		case err != nil:
			storeErr = fmt.Errorf("robots: load %s: %w", origin, err)
		case ok && !known(e):
			// Not a state this version knows: fetch again.
		case ok && State(e.State) == StateDisallowAll && strings.HasPrefix(e.Err, "tls: "):
			// Given up over TLS in an earlier process, whose trusted
			// roots (--ca-file) may not be this one's: ask again once.
			prev = e
		case ok && now.Before(e.Expires):
			r := c.record(e)
			c.lru.put(origin, r)
			return flight{rec: r}, nil
		case ok:
			prev = e
		}
	}
	var log requestLog
	e := c.fetch(origin, prev, &log)
	r := c.record(e)
	c.lru.put(origin, r)
	if err := log.archiveFailure(); err != nil {
		// The verdict stands in this process. Left out of the Store, the
		// entry makes the next process fetch robots.txt again and archive
		// it, as a page whose archiving failed is fetched again: archived
		// twice perhaps, never missing.
		return flight{rec: r, requests: log.reqs}, errors.Join(storeErr, fmt.Errorf("robots: archive %s: %w", origin, err))
	}
	if c.opts.Store != nil {
		if err := c.opts.Store.SaveRobots(origin, e); err != nil && storeErr == nil {
			storeErr = fmt.Errorf("robots: save %s: %w", origin, err)
		}
	}
	return flight{rec: r, requests: log.reqs}, storeErr
}

// fetch gets origin's robots.txt and turns the outcome into an entry; prev
// is the previous entry (zero if none), whose failure count it continues.
// Every request made, redirects included, is noted in log.
func (c *Cache) fetch(origin string, prev Entry, log *requestLog) Entry {
	// The fetch is shared by every caller waiting on this origin, so it
	// runs on its own deadline rather than on the first caller's context.
	ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), requestLogKey{}, log), c.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, origin+"/robots.txt", nil)
	if err != nil {
		return c.failed(prev, 0, fmt.Sprintf("build request: %v", err))
	}
	req.Header.Set("User-Agent", c.opts.UserAgent)
	req.Header.Set("Accept", "text/plain, */*;q=0.5")
	noteRequest(req, c.opts.Now())
	resp, err := c.client.Do(req)
	if err != nil {
		if errors.Is(err, errTooManyRedirects) {
			// RFC 9309 2.3.1.2: after five redirects the crawler MAY
			// assume robots.txt is unavailable.
			return c.done(StateAllowAll, 0, nil, "too many redirects")
		}
		if c.opts.Refused != nil && c.opts.Refused(err) {
			return c.done(StateRefused, 0, nil, err.Error())
		}
		msg := causeClass(err) + ": " + err.Error()
		if untrusted(err) {
			// Asking again will not make the certificate trusted: the
			// origin is unreachable at once (and its pages would fail
			// the same way).
			return c.unreachable(0, 1, msg)
		}
		if connFailure(err) {
			return c.failedAfter(prev, 0, msg, c.opts.ConnBackoff)
		}
		return c.failed(prev, 0, msg)
	}
	defer resp.Body.Close()
	switch code := resp.StatusCode; {
	case code >= 200 && code < 300:
		body, err := io.ReadAll(io.LimitReader(resp.Body, c.opts.MaxSize+1))
		if err != nil {
			return c.failed(prev, code, fmt.Sprintf("read body: %v", err))
		}
		return c.done(StateRules, code, capBody(body, c.opts.MaxSize), "")
	case code == http.StatusTooManyRequests:
		// RFC 9309 lists 429 with the 4xx "unavailable" codes, but a site
		// asking us to slow down has not said "no rules": treat it like a
		// server error (Google does the same).
		drain(resp.Body)
		return c.failed(prev, code, fmt.Sprintf("http-%d: %s", code, resp.Status))
	case code >= 300 && code < 500:
		// 4xx: unavailable, allow everything (RFC 9309 2.3.1.3). A 3xx
		// reaching here had no usable Location.
		drain(resp.Body)
		return c.done(StateAllowAll, code, nil, "")
	default:
		drain(resp.Body)
		return c.failed(prev, code, fmt.Sprintf("http-%d: %s", code, resp.Status))
	}
}

func (c *Cache) done(s State, status int, body []byte, msg string) Entry {
	now := c.opts.Now()
	return Entry{State: uint8(s), FetchedAt: now, Expires: now.Add(c.opts.TTL), Code: status, Body: body, Err: msg}
}

// failed records one more failed attempt: deferred with exponential backoff,
// or disallow-all until TTL once MaxFailures is reached (RFC 9309 2.3.1.4).
func (c *Cache) failed(prev Entry, status int, msg string) Entry {
	return c.failedAfter(prev, status, msg, c.opts.Backoff)
}

// failedAfter is failed with first as the first wait.
func (c *Cache) failedAfter(prev Entry, status int, msg string, first time.Duration) Entry {
	n := 1
	if State(prev.State) == StateDeferred {
		n = int(prev.Failures) + 1
	}
	if n >= c.opts.MaxFailures {
		return c.unreachable(status, n, msg)
	}
	now := c.opts.Now()
	return Entry{State: uint8(StateDeferred), FetchedAt: now, Expires: now.Add(c.backoff(first, n)),
		Code: status, Failures: uint32(n), Err: msg}
}

// unreachable gives an origin up after its failures'th failed attempt:
// disallow-all until TTL (RFC 9309 2.3.1.4).
func (c *Cache) unreachable(status, failures int, msg string) Entry {
	now := c.opts.Now()
	return Entry{State: uint8(StateDisallowAll), FetchedAt: now, Expires: now.Add(c.opts.TTL),
		Code: status, Failures: uint32(failures), Err: msg}
}

// untrusted reports a TLS certificate that failed verification: signed
// by an unknown authority, for another host name, expired or otherwise
// invalid. Unlike a refused connection, it does not heal in minutes.
func untrusted(err error) bool {
	var certErr *tls.CertificateVerificationError
	var unkAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalid x509.CertificateInvalidError
	return errors.As(err, &certErr) || errors.As(err, &unkAuth) || errors.As(err, &hostErr) || errors.As(err, &invalid)
}

// connFailure reports an error of connecting at all, as opposed to a
// server that answered badly or slowly: refused or reset connections, an
// unreachable network, a host name that does not resolve, a TLS handshake
// or certificate failure.
func connFailure(err error) bool {
	switch causeClass(err) {
	case "refused", "reset", "unreachable", "tls":
		return true
	case "dns":
		var dns *net.DNSError
		return errors.As(err, &dns) && !dns.IsTimeout && !dns.IsTemporary
	}
	return false
}

// causeClass names the kind of a fetch error in one stable word, so that
// failures can be counted by cause: refused, reset, unreachable, dns, tls,
// timeout or network.
func causeClass(err error) string {
	var dns *net.DNSError
	var cert *tls.CertificateVerificationError
	var hostErr x509.HostnameError
	var authErr x509.UnknownAuthorityError
	var recErr tls.RecordHeaderError
	var nerr net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "reset"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "unreachable"
	case errors.As(err, &dns):
		return "dns"
	case errors.As(err, &cert), errors.As(err, &hostErr), errors.As(err, &authErr), errors.As(err, &recErr):
		return "tls"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &nerr) && nerr.Timeout():
		return "timeout"
	}
	return "network"
}

// backoff returns first * 2^(n-1), capped at MaxBackoff.
func (c *Cache) backoff(first time.Duration, n int) time.Duration {
	d := first
	for i := 1; i < n && d < c.opts.MaxBackoff; i++ {
		d *= 2
	}
	return min(d, c.opts.MaxBackoff)
}

// capBody cuts a body longer than max to its first max bytes and drops the
// partial last line, so a rule is never read cut in half.
func capBody(b []byte, max int64) []byte {
	if int64(len(b)) <= max {
		return b
	}
	b = b[:max]
	if i := bytes.LastIndexAny(b, "\r\n"); i >= 0 {
		b = b[:i+1]
	}
	return b
}

// drain reads a little of an unwanted body so the connection can be reused.
func drain(r io.Reader) { _, _ = io.Copy(io.Discard, io.LimitReader(r, 64<<10)) }
