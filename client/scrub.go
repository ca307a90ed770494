package client

import "regexp"

// Credential shapes a plugin may print on stderr when it fails (debug
// output, an echoed response): its stderr goes into the error, and errors
// end up in logs. The secrets themselves are unknown here, so their
// shapes are matched instead.
var (
	// header.payload.signature, each base64url: a JWT, as most
	// Kubernetes tokens are.
	jwtShape = regexp.MustCompile(`eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`)
	// A value after a word naming a secret: token: x, "password":"x",
	// Authorization: Bearer x, client-key-data=x.
	namedSecret = regexp.MustCompile(`(?i)((?:token|password|secret|key-data|keydata|authorization)["']?\s*[:=]\s*["']?(?:bearer\s+)?|bearer\s+)[^\s"',;]{6,}`)
	// A PEM private key, whole or cut off by the length limit.
	pemKey = regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)`)
)

// scrubCredentials replaces what looks like a credential in s with
// "[redacted]".
func scrubCredentials(s string) string {
	s = pemKey.ReplaceAllString(s, redacted)
	s = jwtShape.ReplaceAllString(s, redacted)
	return namedSecret.ReplaceAllString(s, "${1}"+redacted)
}
