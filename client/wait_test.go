package client

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/fake"
)

// WaitFor and WaitForDeletion against the fake over real HTTP. The
// writes that should end a wait are made from inside cond's first call:
// by then WaitFor has listed, so they reach it through its watch, and
// no test waits on a clock.

func waitCM(name string, v int) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"v": strconv.Itoa(v)}}
}

func cmVersion(cm *corev1.ConfigMap) int { n, _ := strconv.Atoi(cm.Data["v"]); return n }

// versionAtLeast is a cond true once data v >= n, recording the
// versions it saw and calling first (once) on its first call.
func versionAtLeast(n int, seen *[]int, first func()) func(*corev1.ConfigMap) (bool, error) {
	var once sync.Once
	return func(cm *corev1.ConfigMap) (bool, error) {
		*seen = append(*seen, cmVersion(cm))
		once.Do(first)
		return cmVersion(cm) >= n, nil
	}
}

func update(t *testing.T, cms *Resource[*corev1.ConfigMap], name string, v int) {
	t.Helper()
	cm, err := cms.Get(t.Context(), name, GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cm.Data = map[string]string{"v": strconv.Itoa(v)}
	if _, err := cms.Update(t.Context(), cm, UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func create(t *testing.T, cms *Resource[*corev1.ConfigMap], name string, v int) *corev1.ConfigMap {
	t.Helper()
	cm, err := cms.Create(t.Context(), waitCM(name, v), CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cm
}

func TestWaitForAlreadyTrue(t *testing.T) {
	noLeaks := leakCheck(t)
	_, c, rec := startFakeWire(t, wireOptions{})
	cms := For[*corev1.ConfigMap](c).Namespace("default")
	create(t, cms, "ready", 3)
	before := rec.count()
	var seen []int
	got, err := cms.WaitFor(t.Context(), "ready", versionAtLeast(3, &seen, func() {}))
	if err != nil || cmVersion(got) != 3 {
		t.Fatalf("WaitFor = %v, %v; want v 3", got, err)
	}
	if n := rec.count() - before; n != 1 {
		t.Errorf("%d requests for a condition already true, want 1 (the list)", n)
	}
	noLeaks(c) // the server is still up: a watch left open would show
}

func TestWaitForBecomesTrue(t *testing.T) {
	for _, tc := range []struct {
		name   string
		faults func(*fake.Server)
	}{
		{"one watch", func(*fake.Server) {}},
		// Every watch ends after one event: WaitFor resumes each.
		{"watches the server ends", func(s *fake.Server) { s.Faults().DropWatchesAfter(1) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			noLeaks := leakCheck(t)
			srv, c := startFake(t, fake.Options{}, Config{})
			cms := For[*corev1.ConfigMap](c).Namespace("default")
			create(t, cms, "cm", 0)
			tc.faults(srv)
			var seen []int
			got, err := cms.WaitFor(t.Context(), "cm", versionAtLeast(3, &seen, func() {
				for v := 1; v <= 4; v++ {
					update(t, cms, "cm", v)
				}
			}))
			if err != nil || cmVersion(got) != 3 {
				t.Fatalf("WaitFor = %v, %v; want v 3", got, err)
			}
			if want := []int{0, 1, 2, 3}; !slices.Equal(seen, want) {
				t.Errorf("cond saw versions %v, want %v", seen, want)
			}
			noLeaks(c)
		})
	}
}

// An object that does not exist yet, or is deleted while waiting, is
// waited through: cond sees the one created after.
func TestWaitForThroughAbsence(t *testing.T) {
	noLeaks := leakCheck(t)
	_, c := startFake(t, fake.Options{}, Config{})
	cms := For[*corev1.ConfigMap](c).Namespace("default")
	first := create(t, cms, "cm", 0)
	var seen []int
	got, err := cms.WaitFor(t.Context(), "cm", versionAtLeast(1, &seen, func() {
		if err := cms.Delete(t.Context(), "cm", DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		create(t, cms, "cm", 1)
	}))
	if err != nil || cmVersion(got) != 1 || got.UID == first.UID {
		t.Fatalf("WaitFor = %v, %v; want the new object at v 1", got, err)
	}

	// Not created yet: nothing for cond until it is.
	done := make(chan error, 1)
	go func() {
		_, err := cms.WaitFor(t.Context(), "later", func(cm *corev1.ConfigMap) (bool, error) { return cm.Name == "later", nil })
		done <- err
	}()
	create(t, cms, "later", 0)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	noLeaks(c) // the server is still up: a watch left open would show
}

func TestWaitForDeletion(t *testing.T) {
	_, c, rec, watching := startFakeSignallingWatches(t)
	noLeaks := leakCheck(t)
	cms := For[*corev1.ConfigMap](c).Namespace("default")
	before := rec.count()
	if err := cms.WaitForDeletion(t.Context(), "absent"); err != nil {
		t.Fatalf("absent: %v", err)
	}
	if n := rec.count() - before; n != 1 {
		t.Errorf("%d requests for an object already gone, want 1 (the list)", n)
	}
	create(t, cms, "cm", 0)
	// Deleted, and one of the same name created at once: the one waited
	// for is gone. Both writes wait for WaitForDeletion's watch, so its
	// list saw the first object: written before that list, they would
	// make it wait (as documented) for the second one to go.
	gone := make(chan error, 1)
	go func() { gone <- cms.WaitForDeletion(t.Context(), "cm") }()
	select {
	case <-watching:
	case err := <-gone:
		t.Fatalf("WaitForDeletion = %v before it watched", err)
	}
	if err := cms.Delete(t.Context(), "cm", DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	create(t, cms, "cm", 1)
	if err := <-gone; err != nil {
		t.Fatal(err)
	}
	noLeaks(c)
}

func TestWaitForEnds(t *testing.T) {
	noLeaks := leakCheck(t)
	errBroken := errors.New("broken")
	srv, c := startFake(t, fake.Options{}, Config{})
	cms := For[*corev1.ConfigMap](c).Namespace("default")
	create(t, cms, "cm", 0)

	// The subtests wait with the test's context, not their own, which
	// would close a watch WaitFor left open when they end.
	ctx := t.Context()
	t.Run("ctx", func(t *testing.T) {
		ctx, cancel := context.WithCancel(ctx)
		var seen []int
		got, err := cms.WaitFor(ctx, "cm", versionAtLeast(9, &seen, cancel))
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
		if got == nil || got.Name != "cm" {
			t.Errorf("returned %v, want the last state seen", got)
		}
	})
	t.Run("cond error", func(t *testing.T) {
		calls := 0
		_, err := cms.WaitFor(ctx, "cm", func(cm *corev1.ConfigMap) (bool, error) {
			calls++
			if calls == 1 {
				update(t, cms, "cm", 1)
				return false, nil
			}
			return false, errBroken
		})
		if !errors.Is(err, errBroken) || calls != 2 {
			t.Errorf("error %v after %d calls, want %v after 2", err, calls, errBroken)
		}
	})
	t.Run("forbidden", func(t *testing.T) {
		srv.Faults().FailNext(1, http.StatusForbidden, 0)
		defer srv.Faults().Clear()
		_, err := cms.WaitFor(ctx, "cm", func(*corev1.ConfigMap) (bool, error) { return true, nil })
		if !errors.Is(err, ErrForbidden) {
			t.Errorf("error %v, want ErrForbidden", err)
		}
	})
	t.Run("forbidden watch", func(t *testing.T) {
		remove := srv.Faults().Add(fake.Fault{Match: fake.Match{Verbs: []string{"watch"}}, Code: http.StatusForbidden})
		defer remove()
		_, err := cms.WaitFor(ctx, "cm", func(*corev1.ConfigMap) (bool, error) { return false, nil })
		if !errors.Is(err, ErrForbidden) {
			t.Errorf("error %v, want ErrForbidden", err)
		}
	})
	t.Run("resource not served", func(t *testing.T) {
		widgets := Dynamic(c, GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}).Namespace("default")
		_, err := widgets.WaitFor(ctx, "w", func(*unstructured.Unstructured) (bool, error) { return true, nil })
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("error %v, want ErrNotFound", err)
		}
		if err := widgets.WaitForDeletion(ctx, "w"); !errors.Is(err, ErrNotFound) {
			t.Errorf("WaitForDeletion: error %v, want ErrNotFound, not \"already gone\"", err)
		}
	})
	t.Run("no namespace", func(t *testing.T) {
		// It would list every namespace's "cm" as one object.
		_, err := For[*corev1.ConfigMap](c).WaitFor(ctx, "cm", func(*corev1.ConfigMap) (bool, error) { return true, nil })
		if !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("error %v, want ErrInvalidOptions", err)
		}
	})
	t.Run("bad name", func(t *testing.T) {
		_, err := cms.WaitFor(ctx, "a/b", func(*corev1.ConfigMap) (bool, error) { return true, nil })
		if !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("error %v, want ErrInvalidOptions", err)
		}
	})
	noLeaks(c) // the server is still up: a watch left open would show
}

// A server restart ends the watch and refuses to resume it (410 Gone):
// WaitFor relists, then sees a write through its new watch.
func TestWaitForServerRestart(t *testing.T) {
	noLeaks := leakCheck(t)
	srv, c, rec, watching := startFakeSignallingWatches(t)
	cms := For[*corev1.ConfigMap](c).Namespace("default")
	create(t, cms, "cm", 0)
	var seen []int
	go func() {
		select {
		case <-watching: // the first watch is open
		case <-t.Context().Done():
			return
		}
		// A write it does not select moves the server past the version
		// WaitFor watches from, which the restarted server then refuses.
		if _, err := cms.Create(t.Context(), waitCM("other", 0), CreateOptions{}); err != nil {
			t.Error(err)
		}
		srv.Restart()
	}()
	got, err := cms.WaitFor(t.Context(), "cm", func(cm *corev1.ConfigMap) (bool, error) {
		seen = append(seen, cmVersion(cm))
		if len(seen) == 2 { // listed again after the restart
			update(t, cms, "cm", 1)
		}
		return cmVersion(cm) == 1, nil
	})
	if err != nil || cmVersion(got) != 1 {
		t.Fatalf("WaitFor = %v, %v; want v 1", got, err)
	}
	if want := []int{0, 0, 1}; !slices.Equal(seen, want) {
		t.Errorf("cond saw versions %v, want %v (list, relist, watch)", seen, want)
	}
	lists := 0
	rec.mu.Lock()
	reqs := rec.reqs
	rec.mu.Unlock()
	for _, r := range reqs {
		if r.Method == "GET" && r.URL.Query().Get("watch") == "" && r.URL.Query().Get("fieldSelector") != "" {
			lists++
		}
	}
	if lists < 2 {
		t.Errorf("%d lists, want a relist after the restart", lists)
	}
	noLeaks(c) // the server is still up: a watch left open would show
}

// startFakeSignallingWatches is startFakeWire with a channel that
// receives when a watch's answer headers are written.
func startFakeSignallingWatches(t *testing.T) (*fake.Server, *Client, *wireRecord, <-chan struct{}) {
	watching := make(chan struct{}, 8)
	srv, c, rec := startFakeWire(t, wireOptions{proxy: func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("watch") == "true" || r.URL.Query().Get("watch") == "1" {
				w = &headerSignal{ResponseWriter: w, sent: watching}
			}
			h.ServeHTTP(w, r)
		})
	}})
	return srv, c, rec, watching
}

// headerSignal sends on sent when the answer's headers are written: the
// fake has registered the watch by then.
type headerSignal struct {
	http.ResponseWriter
	sent chan<- struct{}
	once sync.Once
}

func (h *headerSignal) WriteHeader(code int) {
	h.ResponseWriter.WriteHeader(code)
	h.once.Do(func() {
		select {
		case h.sent <- struct{}{}:
		default:
		}
	})
}

func (h *headerSignal) Flush() { http.NewResponseController(h.ResponseWriter).Flush() }

func (h *headerSignal) Unwrap() http.ResponseWriter { return h.ResponseWriter }
