package client

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/wire"
)

// Answers are read into recycled buffers. Every decoder must copy what it
// keeps: with poisoning on, each buffer is zeroed the moment its answer
// is decoded, so an object still pointing into one differs from the same
// object decoded by a client that never recycles.
func TestDecodedObjectsOwnTheirBytes(t *testing.T) {
	widgets := GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	pods := GroupVersionResource{Version: "v1", Resource: "pods"}
	ctx := context.Background()
	tests := []struct {
		fixture string
		op      func(*Client) (any, error)
	}{
		{"objects/pods-web-1.pb", func(c *Client) (any, error) {
			return For[*corev1.Pod](c).Namespace("fixtures").Get(ctx, "web-1", GetOptions{})
		}},
		{"objects/pods-web-1.json", func(c *Client) (any, error) {
			return For[*corev1.Pod](c).Namespace("fixtures").Get(ctx, "web-1", GetOptions{})
		}},
		{"objects/pods-web-1.yaml", func(c *Client) (any, error) {
			return For[*corev1.Pod](c).Namespace("fixtures").Get(ctx, "web-1", GetOptions{})
		}},
		{"objects/secrets-s1.pb", func(c *Client) (any, error) {
			return For[*corev1.Secret](c).Namespace("fixtures").Get(ctx, "s1", GetOptions{})
		}},
		{"objects/secrets-s1.json", func(c *Client) (any, error) {
			return For[*corev1.Secret](c).Namespace("fixtures").Get(ctx, "s1", GetOptions{})
		}},
		{"objects/deployment-web.pb", func(c *Client) (any, error) {
			return For[*appsv1.Deployment](c).Namespace("fixtures").Get(ctx, "web", GetOptions{})
		}},
		{"objects/crd-widgets.pb", func(c *Client) (any, error) {
			return For[*apiextensionsv1.CustomResourceDefinition](c).Get(ctx, "widgets.example.com", GetOptions{})
		}},
		{"objects/crd-widgets.json", func(c *Client) (any, error) {
			return For[*apiextensionsv1.CustomResourceDefinition](c).Get(ctx, "widgets.example.com", GetOptions{})
		}},
		{"lists/pods.pb", func(c *Client) (any, error) { return For[*corev1.Pod](c).List(ctx, ListOptions{}) }},
		{"lists/pods.pb", func(c *Client) (any, error) {
			return For[*corev1.Pod](c).List(ctx, ListOptions{Decoder: &wire.Decoder{ReadOnly: true}})
		}},
		{"lists/pods.json", func(c *Client) (any, error) { return For[*corev1.Pod](c).List(ctx, ListOptions{}) }},
		{"lists/configmaps.pb", func(c *Client) (any, error) { return For[*corev1.ConfigMap](c).List(ctx, ListOptions{}) }},
		{"lists/pods.json", func(c *Client) (any, error) { return Dynamic(c, pods).List(ctx, ListOptions{}) }},
		{"lists/widgets.json", func(c *Client) (any, error) { return Dynamic(c, widgets).List(ctx, ListOptions{}) }},
		{"objects/widget-w1.json", func(c *Client) (any, error) {
			return Dynamic(c, widgets).Namespace("fixtures").Get(ctx, "w1", GetOptions{})
		}},
		{"meta/pods-partial.pb", func(c *Client) (any, error) { return Metadata(c, pods, true).List(ctx, ListOptions{}) }},
		{"meta/pods-partial.json", func(c *Client) (any, error) { return Metadata(c, pods, false).List(ctx, ListOptions{}) }},
		{"tables/pods", func(c *Client) (any, error) { return For[*corev1.Pod](c).ListTable(ctx, ListOptions{}) }},
	}
	for _, tc := range tests {
		t.Run(tc.fixture, func(t *testing.T) {
			answer := load(t, tc.fixture)
			handler := func(w http.ResponseWriter, r *http.Request) { serve(w, answer) }
			decode := func(poison bool) string {
				c, _ := newServer(t, handler)
				c.bodies.poison = poison
				obj, err := tc.op(c)
				if err != nil {
					t.Fatal(err)
				}
				out, err := json.Marshal(obj)
				if err != nil {
					t.Fatal(err)
				}
				return string(out)
			}
			if diff := cmp.Diff(decode(false), decode(true)); diff != "" {
				t.Errorf("an object changed with its answer's buffer (-kept +recycled):\n%s", diff)
			}
		})
	}
}
