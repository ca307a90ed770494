package reflector_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/reflector"
)

// statusInPlaceOfList answers the first list request with a Status and a
// 200, as a proxy or an aggregated server in trouble may, and passes
// everything else on.
type statusInPlaceOfList struct {
	next  http.RoundTripper
	lists atomic.Int32
}

func (s *statusInPlaceOfList) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet || req.URL.Query().Get("watch") != "" || s.lists.Add(1) > 1 {
		return s.next.RoundTrip(req)
	}
	if req.Body != nil {
		req.Body.Close()
	}
	body := `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"etcd leader changed","reason":"InternalError","code":500}`
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: req}, nil
}

// A dynamic Reflector whose list is answered by a Status with a 200
// does not take it for an empty collection: it lists again and syncs
// with the 60 objects. The streamed list returned no error and no items
// for such an answer, and the Reflector synced an empty store (which,
// on a relist, deletes every object).
func TestStatusInPlaceOfListIsNotAnEmptyCollection(t *testing.T) {
	s := fake.New(fake.Options{})
	t.Cleanup(s.Close)
	for i := range 60 {
		if err := s.Add(configMap("default", i)); err != nil {
			t.Fatal(err)
		}
	}
	cfg := fakeclient.Config(s)
	rt := &statusInPlaceOfList{next: s.RoundTripper()}
	cfg.Host, cfg.TLS, cfg.Transport = "http://fake", client.TLSConfig{}, rt
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cms := client.Dynamic(c, client.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default")
	st := newMapStore[*unstructured.Unstructured]()
	r := newReflector(t, cms, st, reflector.Options{})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	if err := r.WaitForSync(ctx); err != nil {
		t.Fatal(err)
	}
	n := len(st.versions())
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v", err)
	}
	if n != 60 || rt.lists.Load() < 2 {
		t.Errorf("synced with %d objects after %d lists, want 60 after the Status and another list", n, rt.lists.Load())
	}
}
