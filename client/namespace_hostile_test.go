package client

import (
	"context"
	"errors"
	"strings"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// An object of a namespaced kind that names no namespace is a broken
// answer. In a list or watch of one namespace it is given that
// namespace, so that a cache keys it where its listers look (before, a
// cache of default held it under the cluster-scoped key "d"). In a list
// of every namespace it cannot be keyed, and is refused.
func TestObjectWithoutNamespace(t *testing.T) {
	list := []byte(`{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[{"metadata":{"name":"a","namespace":"default"}},{"metadata":{"name":"d","namespace":""}}]}`)
	event := []byte(`{"type":"ADDED","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d","resourceVersion":"8"}}}` + "\n")
	ctx := context.Background()

	t.Run("one namespace", func(t *testing.T) {
		c, _ := newServer(t, reply(200, "application/json", list))
		cms := For[*corev1.ConfigMap](c).Namespace("default")
		l, err := cms.List(ctx, ListOptions{})
		if err != nil || len(l.Items) != 2 || l.Items[1].Namespace != "default" {
			t.Fatalf("List: %v, %+v; want item d in default", err, l)
		}
		var streamed []string
		if _, err := cms.ListStream(ctx, ListOptions{}, func(cm *corev1.ConfigMap) error {
			streamed = append(streamed, cm.Namespace+"/"+cm.Name)
			return nil
		}); err != nil || strings.Join(streamed, ",") != "default/a,default/d" {
			t.Fatalf("ListStream: %v, %v; want default/a,default/d", err, streamed)
		}
	})
	t.Run("a watch of one namespace", func(t *testing.T) {
		c, _ := newServer(t, reply(200, "application/json", event))
		w, err := For[*corev1.ConfigMap](c).Namespace("default").Watch(ctx, WatchOptions{ResourceVersion: "5"})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		ev, err := w.Next()
		if err != nil || ev.Object.Namespace != "default" {
			t.Fatalf("Next: %v, %+v; want d in default", err, ev.Object)
		}
	})
	t.Run("every namespace", func(t *testing.T) {
		c, _ := newServer(t, reply(200, "application/json", list))
		_, err := For[*corev1.ConfigMap](c).List(ctx, ListOptions{})
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), `"d" of a namespaced kind names no namespace`) {
			t.Fatalf("List of every namespace: %v; want ErrMalformed naming d", err)
		}
	})
}
