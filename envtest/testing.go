package envtest

import (
	"bytes"
	"sync"
	"testing"
)

// StartForTest starts an Env that only t uses and stops it when t ends
// (through t.Cleanup, which also runs when t fails or panics), failing t
// if the servers do not stop cleanly.
//
// In -short mode it skips t: an Env takes seconds to start, and its first
// build minutes. Otherwise a failure to start fails t with the reason; a
// failure that means the servers cannot be built or run here at all
// (errors.Is(err, ErrUnavailable): no go command, no module proxy, an
// unsupported OS) says how to provide them. With a nil Options.Log, the
// build's progress and the Env's lifecycle lines go to t.Log (shown as
// they happen with go test -v).
//
// The start is bounded by t's context; the Env outlives it until cleanup.
func StartForTest(t testing.TB, opts Options) *Env {
	t.Helper()
	if testing.Short() {
		t.Skip("envtest: a real kube-apiserver is not started in -short mode")
	}
	var tlog *testLog
	if opts.Log == nil {
		tlog = &testLog{t: t}
		opts.Log = tlog
	}
	e, err := Start(t.Context(), opts)
	if err != nil {
		if errorsIsUnavailable(err) {
			t.Fatalf("%v\n(envtest builds kube-apiserver and etcd with the go command and its module proxy; "+
				"set %s to a folder holding them to run prebuilt binaries instead)", err, EnvBinDir)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.Stop(); err != nil {
			t.Errorf("%v", err)
		}
		if tlog != nil {
			tlog.close() // the Env may not log through t once t has ended
		}
	})
	return e
}

// testLog writes whole lines to t.Log until closed.
type testLog struct {
	t      testing.TB
	mu     sync.Mutex
	buf    []byte
	closed bool
}

func (l *testLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return len(p), nil
	}
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		l.t.Log(string(l.buf[:i]))
		l.buf = l.buf[i+1:]
	}
	return len(p), nil
}

func (l *testLog) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
}
