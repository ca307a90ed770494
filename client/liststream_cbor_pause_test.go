package client

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/unstructured"
)

// pausingBody hands over its parts one per Read, then, before the rest,
// waits until resume is closed, as a server that pauses in the middle of
// a list. The wait is bounded so that a stream holding an item back
// fails the test instead of hanging it.
type pausingBody struct {
	parts    [][]byte
	rest     io.Reader
	resume   chan struct{}
	heldBack bool // the wait ran out
}

var errHeldBack = errors.New("the server paused and the complete item was not handed over")

func (p *pausingBody) Read(b []byte) (int, error) {
	if len(p.parts) > 0 {
		n := copy(b, p.parts[0])
		if p.parts[0] = p.parts[0][n:]; len(p.parts[0]) == 0 {
			p.parts = p.parts[1:]
		}
		return n, nil
	}
	select {
	case <-p.resume:
		return p.rest.Read(b)
	case <-time.After(time.Minute):
		p.heldBack = true
		return 0, errHeldBack
	}
}

// An item whose last byte has arrived is handed over while the server
// pauses, however its bytes were split. The stream used to scan again
// only once its buffered bytes had doubled: an item arriving as 60% then
// 40% waited for the next read.
func TestCBORListStreamHandsOverItemsBeforeAPause(t *testing.T) {
	c, err := New(Config{Host: "http://unused.invalid", QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	res := Dynamic(c, widgets)
	req := &request{method: "GET", path: "/apis/example.com/v1/widgets"}
	long := strings.Repeat("x", 3000)
	body, err := cborwire.FromJSON(fmt.Appendf(nil, `{"apiVersion":"example.com/v1","kind":"WidgetList","metadata":{"resourceVersion":"9"},"items":[{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"first"},"spec":{"note":%q}},{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"second"}}]}`, long))
	if err != nil {
		t.Fatal(err)
	}
	firstEnd := bytes.Index(body, []byte(long)) + len(long)
	for _, split := range []int{firstEnd / 2, firstEnd * 6 / 10, firstEnd - 1} {
		p := &pausingBody{parts: [][]byte{body[:split], body[split:firstEnd]}, rest: bytes.NewReader(body[firstEnd:]), resume: make(chan struct{})}
		var names []string
		_, err := res.streamCBORList(req, p, ListOptions{}, func(u *unstructured.Unstructured) error {
			if names = append(names, u.GetName()); len(names) == 1 {
				close(p.resume)
			}
			return nil
		})
		if err != nil || p.heldBack || len(names) != 2 || names[0] != "first" {
			t.Errorf("split at %d of %d: items %v, %v, held back %v; want first and second, the first before the pause ends", split, firstEnd, names, err, p.heldBack)
		}
	}
}
