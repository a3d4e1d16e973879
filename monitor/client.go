package monitor

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
)

// maxStatusBytes bounds the /status body FetchStatus reads: a status with
// the default 1000 hosts is well under 1 MiB, even with 256 counters.
const maxStatusBytes = 16 << 20

// FetchStatus asks the monitor at addr (host:port, as Server.Addr and the
// storage lock record give it) for its Status, with the hosts the server
// lists by default (the longest queues; HostsTotal counts them all). It
// gives up when ctx ends; callers set a deadline. Errors: ErrBadStatus
// when the address answers but not with a seedcrawl status, or a wrapped
// network error.
func FetchStatus(ctx context.Context, addr string) (Status, error) {
	var st Status
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return st, fmt.Errorf("monitor: fetch status from %q: %w", addr, err)
	}
	u := "http://" + addr + "/status"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return st, fmt.Errorf("monitor: fetch status from %s: %w", addr, err)
	}
	// A client of its own: no proxy from the environment (the address is
	// local to this machine) and no redirects to elsewhere.
	tr := &http.Transport{Proxy: nil, DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	c := &http.Client{
		Transport: tr,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	resp, err := c.Do(req)
	if err != nil {
		return st, fmt.Errorf("monitor: fetch status from %s: %w", addr, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("%w: %s answered %s", ErrBadStatus, u, resp.Status)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "application/json" {
		return st, fmt.Errorf("%w: %s answered content type %q, not JSON", ErrBadStatus, u, mt)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxStatusBytes+1))
	if err != nil {
		return st, fmt.Errorf("monitor: read status from %s: %w", addr, err)
	}
	if len(body) > maxStatusBytes {
		return st, fmt.Errorf("%w: %s: body over %d bytes", ErrBadStatus, u, maxStatusBytes)
	}
	if err := json.Unmarshal(body, &st); err != nil {
		return Status{}, fmt.Errorf("%w: %s: %w", ErrBadStatus, u, err)
	}
	if st.PID <= 0 {
		return Status{}, fmt.Errorf("%w: %s: no pid in the answer", ErrBadStatus, u)
	}
	return st, nil
}
