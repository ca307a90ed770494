package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// kubectlVolatile are the parts of kubectl's output that differ between
// two servers, or two runs, for reasons that are not fidelity: uids,
// resource versions, timestamps, ages, server addresses, temporary file
// names. Each is replaced by a placeholder.
var kubectlVolatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`), "<uid>"},
	{regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})`), "<time>"},
	{regexp.MustCompile(`("?resourceVersion"?: )"\d+"`), `$1"<rv>"`},
	{regexp.MustCompile(`https://(127\.0\.0\.1|localhost|\[::1\]):\d+`), "https://<server>"},
	{regexp.MustCompile(`/tmp/[A-Za-z0-9._/-]*kubectl-edit-[A-Za-z0-9._-]+`), "<edit-file>"},
	// The random suffix of the token volume the ServiceAccount admission
	// plugin adds to a Pod.
	{regexp.MustCompile(`kube-api-access-[a-z0-9]{5}\b`), "kube-api-access-<x>"},
	// The admin each server authenticates its kubeconfig's token as
	// (envtest's static token user, the fake's own).
	{regexp.MustCompile(`\b(envtest-admin|kubewire-fake:admin)\b`), "<admin>"},
	// Service account tokens (JWTs).
	{regexp.MustCompile(`\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+`), "<token>"},
	// kubectl diff's temporary folders and the times of their files.
	{regexp.MustCompile(`/tmp/(LIVE|MERGED)-\d+/`), "/tmp/$1-<n>/"},
	{regexp.MustCompile(`\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)? [+-]\d{4}`), "<time>"},
	// Ages in tables: 0s, 5s, 3m2s, 2d ... as whole columns.
	{regexp.MustCompile(`(^|\s)(\d+[smhdy])+(\s|$)`), "$1<age>$3"},
	// Ages left next to each other by the rule above (it consumes the
	// space between them).
	{regexp.MustCompile(`(^|\s)(\d+[smhdy])+(\s|$)`), "$1<age>$3"},
}

// columnGap is the padding between table columns.
var columnGap = regexp.MustCompile(`(\S)[ \t]{2,}`)

// normalizeKubectl replaces the volatile parts of kubectl's output and
// narrows the gaps between table columns to one space (tables pad
// columns to the widest value, which may be a volatile one), keeping
// indentation.
func normalizeKubectl(s string) string {
	for _, v := range kubectlVolatile {
		s = v.re.ReplaceAllString(s, v.with)
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(columnGap.ReplaceAllString(l, "$1 "), " \t")
	}
	return strings.Join(lines, "\n")
}

func TestNormalizeKubectl(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"table columns and ages", "NAME   DATA   AGE\ncm1    1      3m2s\n", "NAME DATA AGE\ncm1 1 <age>\n"},
		{"yaml volatile fields", "  resourceVersion: \"123\"\n  uid: 0b7a1c3e-1111-4222-8333-944445555666\n  creationTimestamp: \"2026-11-23T22:56:37Z\"\n",
			"  resourceVersion: \"<rv>\"\n  uid: <uid>\n  creationTimestamp: \"<time>\"\n"},
		{"token volume", "  - name: kube-api-access-x82ft\n", "  - name: kube-api-access-<x>\n"},
		{"server address", "error: Get \"https://127.0.0.1:40313/api\"", "error: Get \"https://<server>/api\""},
		{"diff headers", "--- /tmp/LIVE-2442042742/v1.ConfigMap.ns.cm2\t2026-11-23 22:58:03.761723824 +0000",
			"--- /tmp/LIVE-<n>/v1.ConfigMap.ns.cm2\t<time>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, normalizeKubectl(tt.in)); d != "" {
				t.Errorf("normalizeKubectl (-want +got):\n%s", d)
			}
		})
	}
}
