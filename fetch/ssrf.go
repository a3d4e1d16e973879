package fetch

import (
	"fmt"
	"net/netip"

	"code.dny.dev/ssrf"
)

// addrGuard decides which dialed addresses the SSRF guard refuses. The
// special-purpose ranges come from code.dny.dev/ssrf, whose tables are
// generated from the IANA IPv4 and IPv6 Special-Purpose Address Registries
// and maintained upstream, so new registry entries arrive with a
// dependency update rather than a hand edit here. On top of its tables:
//
//   - IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address it
//     carries;
//   - the well-known NAT64 prefix 64:ff9b::/96 (RFC 6052) is judged by the
//     IPv4 address in its last 32 bits, so an IPv6-only host behind DNS64
//     can still reach public IPv4 sites while 64:ff9b::7f00:1 (127.0.0.1)
//     is refused;
//   - everything outside 2000::/3 (loopback, ULA, link-local, multicast,
//     other NAT64 prefixes) is refused, and inside it the IANA entries that
//     are not globally reachable are refused, among them 2001::/23 (which
//     holds Teredo, 2001::/32), 2001:db8::/32 and 3fff::/20
//     (documentation) and 2002::/16 (6to4). Teredo and 6to4 are refused
//     whatever IPv4 address they embed: both mechanisms are deprecated
//     (RFC 7526) and their embedded address is not a reliable statement of
//     where the packets go.
type addrGuard struct {
	g *ssrf.Guardian
}

func newAddrGuard() addrGuard {
	// Ports and networks are not ours to restrict: the crawl follows
	// links to any port, and the dialer only ever asks for TCP.
	return addrGuard{g: ssrf.New(ssrf.WithAnyPort(), ssrf.WithAnyNetwork())}
}

// check returns nil if ip may be dialed, else an error naming the range
// that refuses it.
func (a addrGuard) check(ip netip.Addr) error {
	if !ip.IsValid() {
		return fmt.Errorf("invalid address")
	}
	ip = ip.Unmap()
	if ip.Is6() && ssrf.IPv6NAT64Prefix.Contains(ip) {
		b := ip.As16()
		v4 := netip.AddrFrom4([4]byte(b[12:16]))
		if err := a.g.SafeAddr(v4); err != nil {
			return fmt.Errorf("NAT64 form of %s: %w", v4, err)
		}
		return nil
	}
	return a.g.SafeAddr(ip)
}
