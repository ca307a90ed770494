package watch_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/storage"
	"github.com/kubewire/kubewire/fake/internal/watch"
)

// An object that stops matching a watch's selector leaves it with a
// DELETED event carrying the object as it was before the change, at the
// change's resourceVersion: kube-apiserver's cacheWatcher sends the
// previous object with the event's version (cache_watcher.go
// convertToWatchEvent, v1.36.3). The fake sent the changed object.
func TestWatchSelectorLeaveSendsPreviousObject(t *testing.T) {
	k, _ := registry.ByResource("", "v1", "configmaps")
	cms, _ := object.Builtin(k, &fieldpath.Builtins{})
	st := storage.New(100)
	put := func(body string) {
		t.Helper()
		d, _, err := cms.DecodeJSON([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := st.Write(cms, "default/a", false, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
			o, err := d.Seal(rv)
			if cur == nil {
				return storage.Added, o, err
			}
			return storage.Modified, o, err
		}); err != nil {
			t.Fatal(err)
		}
	}
	put(`{"metadata":{"name":"a","namespace":"default","labels":{"app":"x"}},"data":{"k":"before"}}`)
	put(`{"metadata":{"name":"a","namespace":"default","labels":{"app":"y"}},"data":{"k":"after"}}`)

	s := &watch.Server{Store: st, Faults: noFaults{}, Timeout: time.Minute, BookmarkInterval: time.Minute, Done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the watch sends the change it has and ends
	req := httptest.NewRequestWithContext(ctx, "GET", "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1&labelSelector=app%3Dx", nil)
	w := httptest.NewRecorder()
	s.Serve(w, req, &request.Request{Res: cms, Namespace: "default", Verb: "watch"})
	want := `{"type":"DELETED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"default","resourceVersion":"2","labels":{"app":"x"}},"data":{"k":"before"}}}` + "\n"
	if got := w.Body.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
