package fetch

import (
	"context"
	"errors"
	"net/netip"
	"testing"
)

// TestAddrGuard lists the special-purpose ranges and their embedded forms,
// each with a public neighbour that must pass.
func TestAddrGuard(t *testing.T) {
	g := newAddrGuard()
	tests := []struct {
		name, addr string
		refuse     bool
	}{
		{"public v4", "93.184.216.34", false},
		{"public v6", "2606:2800:220:1:248:1893:25c8:1946", false},
		{"loopback", "127.0.0.1", true},
		{"loopback v6", "::1", true},
		{"unspecified", "0.0.0.0", true},
		{"this network", "0.1.2.3", true},
		{"rfc1918 10/8", "10.1.2.3", true},
		{"rfc1918 172.16/12", "172.31.255.255", true},
		{"just outside 172.16/12", "172.32.0.1", false},
		{"rfc1918 192.168/16", "192.168.0.1", true},
		{"shared CGNAT", "100.64.0.1", true},
		{"link-local", "169.254.169.254", true},
		{"IETF protocol assignments", "192.0.0.8", true},
		{"TEST-NET-1", "192.0.2.1", true},
		{"TEST-NET-2", "198.51.100.7", true},
		{"TEST-NET-3", "203.0.113.9", true},
		{"6to4 relay anycast", "192.88.99.1", true},
		{"benchmarking", "198.19.0.1", true},
		{"AS112", "192.31.196.1", true},
		{"multicast", "224.0.0.1", true},
		{"reserved", "240.0.0.1", true},
		{"broadcast", "255.255.255.255", true},
		{"documentation v6", "2001:db8::1", true},
		{"documentation v6 3fff::/20", "3fff::1", true},
		{"ULA", "fd00::1", true},
		{"link-local v6", "fe80::1", true},
		{"multicast v6", "ff02::1", true},
		{"IPv4-mapped loopback", "::ffff:127.0.0.1", true},
		{"IPv4-mapped private", "::ffff:10.0.0.1", true},
		{"IPv4-mapped public", "::ffff:93.184.216.34", false},
		{"NAT64 of loopback", "64:ff9b::7f00:1", true},
		{"NAT64 of 192.168.1.1", "64:ff9b::c0a8:101", true},
		{"NAT64 of TEST-NET-1", "64:ff9b::c000:201", true},
		{"NAT64 of public", "64:ff9b::5db8:d822", false},
		{"local-use NAT64", "64:ff9b:1::a00:1", true},
		{"6to4 of 10.0.0.1", "2002:a00:1::1", true},
		{"6to4 of 127.0.0.1", "2002:7f00:1::1", true},
		{"6to4 of 192.168.1.1", "2002:c0a8:101::1", true},
		{"Teredo, client 10.0.0.1", "2001:0:4136:e378:8000:63bf:f5ff:fffe", true},
		{"Teredo, client 127.0.0.1", "2001::ffff:ffff:80ff:fffe", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := g.check(netip.MustParseAddr(tt.addr))
			if (err != nil) != tt.refuse {
				t.Fatalf("check(%s) = %v, refuse %v", tt.addr, err, tt.refuse)
			}
		})
	}
}

// TestSSRFGuardDialsOnlyAllowed checks the guard in the dialer, on the
// address actually dialed, with IP-literal URLs of the new ranges. The
// check runs in net.Dialer.Control, after the socket is created and
// before connect, so no packet leaves for these addresses.
func TestSSRFGuardDialsOnlyAllowed(t *testing.T) {
	tests := []struct{ name, url string }{
		{"TEST-NET-1 literal", "http://192.0.2.1/"},
		{"IPv6 documentation literal", "http://[2001:db8::1]/"},
		{"NAT64 loopback literal", "http://[64:ff9b::7f00:1]/"},
		{"6to4 private literal", "http://[2002:a00:1::1]/"},
		{"IPv4-mapped loopback literal", "http://[::ffff:127.0.0.1]/"},
	}
	f := newFetcher(t, Options{AllowHosts: []string{"example.com"}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.Fetch(context.Background(), Request{URL: tt.url})
			if !errors.Is(r.Err, ErrPrivateAddress) || r.Reason != ReasonPrivateAddress {
				t.Fatalf("err %v reason %q, want private-address", r.Err, r.Reason)
			}
		})
	}
}
