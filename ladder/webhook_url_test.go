package ladder_test

import (
	"net/netip"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
)

// TestURLPolicyCheckURL is the table of the webhook URL rules: https only,
// plain http only to loopback and only with WEBHOOK_ALLOW_HTTP, and no IP
// literal of a private, link-local, loopback, multicast or unspecified
// address.
func TestURLPolicyCheckURL(t *testing.T) {
	strict, tests := ladder.URLPolicy{}, ladder.URLPolicy{AllowHTTP: true}
	cases := []struct {
		name   string
		url    string
		policy ladder.URLPolicy
		ok     bool
	}{
		{"https name", "https://hooks.example.com/ladder", strict, true},
		{"https public v4", "https://93.184.215.14/x", strict, true},
		{"https public v6", "https://[2606:4700::6810:84e5]/x", strict, true},
		{"http name", "http://hooks.example.com/", strict, false},
		{"http name with flag", "http://hooks.example.com/", tests, false},
		{"http loopback", "http://127.0.0.1:8080/", strict, false},
		{"http loopback with flag", "http://127.0.0.1:8080/", tests, true},
		{"http localhost with flag", "http://localhost:9/", tests, true},
		{"http v6 loopback with flag", "http://[::1]:9/", tests, true},
		{"https loopback", "https://127.0.0.1/", strict, false},
		{"https localhost", "https://localhost/", strict, false},
		{"https sub.localhost", "https://a.localhost/", strict, false},
		{"private 10/8", "https://10.1.2.3/", strict, false},
		{"private 172.16/12", "https://172.20.0.1/", strict, false},
		{"private 192.168/16", "https://192.168.1.1/", tests, false},
		{"cgnat", "https://100.64.0.1/", strict, false},
		{"unique local v6", "https://[fd00::1]/", strict, false},
		{"link-local metadata", "https://169.254.169.254/latest/meta-data", tests, false},
		{"link-local v6", "https://[fe80::1]/", strict, false},
		{"multicast", "https://224.0.0.1/", strict, false},
		{"multicast v6", "https://[ff02::1]/", strict, false},
		{"unspecified", "https://0.0.0.0/", tests, false},
		{"unspecified v6", "https://[::]/", strict, false},
		{"v4-mapped private", "https://[::ffff:10.0.0.1]/", strict, false},
		{"user info", "https://user:pw@hooks.example.com/", strict, false},
		{"ftp", "ftp://hooks.example.com/", strict, false},
		{"relative", "/hooks", strict, false},
		{"no host", "https:///x", strict, false},
		{"garbage", "https://%zz", strict, false},
		// Numeric forms of an address other than the canonical dotted
		// quad: resolvers (inet_aton) and URL parsers read them as IPv4.
		{"decimal loopback", "https://2130706433/", strict, false},
		{"hex loopback", "https://0x7f000001/", strict, false},
		{"octal loopback", "https://0177.0.0.1/", strict, false},
		{"short loopback", "https://127.1/", strict, false},
		{"short private", "https://10.1/", strict, false},
		{"hex dotted", "https://0x7f.0.0.1/", strict, false},
		{"decimal public", "https://1572395790/", strict, false},
		{"trailing dot loopback", "https://127.0.0.1./", strict, false},
		{"numeric last label", "https://hooks.example.123/", strict, false},
		{"numeric with flag", "http://2130706433:8080/", tests, false},
		{"name with digits", "https://hooks1.example.com/x", strict, true},
		{"name with trailing dot", "https://hooks.example.com./x", strict, true},
		// IPv6 forms that carry a refused IPv4 address.
		{"v4-compatible loopback", "https://[::127.0.0.1]/", strict, false},
		{"v4-compatible hex", "https://[::7f00:1]/", strict, false},
		{"v4-mapped hex loopback", "https://[::ffff:7f00:1]/", strict, false},
		{"v4-mapped expanded", "https://[0:0:0:0:0:ffff:a9fe:a9fe]/", strict, false},
		{"nat64 private", "https://[64:ff9b::10.0.0.1]/", strict, false},
		{"nat64 metadata", "https://[64:ff9b::a9fe:a9fe]/", strict, false},
		{"6to4 loopback", "https://[2002:7f00:1::]/", strict, false},
		{"link-local zone", "https://[fe80::1%25eth0]/", strict, false},
		{"nat64 public", "https://[64:ff9b::5db8:d70e]/", strict, true},
		// Reserved IPv4 blocks.
		{"this network", "https://0.1.2.3/", strict, false},
		{"benchmarking", "https://198.18.0.1/", strict, false},
		{"reserved", "https://240.0.0.1/", strict, false},
		{"broadcast", "https://255.255.255.255/", strict, false},
		// Ports: 443 and 8443 only by default; loopback under the test
		// flag may use any.
		{"port 443", "https://hooks.example.com:443/x", strict, true},
		{"port 8443", "https://hooks.example.com:8443/x", strict, true},
		{"port 22", "https://hooks.example.com:22/x", strict, false},
		{"port 6379", "https://93.184.215.14:6379/", strict, false},
		{"port 80 https", "https://hooks.example.com:80/", strict, false},
		{"port 8080 with flag", "https://hooks.example.com:8080/", tests, false},
		{"empty port", "https://hooks.example.com:/", strict, false},
		{"port 0", "https://hooks.example.com:0/", strict, false},
		// Hosts that are neither a name nor an address.
		{"space in host", "https://hooks%20example.com/", strict, false},
		{"control char in host", "https://hooks%0a.example.com/", strict, false},
		{"bad v6", "https://[::g]/", strict, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.policy.CheckURL(c.url)
			if (err == nil) != c.ok {
				t.Errorf("Got(CheckURL(%q) allowed) = %v (%v), want %v", c.url, err == nil, err, c.ok)
			}
			if err != nil && ladder.ErrorCode(err) != ladder.CodeInvalid {
				t.Errorf("Got(code of CheckURL(%q)) = %v, want invalid", c.url, ladder.ErrorCode(err))
			}
		})
	}
}

// TestURLPolicyPorts checks OUTGOING_PORTS: a custom list replaces the
// defaults, at creation and at dial time.
func TestURLPolicyPorts(t *testing.T) {
	ports, err := ladder.ParsePorts(" 443, 9443 ,443")
	if err != nil || len(ports) != 2 || ports[0] != 443 || ports[1] != 9443 {
		t.Fatalf("Got(ParsePorts) = %v, %v, want [443 9443]", ports, err)
	}
	for _, bad := range []string{"443,x", "0", "70000", "443,,8443", "-1"} {
		if _, err := ladder.ParsePorts(bad); err == nil {
			t.Errorf("Got(ParsePorts(%q) error) = nil, want one", bad)
		}
	}
	if d, err := ladder.ParsePorts(""); err != nil || len(d) != 2 || d[0] != 443 || d[1] != 8443 {
		t.Errorf("Got(ParsePorts(\"\")) = %v, %v, want the defaults", d, err)
	}
	p := ladder.URLPolicy{Ports: ports}
	if _, err := p.CheckURL("https://hooks.example.com:9443/"); err != nil {
		t.Errorf("Got(CheckURL on a listed port) = %v, want allowed", err)
	}
	if _, err := p.CheckURL("https://hooks.example.com:8443/"); err == nil {
		t.Error("Got(CheckURL on 8443, not listed) allowed, want refused")
	}
	pub := netip.MustParseAddr("93.184.215.14")
	if err := p.CheckAddrPort(netip.AddrPortFrom(pub, 9443)); err != nil {
		t.Errorf("Got(CheckAddrPort on a listed port) = %v, want allowed", err)
	}
	if err := p.CheckAddrPort(netip.AddrPortFrom(pub, 5432)); err == nil {
		t.Error("Got(CheckAddrPort on 5432) allowed, want refused")
	}
	if err := (ladder.URLPolicy{AllowHTTP: true}).CheckAddrPort(netip.MustParseAddrPort("127.0.0.1:5432")); err != nil {
		t.Errorf("Got(CheckAddrPort to loopback under the test flag) = %v, want allowed", err)
	}
	if err := (ladder.URLPolicy{AllowHTTP: true}).CheckAddrPort(netip.MustParseAddrPort("10.0.0.1:443")); err == nil {
		t.Error("Got(CheckAddrPort to a private address) allowed, want refused")
	}
}

// TestURLPolicyCheckAddr checks the dial-time rule on resolved addresses.
func TestURLPolicyCheckAddr(t *testing.T) {
	cases := []struct {
		addr      string
		strict    bool
		withFlags bool
	}{
		{"93.184.215.14", true, true},
		{"2606:4700::6810:84e5", true, true},
		{"127.0.0.1", false, true},
		{"127.5.5.5", false, true},
		{"::1", false, true},
		{"10.0.0.1", false, false},
		{"192.168.0.10", false, false},
		{"169.254.169.254", false, false},
		{"fe80::1", false, false},
		{"0.0.0.0", false, false},
		{"239.1.1.1", false, false},
		{"::ffff:127.0.0.1", false, true},
		{"::ffff:169.254.1.1", false, false},
		{"::127.0.0.1", false, true},
		{"::10.0.0.1", false, false},
		{"64:ff9b::7f00:1", false, true},
		{"64:ff9b::5db8:d70e", true, true},
		{"2002:a00:1::", false, false},
		{"2002:5db8:d70e::", true, true},
		{"0.0.0.7", false, false},
		{"198.19.1.1", false, false},
		{"250.1.1.1", false, false},
		{"fe80::1%eth0", false, false},
	}
	for _, c := range cases {
		a := netip.MustParseAddr(c.addr)
		if got := (ladder.URLPolicy{}).CheckAddr(a) == nil; got != c.strict {
			t.Errorf("Got(CheckAddr(%s) allowed) = %v, want %v", c.addr, got, c.strict)
		}
		if got := (ladder.URLPolicy{AllowHTTP: true}).CheckAddr(a) == nil; got != c.withFlags {
			t.Errorf("Got(CheckAddr(%s) allowed with WEBHOOK_ALLOW_HTTP) = %v, want %v", c.addr, got, c.withFlags)
		}
	}
}
