package informer_test

import (
	"net/url"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

// A relist answered by a lagging apiserver (its list older than the
// cache) does not take an object back: its items reach the store before
// the list's resourceVersion says it is older, and the store keeps its
// newer object; handlers see no update to the older state, and the
// next full state moves the object on. Before, the cache went from a at
// 9 to a at 4, and handlers were told so.
func TestRelistOlderThanCacheKeepsObjects(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lists := []string{"list-rv10.json", "list-rv5.json", "list-rv12.json"}
		h := &hostile{
			list: func(n int, _ url.Values) string { return fixture(t, lists[min(n, len(lists)-1)]) },
			watch: func(n int, _ url.Values) (string, bool) {
				if n == 0 {
					return fixture(t, "watch-gone.jsonl"), false
				}
				return "", true
			},
		}
		inf := newInformer(t, h.resource(t), informer.Options[*corev1.ConfigMap]{Reflector: reflector.Options{DisableWatchList: true}})
		hist := &historyHandler[*corev1.ConfigMap]{}
		inf.AddHandler(hist, informer.HandlerOptions{})
		stop := run(t, inf)
		time.Sleep(time.Minute)
		stop()
		want := []string{"add 9  initial=true", "update 9->11 "}
		if got := hist.get()["a"]; !slices.Equal(got, want) {
			t.Errorf("handler saw %q, want %q", got, want)
		}
		if o, ok := inf.Store().Get("default", "a"); !ok || o.ResourceVersion != "11" {
			t.Errorf("cached a: %v, want it at 11", o)
		}
	})
}
