package urlnorm

import (
	"fmt"
	"strings"
	"sync"

	wurl "github.com/nlnwa/whatwg-url/url"

	"github.com/seedcrawl/seedcrawl/internal/percent"
)

// parser is the WHATWG parser every function here uses. It is immutable
// configuration (options only, no state between calls), so sharing it is
// safe. WithPercentEncodeSinglePercentSign writes a '%' that does not start
// an escape as "%25", which keeps every result parseable by net/url.
var parser = wurl.NewParser(wurl.WithPercentEncodeSinglePercentSign())

// Normalize parses raw as an absolute URL and returns its normal form (see
// the package documentation for the exact rules). It fails with ErrParse,
// ErrScheme or ErrHost, wrapped with the input.
func Normalize(raw string) (string, error) { return normalize(raw, false) }

// normalize is Normalize, and NormalizeSeed when seed is set: then a URL
// with userinfo is refused, and no error repeats a password.
func normalize(raw string, seed bool) (string, error) {
	if s, ok := fastNormalize(raw); ok { // never a URL with userinfo
		return s, nil
	}
	shown := raw
	if seed {
		shown = RedactUserinfo(raw)
	}
	u, err := parser.Parse(raw)
	if err != nil {
		why := err.Error()
		if seed {
			why = strings.ReplaceAll(why, raw, shown) // the parser's message quotes its input
		}
		return "", fmt.Errorf("urlnorm: normalize %q: %w: %s", clip(shown), ErrParse, why)
	}
	s, err := serialize(u)
	if err != nil {
		return "", fmt.Errorf("urlnorm: normalize %q: %w", clip(shown), err)
	}
	if seed && (u.Username() != "" || u.Password() != "") {
		return "", fmt.Errorf("urlnorm: seed on host %q: %w: credentials in a URL are not sent (remove the user:password@ part)", clip(u.Hostname()), ErrUserinfo)
	}
	return s, nil
}

// Resolve resolves ref against the absolute URL base the way a browser
// follows a link (WHATWG URL Standard) and returns the normalized result.
// An absolute ref ignores base. Errors are those of Normalize.
func Resolve(base, ref string) (string, error) {
	b, err := NewBase(base)
	if err != nil {
		return "", err
	}
	return b.Resolve(ref)
}

// Base is a parsed absolute URL that references are resolved against. Parse
// it once per page with NewBase and call Resolve for each link. A Base is
// immutable and safe for concurrent use.
type Base struct {
	raw    string    // the base as given
	normal bool      // raw is in normal form: its WHATWG serialization
	fast   *fastBase // the base split for fastResolve; nil if not eligible
	// u is the WHATWG-parsed base, for references the fast path does not
	// take. A base already in normal form (a crawler's page URL) is
	// parsed only when such a reference comes: most pages have none.
	once sync.Once
	u    *wurl.Url
	err  error
}

// NewBase parses raw as an absolute URL to resolve references against. Any
// scheme WHATWG accepts is allowed as a base (a page fetched over http may
// declare <base href="https://...">); only results are restricted to http
// and https.
func NewBase(raw string) (*Base, error) {
	if s, ok := fastNormalize(raw); ok && s == raw {
		if fb := splitFastBase(s); fb != nil {
			return &Base{raw: raw, normal: true, fast: fb}, nil
		}
	}
	u, err := parser.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("urlnorm: parse base %q: %w: %v", clip(raw), ErrParse, err)
	}
	b := &Base{raw: raw, u: u}
	b.once.Do(func() {})
	b.fast = newFastBase(u)
	return b, nil
}

// url returns the WHATWG-parsed base, parsing it on first use.
func (b *Base) url() (*wurl.Url, error) {
	b.once.Do(func() {
		b.u, b.err = parser.Parse(b.raw)
		if b.err != nil {
			b.err = fmt.Errorf("urlnorm: parse base %q: %w: %v", clip(b.raw), ErrParse, b.err)
		}
	})
	return b.u, b.err
}

// String returns the base URL as WHATWG serializes it (fragment included).
// A base in normal form is its own serialization (FuzzFastPath checks).
func (b *Base) String() string {
	if b.normal {
		return b.raw
	}
	u, err := b.url()
	if err != nil {
		return b.raw
	}
	return u.Href(false)
}

// Resolve resolves ref against b and normalizes the result.
func (b *Base) Resolve(ref string) (string, error) {
	if s, ok := fastResolve(b.fast, ref); ok {
		return s, nil
	}
	return b.resolveSlow(ref)
}

// resolveSlow resolves ref with the WHATWG parser.
func (b *Base) resolveSlow(ref string) (string, error) {
	base, err := b.url()
	if err != nil {
		return "", err
	}
	u, err := parser.BasicParser(ref, base, nil, wurl.NoState)
	if err != nil {
		return "", fmt.Errorf("urlnorm: resolve %q against %q: %w: %v", clip(ref), clip(b.raw), ErrParse, err)
	}
	s, err := serialize(u)
	if err != nil {
		return "", fmt.Errorf("urlnorm: resolve %q against %q: %w", clip(ref), clip(b.raw), err)
	}
	return s, nil
}

// Rebase resolves ref against b and returns it as a new Base, for
// <base href> (which may itself be relative to the page URL). The result
// is not normalized: a base keeps its fragment and may use any scheme.
func (b *Base) Rebase(ref string) (*Base, error) {
	base, err := b.url()
	if err != nil {
		return nil, err
	}
	u, err := parser.BasicParser(ref, base, nil, wurl.NoState)
	if err != nil {
		return nil, fmt.Errorf("urlnorm: rebase %q against %q: %w: %v", clip(ref), clip(b.raw), ErrParse, err)
	}
	nb := &Base{raw: u.Href(false), u: u}
	nb.once.Do(func() {})
	nb.fast = newFastBase(u)
	return nb, nil
}

// HostName returns the host name of the absolute URL u: HostOf(u).Name(),
// lower-cased, without userinfo and port, an IPv6 literal in brackets
// ("[::1]"). It does not parse u and is exact for the output of Normalize
// and Resolve; "" if u has no authority.
func HostName(u string) string { return hostOf(u) }

// serialize writes the normal form of a WHATWG-parsed URL.
func serialize(u *wurl.Url) (string, error) {
	scheme := u.Scheme()
	if scheme != "http" && scheme != "https" {
		return "", fmt.Errorf("%w: %q", ErrScheme, scheme)
	}
	host := u.Hostname()
	dotted := host != "" && host[0] != '[' && host[len(host)-1] == '.'
	if dotted {
		// "example.com." is the same DNS name as "example.com": one host,
		// one politeness queue. What is left is parsed again below, as
		// the host parser may read it otherwise ("0.." is a name, "0" an
		// IPv4 address).
		host = strings.TrimRight(host, ".")
	}
	if !validHost(host) || !reparses(host) {
		return "", fmt.Errorf("%w: %q", ErrHost, clip(host))
	}
	var sb strings.Builder
	sb.Grow(len(scheme) + 3 + len(host) + len(u.Pathname()) + len(u.Query()) + 16)
	sb.WriteString(scheme)
	sb.WriteString("://")
	sb.WriteString(host) // without userinfo: see the package doc
	if port := u.Port(); port != "" {
		sb.WriteByte(':')
		sb.WriteString(port)
	}
	path := u.Pathname()
	if path == "" {
		path = "/"
	}
	percent.Write(&sb, path, &pathKeep)
	if q := u.Query(); q != "" {
		sb.WriteByte('?')
		percent.Write(&sb, q, &queryKeep)
	}
	if dotted {
		return Normalize(sb.String())
	}
	return sb.String(), nil
}

// reparses reports whether a host with a punycode label ("xn--") parses
// again: the WHATWG parser encodes some Unicode labels it then refuses to
// decode (a label too long for UTS #46, say), and a normal form must
// normalize to itself. Other hosts are not parsed again.
func reparses(host string) bool {
	if !strings.HasPrefix(host, "xn--") && !strings.Contains(host, ".xn--") {
		return true
	}
	_, err := parser.Parse("http://" + host + "/")
	return err == nil
}

// validHost accepts a lower-case DNS-style name (letters, digits, '-', '_',
// '.'), a dotted IPv4 address or a bracketed IPv6 literal, as the WHATWG
// host parser leaves them.
func validHost(h string) bool {
	if h == "" {
		return false
	}
	if h[0] == '[' {
		if len(h) < 3 || h[len(h)-1] != ']' {
			return false
		}
		for i := 1; i < len(h)-1; i++ {
			c := h[i]
			if !(percent.IsHex(c) || c == ':' || c == '.') {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '_', c == '.':
		default:
			return false
		}
	}
	return true
}

// clip shortens s for error messages so a hostile 1 MB URL does not end up
// in a log line whole.
func clip(s string) string {
	const max = 200
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
