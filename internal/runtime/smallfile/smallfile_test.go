//go:build unix

package smallfile

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
)

func TestReadRegularFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(p, []byte("abc\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := Read(t.Context(), p, 4)
	if err != nil || string(b) != "abc\n" {
		t.Fatalf("Read = %q, %v", b, err)
	}
	if _, err := Read(t.Context(), p, 3); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the bound by one: err = %v, want ErrTooLarge", err)
	}
}

// A huge file is refused from its size, before a byte of it is held.
func TestReadHugeFileAllocatesNothingOfIt(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, 1<<30); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Read(t.Context(), p, MaxCertificate)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("refusing a 1 GiB file allocated %d bytes", n)
	}
}

// /dev/zero never ends: the bound ends the read.
func TestReadEndlessDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	if _, err := Read(t.Context(), "/dev/zero", MaxToken); !errors.Is(err, ErrTooLarge) {
		t.Errorf("err = %v, want ErrTooLarge", err)
	}
}

func fifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip(err)
	}
	return p
}

// A FIFO nobody writes to reads as empty at once: opening it does not
// wait for a writer.
func TestReadFIFOWithoutWriter(t *testing.T) {
	b, err := Read(t.Context(), fifo(t), MaxToken)
	if err != nil || len(b) != 0 {
		t.Errorf("Read = %q, %v; want empty", b, err)
	}
}

// A writer that never stops is read up to the bound, not to its end.
func TestReadFIFOEndlessWriter(t *testing.T) {
	p := fifo(t)
	// Opened for reading and writing, which waits for nobody; this end
	// never reads, so what Read does not take stays in the pipe and the
	// writer stops once its buffer is full.
	w, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	var wrote atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		chunk := bytes.Repeat([]byte("a"), 64<<10)
		for range 1024 { // 64 MiB
			n, err := w.Write(chunk)
			wrote.Add(int64(n))
			if err != nil {
				return // closed below
			}
		}
	}()
	_, err = Read(t.Context(), p, MaxToken)
	w.Close()
	<-done
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("err = %v, want ErrTooLarge", err)
	}
	if n := wrote.Load(); n > MaxToken+1<<20 {
		t.Errorf("the writer got %d bytes taken, want about the %d-byte bound", n, MaxToken)
	}
}

// A writer that opens the FIFO and never writes holds the read until the
// context ends.
func TestReadFIFOSilentWriterEndsWithContext(t *testing.T) {
	p := fifo(t)
	// Held open for writing (O_RDWR does not wait for a reader).
	w, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := Read(ctx, p, MaxToken); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
