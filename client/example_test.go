package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	corev1ac "github.com/kubewire/kubewire/api/core/v1/applyconfig"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

// apiServer is a stand-in for kube-apiserver with one pod and a watch.
func apiServer() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		const pod = `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web-1","namespace":"default","resourceVersion":"7"}}`
		switch {
		case r.URL.Query().Get("watch") == "true":
			fmt.Fprintln(w, `{"type":"ADDED","object":`+pod+`}`)
			fmt.Fprintln(w, `{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"9","annotations":{"k8s.io/initial-events-end":"true"}}}}`)
		case r.URL.Path == "/api/v1/namespaces/default/pods":
			fmt.Fprint(w, `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"8"},"items":[`+pod+`]}`)
		case r.URL.Path == "/api/v1/namespaces/default/pods/web-1":
			fmt.Fprint(w, pod)
		default:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404,"message":"pods \"nope\" not found"}`)
		}
	}))
}

func ExampleFor() {
	srv := apiServer()
	defer srv.Close()
	c, err := client.New(client.Config{Host: srv.URL})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	pods := client.For[*corev1.Pod](c).Namespace("default")

	pod, err := pods.Get(ctx, "web-1", client.GetOptions{})
	fmt.Println(pod.Name, pod.ResourceVersion, err)

	_, err = pods.Get(ctx, "nope", client.GetOptions{})
	fmt.Println(errors.Is(err, client.ErrNotFound), err)
	// Output:
	// web-1 7 <nil>
	// true client: GET /api/v1/namespaces/default/pods/nope: pods "nope" not found
}

func ExampleResource_Watch() {
	srv := apiServer()
	defer srv.Close()
	c, _ := client.New(client.Config{Host: srv.URL})
	ctx := context.Background()
	pods := client.For[*corev1.Pod](c).Namespace("default")

	list, err := pods.List(ctx, client.ListOptions{Limit: 500})
	if err != nil {
		panic(err)
	}
	fmt.Println("listed", len(list.Items), "at", list.ResourceVersion)

	initial := true
	w, err := pods.Watch(ctx, client.WatchOptions{
		SendInitialEvents:    &initial,
		AllowWatchBookmarks:  true,
		ResourceVersionMatch: client.MatchNotOlderThan,
	})
	if err != nil {
		panic(err)
	}
	for ev, err := range w.Events() {
		if errors.Is(err, io.EOF) {
			break
		}
		fmt.Println(ev.Type, ev.Object.Name, ev.ResourceVersion, ev.InitialEventsEnd)
	}
	// Output:
	// listed 1 at 8
	// ADDED web-1 7 false
	// BOOKMARK  9 true
}

func ExampleLabelSelector() {
	sel := client.LabelSelector{}.Equals("app", "web").In("tier", "front", "back").NotExists("canary")
	fmt.Println(sel.String(), sel.Err())

	bad := client.LabelSelector{}.Equals("app", "not a value")
	fmt.Println(bad.Err() != nil)
	// Output:
	// app=web,tier in (front,back),!canary <nil>
	// true
}

// A client for the fake API server (package fake/fakeclient gives its
// configuration): create, patch, list with a label selector and delete a
// ConfigMap, matching errors with errors.Is.
func Example() {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	c, err := client.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	cms := client.For[*corev1.ConfigMap](c).Namespace("default")

	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "settings", Labels: map[string]string{"app": "web"}},
		Data:       map[string]string{"mode": "fast"},
	}
	created, err := cms.Create(ctx, cm, client.CreateOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("created", created.Name, "in", created.Namespace)

	patched, err := cms.Patch(ctx, "settings", client.MergePatch, []byte(`{"data":{"mode":"safe"}}`), client.PatchOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("mode is now", patched.Data["mode"])

	list, err := cms.List(ctx, client.ListOptions{LabelSelector: client.LabelSelector{}.Equals("app", "web")})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("app=web:", len(list.Items))

	if err := cms.Delete(ctx, "settings", client.DeleteOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	_, err = cms.Get(ctx, "settings", client.GetOptions{})
	fmt.Println(errors.Is(err, client.ErrNotFound), err)
	// Output:
	// created settings in default
	// mode is now safe
	// app=web: 1
	// true client: GET /api/v1/namespaces/default/configmaps/settings: configmaps "settings" not found
}

// Server-side apply with a typed apply configuration: only the fields
// set are sent, and the field manager owns them.
func ExampleResource_Apply() {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	c, err := client.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	cms := client.For[*corev1.ConfigMap](c).Namespace("default")

	settings := corev1ac.ConfigMap("settings", "default").
		WithLabels(map[string]string{"app": "web"}).
		WithData(map[string]string{"mode": "fast"})
	cm, err := cms.Apply(context.Background(), settings, client.ApplyOptions{FieldManager: "settings-controller"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cm.Name, cm.Data["mode"], cm.ManagedFields[0].Manager, cm.ManagedFields[0].Operation)
	// Output: settings fast settings-controller Apply
}
