package client

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
)

// A CBOR list answer whose heads declare more than Config.MaxResponseBytes
// (a string's bytes, or an array's or map's count, an element taking one
// byte at least) is ErrTooLarge to ListStream as soon as the heads
// arrive, before any item is handed over, from a server that then keeps
// the connection open; the stream waited for the declared bytes until
// ctx ended.
func TestCBORListStreamRefusesDeclaredLengthAtOnce(t *testing.T) {
	selfDescribed := []byte{0xd9, 0xd9, 0xf7}
	items := append(append([]byte{}, selfDescribed...), 0xa1, 0x65, 'i', 't', 'e', 'm', 's', 0x81)
	for name, tc := range map[string]struct {
		cfg  Config
		body []byte
	}{
		"item with a 2^62-byte string": {Config{}, append(append([]byte{}, items...), 0xa1, 0x64, 'k', 'i', 'n', 'd', 0x7b, 0x40, 0, 0, 0, 0, 0, 0, 0, 'A')},
		"item with a 2^63-entry map":   {Config{}, append(append([]byte{}, items...), 0xbb, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x61, 'a')},
		"2^40 items declared":          {Config{}, append(append(append([]byte{}, items[:len(items)-1]...), 0x9b, 0, 0, 1, 0, 0, 0, 0, 0), 0xa0, 0xa0)},
		"2^40 map entries declared":    {Config{}, append(append([]byte{}, selfDescribed...), 0xbb, 0, 0, 1, 0, 0, 0, 0, 0, 0x65, 'i', 't', 'e', 'm', 's', 0x81, 0xa0)},
		"metadata of 2 MiB, limit 1 MiB": {Config{MaxResponseBytes: 1 << 20},
			append(append([]byte{}, selfDescribed...), 0xa1, 0x68, 'm', 'e', 't', 'a', 'd', 'a', 't', 'a', 0xa1, 0x61, 'x', 0x5a, 0, 0x20, 0, 0, 'a')},
	} {
		t.Run(name, func(t *testing.T) {
			checkNoLeaks(t)
			cfg := tc.cfg
			cfg.QPS = -1
			c, _ := newServerConfig(t, cfg, streamThenHang(codec.MediaTypeCBOR, tc.body))
			// Only turns a hang into a failure: no wall-clock bound.
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			n := 0
			_, err := Dynamic(c, widgets).ListStream(ctx, ListOptions{}, func(*unstructured.Unstructured) error { n++; return nil })
			if !errors.Is(err, codec.ErrTooLarge) || ctx.Err() != nil || n != 0 {
				t.Errorf("%d items, then %v; want ErrTooLarge before the test's deadline", n, err)
			}
		})
	}
}
