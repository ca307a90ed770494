package informer_test

import (
	"net/url"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

// Events the cache does not expect, while an index, two handlers (one
// with a resync) and readers run: a list naming an object twice (at two
// versions, and twice at one), an ADDED for a cached object, a DELETED
// for one not cached, a MODIFIED for one not cached, and a DELETED
// twice. The cache ends as the events say, the index with it, handlers
// see each change once as the cache made it, and nothing panics or
// races (run with -race). Probed: already so, but for the list's older
// duplicate, which the store now keeps out (a at 2 after a at 4).
func TestUnexpectedEvents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hostile{
			list: func(int, url.Values) string { return fixture(t, "list-duplicates.json") },
			watch: func(n int, _ url.Values) (string, bool) {
				if n == 0 {
					return fixture(t, "watch-surprises.jsonl"), true
				}
				return "", true
			},
		}
		byValue := map[string]informer.IndexFunc[*corev1.ConfigMap]{"v": func(o *corev1.ConfigMap) []string { return []string{o.Data["v"]} }}
		inf := newInformer(t, h.resource(t), informer.Options[*corev1.ConfigMap]{Reflector: reflector.Options{DisableWatchList: true}, Indexes: byValue})
		hist := &historyHandler[*corev1.ConfigMap]{}
		inf.AddHandler(hist, informer.HandlerOptions{})
		resynced := &historyHandler[*corev1.ConfigMap]{}
		inf.AddHandler(resynced, informer.HandlerOptions{ResyncPeriod: 10 * time.Second})
		stop := run(t, inf)
		done := make(chan struct{})
		go func() { // a reader beside the writes
			defer close(done)
			for range 100 {
				inf.Store().List()
				if _, err := inf.Store().ByIndex("v", "6"); err != nil {
					t.Error(err)
				}
				time.Sleep(100 * time.Millisecond)
			}
		}()
		time.Sleep(time.Minute)
		<-done
		stop()
		want := map[string][]string{
			"a": {"add 4  initial=true", "update 4->6 "},
			"c": {"add 3  initial=true", "delete 9  unknown=false"},
			"y": {"add 8  initial=false"},
		}
		if d := cmp.Diff(want, hist.get()); d != "" {
			t.Errorf("handler saw (-want +got):\n%s", d)
		}
		if got := storeStates(inf.Store()); len(got) != 2 {
			t.Errorf("cache %v, want a and y", got)
		}
		if got, _ := inf.Store().IndexKeys("v", "6"); !slices.Equal(got, []string{"default/a"}) {
			t.Errorf("index v=6: %v, want default/a", got)
		}
		if got, _ := inf.Store().IndexKeys("v", "4"); len(got) != 0 {
			t.Errorf("index v=4: %v, want none", got)
		}
		if n := len(resynced.get()["a"]); n < 5 {
			t.Errorf("the resync handler saw a %d times in a minute of 10 s resyncs", n)
		}
	})
}
