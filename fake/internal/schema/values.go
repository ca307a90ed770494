package schema

import (
	"encoding/base64"
	"net"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"time"
)

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// equal compares decoded JSON values; integers and floats of the same
// value are equal.
func equal(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if w, ok := y[k]; !ok || !equal(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case int64:
		switch y := b.(type) {
		case int64:
			return x == y
		case float64:
			return float64(x) == y
		}
		return false
	case float64:
		switch y := b.(type) {
		case int64:
			return x == float64(y)
		case float64:
			return x == y
		}
		return false
	}
	return a == b
}

// DeepCopy copies a decoded JSON value.
func DeepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[k] = DeepCopy(val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = DeepCopy(val)
		}
		return out
	}
	return v
}

var (
	uuidRE     = regexp.MustCompile(`^(?i)[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	hostnameRE = regexp.MustCompile(`^[a-zA-Z0-9]([-a-zA-Z0-9]{0,62})?(\.[a-zA-Z0-9]([-a-zA-Z0-9]{0,62})?)*\.?$`)
	macRE      = regexp.MustCompile(`^([0-9A-Fa-f]{2}[:-]){5}([0-9A-Fa-f]{2})$`)
	durationRE = regexp.MustCompile(`^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h|d|w))+$`)
)

// formatOK checks the string formats kube-apiserver supports in custom
// resource schemas; unknown formats pass.
func formatOK(format, s string) bool {
	switch format {
	case "email":
		a, err := mail.ParseAddress(s)
		return err == nil && a.Address == s
	case "date-time", "datetime":
		for _, layout := range []string{time.RFC3339Nano, time.RFC3339, "2006-01-02T15:04:05.999999999Z0700", "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05", "2006-01-02T15:04:05.999999999"} {
			if _, err := time.Parse(layout, s); err == nil {
				return true
			}
		}
		return false
	case "date":
		_, err := time.Parse("2006-01-02", s)
		return err == nil
	case "uuid", "uuid3", "uuid4", "uuid5":
		return uuidRE.MatchString(s)
	case "ipv4":
		ip := net.ParseIP(s)
		return ip != nil && ip.To4() != nil && !containsColon(s)
	case "ipv6":
		ip := net.ParseIP(s)
		return ip != nil && containsColon(s)
	case "cidr":
		_, _, err := net.ParseCIDR(s)
		return err == nil
	case "hostname":
		return len(s) <= 255 && hostnameRE.MatchString(s)
	case "mac":
		return macRE.MatchString(s)
	case "byte":
		_, err := base64.StdEncoding.DecodeString(s)
		return err == nil
	case "uri":
		u, err := url.Parse(s)
		return err == nil && u.Scheme != ""
	case "duration":
		if _, err := time.ParseDuration(s); err == nil {
			return true
		}
		return durationRE.MatchString(s)
	}
	return true
}

func containsColon(s string) bool {
	for i := range len(s) {
		if s[i] == ':' {
			return true
		}
	}
	return false
}
