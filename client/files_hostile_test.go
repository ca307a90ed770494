//go:build unix

package client

import (
	"bytes"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/kubewire/kubewire/internal/runtime/smallfile"
)

// A token file that is a FIFO whose writer never stops (or /dev/zero,
// see package smallfile) fails the request once it passes
// smallfile.MaxToken. Before, the client read it to its end: 64 MiB here
// taken into memory and sent as a header, and without end for /dev/zero.
func TestTokenFileThatNeverEnds(t *testing.T) {
	p := filepath.Join(t.TempDir(), "token")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip(err)
	}
	// Read and write, which waits for nobody; this end never reads.
	w, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	var wrote atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer w.Close() // the end of the file, to a reader that reads it all
		chunk := bytes.Repeat([]byte("a"), 64<<10)
		for range 1024 { // 64 MiB
			n, err := w.Write(chunk)
			wrote.Add(int64(n))
			if err != nil {
				return
			}
		}
	}()
	var reached atomic.Int32
	c, _ := newServerConfig(t, Config{BearerTokenFile: p}, func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		serve(w, load(t, "objects/pods-web-1.json"))
	})
	err = get(c)
	w.Close()
	<-done
	if !errors.Is(err, smallfile.ErrTooLarge) || !strings.Contains(err.Error(), "token file") {
		t.Errorf("err = %v, want the token file too large", err)
	}
	if n := wrote.Load(); n > smallfile.MaxToken+1<<20 {
		t.Errorf("%d bytes of the token file were read, want about the %d-byte bound", n, smallfile.MaxToken)
	}
	if reached.Load() != 0 {
		t.Error("the request was sent")
	}
}

// A certificate-authority file of 256 MiB (a wrong path, a disk image)
// is refused by New from its size, allocating nothing of it. Before, New
// read it whole (256 MiB allocated) to find no certificate in it.
func TestHugeCertificateFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, 256<<20); err != nil { // sparse
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := New(Config{Host: "https://kube.test", TLS: TLSConfig{CAFile: p}})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, smallfile.ErrTooLarge) {
		t.Errorf("err = %v, want smallfile.ErrTooLarge", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("New allocated %d bytes refusing the file", n)
	}
}
