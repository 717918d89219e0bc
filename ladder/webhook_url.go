package ladder

import (
	"net/netip"
	"net/url"
	"strings"
)

// URLPolicy is which webhook URLs and addresses ladderbot will post to.
// Webhooks let any holder of a guild's API token make the server send
// requests, so without rules they would reach into the operator's own
// network (cloud metadata, databases, admin panels): only public addresses
// over https are allowed. The policy is checked twice: on the URL when a
// webhook is created, and on the resolved IP address at every dial, so a
// name that later resolves to a private address (DNS rebinding) is still
// refused.
type URLPolicy struct {
	// AllowHTTP lets plain http:// URLs through to loopback addresses and
	// allows loopback at all (WEBHOOK_ALLOW_HTTP=1), for tests that run a
	// receiver on 127.0.0.1.
	AllowHTTP bool
}

// CheckURL validates a webhook URL: absolute, https (or http to a loopback
// host under AllowHTTP), no user info, and a host that is not a refused IP
// literal. Names are checked again on their addresses at dial time
// (CheckAddr).
func (p URLPolicy) CheckURL(raw string) (*url.URL, error) {
	if len(raw) > 2048 {
		return nil, Errorf(CodeInvalid, "webhook URL is longer than 2048 characters")
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return nil, Errorf(CodeInvalid, "webhook URL %q is not an absolute URL", raw)
	}
	if u.User != nil {
		return nil, Errorf(CodeInvalid, "webhook URL must not carry a user name or password")
	}
	host := u.Hostname()
	switch u.Scheme {
	case "https":
	case "http":
		if !p.AllowHTTP || !loopbackHost(host) {
			return nil, Errorf(CodeInvalid, "webhook URL must use https://")
		}
	default:
		return nil, Errorf(CodeInvalid, "webhook URL must use https://")
	}
	if addr, err := netip.ParseAddr(host); err == nil {
		if err := p.CheckAddr(addr); err != nil {
			return nil, err
		}
	} else if !p.AllowHTTP && loopbackHost(host) {
		return nil, Errorf(CodeInvalid, "webhook URL must not point at this machine (localhost)")
	}
	return u, nil
}

// CheckAddr refuses addresses a webhook must not reach: private (RFC 1918,
// unique-local fc00::/7), loopback (unless AllowHTTP), link-local (which
// holds cloud metadata services), multicast, unspecified, CGNAT shared
// space (100.64.0.0/10) and IPv4-mapped forms of any of those.
func (p URLPolicy) CheckAddr(a netip.Addr) error {
	a = a.Unmap()
	switch {
	case !a.IsValid():
		return Errorf(CodeInvalid, "webhook address is not an IP address")
	case a.IsLoopback():
		if p.AllowHTTP {
			return nil
		}
		return Errorf(CodeInvalid, "webhook address %s is loopback", a)
	case a.IsUnspecified():
		return Errorf(CodeInvalid, "webhook address %s is unspecified", a)
	case a.IsPrivate(), cgnat.Contains(a):
		return Errorf(CodeInvalid, "webhook address %s is private", a)
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return Errorf(CodeInvalid, "webhook address %s is link-local", a)
	case a.IsMulticast(), a.IsInterfaceLocalMulticast():
		return Errorf(CodeInvalid, "webhook address %s is multicast", a)
	}
	return nil
}

// cgnat is the shared address space of carrier-grade NAT (RFC 6598),
// private in all but name.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// loopbackHost reports whether host names this machine: localhost, a
// name under .localhost (RFC 6761), or a loopback IP literal.
func loopbackHost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(h)
	return err == nil && a.Unmap().IsLoopback()
}
