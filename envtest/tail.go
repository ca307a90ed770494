package envtest

import (
	"bytes"
	"os"
	"strings"
)

// tail keeps the last n lines added to it.
type tail struct {
	lines []string
	n     int
}

func newTail(n int) *tail { return &tail{n: n} }

func (t *tail) add(line string) {
	if len(t.lines) == t.n {
		copy(t.lines, t.lines[1:])
		t.lines = t.lines[:t.n-1]
	}
	t.lines = append(t.lines, line)
}

// String returns the kept lines, indented for an error message.
func (t *tail) String() string {
	if len(t.lines) == 0 {
		return "\t(no output)"
	}
	return "\t" + strings.Join(t.lines, "\n\t")
}

// lastLines returns the last n lines of b, indented for an error message.
func lastLines(b []byte, n int) string {
	t := newTail(n)
	for line := range strings.Lines(string(bytes.TrimRight(b, "\n"))) {
		t.add(strings.TrimRight(line, "\n"))
	}
	return t.String()
}

// fileTail returns the last n lines of a log file, reading at most its
// last 64 KiB.
func fileTail(path string, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return "\t(" + err.Error() + ")"
	}
	defer f.Close()
	const maxRead = 64 << 10
	fi, err := f.Stat()
	if err != nil {
		return "\t(" + err.Error() + ")"
	}
	off := max(0, fi.Size()-maxRead)
	b := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(b, off); err != nil {
		return "\t(" + err.Error() + ")"
	}
	if off > 0 {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:] // drop the partial first line
		}
	}
	return lastLines(b, n)
}
