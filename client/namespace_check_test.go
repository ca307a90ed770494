package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/codec"
)

const strayEvent = `{"type":"ADDED","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","namespace":"kube-system","resourceVersion":"4"}}}`

const strayList = `{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[` +
	`{"metadata":{"name":"a","namespace":"default","resourceVersion":"3"}},` +
	`{"metadata":{"name":"x","namespace":"kube-system","resourceVersion":"4"}}]}`

// A watch of one namespace that delivers an object of another (a
// server or proxy that lies) ends with ErrMalformed, as an object of
// another kind does: a cache of namespace default would otherwise hold
// kube-system's objects. Before, the event was handed over.
func TestWatchEventInAnotherNamespace(t *testing.T) {
	checkNoLeaks(t)
	c, _ := newServerConfig(t, Config{QPS: -1, Retry: RetryPolicy{MaxAttempts: 1}}, streamThenHang(codec.MediaTypeJSON, []byte(strayEvent+"\n")))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cms := For[*corev1.ConfigMap](c).Namespace("default")
	w, err := cms.Watch(ctx, WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if ev, err := w.Next(); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "kube-system") {
		t.Errorf("%s %v, %v; want ErrMalformed naming the namespace", ev.Type, ev.Object, err)
	}
	// Across all namespaces, the same event is one of the collection.
	all, err := For[*corev1.ConfigMap](c).Watch(ctx, WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer all.Close()
	if _, err := all.Next(); err != nil {
		t.Errorf("a watch of all namespaces: %v", err)
	}
}

// A list of one namespace holding an object of another is refused, by
// List and by ListStream alike.
func TestListItemInAnotherNamespace(t *testing.T) {
	c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(strayList))
	})
	cms := For[*corev1.ConfigMap](c).Namespace("default")
	if _, err := cms.List(context.Background(), ListOptions{}); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "kube-system") {
		t.Errorf("List: %v, want ErrMalformed naming the namespace", err)
	}
	var got []string
	_, err := cms.ListStream(context.Background(), ListOptions{}, func(o *corev1.ConfigMap) error {
		got = append(got, o.Namespace+"/"+o.Name)
		return nil
	})
	if !errors.Is(err, ErrMalformed) || len(got) != 1 {
		t.Errorf("ListStream handed %v over, then %v; want default/a, then ErrMalformed", got, err)
	}
	if _, err := For[*corev1.ConfigMap](c).List(context.Background(), ListOptions{}); err != nil {
		t.Errorf("a list of all namespaces: %v", err)
	}
}
