package client

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/codec"
)

func TestGetDecodesEachContentType(t *testing.T) {
	for _, name := range []string{"objects/pods-web-1.pb", "objects/pods-web-1.json", "objects/pods-web-1.yaml"} {
		t.Run(name, func(t *testing.T) {
			fx := load(t, name)
			c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, fx) })
			pod, err := For[*corev1.Pod](c).Namespace("fixtures").Get(context.Background(), "web-1", GetOptions{ResourceVersion: "0"})
			if err != nil {
				t.Fatal(err)
			}
			req, _ := rec.last(t)
			if diff := cmp.Diff("/api/v1/namespaces/fixtures/pods/web-1?resourceVersion=0", req.URL.RequestURI()); diff != "" {
				t.Errorf("path (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(codec.MediaTypeProtobuf+", "+codec.MediaTypeJSON, req.Header.Get("Accept")); diff != "" {
				t.Errorf("Accept (-want +got):\n%s", diff)
			}
			if pod.Name != "web-1" || pod.Namespace != "fixtures" || pod.Labels["app"] != "web" {
				t.Errorf("decoded %s/%s labels %v", pod.Namespace, pod.Name, pod.Labels)
			}
			if pod.Kind != "Pod" || pod.APIVersion != "v1" {
				t.Errorf("TypeMeta = %q %q, want v1 Pod", pod.APIVersion, pod.Kind)
			}
		})
	}
}

func TestPathsByScopeAndGroup(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name, fixture, want string
		get                 func(*Client) error
	}{
		{"cluster-scoped core", "objects/namespace-fixtures.pb", "/api/v1/namespaces/fixtures", func(c *Client) error {
			_, err := For[*corev1.Namespace](c).Namespace("ignored").Get(ctx, "fixtures", GetOptions{})
			return err
		}},
		{"namespaced group", "objects/deployment-web.pb", "/apis/apps/v1/namespaces/fixtures/deployments/web", func(c *Client) error {
			_, err := For[*appsv1.Deployment](c).Namespace("fixtures").Get(ctx, "web", GetOptions{})
			return err
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fx := load(t, tc.fixture)
			c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, fx) })
			if err := tc.get(c); err != nil {
				t.Fatal(err)
			}
			req, _ := rec.last(t)
			if diff := cmp.Diff(tc.want, req.URL.Path); diff != "" {
				t.Errorf("path (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGetNeedsNamespaceForNamespacedKinds(t *testing.T) {
	c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) {})
	_, err := For[*corev1.Pod](c).Get(context.Background(), "web-1", GetOptions{})
	if !errors.Is(err, ErrInvalidOptions) {
		t.Fatalf("err = %v, want ErrInvalidOptions", err)
	}
	for _, bad := range []string{"", "a/b", "..", "x%2f"} {
		if _, err := For[*corev1.Pod](c).Namespace("ns").Get(context.Background(), bad, GetOptions{}); !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("name %q: err = %v, want ErrInvalidOptions", bad, err)
		}
	}
	if rec.count() != 0 {
		t.Errorf("%d requests sent for invalid calls", rec.count())
	}
}

func TestListDecodesEachContentType(t *testing.T) {
	for _, name := range []string{"lists/pods.pb", "lists/pods.json"} {
		t.Run(name, func(t *testing.T) {
			fx := load(t, name)
			c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, fx) })
			list, err := For[*corev1.Pod](c).List(context.Background(), ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, p := range list.Items {
				names = append(names, p.Name)
			}
			want := []string{"web-1", "web-2", "web-3", "web-4", "web-5", "web-6", "web-7"}
			if diff := cmp.Diff(want, names); diff != "" {
				t.Errorf("items (-want +got):\n%s", diff)
			}
			if list.ResourceVersion != "239" || list.Kind != "PodList" {
				t.Errorf("list meta = %q %q", list.ResourceVersion, list.Kind)
			}
		})
	}
}

func TestListProtobufEqualsJSON(t *testing.T) {
	lists := map[string]*List[*corev1.Pod]{}
	for _, name := range []string{"lists/pods-page1.pb", "lists/pods-page1.json"} {
		fx := load(t, name)
		c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, fx) })
		l, err := For[*corev1.Pod](c).List(context.Background(), ListOptions{Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		lists[name] = l
	}
	pb, js := lists["lists/pods-page1.pb"], lists["lists/pods-page1.json"]
	// The two captures were taken at different resource versions.
	if diff := cmp.Diff(*js.RemainingItemCount, *pb.RemainingItemCount); diff != "" {
		t.Errorf("remainingItemCount (-json +protobuf):\n%s", diff)
	}
	if js.Continue == "" || js.RemainingItemCount == nil || *js.RemainingItemCount != 4 {
		t.Errorf("page meta = %+v", js.ListMeta)
	}
	for i := range js.Items {
		if diff := cmp.Diff(js.Items[i].Spec.Containers[0].Image, pb.Items[i].Spec.Containers[0].Image); diff != "" {
			t.Errorf("item %d spec (-json +protobuf):\n%s", i, diff)
		}
	}
}

func TestListSharesDecoder(t *testing.T) {
	fx := load(t, "lists/pods.pb")
	c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, fx) })
	d := &wire.Decoder{ReadOnly: true}
	a, err := For[*corev1.Pod](c).List(context.Background(), ListOptions{Decoder: d})
	if err != nil {
		t.Fatal(err)
	}
	b, err := For[*corev1.Pod](c).List(context.Background(), ListOptions{Decoder: d})
	if err != nil {
		t.Fatal(err)
	}
	// With one ReadOnly Decoder, equal label maps are one map.
	la, lb := a.Items[0].Labels, b.Items[0].Labels
	la["probe"] = "x"
	defer delete(la, "probe")
	if lb["probe"] != "x" {
		t.Errorf("label maps of equal objects decoded through one ReadOnly Decoder are not shared")
	}
}

func TestNotAcceptableFallsBackToJSONAndRemembers(t *testing.T) {
	notAcceptable := load(t, "errors/widget-protobuf-only-406")
	pod := load(t, "objects/pods-web-1.json")
	c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept") != codec.MediaTypeJSON {
			serve(w, notAcceptable)
			return
		}
		serve(w, pod)
	})
	pods := For[*corev1.Pod](c).Namespace("fixtures")
	for i := range 2 {
		if _, err := pods.Get(context.Background(), "web-1", GetOptions{}); err != nil {
			t.Fatalf("get %d: %v", i, err)
		}
	}
	var accepts []string
	for _, r := range rec.reqs {
		accepts = append(accepts, r.Header.Get("Accept"))
	}
	want := []string{codec.AcceptProtobufOrJSON, codec.MediaTypeJSON, codec.MediaTypeJSON}
	if diff := cmp.Diff(want, accepts); diff != "" {
		t.Errorf("Accept headers (-want +got):\n%s", diff)
	}
}

func TestErrorClasses(t *testing.T) {
	tests := []struct {
		fixture string
		want    error
	}{
		{"errors/notfound.json", ErrNotFound},
		{"errors/notfound.pb", ErrNotFound},
		{"errors/alreadyexists.json", ErrAlreadyExists},
		{"errors/conflict.json", ErrConflict},
		{"errors/invalid.json", ErrInvalid},
		{"errors/strict-unknown-field.json", ErrBadRequest},
		{"errors/unauthorized.json", ErrUnauthorized},
		{"errors/bad-continue.json", ErrBadRequest},
		{"errors/rvmatch-without-rv.json", ErrInvalid},
		{"errors/expired-continue.json", ErrExpired},
		{"errors/list-exact-gone.json", ErrExpired},
		{"errors/widget-protobuf-only-406", ErrNotAcceptable},
		{"errors/too-large-rv.json", ErrTooLargeResourceVersion},
		{"errors/too-large-rv.json", ErrServerTimeout},
	}
	for _, tc := range tests {
		t.Run(tc.fixture, func(t *testing.T) {
			fx := load(t, tc.fixture)
			c, _ := newServerConfig(t, Config{QPS: -1, Retry: RetryPolicy{MaxAttempts: 1}},
				func(w http.ResponseWriter, r *http.Request) { serve(w, fx) })
			_, err := For[*corev1.Pod](c).Namespace("fixtures").Get(context.Background(), "web-1", GetOptions{})
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want it to match %v", err, tc.want)
			}
			se, ok := StatusOf(err)
			if !ok || se.Status.Code != int32(fx.Status) {
				t.Errorf("StatusOf = %v, %v; want code %d", se, ok, fx.Status)
			}
		})
	}
}
