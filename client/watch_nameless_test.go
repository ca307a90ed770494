package client

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/codec"
)

// An ADDED, MODIFIED or DELETED event whose object has no name (empty, or
// null) is refused by a dynamic or metadata watch, as a typed watch
// refuses it for its missing kind; before, the dynamic and metadata
// watches handed over a nameless object that a cache would key as "/".
func TestWatchEventObjectWithoutName(t *testing.T) {
	pods := GroupVersionResource{Version: "v1", Resource: "pods"}
	for name, body := range map[string]string{
		"empty":       `{"type":"ADDED","object":{}}`,
		"null":        `{"type":"MODIFIED","object":null}`,
		"no name":     `{"type":"DELETED","object":{"apiVersion":"v1","kind":"Pod","metadata":{"namespace":"default","resourceVersion":"4"}}}`,
		"kind, empty": `{"type":"ADDED","object":{"apiVersion":"v1","kind":"Pod"}}`,
	} {
		t.Run(name, func(t *testing.T) {
			checkNoLeaks(t)
			c, _ := newServerConfig(t, Config{QPS: -1, Retry: RetryPolicy{MaxAttempts: 1}}, streamThenHang(codec.MediaTypeJSON, []byte(body+"\n")))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			dyn, err := Dynamic(c, pods).Watch(ctx, WatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer dyn.Close()
			if ev, err := dyn.Next(); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "no name") {
				t.Errorf("dynamic: %s %q, %v; want ErrMalformed saying the object has no name", ev.Type, objName(ev), err)
			}
			meta, err := Metadata(c, pods, false).Watch(ctx, WatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer meta.Close()
			if ev, err := meta.Next(); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "no name") {
				t.Errorf("metadata: %s %q, %v; want ErrMalformed saying the object has no name", ev.Type, objName(ev), err)
			}
		})
	}
}
