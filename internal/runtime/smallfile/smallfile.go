// Package smallfile reads the small files a client is pointed at (a
// bearer token, certificates, a kubeconfig) with a bound on their size
// and on the wait: a path naming /dev/zero, a FIFO nobody writes or a
// multi-gigabyte file must fail, not hang or fill memory.
package smallfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// Bounds of the files kubewire reads. A service-account token is about
// 1 KiB; a CA bundle of every public root is about 250 KiB; kubeconfig
// files with many contexts and inline certificates reach a few MiB.
const (
	MaxToken       = 1 << 20
	MaxCertificate = 16 << 20
	MaxKubeconfig  = 64 << 20
)

// MaxWait bounds how long a read waits for a pipe's writer.
const MaxWait = 10 * time.Second

// ErrTooLarge is matched when a file holds more than its bound.
var ErrTooLarge = errors.New("file is larger than allowed")

// Read returns the contents of path, failing with ErrTooLarge past limit
// bytes. A FIFO or other pipe is opened without waiting for a writer
// (none: it reads as empty) and read until ctx ends or MaxWait passes.
func Read(ctx context.Context, path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNoWait, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Deadlines apply where the file is a pipe or the like; a regular
	// file or a device does not block and refuses them, which is fine.
	_ = f.SetReadDeadline(time.Now().Add(MaxWait))
	stop := context.AfterFunc(ctx, func() { _ = f.SetReadDeadline(time.Unix(1, 0)) })
	defer stop()
	size := int64(512)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		if st.Size() > limit {
			return nil, fmt.Errorf("%s: %d bytes: %w (%d)", path, st.Size(), ErrTooLarge, limit)
		}
		size = st.Size() + 1
	}
	b := make([]byte, 0, size)
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > limit {
			return nil, fmt.Errorf("%s: more than %d bytes: %w", path, limit, ErrTooLarge)
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() != nil {
				return nil, fmt.Errorf("%s: %w", path, ctx.Err())
			}
			return nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}
