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

// A list whose items say they are of another kind than the list's, or of
// another apiVersion, is a broken or hostile answer: a *corev1.Pod whose
// Kind says ConfigMap must not reach a cache. Items that say nothing
// (kube-apiserver leaves built-in items' kind out) or say the right
// thing are accepted. And a protobuf list of another kind is refused for
// its kind before its items are decoded, as the streamed list refuses
// it. Before, List and ListStream handed over the ConfigMap and the
// apps/v1 Pod as Pods, and List refused the protobuf ConfigMapList with
// "Volume field 13: unexpected EOF" from decoding ConfigMaps as Pods.
func TestListItemsOfAnotherKind(t *testing.T) {
	cmRaw, err := codec.DecodeEnvelope(load(t, "lists/configmaps.pb").Body)
	if err != nil {
		t.Fatal(err)
	}
	const (
		js = "application/json"
		pb = "application/vnd.kubernetes.protobuf"
	)
	list := func(items string) []byte {
		return []byte(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[` + items + `]}`)
	}
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		msg     string // in the error; empty: accepted
	}{
		{"an item of another kind", reply(200, js, list(`{"metadata":{"name":"a","namespace":"d"}},{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"b","namespace":"d"}}`)), `item 1 is a v1 ConfigMap, want v1 Pod`},
		{"an item of another apiVersion", reply(200, js, list(`{"kind":"Pod","apiVersion":"apps/v1","metadata":{"name":"a","namespace":"d"}}`)), `item 0 is a apps/v1 Pod, want v1 Pod`},
		{"an item with an apiVersion alone", reply(200, js, list(`{"apiVersion":"batch/v1","metadata":{"name":"a","namespace":"d"}}`)), `item 0 is a batch/v1, want v1 Pod`},
		// As a watch refuses an event's nameless object.
		{"an item without a name", reply(200, js, list(`{"metadata":{"name":"a","namespace":"d"}},{"metadata":{"namespace":"d","resourceVersion":"4"}}`)), `item 1 has no name`},
		{"items saying nothing or the right kind", reply(200, js, list(`{"metadata":{"name":"a","namespace":"d"}},{"kind":"Pod","apiVersion":"v1","metadata":{"name":"b","namespace":"d"}}`)), ""},
		{"a protobuf list of another kind", reply(200, pb, envelope("ConfigMapList", cmRaw.Raw, "")), "the answer is a v1 ConfigMapList, want v1 PodList"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := newServer(t, tc.handler)
			pods := For[*corev1.Pod](c).Namespace("d")
			l, err := pods.List(context.Background(), ListOptions{})
			check := func(op string, n int, err error) {
				t.Helper()
				if tc.msg == "" {
					if err != nil || n != 2 {
						t.Errorf("%s: %d items, %v; want 2", op, n, err)
					}
					return
				}
				if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tc.msg) {
					t.Errorf("%s: %d items, %v; want ErrMalformed saying %q", op, n, err, tc.msg)
				}
			}
			n := 0
			if err == nil {
				n = len(l.Items)
			}
			check("List", n, err)
			if strings.Contains(tc.name, "protobuf") {
				return // ListStream's protobuf check is older, and tested beside it
			}
			n = 0
			_, err = pods.ListStream(context.Background(), ListOptions{}, func(*corev1.Pod) error {
				n++
				return nil
			})
			if tc.msg != "" && n > 0 && strings.Contains(tc.msg, "item 0") {
				t.Errorf("ListStream handed over %d items before the bad one", n)
			}
			if tc.msg != "" {
				n = 0
			}
			check("ListStream", n, err)
		})
	}
}
