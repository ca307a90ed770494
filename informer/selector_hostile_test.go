package informer_test

import (
	"net/url"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

// A server that ignores the label selector (a proxy dropping the query,
// an aggregated server without selectors) must not fill a cache that
// says app=web with other objects: the Reflector applies the selector on
// its side too, as it does the shard selector. An object that leaves the
// selector in a MODIFIED is deleted from the cache, with OnDelete, as
// kube-apiserver's watch turns such a change into a DELETED. A field
// selector on metadata.name or metadata.namespace is applied the same
// way. Before, b (app=db) and c (no labels) were cached and handed to
// handlers, and a stayed cached after it became app=db (client-go does
// the same).
func TestServerIgnoringTheSelector(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hostile{
			list: func(int, url.Values) string {
				return `{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[` +
					`{"metadata":{"name":"a","namespace":"default","resourceVersion":"2","labels":{"app":"web"}}},` +
					`{"metadata":{"name":"b","namespace":"default","resourceVersion":"3","labels":{"app":"db"}}},` +
					`{"metadata":{"name":"skip","namespace":"default","resourceVersion":"4","labels":{"app":"web"}}}]}`
			},
			watch: func(n int, _ url.Values) (string, bool) {
				if n > 0 {
					return "", true
				}
				return `{"type":"ADDED","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default","resourceVersion":"6"}}}
{"type":"MODIFIED","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"default","resourceVersion":"7","labels":{"app":"db"}}}}
{"type":"ADDED","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d","namespace":"default","resourceVersion":"8","labels":{"app":"web"}}}}
{"type":"MODIFIED","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b","namespace":"default","resourceVersion":"9","labels":{"app":"web"}}}}
{"type":"MODIFIED","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"skip","namespace":"default","resourceVersion":"10","labels":{"app":"web"}}}}
`, true
			},
		}
		inf := newInformer(t, h.resource(t), informer.Options[*corev1.ConfigMap]{Reflector: reflector.Options{
			DisableWatchList: true,
			LabelSelector:    client.LabelSelector{}.Equals("app", "web"),
			FieldSelector:    client.FieldSelector{}.NotEquals("metadata.name", "skip"),
		}})
		hist := &historyHandler[*corev1.ConfigMap]{}
		inf.AddHandler(hist, informer.HandlerOptions{})
		stop := run(t, inf)
		time.Sleep(time.Minute)
		stop()
		want := map[string][]string{
			"a": {"add 2  initial=true", "delete 7  unknown=false"},
			"d": {"add 8  initial=false"},
			"b": {"add 9  initial=false"}, // entering the selector
		}
		if d := cmp.Diff(want, hist.get()); d != "" {
			t.Errorf("handler saw (-want +got):\n%s", d)
		}
		if d := cmp.Diff(map[string]string{"default/b": "9 value=", "default/d": "8 value="}, storeStates(inf.Store())); d != "" {
			t.Errorf("cache (-want +got):\n%s", d)
		}
	})
}
