package watch_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"time"

	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/storage"
	"github.com/kubewire/kubewire/fake/internal/watch"
)

// noFaults injects nothing.
type noFaults struct{}

func (noFaults) RefuseProtobuf() bool                            { return false }
func (noFaults) WatchListMode() watch.ListMode                   { return watch.ListSupported }
func (noFaults) TakeTooLarge() bool                              { return false }
func (noFaults) DropChan() <-chan struct{}                       { return nil }
func (noFaults) NextEvent(*watch.State) (watch.EventFault, bool) { return watch.EventOK, false }

// A watch from the current state starts with an ADDED event per
// object; this one ends with its request, whose context is already done.
func ExampleServer_Serve() {
	k, _ := registry.ByResource("", "v1", "configmaps")
	cms, _ := object.Builtin(k, &fieldpath.Builtins{})
	st := storage.New(100)
	d, _, _ := cms.DecodeJSON([]byte(`{"metadata":{"name":"a","namespace":"default"}}`))
	_, _, err := st.Write(cms, "default/a", false, func(*object.Stored, uint64) (string, *object.Stored, error) {
		o, err := d.Seal(1)
		return storage.Added, o, err
	})
	if err != nil {
		panic(err)
	}
	s := &watch.Server{Store: st, Faults: noFaults{}, Timeout: time.Minute, BookmarkInterval: time.Minute, Done: make(chan struct{})}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequestWithContext(ctx, "GET", "/api/v1/namespaces/default/configmaps?watch=true", nil)
	w := httptest.NewRecorder()
	s.Serve(w, req, &request.Request{Res: cms, Namespace: "default", Verb: "watch"})
	fmt.Print(w.Body.String())
	// Output:
	// {"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"default","resourceVersion":"1"}}}
}
