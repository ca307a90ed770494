package informer_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/types"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

// newInformer is informer.New for options the test knows are valid.
func newInformer[T client.Object](t testing.TB, src reflector.Source[T], opts informer.Options[T]) *informer.Informer[T] {
	t.Helper()
	inf, err := informer.New(src, opts)
	if err != nil {
		t.Fatal(err)
	}
	return inf
}

// newFactory is informer.NewFactory for options the test knows are valid.
func newFactory(t testing.TB, c *client.Client, opts informer.FactoryOptions) *informer.Factory {
	t.Helper()
	f, err := informer.NewFactory(c, opts)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The three types a cache of ConfigMaps can hold.
type (
	cm  = *corev1.ConfigMap
	pom = *metav1.PartialObjectMetadata
	uns = *unstructured.Unstructured
)

// flavour is one way to cache the ConfigMaps of the fake server: typed,
// metadata-only or dynamic. Tests written once over T run for each
// (eachFlavour); they write through the typed client, the server's truth,
// and compare what every flavour can see: names, labels, annotations,
// UIDs and resourceVersions.
type flavour[T client.Object] struct {
	name string
	// resource reads the ConfigMaps of c as T.
	resource func(c *client.Client) *client.Resource[T]
	// shared is f's informer of ConfigMaps as T.
	shared func(f *informer.Factory, scope informer.Scope) *informer.Informer[T]
	// empty returns a new T with nothing set but apiVersion and kind, for
	// objects built by hand with the metav1.Object setters.
	empty func() T
	// data returns a ConfigMap's data[key]; ok is false when the flavour
	// does not carry data (metadata-only).
	data func(o T, key string) (v string, ok bool)
}

var configMapsGVR = client.GroupVersionResource{Version: "v1", Resource: "configmaps"}

func typedFlavour() flavour[cm] {
	return flavour[cm]{
		name:     "typed",
		resource: client.For[cm],
		shared:   informer.Shared[cm],
		empty:    func() cm { return &corev1.ConfigMap{} },
		data: func(o cm, key string) (string, bool) {
			v, ok := o.Data[key]
			return v, ok
		},
	}
}

func metadataFlavour() flavour[pom] {
	return flavour[pom]{
		name:     "metadata",
		resource: func(c *client.Client) *client.Resource[pom] { return informer.MetadataResource(c, configMapsGVR) },
		shared: func(f *informer.Factory, scope informer.Scope) *informer.Informer[pom] {
			return informer.SharedMetadata(f, configMapsGVR, scope)
		},
		empty: func() pom {
			return &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "PartialObjectMetadata"}}
		},
		data: func(pom, string) (string, bool) { return "", false },
	}
}

func dynamicFlavour() flavour[uns] {
	return flavour[uns]{
		name:     "dynamic",
		resource: func(c *client.Client) *client.Resource[uns] { return client.Dynamic(c, configMapsGVR) },
		shared: func(f *informer.Factory, scope informer.Scope) *informer.Informer[uns] {
			return informer.SharedDynamic(f, configMapsGVR, scope)
		},
		empty: func() uns {
			return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap"}}
		},
		data: func(o uns, key string) (string, bool) {
			v, ok, _ := unstructured.NestedString(o.Object, "data", key)
			return v, ok
		},
	}
}

// eachFlavour runs a test body as the subtests "typed", "metadata" and
// "dynamic"; pass the same generic function three times
// (eachFlavour(t, testX, testX, testX)): Go infers each instance.
func eachFlavour(t *testing.T, typed func(*testing.T, flavour[cm]), metadata func(*testing.T, flavour[pom]), dynamic func(*testing.T, flavour[uns])) {
	t.Run("typed", func(t *testing.T) { typed(t, typedFlavour()) })
	t.Run("metadata", func(t *testing.T) { metadata(t, metadataFlavour()) })
	t.Run("dynamic", func(t *testing.T) { dynamic(t, dynamicFlavour()) })
}

// obj builds namespace/name at resourceVersion rv, with UID
// "uid-namespace-name" and labels given as key, value pairs.
func obj[T client.Object](f flavour[T], ns, name, rv string, labels ...string) T {
	l := map[string]string{}
	for i := 0; i+1 < len(labels); i += 2 {
		l[labels[i]] = labels[i+1]
	}
	o := f.empty()
	o.SetNamespace(ns)
	o.SetName(name)
	o.SetResourceVersion(rv)
	o.SetLabels(l)
	o.SetUID(types.UID("uid-" + ns + "-" + name))
	return o
}

// newServer makes a fake server in memory (for testing/synctest
// bubbles) with n ConfigMaps in "default" and returns it with a client.
func newServer(t *testing.T, n int, opts fake.Options) (*fake.Server, *client.Client) {
	t.Helper()
	s := fake.New(opts)
	t.Cleanup(s.Close)
	cfg := fakeclient.Config(s)
	cfg.Host, cfg.TLS, cfg.Transport = "http://fake", client.TLSConfig{}, s.RoundTripper()
	for i := range n {
		if err := s.Add(configMap("default", i)); err != nil {
			t.Fatal(err)
		}
	}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

// valueKey is the annotation carrying a test ConfigMap's value, beside
// data["i"]: what every flavour, metadata-only included, can compare.
const valueKey = "value"

func configMap(ns string, i int) *corev1.ConfigMap {
	o := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("cm-%05d", i), Namespace: ns,
			Labels: map[string]string{"color": colors[i%len(colors)]},
		},
	}
	setValue(o, strconv.Itoa(i))
	return o
}

// setValue sets o's value: data["i"] and the annotation valueKey.
func setValue(o *corev1.ConfigMap, v string) {
	if o.Data == nil {
		o.Data = map[string]string{}
	}
	if o.Annotations == nil {
		o.Annotations = map[string]string{}
	}
	o.Data["i"] = v
	o.Annotations[valueKey] = v
}

var colors = [...]string{"red", "green", "blue"}

// state is what tests compare of an object in any flavour: its
// resourceVersion and value.
func state(o client.Object) string {
	return o.GetResourceVersion() + " " + valueKey + "=" + o.GetAnnotations()[valueKey]
}

// run runs inf until the test ends (or stop is called), then checks that
// Run returned context.Canceled and left no goroutine behind.
func run[T client.Object](t *testing.T, inf *informer.Informer[T]) (stop func()) {
	t.Helper()
	return runAll(t, inf.Run)
}

// runAll runs every runner (an Informer's or Factory's Run) until the
// test ends (or stop is called), then stops them all, checks that each
// returned context.Canceled and that no goroutine is left behind.
func runAll(t *testing.T, runners ...func(context.Context) error) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, len(runners))
	for _, r := range runners {
		go func() { done <- r(ctx) }()
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			for range runners {
				if err := <-done; !errors.Is(err, context.Canceled) {
					t.Errorf("Run returned %v, want context.Canceled", err)
				}
			}
			checkNoGoroutines(t, "kubewire/informer.", "kubewire/reflector.")
		})
	}
	t.Cleanup(stop)
	return stop
}

// checkNoGoroutines fails if a goroutine runs code of the given packages
// (polling briefly: the HTTP transport may still be winding down).
func checkNoGoroutines(t *testing.T, pkgs ...string) {
	t.Helper()
	var stacks string
	for range 50 {
		buf := make([]byte, 1<<20)
		stacks = string(buf[:runtime.Stack(buf, true)])
		leaked := ""
		for _, g := range strings.Split(stacks, "\n\n") {
			if strings.Contains(g, "checkNoGoroutines") {
				continue
			}
			for _, p := range pkgs {
				if strings.Contains(g, p) && !strings.Contains(g, "_test.") {
					leaked = g
				}
			}
		}
		if leaked == "" {
			return
		}
		stacks = leaked
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("goroutine left after Run returned:\n%s", stacks)
}

// serverStates lists the ConfigMaps of namespace ns ("": all) through the
// typed client: key → state.
func serverStates(t *testing.T, c *client.Client, ns string) map[string]string {
	t.Helper()
	l, err := client.For[cm](c).Namespace(ns).List(context.Background(), client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, o := range l.Items {
		m[informer.Key(o)] = state(o)
	}
	return m
}

func storeStates[T client.Object](s *informer.Store[T]) map[string]string {
	m := map[string]string{}
	for _, o := range s.List() {
		m[informer.Key(o)] = state(o)
	}
	return m
}

// eventually polls cond until it returns "", and fails with its last
// answer after timeout. Timeouts are hang guards, never speed bounds.
func eventually(t *testing.T, timeout time.Duration, cond func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		msg := cond()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal(msg)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// inSync is a condition: the informer's cache equals the server's state.
func inSync[T client.Object](t *testing.T, c *client.Client, s *informer.Store[T]) func() string {
	return inSyncIn(t, c, "", s)
}

// inSyncIn is inSync for a cache of namespace ns.
func inSyncIn[T client.Object](t *testing.T, c *client.Client, ns string, s *informer.Store[T]) func() string {
	return func() string {
		want, got := serverStates(t, c, ns), storeStates(s)
		if maps.Equal(want, got) {
			return ""
		}
		return "cache differs from the server (-server +cache):\n" + cmp.Diff(want, got)
	}
}
