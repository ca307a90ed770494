package e2e

import (
	"regexp"
	"strings"
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
