package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/cborwire"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	corev1ac "github.com/kubewire/kubewire/api/core/v1/applyconfig"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake"
)

// applyWidget is a user's typed custom resource, and applyWidgetConfig
// its apply configuration (what kubewire-gen writes: only set fields).
type applyWidget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Color string `json:"color,omitempty"`
		Size  int64  `json:"size,omitempty"`
	} `json:"spec"`
}

func (*applyWidget) KindInfo() registry.Kind {
	return registry.Kind{Group: "example.com", Version: "v1", Kind: "Widget", ListKind: "WidgetList", Resource: "widgets", Namespaced: true}
}

type applyWidgetConfig struct {
	Metadata struct {
		Name      string `json:"name,omitempty"`
		Namespace string `json:"namespace,omitempty"`
	} `json:"metadata"`
	Spec struct {
		Size *int64 `json:"size,omitempty"`
	} `json:"spec"`
}

func (c *applyWidgetConfig) GetName() string       { return c.Metadata.Name }
func (c *applyWidgetConfig) GetNamespace() string  { return c.Metadata.Namespace }
func (c *applyWidgetConfig) IsApplyConfiguration() {}

func widgetSizeConfig(name string, size int64) *applyWidgetConfig {
	cfg := &applyWidgetConfig{}
	cfg.Metadata.Name = name
	cfg.Spec.Size = &size
	return cfg
}

const applyYAML = string(ApplyPatch)

// managers returns the field managers of obj's managedFields.
func managers(obj interface {
	GetManagedFields() []metav1.ManagedFieldsEntry
}) []string {
	var out []string
	for _, m := range obj.GetManagedFields() {
		out = append(out, m.Manager+"/"+string(m.Operation))
	}
	return out
}

// Against the fake over HTTP, with and without its CBOR gate: Patch
// with ApplyCBORPatch sends the CBOR as it is (gate on) or, after one
// 415, as JSON, and the resource's later CBOR applies go as JSON at
// once; typed and dynamic Apply send CBOR only once a read was answered
// in CBOR. Every apply lands with its manager in managedFields.
func TestApplyCBORFake(t *testing.T) {
	for _, gate := range []bool{false, true} {
		t.Run(map[bool]string{false: "gate off", true: "gate on"}[gate], func(t *testing.T) {
			srv, c, rec := startFakeWire(t, wireOptions{fake: fake.Options{CBOR: gate}})
			addWidgets(t, srv, c)
			ctx := context.Background()
			dyn := Dynamic(c, widgetsGVR).Namespace("default")
			typed := For[*applyWidget](c).Namespace("default")

			// Patch with the user's CBOR, before any read.
			data := cborOf(t, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"p1"},"spec":{"color":"red","size":3}}`)
			rec.reset()
			got, err := dyn.Patch(ctx, "p1", ApplyCBORPatch, data, PatchOptions{FieldManager: "cbor-patcher"})
			if err != nil {
				t.Fatal(err)
			}
			wantReqs := []string{"PATCH /apis/example.com/v1/namespaces/default/widgets/p1?fieldManager=cbor-patcher " + string(ApplyCBORPatch)}
			if !gate {
				wantReqs = append(wantReqs, "PATCH /apis/example.com/v1/namespaces/default/widgets/p1?fieldManager=cbor-patcher "+applyYAML)
			}
			if diff := cmp.Diff(wantReqs, rec.requests()); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
			if _, body := rec.last(t); gate && string(body) != string(data) {
				t.Errorf("CBOR apply body changed on the way: % x", body)
			} else if js, _ := cborwire.ToJSON(data); !gate && string(body) != string(js) {
				t.Errorf("JSON retry body %s, want %s", body, js)
			}
			if spec := got.Object["spec"].(map[string]any); spec["color"] != "red" || spec["size"] != int64(3) {
				t.Errorf("applied spec %v", spec)
			}
			if diff := cmp.Diff([]string{"cbor-patcher/Apply"}, managers(got)); diff != "" {
				t.Errorf("managedFields (-want +got):\n%s", diff)
			}

			// The next CBOR apply: as it is with the gate, as JSON at once
			// without (the 415 is remembered).
			rec.reset()
			data = cborOf(t, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"p1"},"spec":{"color":"green"}}`)
			if got, err = dyn.Patch(ctx, "p1", ApplyCBORPatch, data, PatchOptions{FieldManager: "cbor-patcher", Force: true}); err != nil {
				t.Fatal(err)
			}
			wantType := map[bool]string{false: applyYAML, true: string(ApplyCBORPatch)}[gate]
			if diff := cmp.Diff([]string{"PATCH /apis/example.com/v1/namespaces/default/widgets/p1?fieldManager=cbor-patcher&force=true " + wantType}, rec.requests()); diff != "" {
				t.Errorf("second apply (-want +got):\n%s", diff)
			}
			if spec := got.Object["spec"].(map[string]any); spec["color"] != "green" || spec["size"] != nil {
				t.Errorf("re-applied spec %v (size was dropped by its manager)", spec)
			}

			// Typed Apply: CBOR once a read was answered in CBOR (the
			// gated fake answers every read and write with CBOR), JSON
			// without the gate.
			if _, err := typed.Get(ctx, "w1", GetOptions{}); err != nil {
				t.Fatal(err)
			}
			rec.reset()
			tw, err := typed.Apply(ctx, widgetSizeConfig("w1", 8), ApplyOptions{FieldManager: "sizer"})
			if err != nil {
				t.Fatal(err)
			}
			req, body := rec.last(t)
			if rec.count() != 1 || req.Header.Get("Content-Type") != wantType {
				t.Errorf("typed Apply after a read: %q, want one %s", rec.requests(), wantType)
			}
			if gate {
				js, err := cborwire.ToJSON(body)
				if err != nil || string(js) != `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"size":8}}` {
					t.Errorf("typed CBOR apply body as JSON: %s, %v", js, err)
				}
			}
			if tw.Spec.Size != 8 || tw.Spec.Color != "blue" {
				t.Errorf("typed Apply after a read = %+v", tw.Spec)
			}
			if diff := cmp.Diff([]string{"sizer/Apply"}, managersExcept(tw, "Update")); diff != "" {
				t.Errorf("typed managedFields (-want +got):\n%s", diff)
			}

			// A built-in kind takes a CBOR apply too (with the gate);
			// Apply of a built-in kind stays JSON (its writes are protobuf).
			cms := For[*corev1.ConfigMap](c).Namespace("default")
			rec.reset()
			cm, err := cms.Patch(ctx, "settings", ApplyCBORPatch, cborOf(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings"},"data":{"mode":"fast"}}`), PatchOptions{FieldManager: "cm-applier"})
			if err != nil || cm.Data["mode"] != "fast" || cm.ManagedFields[0].Manager != "cm-applier" {
				t.Fatalf("CBOR apply of a ConfigMap: %+v, %v", cm, err)
			}
			wantCM := []string{"PATCH /api/v1/namespaces/default/configmaps/settings?fieldManager=cm-applier " + string(ApplyCBORPatch)}
			if !gate {
				wantCM = append(wantCM, "PATCH /api/v1/namespaces/default/configmaps/settings?fieldManager=cm-applier "+applyYAML)
			}
			if diff := cmp.Diff(wantCM, rec.requests()); diff != "" {
				t.Errorf("CBOR apply of a ConfigMap (-want +got):\n%s", diff)
			}
			rec.reset()
			if _, err := cms.Apply(ctx, corev1ac.ConfigMap("settings", "default").WithData(map[string]string{"mode": "safe"}), ApplyOptions{FieldManager: "cm-applier"}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{"PATCH /api/v1/namespaces/default/configmaps/settings?fieldManager=cm-applier " + applyYAML}, rec.requests()); diff != "" {
				t.Errorf("Apply of a ConfigMap (-want +got):\n%s", diff)
			}

			// Dynamic Apply of an Unstructured (written from its maps).
			cfg := &unstructured.Unstructured{Object: map[string]any{
				"apiVersion": "example.com/v1", "kind": "Widget",
				"metadata": map[string]any{"name": "w2"},
				"spec":     map[string]any{"shape": "round", "ratio": 0.5},
			}}
			rec.reset()
			dw, err := dyn.Apply(ctx, cfg, ApplyOptions{FieldManager: "shaper"})
			if err != nil {
				t.Fatal(err)
			}
			if req, _ := rec.last(t); rec.count() != 1 || req.Header.Get("Content-Type") != wantType {
				t.Errorf("dynamic Apply: %q, want one %s", rec.requests(), wantType)
			}
			if spec := dw.Object["spec"].(map[string]any); spec["shape"] != "round" || spec["ratio"] != 0.5 || spec["color"] != "blue" {
				t.Errorf("dynamic Apply spec %v", spec)
			}
		})
	}
}

// managersExcept is managers without the entries of operation op.
func managersExcept(obj interface {
	GetManagedFields() []metav1.ManagedFieldsEntry
}, op string) []string {
	var out []string
	for _, m := range managers(obj) {
		if !strings.HasSuffix(m, "/"+op) {
			out = append(out, m)
		}
	}
	return out
}

// A server that refuses CBOR applies (415) and later takes them (its
// gate turned on, which its reads show by turning from JSON to CBOR):
// each CBOR apply is sent again as JSON, the next go as JSON at once,
// and once a read is answered in CBOR again the applies are CBOR again.
// A second 415, to the JSON itself, is the error: no loop. Other
// errors to a CBOR apply are answers, not refusals.
func TestApplyCBORRefusedThenAccepted(t *testing.T) {
	objCBOR, objJSON := load(t, "cbor/widget-rich.cbor"), load(t, "cbor/widget-rich.json")
	var gateOn, refuseAll, conflict atomic.Bool
	c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		ct := r.Header.Get("Content-Type")
		switch {
		case r.Method == "PATCH" && (refuseAll.Load() || ct == string(ApplyCBORPatch) && !gateOn.Load()):
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnsupportedMediaType)
			w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"UnsupportedMediaType","code":415}`))
		case r.Method == "PATCH" && conflict.Load():
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusConflict)
			w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Conflict","code":409,"message":"Apply failed with 1 conflict"}`))
		case strings.Contains(r.Header.Get("Accept"), "cbor") && gateOn.Load():
			serve(w, objCBOR)
		default:
			serve(w, objJSON)
		}
	})
	ctx := context.Background()
	res := Dynamic(c, widgets).Namespace("default")
	cfg := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "rich"}, "spec": map[string]any{"replicas": int64(3)},
	}}
	apply := func() (types []string, err error) {
		n := rec.count()
		_, err = res.Apply(ctx, cfg, ApplyOptions{FieldManager: "m"})
		for _, r := range rec.requests()[n:] {
			types = append(types, r[strings.LastIndex(r, " ")+1:])
		}
		return types, err
	}
	cborType := string(ApplyCBORPatch)

	// Before any read nothing says the server takes CBOR: JSON.
	if got, err := apply(); err != nil || !slicesEqual(got, applyYAML) {
		t.Fatalf("apply before a read sent %q, %v; want JSON alone", got, err)
	}

	// The server answers CBOR reads but refuses CBOR applies.
	gateOn.Store(true)
	if _, err := res.Get(ctx, "rich", GetOptions{}); err != nil {
		t.Fatal(err)
	}
	gateOn.Store(false)
	if got, err := apply(); err != nil || !slicesEqual(got, cborType, applyYAML) {
		t.Fatalf("first apply sent %q, %v; want CBOR then JSON", got, err)
	}
	if _, body := rec.last(t); string(body) != `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"rich"},"spec":{"replicas":3}}` {
		t.Errorf("JSON retry body %s", body)
	}
	for range 2 {
		if got, err := apply(); err != nil || !slicesEqual(got, applyYAML) {
			t.Fatalf("apply after a 415 sent %q, %v; want JSON alone", got, err)
		}
	}
	// An explicit CBOR patch follows the same refusal.
	n := rec.count()
	if _, err := res.Patch(ctx, "rich", ApplyCBORPatch, cborOf(t, `{"metadata":{"name":"rich"}}`), PatchOptions{FieldManager: "m"}); err != nil || rec.count() != n+1 {
		t.Fatalf("CBOR patch after a 415: %d requests, %v", rec.count()-n, err)
	}

	// The gate turns on: reads go JSON -> CBOR, which ends the refusal.
	if _, err := res.Get(ctx, "rich", GetOptions{}); err != nil {
		t.Fatal(err)
	}
	gateOn.Store(true)
	if _, err := res.Get(ctx, "rich", GetOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, err := apply(); err != nil || !slicesEqual(got, cborType) {
		t.Fatalf("apply after the gate turned on sent %q, %v; want CBOR", got, err)
	}

	// A 409 to a CBOR apply is the server's answer: no JSON retry, and
	// the next apply is CBOR still.
	conflict.Store(true)
	if got, err := apply(); !errors.Is(err, ErrConflict) || !slicesEqual(got, cborType) {
		t.Fatalf("conflicting apply sent %q, %v; want one CBOR and ErrConflict", got, err)
	}
	conflict.Store(false)
	if got, err := apply(); err != nil || !slicesEqual(got, cborType) {
		t.Fatalf("apply after a conflict sent %q, %v; want CBOR", got, err)
	}

	// 415 to both: the JSON retry's refusal is the error.
	refuseAll.Store(true)
	if got, err := apply(); !errors.Is(err, ErrUnsupportedMediaType) || !slicesEqual(got, cborType, applyYAML) {
		t.Fatalf("apply refused in both encodings sent %q, %v; want CBOR, JSON and ErrUnsupportedMediaType", got, err)
	}
}

func slicesEqual(got []string, want ...string) bool { return cmp.Equal(got, want) }

// Malformed CBOR given to Patch is an error before any request, and
// the apply options are checked as for ApplyPatch.
func TestPatchApplyCBORMalformed(t *testing.T) {
	c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
	})
	res := Dynamic(c, widgets).Namespace("default")
	valid := cborOf(t, `{"metadata":{"name":"w"}}`)
	bad := map[string][]byte{
		"nil":                   nil,
		"empty":                 {},
		"truncated":             valid[:len(valid)-2],
		"trailing data":         append(append([]byte{}, valid...), 0x01),
		"an array":              cborOf(t, `[{"metadata":{"name":"w"}}]`),
		"a string":              {0x61, 'x'},
		"null":                  {0xf6},
		"a stray break":         {0xa1, 0x61, 'a', 0xff},
		"an unknown simple":     {0xa1, 0x61, 'a', 0xe0},
		"a length past the end": {0xa1, 0x61, 'a', 0x5a, 0xff, 0xff, 0xff, 0xff},
		"JSON, not CBOR":        []byte(`{"metadata":{"name":"w"}}`),
	}
	for name, data := range bad {
		_, err := res.Patch(context.Background(), "w", ApplyCBORPatch, data, PatchOptions{FieldManager: "m"})
		if !errors.Is(err, ErrInvalidOptions) || !errors.Is(err, codec.ErrMalformed) {
			t.Errorf("%s: error %v, want ErrInvalidOptions and ErrMalformed", name, err)
		}
	}
	if _, err := res.Patch(context.Background(), "w", ApplyCBORPatch, valid, PatchOptions{}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("CBOR apply without a field manager: %v, want ErrInvalidOptions", err)
	}
	if n := rec.count(); n != 0 {
		t.Errorf("%d requests sent for invalid patches, want 0: %q", n, rec.requests())
	}
}

// DisableCBOR: an explicit CBOR apply goes as JSON, with no 415 spent.
func TestPatchApplyCBORDisabled(t *testing.T) {
	c, rec := cborServer(t, Config{DisableCBOR: true})
	data := cborOf(t, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"rich"},"spec":{"replicas":2}}`)
	if _, err := Dynamic(c, widgets).Namespace("default").Patch(context.Background(), "rich", ApplyCBORPatch, data, PatchOptions{FieldManager: "m"}); err != nil {
		t.Fatal(err)
	}
	req, body := rec.last(t)
	if rec.count() != 1 || req.Header.Get("Content-Type") != applyYAML || string(body) != `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"rich"},"spec":{"replicas":2}}` {
		t.Errorf("sent %q %s, want one JSON apply", rec.requests(), body)
	}
}
