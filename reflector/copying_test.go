package reflector_test

import (
	"context"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
	"unsafe"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/reflector"
)

// copyingStore is a mapStore that says it keeps copies.
type copyingStore struct{ *mapStore[*corev1.ConfigMap] }

func (copyingStore) CopiesObjects() bool { return true }

// decoderSource records the Decoders a Reflector lists and watches with.
type decoderSource struct {
	*client.Resource[*corev1.ConfigMap]
	mu   sync.Mutex
	decs []*wire.Decoder
}

func (s *decoderSource) List(ctx context.Context, opts client.ListOptions) (*client.List[*corev1.ConfigMap], error) {
	s.record(opts.Decoder)
	return s.Resource.List(ctx, opts)
}

func (s *decoderSource) Watch(ctx context.Context, opts client.WatchOptions) (*client.Watcher[*corev1.ConfigMap], error) {
	s.record(opts.Decoder)
	return s.Resource.Watch(ctx, opts)
}

func (s *decoderSource) record(d *wire.Decoder) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.decs = append(s.decs, d)
}

// A Reflector decodes through one ReadOnly Decoder; for a CopyingStore,
// directly or behind a transform, a Copied one (which does not hold
// values for objects the store drops once copied).
func TestCopyingStoreGetsCopiedDecoder(t *testing.T) {
	for _, tc := range []struct {
		name   string
		copied bool
		store  func(*mapStore[*corev1.ConfigMap]) reflector.Store[*corev1.ConfigMap]
	}{
		{"keeping", false, func(s *mapStore[*corev1.ConfigMap]) reflector.Store[*corev1.ConfigMap] { return s }},
		{"copying", true, func(s *mapStore[*corev1.ConfigMap]) reflector.Store[*corev1.ConfigMap] { return copyingStore{s} }},
		{"copying behind a transform", true, func(s *mapStore[*corev1.ConfigMap]) reflector.Store[*corev1.ConfigMap] {
			return reflector.TransformStore[*corev1.ConfigMap](copyingStore{s}, func(o *corev1.ConfigMap) *corev1.ConfigMap { return o })
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				_, res := memServer(t, 3)
				src := &decoderSource{Resource: res}
				st := newMapStore[*corev1.ConfigMap]()
				stop := start(t, newReflector(t, src, tc.store(st), reflector.Options{}))
				defer stop()
				waitInSync(t, st, res, time.Minute)
				src.mu.Lock()
				defer src.mu.Unlock()
				if len(src.decs) == 0 {
					t.Fatal("no list or watch")
				}
				for _, d := range src.decs {
					if d != src.decs[0] || d == nil || !d.ReadOnly || d.Copied != tc.copied {
						t.Fatalf("decoders %+v, want one ReadOnly decoder with Copied %v", src.decs, tc.copied)
					}
				}
			})
		})
	}
}

// probeEndStore is a mapStore that runs probe when a full state ends,
// on the Reflector's goroutine, with the objects it holds.
type probeEndStore struct {
	*mapStore[*corev1.ConfigMap]
	probe func(objs []*corev1.ConfigMap)
}

func (s probeEndStore) End(rv string) {
	s.mapStore.End(rv)
	s.mu.Lock()
	objs := slices.Collect(maps.Values(s.objs))
	s.mu.Unlock()
	s.probe(objs)
}

// Once a full list is in the store, the Reflector's Decoder holds none
// of its strings: an informer idle after its list pays nothing for the
// string tables the list grew (they start small again with the watch).
func TestFullStateReleasesDecoderStrings(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, res := memServer(t, 3)
		src := &decoderSource{Resource: res}
		var ends atomic.Int32
		st := probeEndStore{mapStore: newMapStore[*corev1.ConfigMap]()}
		st.probe = func(objs []*corev1.ConfigMap) {
			ends.Add(1)
			src.mu.Lock()
			d := src.decs[0]
			src.mu.Unlock()
			for _, o := range objs {
				ns := o.GetNamespace()
				if again := d.String([]byte(ns)); unsafe.StringData(again) == unsafe.StringData(ns) {
					t.Errorf("after the list, the decoder hands out the namespace %q its objects hold", ns)
				}
			}
		}
		stop := start(t, newReflector(t, src, st, reflector.Options{}))
		defer stop()
		waitInSync(t, st, res, time.Minute)
		if ends.Load() == 0 {
			t.Fatal("no full state ended")
		}
	})
}
