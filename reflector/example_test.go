package reflector_test

import (
	"context"
	"fmt"
	"slices"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/reflector"
)

// synced is a Store that prints the names of the first full state it
// receives, then signals.
type synced struct {
	names    []string
	withData int // objects that arrived with data
	done     chan struct{}
}

func (s *synced) Begin() { s.names, s.withData = nil, 0 }
func (s *synced) Item(cm *corev1.ConfigMap) {
	s.names = append(s.names, cm.Name)
	if cm.Data != nil {
		s.withData++
	}
}
func (s *synced) Abort()                   {}
func (s *synced) Add(*corev1.ConfigMap)    {}
func (s *synced) Update(*corev1.ConfigMap) {}
func (s *synced) Delete(*corev1.ConfigMap) {}
func (s *synced) Bookmark(string)          {}
func (s *synced) End(resourceVersion string) {
	slices.Sort(s.names)
	fmt.Println("synced:", s.names)
	close(s.done)
}

func Example() {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	for _, name := range []string{"web", "db"} {
		if err := srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}}); err != nil {
			panic(err)
		}
	}
	c, err := client.New(cfg)
	if err != nil {
		panic(err)
	}
	store := &synced{done: make(chan struct{})}
	r, err := reflector.New(client.For[*corev1.ConfigMap](c).Namespace("default"), store, reflector.Options{})
	if err != nil {
		panic(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- r.Run(ctx) }()
	<-store.done
	cancel()
	fmt.Println("run:", <-errc)
	// Output:
	// synced: [db web]
	// run: context canceled
}

// TransformStore trims what the store holds; Options read the first
// list from the API server's watch cache.
func ExampleTransformStore() {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	err := srv.Add(&corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Data:       map[string]string{"index.html": "<html>...</html>"},
	})
	if err != nil {
		panic(err)
	}
	c, err := client.New(cfg)
	if err != nil {
		panic(err)
	}
	store := &synced{done: make(chan struct{})}
	// Drop what the program never reads before the store sees it. Set
	// the object's own fields; never modify its maps in place, the
	// decoder shares them between objects.
	trimmed := reflector.TransformStore(store, func(cm *corev1.ConfigMap) *corev1.ConfigMap {
		cm.ManagedFields = nil
		cm.Data = nil
		return cm
	})
	r, err := reflector.New(client.For[*corev1.ConfigMap](c).Namespace("default"), trimmed, reflector.Options{
		InitialListFromCache: true, // the first list: resourceVersion=0
	})
	if err != nil {
		panic(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- r.Run(ctx) }()
	<-store.done
	cancel()
	<-errc
	fmt.Println("objects stored with data:", store.withData)
	// Output:
	// synced: [web]
	// objects stored with data: 0
}
