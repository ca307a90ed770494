//go:build unix

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/e2e/harness"
	"github.com/kubewire/kubewire/fake"
)

// crdDeleteTarget is a server TestCRDDeleteEndsWatches talks to over
// plain net/http.
type crdDeleteTarget struct {
	url, token string
	client     *http.Client
}

func (tg crdDeleteTarget) do(ctx context.Context, method, path string, body []byte) (*http.Response, error) {
	var r io.Reader
	if body != nil {
		r = strings.NewReader(string(body))
	}
	req, err := http.NewRequestWithContext(ctx, method, tg.url+path, r)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+tg.token)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return tg.client.Do(req)
}

func (tg crdDeleteTarget) answer(ctx context.Context, t *testing.T, method, path string, body []byte) (int, string) {
	t.Helper()
	resp, err := tg.do(ctx, method, path, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

// crdDeleteOutcome is what a watch of a custom resource saw when its
// CRD was deleted, and what the server answered afterwards.
type crdDeleteOutcome struct {
	Events     []string // "TYPE name" of each watch event
	End        string   // how the watch ended: "EOF", an error, or "still open"
	LaterList  string   // code and body of a list after the watch ended
	LaterWatch string   // code and body of a new watch
}

// TestCRDDeleteEndsWatches records what an open watch of a custom
// resource gets when its CustomResourceDefinition is deleted, on
// kube-apiserver (with and without its watch cache) and on the fake:
// kube-apiserver tears the resource's storage down a second after the
// CRD is gone, which ends its watches, and answers later requests 404.
// The fake must do the same.
func TestCRDDeleteEndsWatches(t *testing.T) {
	outcomes := map[string]crdDeleteOutcome{}
	t.Run("fake", func(t *testing.T) {
		srv := fake.Start(fake.Options{TLS: true})
		t.Cleanup(srv.Close)
		outcomes["fake"] = crdDeleteRun(t, crdDeleteTarget{url: srv.URL(), token: srv.Token(), client: srv.Client()}, nil)
	})
	for _, rt := range realTargets {
		t.Run(rt.name, func(t *testing.T) {
			c := harness.Shared(t, rt.name, rt.opts)
			outcomes[rt.name] = crdDeleteRun(t, crdDeleteTarget{url: c.URL, token: c.AdminToken, client: c.Client(t)}, c.CreateNamespace)
		})
	}
	want, ok := outcomes[realTargets[0].name]
	if got, ok2 := outcomes["fake"]; ok && ok2 {
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("fake differs from kube-apiserver (-kube-apiserver +fake):\n%s", d)
		}
	}
}

func crdDeleteRun(t *testing.T, tg crdDeleteTarget, createNamespace func(context.Context, string) error) crdDeleteOutcome {
	ctx := t.Context()
	const ns = "crd-delete"
	if createNamespace != nil {
		if err := createNamespace(ctx, ns); err != nil {
			t.Fatal(err)
		}
	} else if code, body := tg.answer(ctx, t, "POST", "/api/v1/namespaces", []byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"`+ns+`"}}`)); code != http.StatusCreated {
		t.Fatalf("create namespace: %d %s", code, body)
	}
	const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	crd := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"gizmos.gone.example.com"},
"spec":{"group":"gone.example.com","scope":"Namespaced","names":{"plural":"gizmos","singular":"gizmo","kind":"Gizmo","listKind":"GizmoList"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`
	if code, body := tg.answer(ctx, t, "POST", crdPath, []byte(crd)); code != http.StatusCreated {
		t.Fatalf("create CRD: %d %s", code, body)
	}
	t.Cleanup(func() { _, _ = tg.do(context.Background(), "DELETE", crdPath+"/gizmos.gone.example.com", nil) })
	gizmos := "/apis/gone.example.com/v1/namespaces/" + ns + "/gizmos"
	obj := []byte(`{"apiVersion":"gone.example.com/v1","kind":"Gizmo","metadata":{"name":"g1"}}`)
	waitUntil(t, 30*time.Second, func() string {
		if code, body := tg.answer(ctx, t, "POST", gizmos, obj); code != http.StatusCreated {
			return fmt.Sprintf("create gizmo: %d %s", code, body)
		}
		return ""
	})

	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	resp, err := tg.do(wctx, "GET", gizmos+"?watch=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("watch: status %d", resp.StatusCode)
	}
	type line struct {
		at   time.Time
		text string
	}
	lines := make(chan line, 16)
	ended := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- line{time.Now(), sc.Text()}
		}
		ended <- sc.Err()
	}()

	var out crdDeleteOutcome
	event := func(l line, deleted time.Time) {
		var ev struct {
			Type   string
			Object struct {
				Metadata struct{ Name string }
				Message  string
			}
		}
		_ = json.Unmarshal([]byte(l.text), &ev)
		name := ev.Object.Metadata.Name
		if ev.Type == "ERROR" {
			name = ev.Object.Message
		}
		out.Events = append(out.Events, ev.Type+" "+name)
		if !deleted.IsZero() {
			t.Logf("%v after the delete: %.200s", l.at.Sub(deleted).Round(time.Millisecond), l.text)
		}
	}
	event(<-lines, time.Time{}) // ADDED g1: the watch is open

	deleted := time.Now()
	if code, body := tg.answer(ctx, t, "DELETE", crdPath+"/gizmos.gone.example.com", nil); code != http.StatusOK {
		t.Fatalf("delete CRD: %d %s", code, body)
	}
	limit := time.After(15 * time.Second)
	out.End = "still open"
wait:
	for {
		select {
		case l := <-lines:
			event(l, deleted)
		case err := <-ended:
			for len(lines) > 0 {
				event(<-lines, deleted)
			}
			out.End = "EOF"
			if err != nil {
				out.End = err.Error()
			}
			t.Logf("watch ended %v after the delete: %s", time.Since(deleted).Round(time.Millisecond), out.End)
			break wait
		case <-limit:
			t.Logf("watch still open 15s after the delete")
			break wait
		}
	}
	code, body := tg.answer(ctx, t, "GET", gizmos, nil)
	out.LaterList = fmt.Sprintf("%d %s", code, body)
	code, body = tg.answer(ctx, t, "GET", gizmos+"?watch=1&resourceVersion=1", nil)
	out.LaterWatch = fmt.Sprintf("%d %s", code, body)
	t.Logf("later list: %s", out.LaterList)
	t.Logf("later watch: %s", out.LaterWatch)
	if out.End != "EOF" {
		t.Errorf("watch end = %q, want EOF", out.End)
	}
	if !slices.Contains(out.Events, "DELETED g1") {
		t.Errorf("events %q, want DELETED g1", out.Events)
	}
	return out
}
