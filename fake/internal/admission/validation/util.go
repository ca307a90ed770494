package validation

import "regexp"

var (
	percent      = regexp.MustCompile(`^[0-9]+%$`)
	configMapKey = regexp.MustCompile(`^[-._a-zA-Z0-9]+$`)
)

// configMapKeyErrors is kube-apiserver's IsConfigMapKey.
func configMapKeyErrors(k string) []string {
	var out []string
	if len(k) > 253 {
		out = append(out, "must be no more than 253 characters")
	}
	if !configMapKey.MatchString(k) {
		out = append(out, regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", "[-._a-zA-Z0-9]+", "key.name", "KEY_NAME", "key-name"))
	}
	switch {
	case k == ".":
		out = append(out, "must not be '.'")
	case k == "..":
		out = append(out, "must not be '..'")
	case len(k) >= 2 && k[:2] == "..":
		out = append(out, "must not start with '..'")
	}
	return out
}
