package validation

import (
	"net"
	"net/netip"
	"strconv"
	"strings"
)

// IP addresses and CIDRs as kube-apiserver v1.36 checks its older
// fields, with StrictIPCIDRValidation on (its default): parsed the
// lenient way first (IPv4 octets and prefix lengths may have leading
// zeros), then refused with a message when not strictly valid.

const (
	ipFormatMsg   = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"
	cidrFormatMsg = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"
)

// parseIPSloppy is net.ParseIP accepting leading zeros in IPv4 octets
// (read as decimal), as k8s.io/utils/net's parser does.
func parseIPSloppy(s string) net.IP {
	if ip := net.ParseIP(s); ip != nil {
		return ip
	}
	return net.ParseIP(stripLeadingZeros(s))
}

// stripLeadingZeros rewrites the dotted IPv4 part of an address (also
// one embedded at the end of an IPv6 address) without leading zeros.
func stripLeadingZeros(s string) string {
	head, v4 := "", s
	if i := strings.LastIndex(s, ":"); i >= 0 {
		head, v4 = s[:i+1], s[i+1:]
	}
	parts := strings.Split(v4, ".")
	if len(parts) != 4 {
		return s
	}
	for i, p := range parts {
		if p == "" || len(p) > 3 {
			return s
		}
		n, err := strconv.Atoi(p)
		if err != nil || n > 255 {
			return s
		}
		parts[i] = strconv.Itoa(n)
	}
	return head + strings.Join(parts, ".")
}

// parseCIDRSloppy is net.ParseCIDR with parseIPSloppy's leniency in the
// address and leading zeros in the prefix length.
func parseCIDRSloppy(s string) (*net.IPNet, bool) {
	if _, n, err := net.ParseCIDR(s); err == nil {
		return n, true
	}
	i := strings.LastIndex(s, "/")
	if i < 0 {
		return nil, false
	}
	ip := parseIPSloppy(s[:i])
	bits := s[i+1:]
	if ip == nil || bits == "" || len(bits) > 4 {
		return nil, false
	}
	n, err := strconv.Atoi(bits)
	if err != nil || strings.HasPrefix(bits, "+") || strings.HasPrefix(bits, "-") {
		return nil, false
	}
	addr := ip.String()
	_, out, err := net.ParseCIDR(addr + "/" + strconv.Itoa(n))
	if err != nil {
		return nil, false
	}
	return out, true
}

// ipLegacyErrors is IsValidIPForLegacyField with strict validation.
func ipLegacyErrors(v string) []string {
	if parseIPSloppy(v) == nil {
		return []string{ipFormatMsg}
	}
	var out []string
	addr, err := netip.ParseAddr(v)
	if err != nil {
		out = append(out, "must not have leading 0s")
	}
	if addr.Is4In6() {
		out = append(out, "must not be an IPv4-mapped IPv6 address")
	}
	return out
}

// ipStrictErrors is IsValidIP: strictly valid, and canonical.
func ipStrictErrors(v string) []string {
	if out := ipLegacyErrors(v); len(out) > 0 {
		return out
	}
	if ip := parseIPSloppy(v); v != ip.String() {
		return []string{"must be in canonical form (" + strconv.Quote(ip.String()) + ")"}
	}
	return nil
}

// cidrLegacyErrors is IsValidCIDRForLegacyField with strict validation.
func cidrLegacyErrors(v string) []string {
	if _, ok := parseCIDRSloppy(v); !ok {
		return []string{cidrFormatMsg}
	}
	p, err := netip.ParsePrefix(v)
	switch {
	case err != nil:
		return []string{"must not have leading 0s in IP or prefix length"}
	case p.Addr().Is4In6():
		return []string{"must not have an IPv4-mapped IPv6 address"}
	case p.Addr() != p.Masked().Addr():
		return []string{"must not have bits set beyond the prefix length"}
	}
	return nil
}
