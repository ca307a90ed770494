package client

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

func TestListOptionsQuery(t *testing.T) {
	tests := []struct {
		name string
		opts ListOptions
		want string // RawQuery, or "invalid"
	}{
		{"zero", ListOptions{}, ""},
		{"page", ListOptions{Limit: 500}, "limit=500"},
		{"continue", ListOptions{Limit: 500, Continue: "tok"}, "continue=tok&limit=500"},
		{"rv0 with continue", ListOptions{Continue: "tok", ResourceVersion: "0"}, "continue=tok&resourceVersion=0"},
		{"not older than", ListOptions{ResourceVersion: "10", ResourceVersionMatch: MatchNotOlderThan}, "resourceVersion=10&resourceVersionMatch=NotOlderThan"},
		{"exact", ListOptions{ResourceVersion: "10", ResourceVersionMatch: MatchExact, Limit: 5}, "limit=5&resourceVersion=10&resourceVersionMatch=Exact"},
		{"selectors", ListOptions{
			LabelSelector: LabelSelector{}.Equals("app", "web").In("tier", "a", "b").NotExists("canary"),
			FieldSelector: FieldSelector{}.Equals("metadata.name", "a,b=c").NotEquals("status.phase", "Running"),
		}, "fieldSelector=metadata.name%3Da%5C%2Cb%5C%3Dc%2Cstatus.phase%21%3DRunning&labelSelector=app%3Dweb%2Ctier+in+%28a%2Cb%29%2C%21canary"},
		{"raw selector", ListOptions{LabelSelector: RawSelector("a=b")}, "labelSelector=a%3Db"},
		{"match labels", ListOptions{LabelSelector: MatchLabels(map[string]string{"b": "2", "a": "1"})}, "labelSelector=a%3D1%2Cb%3D2"},
		{"timeout", ListOptions{TimeoutSeconds: 30}, "timeoutSeconds=30"},
		{"match without rv", ListOptions{ResourceVersionMatch: MatchNotOlderThan}, "invalid"},
		{"exact with rv 0", ListOptions{ResourceVersion: "0", ResourceVersionMatch: MatchExact}, "invalid"},
		{"unknown match", ListOptions{ResourceVersion: "1", ResourceVersionMatch: "Newest"}, "invalid"},
		{"continue with rv", ListOptions{Continue: "tok", ResourceVersion: "10"}, "invalid"},
		{"continue with match", ListOptions{Continue: "tok", ResourceVersion: "0", ResourceVersionMatch: MatchNotOlderThan}, "invalid"},
		{"negative limit", ListOptions{Limit: -1}, "invalid"},
		{"bad label key", ListOptions{LabelSelector: LabelSelector{}.Equals("-bad", "x")}, "invalid"},
		{"bad label value", ListOptions{LabelSelector: LabelSelector{}.Equals("a", "not valid")}, "invalid"},
		{"empty in", ListOptions{LabelSelector: LabelSelector{}.In("a")}, "invalid"},
		{"bad field", ListOptions{FieldSelector: FieldSelector{}.Equals("a b", "x")}, "invalid"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, err := tc.opts.query()
			checkQuery(t, q, err, tc.want)
		})
	}
}

// checkQuery compares an encoded query with want, or, when want is
// "invalid", checks that err is ErrInvalidOptions.
func checkQuery(t *testing.T, q url.Values, err error, want string) {
	t.Helper()
	if want == "invalid" {
		if !errors.Is(err, ErrInvalidOptions) {
			t.Fatalf("err = %v, want ErrInvalidOptions", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, q.Encode()); diff != "" {
		t.Errorf("query (-want +got):\n%s", diff)
	}
}

func TestWatchOptionsQuery(t *testing.T) {
	tests := []struct {
		name string
		opts WatchOptions
		want string
	}{
		{"zero", WatchOptions{}, "watch=true"},
		{"from rv", WatchOptions{ResourceVersion: "5", AllowWatchBookmarks: true, TimeoutSeconds: 300},
			"allowWatchBookmarks=true&resourceVersion=5&timeoutSeconds=300&watch=true"},
		{"streaming list", streamingList, "allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&watch=true"},
		{"initial events without bookmarks", WatchOptions{SendInitialEvents: ptr(true), ResourceVersionMatch: MatchNotOlderThan}, "invalid"},
		{"initial events without match", WatchOptions{SendInitialEvents: ptr(true), AllowWatchBookmarks: true}, "invalid"},
		{"match without initial events", WatchOptions{ResourceVersion: "1", ResourceVersionMatch: MatchNotOlderThan}, "invalid"},
		{"exact", WatchOptions{SendInitialEvents: ptr(false), ResourceVersionMatch: MatchExact}, "invalid"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, err := tc.opts.query()
			checkQuery(t, q, err, tc.want)
		})
	}
}

func TestInvalidOptionsSendNothing(t *testing.T) {
	c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) {})
	pods := For[*corev1.Pod](c)
	ctx := context.Background()
	if _, err := pods.List(ctx, ListOptions{ResourceVersionMatch: MatchExact}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("List: %v", err)
	}
	if _, err := pods.Watch(ctx, WatchOptions{SendInitialEvents: ptr(true)}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("Watch: %v", err)
	}
	if _, err := pods.Namespace("n").Patch(ctx, "a", ApplyPatch, []byte("{}"), PatchOptions{}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("apply without a field manager: %v", err)
	}
	if _, err := pods.Namespace("n").Patch(ctx, "a", MergePatch, []byte("{}"), PatchOptions{Force: true}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("force without apply: %v", err)
	}
	if err := pods.Namespace("n").Delete(ctx, "a", DeleteOptions{PropagationPolicy: "Sometimes"}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("bad propagation: %v", err)
	}
	if _, err := pods.Status().List(ctx, ListOptions{}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("list on a subresource: %v", err)
	}
	if rec.count() != 0 {
		t.Errorf("%d requests sent", rec.count())
	}
}
