package watch_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/storage"
	"github.com/kubewire/kubewire/fake/internal/watch"
)

// writeOnFirstEvent is a response that makes a write while the first
// event is written: a write racing the initial events, at the one place
// the race can fall.
type writeOnFirstEvent struct {
	*httptest.ResponseRecorder
	write func()
}

func (w *writeOnFirstEvent) Write(b []byte) (int, error) {
	if w.write != nil {
		w.write()
		w.write = nil
	}
	return w.ResponseRecorder.Write(b)
}

// kube-apiserver sends a watch-list's end-of-initial-events bookmark
// right after the initial events, at the version they were taken at,
// before any event written since (cache_watcher.go processInterval,
// v1.36.3). The fake sent a write made while the initial events went
// out before the bookmark (TestGeneratedSequences seeds 220 and 287
// under load, as Table).
func TestWatchListEndBookmarkBeforeLaterEvents(t *testing.T) {
	k, _ := registry.ByResource("", "v1", "configmaps")
	cms, _ := object.Builtin(k, &fieldpath.Builtins{})
	st := storage.New(100)
	put := func(name string) {
		d, _, err := cms.DecodeJSON([]byte(`{"metadata":{"name":"` + name + `","namespace":"default"}}`))
		if err != nil {
			t.Error(err)
			return
		}
		if _, _, err := st.Write(cms, "default/"+name, false, func(_ *object.Stored, rv uint64) (string, *object.Stored, error) {
			o, err := d.Seal(rv)
			return storage.Added, o, err
		}); err != nil {
			t.Error(err)
		}
	}
	put("a")

	s := &watch.Server{Store: st, Faults: noFaults{}, Timeout: time.Minute, BookmarkInterval: time.Minute, Done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the watch sends what it has and ends
	req := httptest.NewRequestWithContext(ctx, "GET", "/api/v1/namespaces/default/configmaps?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan", nil)
	w := &writeOnFirstEvent{ResponseRecorder: httptest.NewRecorder(), write: func() { put("b") }}
	s.Serve(w, req, &request.Request{Res: cms, Namespace: "default", Verb: "watch"})

	var got []string
	for _, line := range strings.Split(strings.TrimSpace(w.Body.String()), "\n") {
		typ, _, _ := strings.Cut(strings.TrimPrefix(line, `{"type":"`), `"`)
		_, rv, _ := strings.Cut(line, `"resourceVersion":"`)
		rv, _, _ = strings.Cut(rv, `"`)
		got = append(got, typ+" "+rv)
	}
	want := []string{"ADDED 1", "BOOKMARK 1", "ADDED 2"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("events %q, want %q\n%s", got, want, w.Body)
	}
}
