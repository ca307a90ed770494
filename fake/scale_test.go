package fake

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	autoscalingv1 "github.com/kubewire/kubewire/api/autoscaling/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
)

func TestScaleGet(t *testing.T) {
	_, c := newTestServer(t, Options{})
	tests := []struct {
		name, path, body string
		want             autoscalingv1.ScaleSpec
		wantStatus       autoscalingv1.ScaleStatus
	}{
		{"deployment", "/apis/apps/v1/namespaces/default/deployments",
			`{"metadata":{"name":"d"},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web","tier":"a"},"matchExpressions":[{"key":"env","operator":"In","values":["prod","dev"]},{"key":"zone","operator":"DoesNotExist"},{"key":"canary","operator":"Exists"},{"key":"b","operator":"NotIn","values":["y","x"]}]},"template":{"metadata":{"labels":{"app":"web","tier":"a","env":"prod","canary":""}},"spec":{"containers":[{"name":"c","image":"i"}]}}},"status":{"replicas":2}}`,
			autoscalingv1.ScaleSpec{Replicas: 3},
			autoscalingv1.ScaleStatus{Replicas: 2, Selector: "app=web,b notin (x,y),canary,env in (dev,prod),tier=a,!zone"}},
		{"replicaset without replicas", "/apis/apps/v1/namespaces/default/replicasets",
			`{"metadata":{"name":"d"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`,
			autoscalingv1.ScaleSpec{Replicas: 1}, autoscalingv1.ScaleStatus{Selector: "app=web"}},
		{"statefulset", "/apis/apps/v1/namespaces/default/statefulsets",
			`{"metadata":{"name":"d"},"spec":{"replicas":0,"selector":{"matchLabels":{"app":"db"}},"template":{"metadata":{"labels":{"app":"db"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`,
			autoscalingv1.ScaleSpec{Replicas: 0}, autoscalingv1.ScaleStatus{Selector: "app=db"}},
		{"replicationcontroller", "/api/v1/namespaces/default/replicationcontrollers",
			`{"metadata":{"name":"d"},"spec":{"replicas":5,"selector":{"b":"2","a":"1"},"template":{"metadata":{"labels":{"a":"1","b":"2"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`,
			autoscalingv1.ScaleSpec{Replicas: 5}, autoscalingv1.ScaleStatus{Selector: "a=1,b=2"}},
		{"replicationcontroller selector from template", "/api/v1/namespaces/default/replicationcontrollers",
			`{"metadata":{"name":"d"},"spec":{"replicas":2,"template":{"metadata":{"labels":{"app":"x"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`,
			autoscalingv1.ScaleSpec{Replicas: 2}, autoscalingv1.ScaleStatus{Selector: "app=x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			created := c.mustDo(http.StatusCreated, "POST", tt.path, tt.body)
			if tt.wantStatus.Replicas != 0 {
				// A create drops the status; it is written through /status.
				st := map[string]any{"metadata": map[string]any{"name": "d"}, "status": map[string]any{"replicas": tt.wantStatus.Replicas}}
				b, _ := json.Marshal(st)
				var cur map[string]any
				_ = json.Unmarshal(created, &cur)
				cur["status"] = st["status"]
				b, _ = json.Marshal(cur)
				created = c.mustDo(http.StatusOK, "PUT", tt.path+"/d/status", string(b))
			}
			var obj struct{ Metadata metav1.ObjectMeta }
			if err := json.Unmarshal(created, &obj); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.mustDo(http.StatusOK, "DELETE", tt.path+"/d", "") })
			for _, accept := range []string{codec.MediaTypeJSON, codec.MediaTypeProtobuf, codec.MediaTypeYAML} {
				resp, body := c.do("GET", tt.path+"/d/scale", accept, "")
				if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != accept {
					t.Fatalf("%s: status %d, Content-Type %q: %s", accept, resp.StatusCode, resp.Header.Get("Content-Type"), body)
				}
				var got autoscalingv1.Scale
				if err := codec.Decode(accept, body, &got); err != nil {
					t.Fatalf("%s: %v", accept, err)
				}
				m := obj.Metadata
				want := autoscalingv1.Scale{
					TypeMeta:   metav1.TypeMeta{Kind: "Scale", APIVersion: "autoscaling/v1"},
					ObjectMeta: metav1.ObjectMeta{Name: "d", Namespace: "default", UID: m.UID, ResourceVersion: m.ResourceVersion, CreationTimestamp: m.CreationTimestamp},
					Spec:       tt.want,
					Status:     tt.wantStatus,
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s: scale mismatch (-want +got):\n%s", accept, diff)
				}
			}
		})
	}
}

func TestScaleUpdate(t *testing.T) {
	s, c := newTestServer(t, Options{})
	const path = "/apis/apps/v1/namespaces/default/deployments"
	c.mustDo(http.StatusCreated, "POST", path, `{"metadata":{"name":"web"},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`)
	tests := []struct {
		name, method, body string
		code               int
		wantReplicas       int32 // of the deployment afterwards
		wantGeneration     int64
	}{
		{"scale up", "PUT", `{"metadata":{"name":"web"},"spec":{"replicas":4}}`, http.StatusOK, 4, 2},
		{"same replicas", "PUT", `{"metadata":{"name":"web"},"spec":{"replicas":4}}`, http.StatusOK, 4, 2},
		{"stale resourceVersion", "PUT", `{"metadata":{"name":"web","resourceVersion":"1"},"spec":{"replicas":9}}`, http.StatusConflict, 4, 2},
		{"negative", "PUT", `{"metadata":{"name":"web"},"spec":{"replicas":-1}}`, http.StatusUnprocessableEntity, 4, 2},
		{"other name", "PUT", `{"metadata":{"name":"db"},"spec":{"replicas":2}}`, http.StatusBadRequest, 4, 2},
		{"other kind", "PUT", `{"kind":"Deployment","apiVersion":"apps/v1","spec":{"replicas":2}}`, http.StatusBadRequest, 4, 2},
		{"not JSON", "PUT", `{`, http.StatusBadRequest, 4, 2},
		{"dry run", "PUT?dryRun=All", `{"metadata":{"name":"web"},"spec":{"replicas":7}}`, http.StatusOK, 4, 2},
		{"scale to zero", "PUT", `{"metadata":{"name":"web"},"spec":{"replicas":0}}`, http.StatusOK, 0, 3},
		{"patch", "PATCH", `{"spec":{"replicas":3}}`, http.StatusOK, 3, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			method, query, _ := cutQuery(tt.method)
			req := c.request(method, path+"/web/scale"+query, "", tt.body)
			if method == "PATCH" {
				req.Header.Set("Content-Type", "application/merge-patch+json")
			}
			resp, err := c.hc.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.code {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.code)
			}
			var d appsv1.Deployment
			if err := json.Unmarshal(c.mustDo(http.StatusOK, "GET", path+"/web", ""), &d); err != nil {
				t.Fatal(err)
			}
			if d.Spec.Replicas == nil || *d.Spec.Replicas != tt.wantReplicas || d.Generation != tt.wantGeneration {
				t.Errorf("deployment replicas %v generation %d, want %d and %d", d.Spec.Replicas, d.Generation, tt.wantReplicas, tt.wantGeneration)
			}
		})
	}
	// A scale reports the resource version of the write.
	body := c.mustDo(http.StatusOK, "PUT", path+"/web/scale", `{"metadata":{"name":"web"},"spec":{"replicas":2}}`)
	var sc autoscalingv1.Scale
	if err := json.Unmarshal(body, &sc); err != nil {
		t.Fatal(err)
	}
	if sc.ResourceVersion != s.CurrentResourceVersion() || sc.Spec.Replicas != 2 {
		t.Errorf("scale %+v, want replicas 2 at resourceVersion %s", sc, s.CurrentResourceVersion())
	}
}

// cutQuery splits "PUT?dryRun=All" into "PUT" and "?dryRun=All".
func cutQuery(s string) (string, string, bool) {
	for i := range len(s) {
		if s[i] == '?' {
			return s[:i], s[i:], true
		}
	}
	return s, "", false
}

func TestScaleNotServed(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.createCM("cm")
	tests := []struct {
		method, path string
		code         int
	}{
		{"GET", "/api/v1/namespaces/default/configmaps/cm/scale", http.StatusNotFound},
		{"GET", "/apis/apps/v1/namespaces/default/deployments/missing/scale", http.StatusNotFound},
		{"PUT", "/apis/apps/v1/namespaces/default/deployments/missing/scale", http.StatusNotFound},
		{"GET", "/apis/apps/v1/namespaces/default/daemonsets/x/scale", http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			resp, body := c.do(tt.method, tt.path, "", `{"metadata":{"name":"missing"},"spec":{"replicas":1}}`)
			if resp.StatusCode != tt.code {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tt.code, body)
			}
		})
	}
}
