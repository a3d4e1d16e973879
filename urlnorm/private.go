package urlnorm

import "net"

// cgnat is the shared address space of RFC 6598 (carrier-grade NAT).
var cgnat = net.IPNet{IP: net.IPv4(100, 64, 0, 0).To4(), Mask: net.CIDRMask(10, 32)}

// benchmarking is RFC 2544's 198.18.0.0/15, used inside networks for tests.
var benchmarking = net.IPNet{IP: net.IPv4(198, 18, 0, 0).To4(), Mask: net.CIDRMask(15, 32)}

// IsPrivate reports whether ip is an address a crawler of the public web
// must not connect to unless told to: loopback, private (RFC 1918, IPv6 ULA
// fc00::/7), link-local (unicast and multicast), any multicast, unspecified
// (0.0.0.0, ::), the RFC 6598 shared space 100.64.0.0/10, the "this network"
// block 0.0.0.0/8, the IETF protocol block 192.0.0.0/24, the benchmarking
// block 198.18.0.0/15, the reserved 240.0.0.0/4 (broadcast included), and
// IPv4-mapped or NAT64 forms of any of these.
func IsPrivate(ip net.IP) bool {
	if ip == nil {
		return true
	}
	if v4 := ip.To4(); v4 != nil {
		ip = v4
	} else if len(ip) == net.IPv6len && isNAT64(ip) {
		ip = net.IP(ip[12:16])
	}
	switch {
	case ip.IsLoopback(), ip.IsPrivate(), ip.IsLinkLocalUnicast(),
		ip.IsLinkLocalMulticast(), ip.IsInterfaceLocalMulticast(),
		ip.IsMulticast(), ip.IsUnspecified():
		return true
	}
	if v4 := ip.To4(); v4 != nil {
		return v4[0] == 0 || v4[0] >= 240 || cgnat.Contains(v4) || benchmarking.Contains(v4) ||
			(v4[0] == 192 && v4[1] == 0 && v4[2] == 0)
	}
	return false
}

// isNAT64 reports whether ip is in the well-known NAT64 prefix 64:ff9b::/96,
// which embeds an IPv4 address in its last four bytes.
func isNAT64(ip net.IP) bool {
	prefix := [12]byte{0x00, 0x64, 0xff, 0x9b}
	return [12]byte(ip[:12]) == prefix
}
