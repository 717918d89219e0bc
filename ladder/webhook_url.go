package ladder

import (
	"fmt"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// URLPolicy is which webhook URLs and addresses ladderbot will post to.
// Webhooks let any holder of a guild's API token make the server send
// requests, so without rules they would reach into the operator's own
// network (cloud metadata, databases, admin panels): only public addresses
// over https are allowed. The policy is checked twice: on the URL when a
// webhook is created, and on the resolved IP address at every dial, so a
// name that later resolves to a private address (DNS rebinding) is still
// refused. The same policy covers every request the bot makes to a URL it
// was given (webhooks, Showdown replays).
type URLPolicy struct {
	// AllowHTTP lets plain http:// URLs through to loopback addresses and
	// allows loopback at all (WEBHOOK_ALLOW_HTTP=1), for tests that run a
	// receiver on 127.0.0.1; such loopback URLs may name any port.
	AllowHTTP bool
	// Ports are the ports an outgoing URL may name (OUTGOING_PORTS);
	// empty is DefaultPorts.
	Ports []uint16
}

// DefaultPorts are the ports outgoing requests may use when OUTGOING_PORTS
// is not set: https's own and its common alternative. Other ports are
// where internal services listen (databases, admin panels), never where a
// public webhook receiver does.
var DefaultPorts = []uint16{443, 8443}

// ParsePorts reads a comma-separated port list such as "443,8443" (the
// form of OUTGOING_PORTS); "" is DefaultPorts.
func ParsePorts(s string) ([]uint16, error) {
	if strings.TrimSpace(s) == "" {
		return slices.Clone(DefaultPorts), nil
	}
	var ports []uint16
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.ParseUint(strings.TrimSpace(f), 10, 16)
		if err != nil || n == 0 {
			return nil, fmt.Errorf("port %q is not a number from 1 to 65535", strings.TrimSpace(f))
		}
		if !slices.Contains(ports, uint16(n)) {
			ports = append(ports, uint16(n))
		}
	}
	return ports, nil
}

// ports is p.Ports, or DefaultPorts when it is empty.
func (p URLPolicy) ports() []uint16 {
	if len(p.Ports) == 0 {
		return DefaultPorts
	}
	return p.Ports
}

// CheckURL validates a webhook URL: absolute, https (or http to a loopback
// host under AllowHTTP), no user info, a port in the allowed list, and a
// host that is a name or a canonical IP literal that is not refused. A
// host in any other numeric form (2130706433, 0x7f000001, 0177.0.0.1,
// 127.1: forms some resolvers and URL parsers read as an address) is
// refused outright. Names are checked again on their addresses at dial
// time (CheckAddr).
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
	addr, err := netip.ParseAddr(host)
	switch {
	case err == nil && strings.Contains(host, ":") != strings.HasPrefix(u.Host, "["):
		// An IPv6 literal must be bracketed; url.Parse does not insist.
		return nil, Errorf(CodeInvalid, "webhook URL host %q is not a valid host", host)
	case err == nil:
		if err := p.CheckAddr(addr); err != nil {
			return nil, err
		}
	case strings.HasPrefix(u.Host, "["):
		return nil, Errorf(CodeInvalid, "webhook URL host %q is not an IPv6 address", host)
	case numericHost(host):
		return nil, Errorf(CodeInvalid, "webhook URL host %q is a numeric form of an address: use a name or a dotted address such as 93.184.215.14", host)
	case !validHostName(host):
		return nil, Errorf(CodeInvalid, "webhook URL host %q is not a valid host name", host)
	case !p.AllowHTTP && loopbackHost(host):
		return nil, Errorf(CodeInvalid, "webhook URL must not point at this machine (localhost)")
	}
	if err := p.checkPort(u, host); err != nil {
		return nil, err
	}
	return u, nil
}

// checkPort refuses a URL whose port, given or implied by its scheme, is
// not in the allowed list; loopback URLs under AllowHTTP may use any.
func (p URLPolicy) checkPort(u *url.URL, host string) error {
	if p.AllowHTTP && loopbackHost(host) {
		return nil
	}
	port := u.Port()
	if port == "" {
		if strings.HasSuffix(u.Host, ":") {
			return Errorf(CodeInvalid, "webhook URL has an empty port")
		}
		port = "443"
		if u.Scheme == "http" {
			port = "80"
		}
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil || !slices.Contains(p.ports(), uint16(n)) {
		return Errorf(CodeInvalid, "webhook URL port %s is not allowed: use one of %s", port, portList(p.ports()))
	}
	return nil
}

// CheckAddrPort is the dial-time check: CheckAddr on the address, and the
// port in the allowed list (any port to loopback under AllowHTTP).
func (p URLPolicy) CheckAddrPort(ap netip.AddrPort) error {
	if err := p.CheckAddr(ap.Addr()); err != nil {
		return err
	}
	if p.AllowHTTP && ap.Addr().Unmap().IsLoopback() {
		return nil
	}
	if !slices.Contains(p.ports(), ap.Port()) {
		return Errorf(CodeInvalid, "port %d is not allowed: use one of %s", ap.Port(), portList(p.ports()))
	}
	return nil
}

func portList(ports []uint16) string {
	s := make([]string, len(ports))
	for i, p := range ports {
		s[i] = strconv.Itoa(int(p))
	}
	return strings.Join(s, ", ")
}

// numericHost reports whether host ends in a numeric label (decimal, or
// hexadecimal after 0x), the WHATWG URL standard's test for a host it
// parses as an IPv4 address in any of the inet_aton forms: 2130706433,
// 0x7f000001, 0177.0.0.1, 127.1, 10.1. No top-level domain is numeric,
// so no real name is refused; canonical dotted quads are parsed before
// this is asked.
func numericHost(host string) bool {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	last := h[strings.LastIndexByte(h, '.')+1:]
	if last == "" {
		return false
	}
	if strings.HasPrefix(last, "0x") {
		last = last[2:]
		return strings.Trim(last, "0123456789abcdef") == ""
	}
	return strings.Trim(last, "0123456789") == ""
}

// validHostName reports whether host is a DNS name of letters, digits,
// hyphens and underscores in labels of at most 63 characters: no spaces,
// percent-escapes or control characters for a resolver to reinterpret.
func validHostName(host string) bool {
	h := strings.TrimSuffix(host, ".")
	if h == "" || len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// CheckAddr refuses addresses a webhook must not reach: private (RFC 1918,
// unique-local fc00::/7), loopback (unless AllowHTTP), link-local (which
// holds cloud metadata services), multicast, unspecified, CGNAT shared
// space (100.64.0.0/10), the other special-purpose IPv4 blocks ("this
// network" 0/8, benchmarking 198.18/15, reserved 240/4 and broadcast),
// and IPv6 forms that carry an IPv4 address: IPv4-mapped, IPv4-compatible
// (::/96), NAT64 (64:ff9b::/96, 64:ff9b:1::/48) and 6to4 (2002::/16),
// each judged on the IPv4 address inside.
func (p URLPolicy) CheckAddr(a netip.Addr) error {
	a = a.Unmap().WithZone("")
	if v4, ok := embeddedV4(a); ok {
		if err := p.CheckAddr(v4); err != nil {
			return Errorf(CodeInvalid, "webhook address %s carries %s: %s", a, v4, ErrorMessage(err))
		}
	}
	for _, b := range reservedV4 {
		if b.Contains(a) {
			return Errorf(CodeInvalid, "webhook address %s is reserved", a)
		}
	}
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

// reservedV4 are special-purpose IPv4 blocks no public receiver lives in.
var reservedV4 = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("240.0.0.0/4"),
}

// v4Carriers are IPv6 prefixes whose addresses carry an IPv4 address: at
// the end (IPv4-compatible, NAT64) or after the first 16 bits (6to4).
var v4Carriers = []struct {
	prefix netip.Prefix
	at     int
}{
	{netip.MustParsePrefix("::/96"), 12},
	{netip.MustParsePrefix("64:ff9b::/96"), 12},
	{netip.MustParsePrefix("64:ff9b:1::/48"), 12},
	{netip.MustParsePrefix("2002::/16"), 2},
}

// embeddedV4 returns the IPv4 address an IPv6 address carries, if any.
// :: and ::1 are themselves (unspecified, loopback), not carriers.
func embeddedV4(a netip.Addr) (netip.Addr, bool) {
	if !a.Is6() || a.IsUnspecified() || a.IsLoopback() {
		return netip.Addr{}, false
	}
	b := a.As16()
	for _, c := range v4Carriers {
		if c.prefix.Contains(a) {
			return netip.AddrFrom4([4]byte(b[c.at : c.at+4])), true
		}
	}
	return netip.Addr{}, false
}

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
