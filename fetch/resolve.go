package fetch

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// ResolveMap overrides name resolution like curl --resolve. Keys are a
// lower-cased host name, optionally with a port ("example.com:8080");
// values are an IP ("127.0.0.1", "::1") or IP:PORT ("127.0.0.1:8081",
// "[::1]:8081"). A "host:port" key wins over a plain "host" key. An IP
// value keeps the port of the URL; an IP:PORT value replaces it. The zero
// (nil) ResolveMap overrides nothing; Add needs a non-nil map.
type ResolveMap map[string]string

// ParseResolve parses one --resolve value, "HOST[:PORT]=ADDR" with ADDR an
// IP or IP:PORT, into a key and value for ResolveMap.
func ParseResolve(v string) (key, addr string, err error) {
	h, a, ok := strings.Cut(strings.TrimSpace(v), "=")
	if !ok {
		return "", "", fmt.Errorf("fetch: resolve %q: %w: want HOST[:PORT]=ADDR", v, ErrResolve)
	}
	return parseEntry(v, h, a)
}

func parseEntry(src, h, a string) (key, addr string, err error) {
	h = strings.ToLower(strings.TrimSpace(h))
	a = strings.TrimSpace(a)
	host, port := h, ""
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.HasSuffix(h, "]") {
		host, port = h[:i], h[i+1:]
		if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
			return "", "", fmt.Errorf("fetch: resolve %q: %w: bad port %q", src, ErrResolve, port)
		}
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if host == "" || strings.ContainsAny(host, "/@ \t=") {
		return "", "", fmt.Errorf("fetch: resolve %q: %w: bad host %q", src, ErrResolve, h)
	}
	if host, err = entryName(host); err != nil {
		return "", "", fmt.Errorf("fetch: resolve %q: %w: bad host %q: %v", src, ErrResolve, h, err)
	}
	if err := checkAddr(a); err != nil {
		return "", "", fmt.Errorf("fetch: resolve %q: %w: %v", src, ErrResolve, err)
	}
	if port != "" {
		return net.JoinHostPort(host, port), a, nil
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return host, a, nil
}

// entryName returns a resolve entry's host as a dial address names it:
// normalized as URLs are, so an IDN is in punycode ("bücher.test" is
// dialed as "xn--bcher-kva.test") and an absolute name loses its trailing
// dot. An IP literal is kept.
func entryName(host string) (string, error) {
	if net.ParseIP(host) != nil {
		return host, nil
	}
	n, err := urlnorm.Normalize("http://" + host + "/")
	if err != nil {
		return "", err
	}
	return urlnorm.HostName(n), nil
}

// dialName drops the trailing dot of an absolute DNS name: "example.com."
// and "example.com" are one name, so a URL written either way takes the
// same resolve entry instead of a lookup the entry was meant to prevent.
func dialName(host string) string { return strings.TrimSuffix(host, ".") }

// checkAddr accepts an IP or IP:PORT.
func checkAddr(a string) error {
	if net.ParseIP(a) != nil {
		return nil
	}
	h, p, err := net.SplitHostPort(a)
	if err != nil || net.ParseIP(h) == nil {
		return fmt.Errorf("address %q is not an IP or IP:PORT", a)
	}
	if n, err := strconv.Atoi(p); err != nil || n <= 0 || n > 65535 {
		return fmt.Errorf("address %q has a bad port", a)
	}
	return nil
}

// Add parses a --resolve value and adds it to m.
func (m ResolveMap) Add(v string) error {
	k, a, err := ParseResolve(v)
	if err != nil {
		return err
	}
	m[k] = a
	return nil
}

// LoadResolveFile reads a resolve file: one "HOST[:PORT] ADDR" per line
// (whitespace-separated; "HOST=ADDR" is accepted too), '#' starts a
// comment, blank lines are skipped. Errors name the file and line.
func LoadResolveFile(path string) (ResolveMap, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("fetch: open resolve file: %w", err)
	}
	defer f.Close()
	m := ResolveMap{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		var h, a string
		if f := strings.Fields(line); len(f) == 2 {
			h, a = f[0], f[1]
		} else if x, y, ok := strings.Cut(line, "="); ok && len(f) == 1 {
			h, a = x, y
		} else {
			return nil, fmt.Errorf("fetch: %s:%d: %w: want \"HOST[:PORT] ADDR\", got %q", path, n, ErrResolve, line)
		}
		k, v, err := parseEntry(line, h, a)
		if err != nil {
			return nil, fmt.Errorf("fetch: %s:%d: %w", path, n, err)
		}
		m[k] = v
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("fetch: read resolve file %s: %w", path, err)
	}
	return m, nil
}

// Lookup returns the override for host and port (port as in the dial
// address): the "host:port" entry if any, else the "host" entry; addr is
// then a full "ip:port" to dial.
func (m ResolveMap) Lookup(host, port string) (addr string, ok bool) {
	if len(m) == 0 {
		return "", false
	}
	host = dialName(strings.ToLower(host))
	v, ok := m[net.JoinHostPort(host, port)]
	if !ok {
		h := host
		if strings.Contains(h, ":") {
			h = "[" + h + "]"
		}
		v, ok = m[h]
	}
	if !ok {
		return "", false
	}
	if net.ParseIP(v) != nil {
		return net.JoinHostPort(v, port), true
	}
	return v, true
}

// Hosts returns the host names m overrides, sorted, without ports or
// brackets.
func (m ResolveMap) Hosts() []string {
	seen := map[string]bool{}
	var out []string
	for k := range m {
		h := k
		if hh, _, err := net.SplitHostPort(k); err == nil {
			h = hh
		}
		h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	sort.Strings(out)
	return out
}
