package client

import (
	"context"
	"net/http"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// JSON keys name fields exactly, as kube-apiserver and client-go read them:
// a member whose key differs from a field's name only in case is an
// unknown member and is ignored. encoding/json would let "Name" set
// metadata.name, a parser differential an attacker who controls part of
// an object could use to show the client a name the server does not see.

// caseBodies are objects whose mis-cased keys must not set anything.
var caseBodies = []struct {
	name string
	body string
}{
	{"after", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"ns","resourceVersion":"7","Name":"B","NAMESPACE":"evil"}}`},
	{"before", `{"apiVersion":"v1","kind":"Pod","metadata":{"Name":"B","name":"a","Namespace":"evil","namespace":"ns","resourceVersion":"7"}}`},
	{"only mis-cased", `{"apiVersion":"v1","kind":"Pod","Metadata":{"name":"B"},"metadata":{"name":"a","namespace":"ns","resourceVersion":"7","RESOURCEVERSION":"9"}}`},
}

func checkMeta(t *testing.T, what string, m metav1.Object) {
	t.Helper()
	if m.GetName() != "a" || m.GetNamespace() != "ns" || m.GetResourceVersion() != "7" {
		t.Errorf("%s: name %q namespace %q resourceVersion %q, want a, ns, 7 (mis-cased keys were matched)",
			what, m.GetName(), m.GetNamespace(), m.GetResourceVersion())
	}
}

func TestJSONKeysAreCaseSensitive(t *testing.T) {
	ctx := context.Background()
	for _, tc := range caseBodies {
		t.Run(tc.name, func(t *testing.T) {
			list := `{"apiVersion":"v1","kind":"PodList","metadata":{"resourceVersion":"7"},"items":[` + tc.body + `]}`
			event := `{"type":"ADDED","object":` + tc.body + "}\n"
			c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				switch {
				case r.URL.Query().Get("watch") == "true":
					w.Write([]byte(event))
				case r.URL.Path == "/api/v1/namespaces/ns/pods":
					w.Write([]byte(list))
				default:
					w.Write([]byte(tc.body))
				}
			})
			pod, err := For[*corev1.Pod](c).Namespace("ns").Get(ctx, "a", GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkMeta(t, "typed get", pod)

			pods, err := For[*corev1.Pod](c).Namespace("ns").List(ctx, ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkMeta(t, "typed list", pods.Items[0])

			meta := Metadata(c, GroupVersionResource{Version: "v1", Resource: "pods"}, false).Namespace("ns")
			pm, err := meta.Get(ctx, "a", GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkMeta(t, "metadata get", pm)
			pms, err := meta.List(ctx, ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkMeta(t, "metadata list", pms.Items[0])

			for what, watch := range map[string]func() (metav1.Object, error){
				"typed watch": func() (metav1.Object, error) {
					w, err := For[*corev1.Pod](c).Namespace("ns").Watch(ctx, WatchOptions{ResourceVersion: "1"})
					if err != nil {
						return nil, err
					}
					defer w.Close()
					ev, err := w.Next()
					return ev.Object, err
				},
				"metadata watch": func() (metav1.Object, error) {
					w, err := meta.Watch(ctx, WatchOptions{ResourceVersion: "1"})
					if err != nil {
						return nil, err
					}
					defer w.Close()
					ev, err := w.Next()
					return ev.Object, err
				},
				"dynamic watch": func() (metav1.Object, error) {
					w, err := Dynamic(c, GroupVersionResource{Version: "v1", Resource: "pods"}).Namespace("ns").Watch(ctx, WatchOptions{ResourceVersion: "1"})
					if err != nil {
						return nil, err
					}
					defer w.Close()
					ev, err := w.Next()
					return ev.Object, err
				},
			} {
				obj, err := watch()
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				checkMeta(t, what, obj)
			}
		})
	}
}
