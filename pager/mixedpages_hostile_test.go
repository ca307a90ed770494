package pager

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/internal/testing/fixture"
)

// A server (or a proxy in front of two) may answer one page of a list in
// protobuf and the next in JSON: each page is decoded by its own
// Content-Type, and the pages join into one list. kube-apiserver's two
// captured pages of a limit=3 Pod list, the first in protobuf, the
// second in JSON (its continue token taken out, to end the list).
func TestPagesInDifferentContentTypes(t *testing.T) {
	first, err := fixture.Load("lists/pods-page1.pb")
	if err != nil {
		t.Fatal(err)
	}
	second, err := fixture.Load("lists/pods-page2.json")
	if err != nil {
		t.Fatal(err)
	}
	var last map[string]any
	if err := json.Unmarshal(second.Body, &last); err != nil {
		t.Fatal(err)
	}
	meta := last["metadata"].(map[string]any)
	delete(meta, "continue")
	delete(meta, "remainingItemCount")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("continue") == "" {
			w.Header().Set("Content-Type", "application/vnd.kubernetes.protobuf")
			w.Write(first.Body)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(last)
	}))
	defer srv.Close()
	c, err := client.New(client.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	pods := client.For[*corev1.Pod](c).Namespace("fixtures")
	l, err := mustNew(t, pods.List, Options{PageSize: 3}).ListAll(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range l.Items {
		if len(p.Spec.Containers) != 1 {
			t.Errorf("%s has %d containers, want 1", p.Name, len(p.Spec.Containers))
		}
		names = append(names, p.Name)
	}
	if got, want := len(names), 6; got != want {
		t.Errorf("items %v, want web-1 to web-6", names)
	}
}
