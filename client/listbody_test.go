package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// ListBody reads the same list as List, kube-apiserver's answers in
// every format: its metadata before the items are decoded (read ahead
// for JSON and protobuf, including a custom resource list whose metadata
// comes after its items), then the same items; every buffer recycled
// and poisoned, nothing decoded points into one.
func TestListBodyReadsWhatListReads(t *testing.T) {
	pods := GroupVersionResource{Version: "v1", Resource: "pods"}
	type lister struct {
		list func(*Client) (string, metav1.ListMeta, error)
		body func(*Client) (string, metav1.ListMeta, metav1.ListMeta, error)
	}
	ctx := context.Background()
	typed := lister{
		list: func(c *Client) (string, metav1.ListMeta, error) {
			l, err := For[*corev1.Pod](c).List(ctx, ListOptions{})
			if err != nil {
				return "", metav1.ListMeta{}, err
			}
			return dump(l.Items), l.ListMeta, nil
		},
		body: func(c *Client) (string, metav1.ListMeta, metav1.ListMeta, error) {
			b, err := For[*corev1.Pod](c).ListBody(ctx, ListOptions{})
			if err != nil {
				return "", metav1.ListMeta{}, metav1.ListMeta{}, err
			}
			ahead := b.ListMeta
			l, err := b.Decode()
			if err != nil {
				return "", ahead, metav1.ListMeta{}, err
			}
			return dump(l.Items), ahead, l.ListMeta, nil
		},
	}
	dynamic := func(gvr GroupVersionResource) lister {
		return lister{
			list: func(c *Client) (string, metav1.ListMeta, error) {
				l, err := Dynamic(c, gvr).List(ctx, ListOptions{})
				if err != nil {
					return "", metav1.ListMeta{}, err
				}
				return dump(l.Items), l.ListMeta, nil
			},
			body: func(c *Client) (string, metav1.ListMeta, metav1.ListMeta, error) {
				b, err := Dynamic(c, gvr).ListBody(ctx, ListOptions{})
				if err != nil {
					return "", metav1.ListMeta{}, metav1.ListMeta{}, err
				}
				ahead := b.ListMeta
				l, err := b.Decode()
				if err != nil {
					return "", ahead, metav1.ListMeta{}, err
				}
				return dump(l.Items), ahead, l.ListMeta, nil
			},
		}
	}
	meta := lister{
		list: func(c *Client) (string, metav1.ListMeta, error) {
			l, err := Metadata(c, pods, true).List(ctx, ListOptions{})
			if err != nil {
				return "", metav1.ListMeta{}, err
			}
			return dump(l.Items), l.ListMeta, nil
		},
		body: func(c *Client) (string, metav1.ListMeta, metav1.ListMeta, error) {
			b, err := Metadata(c, pods, true).ListBody(ctx, ListOptions{})
			if err != nil {
				return "", metav1.ListMeta{}, metav1.ListMeta{}, err
			}
			ahead := b.ListMeta
			l, err := b.Decode()
			if err != nil {
				return "", ahead, metav1.ListMeta{}, err
			}
			return dump(l.Items), ahead, l.ListMeta, nil
		},
	}
	for _, tc := range []struct {
		fixture string
		l       lister
	}{
		{"lists/pods.pb", typed},
		{"lists/pods-page1.pb", typed},
		{"lists/pods-page1.json", typed},
		{"lists/pods-page2.json", typed},
		{"lists/pods.json", dynamic(pods)},
		{"lists/widgets.json", dynamic(widgets)},
		{"cbor/widgets.cbor", dynamic(widgets)}, // decoded whole in ListBody
		{"meta/pods-partial.pb", meta},
		{"meta/pods-partial.json", meta},
		{"errors/notfound.json", typed},
		{"errors/expired-continue.json", typed},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			answer := load(t, tc.fixture)
			handler := func(w http.ResponseWriter, r *http.Request) { serve(w, answer) }
			c, _ := newServer(t, handler)
			wantItems, wantMeta, wantErr := tc.l.list(c)
			pc, _ := newServer(t, handler)
			pc.bodies.poison = true
			items, ahead, meta, err := tc.l.body(pc)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("ListBody error %v, List error %v", err, wantErr)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(wantMeta, ahead); diff != "" {
				t.Errorf("metadata read ahead (-List +ListBody):\n%s", diff)
			}
			if diff := cmp.Diff(wantMeta, meta); diff != "" {
				t.Errorf("metadata decoded (-List +ListBody):\n%s", diff)
			}
			if diff := cmp.Diff(wantItems, items); diff != "" {
				t.Errorf("items (-List +ListBody):\n%s", diff)
			}
		})
	}
}

// A body whose top level reads but whose items do not fails in Decode
// with List's error; a second Decode is an error, not a panic.
func TestListBodyBadItems(t *testing.T) {
	body := `{"apiVersion":"v1","items":[{"metadata":{"name":5}}],"kind":"PodList","metadata":{"resourceVersion":"7","continue":"c"}}`
	handler := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, body)
	}
	c, _ := newServer(t, handler)
	pods := For[*corev1.Pod](c)
	_, wantErr := pods.List(context.Background(), ListOptions{})
	if wantErr == nil {
		t.Fatal("List of a bad item succeeded")
	}
	b, err := pods.ListBody(context.Background(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if b.ResourceVersion != "7" || b.Continue != "c" {
		t.Errorf("metadata read ahead: %+v", b.ListMeta)
	}
	if _, err := b.Decode(); fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Errorf("Decode error %v, List error %v", err, wantErr)
	}
	if _, err := b.Decode(); err == nil {
		t.Error("a second Decode succeeded")
	}
}

func dump(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
