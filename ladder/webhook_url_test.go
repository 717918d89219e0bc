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
