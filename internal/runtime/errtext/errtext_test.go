package errtext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCut(t *testing.T) {
	short := strings.Repeat("a", MaxName)
	if got := Cut(short); got != short {
		t.Errorf("Cut of %d bytes = %q, want it whole", MaxName, got)
	}
	long := strings.Repeat("a", MaxName-1) + "é" + strings.Repeat("b", 1<<20)
	got := Cut(long)
	if got != strings.Repeat("a", MaxName-1)+"..." || !utf8.ValidString(got) {
		t.Errorf("Cut of a long name = %q, want %d a's and ... (no half rune)", got, MaxName-1)
	}
}
