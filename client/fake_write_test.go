package client

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake"
)

var podsGVR = GroupVersionResource{Version: "v1", Resource: "pods"}

// TestFakeCreateAndUpdate writes built-in kinds in protobuf (the default)
// and JSON (Config.JSONWrites): generateName, a stale resourceVersion
// giving ErrConflict, UpdateStatus changing only the status, and the
// request bodies' Content-Type.
func TestFakeCreateAndUpdate(t *testing.T) {
	tests := []struct {
		name       string
		jsonWrites bool
		bodyType   string
	}{
		{"protobuf", false, codec.MediaTypeProtobuf},
		{"json", true, codec.MediaTypeJSON},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, c, rec := startFakeWire(t, wireOptions{cfg: Config{JSONWrites: tc.jsonWrites}})
			ctx := context.Background()
			pods := For[*corev1.Pod](c).Namespace("default")

			created, err := pods.Create(ctx, &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{GenerateName: "web-", Labels: map[string]string{"app": "web"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx"}}},
			}, CreateOptions{FieldManager: "test"})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(created.Name, "web-") || len(created.Name) <= len("web-") {
				t.Errorf("generated name %q, want web-<suffix>", created.Name)
			}
			req, body := rec.last(t)
			if got := req.Header.Get("Content-Type"); got != tc.bodyType {
				t.Errorf("create body Content-Type %q, want %q", got, tc.bodyType)
			}
			if tc.bodyType == codec.MediaTypeProtobuf && !bytes.HasPrefix(body, []byte(codec.ProtobufMagic)) {
				t.Errorf("protobuf body does not start with the magic: %q", body[:min(len(body), 8)])
			}

			// Update with the current resourceVersion, then with the stale one.
			stale := created.ResourceVersion
			upd := created.DeepCopy()
			upd.Labels["version"] = "2"
			updated, err := pods.Update(ctx, upd, UpdateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if updated.Labels["version"] != "2" || updated.ResourceVersion == stale {
				t.Errorf("update: labels %v resourceVersion %s (was %s)", updated.Labels, updated.ResourceVersion, stale)
			}
			upd.Labels["version"] = "3"
			if _, err := pods.Update(ctx, upd, UpdateOptions{}); !errors.Is(err, ErrConflict) {
				t.Errorf("update with stale resourceVersion %s = %v, want ErrConflict", stale, err)
			}

			// UpdateStatus writes .status, not .spec (a Pod's labels it
			// takes, as kube-apiserver's status strategy does); Update
			// ignores .status.
			st := updated.DeepCopy()
			st.Status.Phase = "Running"
			deadline := int64(5)
			st.Spec.ActiveDeadlineSeconds = &deadline
			afterStatus, err := pods.UpdateStatus(ctx, st, UpdateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if afterStatus.Status.Phase != "Running" || afterStatus.Spec.ActiveDeadlineSeconds != nil {
				t.Errorf("UpdateStatus: phase %q activeDeadlineSeconds %v, want Running and no spec change", afterStatus.Status.Phase, afterStatus.Spec.ActiveDeadlineSeconds)
			}
			req, _ = rec.last(t)
			if !strings.HasSuffix(req.URL.Path, "/status") || req.Header.Get("Content-Type") != tc.bodyType {
				t.Errorf("UpdateStatus sent %s %s", req.URL.Path, req.Header.Get("Content-Type"))
			}
			main := afterStatus.DeepCopy()
			main.Status.Phase = "Failed"
			afterMain, err := pods.Update(ctx, main, UpdateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if afterMain.Status.Phase != "Running" {
				t.Errorf("Update changed the status to %q", afterMain.Status.Phase)
			}
		})
	}
}

// TestFakeProtobufWriteFallsBackOn415 sends a protobuf body where the
// fake answers 415 (a custom resource, which is JSON-only), and checks
// that the write is repeated as JSON and that the resource is then
// written as JSON directly.
func TestFakeProtobufWriteFallsBackOn415(t *testing.T) {
	srv, c, rec := startFakeWire(t, wireOptions{})
	if err := srv.AddCustomResource(fake.CustomResource{Group: "example.com", Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespaced: true}); err != nil {
		t.Fatal(err)
	}
	// A typed resource with generated protobuf code whose server does not
	// take protobuf bodies: as an aggregated or custom resource would be.
	r := For[*corev1.ConfigMap](c).Namespace("default")
	r.info.gvr = GroupVersionResource{Group: "example.com", Version: "v1", Resource: "configmaps"}
	ctx := context.Background()
	for _, name := range []string{"a", "b"} {
		obj := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"k": name}}
		got, err := r.Create(ctx, obj, CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Data["k"] != name {
			t.Errorf("created %s holds %v", name, got.Data)
		}
	}
	want := []string{
		"POST /apis/example.com/v1/namespaces/default/configmaps application/vnd.kubernetes.protobuf",
		"POST /apis/example.com/v1/namespaces/default/configmaps application/json",
		"POST /apis/example.com/v1/namespaces/default/configmaps application/json",
	}
	if diff := cmp.Diff(want, rec.requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	// Built-in configmaps are still written as protobuf.
	rec.reset()
	if _, err := For[*corev1.ConfigMap](c).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "default"}}, CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, _ := rec.last(t); got.Header.Get("Content-Type") != codec.MediaTypeProtobuf {
		t.Errorf("built-in write after another resource's 415: Content-Type %q", got.Header.Get("Content-Type"))
	}
}

// TestFakePatch applies each patch type to a ConfigMap, apply with a field
// manager and with force.
func TestFakePatch(t *testing.T) {
	tests := []struct {
		name     string
		pt       PatchType
		data     string
		opts     PatchOptions
		want     map[string]string
		managers []string
	}{
		{"json patch", JSONPatch, `[{"op":"add","path":"/data/b","value":"2"},{"op":"remove","path":"/data/a"}]`, PatchOptions{},
			map[string]string{"b": "2"}, nil},
		{"merge patch", MergePatch, `{"data":{"a":null,"c":"3"}}`, PatchOptions{},
			map[string]string{"c": "3"}, nil},
		{"strategic merge patch", StrategicMergePatch, `{"data":{"d":"4"}}`, PatchOptions{},
			map[string]string{"a": "1", "d": "4"}, nil},
		{"apply", ApplyPatch, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  e: \"5\"\n", PatchOptions{FieldManager: "ctl"},
			map[string]string{"a": "1", "e": "5"}, []string{"ctl"}},
		{"apply forced", ApplyPatch, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"data":{"a":"9"}}`, PatchOptions{FieldManager: "ctl", Force: true},
			map[string]string{"a": "9"}, []string{"ctl"}},
		{"dry run", MergePatch, `{"data":{"z":"0"}}`, PatchOptions{DryRun: true},
			map[string]string{"a": "1"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, c, rec := startFakeWire(t, wireOptions{})
			if err := srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm", Namespace: "default"}, Data: map[string]string{"a": "1"}}); err != nil {
				t.Fatal(err)
			}
			cms := For[*corev1.ConfigMap](c).Namespace("default")
			ctx := context.Background()
			patched, err := cms.Patch(ctx, "cm", tc.pt, []byte(tc.data), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			req, _ := rec.last(t)
			if got := req.Header.Get("Content-Type"); got != string(tc.pt) {
				t.Errorf("Content-Type %q, want %q", got, tc.pt)
			}
			stored, err := cms.Get(ctx, "cm", GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, stored.Data); diff != "" {
				t.Errorf("stored data (-want +got):\n%s", diff)
			}
			if tc.opts.DryRun && patched.Data["z"] != "0" {
				t.Errorf("dry-run answer %v lacks the patch", patched.Data)
			}
			var managers []string
			for _, m := range stored.ManagedFields {
				if m.Operation == "Apply" {
					managers = append(managers, m.Manager)
				}
			}
			if diff := cmp.Diff(tc.managers, managers); diff != "" {
				t.Errorf("apply managers (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFakeDelete deletes with preconditions, propagation, grace period
// and dry run, and DeleteCollection with a selector.
func TestFakeDelete(t *testing.T) {
	srv, c := startFake(t, fake.Options{}, Config{})
	seedConfigMaps(t, srv, 6)
	ctx := context.Background()
	cms := For[*corev1.ConfigMap](c).Namespace("default")
	cm0, err := cms.Get(ctx, "cm-0", GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	zero := int64(0)
	tests := []struct {
		name    string
		target  string
		opts    DeleteOptions
		wantErr error
		gone    bool
	}{
		{"wrong uid", "cm-0", DeleteOptions{Preconditions: &Preconditions{UID: "not-the-uid"}}, ErrConflict, false},
		{"wrong resourceVersion", "cm-0", DeleteOptions{Preconditions: &Preconditions{ResourceVersion: "1"}}, ErrConflict, false},
		{"dry run", "cm-0", DeleteOptions{DryRun: true}, nil, false},
		{"preconditions hold", "cm-0", DeleteOptions{Preconditions: &Preconditions{UID: string(cm0.UID), ResourceVersion: cm0.ResourceVersion}}, nil, true},
		{"foreground, grace 0", "cm-1", DeleteOptions{PropagationPolicy: PropagationForeground, GracePeriodSeconds: &zero}, nil, true},
		{"orphan", "cm-2", DeleteOptions{PropagationPolicy: PropagationOrphan}, nil, true},
		{"missing", "cm-0", DeleteOptions{}, ErrNotFound, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := cms.Delete(ctx, tc.target, tc.opts)
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
				t.Fatalf("Delete = %v, want %v", err, tc.wantErr)
			}
			_, err = cms.Get(ctx, tc.target, GetOptions{})
			if gone := errors.Is(err, ErrNotFound); gone != tc.gone {
				t.Errorf("after delete: Get err = %v, want gone=%v", err, tc.gone)
			}
		})
	}

	// DeleteCollection: dry run keeps everything, then tier=back goes.
	sel := DeleteCollectionOptions{LabelSelector: LabelSelector{}.Equals("tier", "back")}
	dry := sel
	dry.DryRun = true
	if err := cms.DeleteCollection(ctx, dry); err != nil {
		t.Fatal(err)
	}
	if err := cms.DeleteCollection(ctx, sel); err != nil {
		t.Fatal(err)
	}
	l, err := cms.List(ctx, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"cm-4"}, names(l.Items)); diff != "" {
		t.Errorf("left after DeleteCollection (-want +got):\n%s", diff)
	}
}

// TestFakeDryRunCreate checks a dry-run create returns the object but
// stores nothing.
func TestFakeDryRunCreate(t *testing.T) {
	_, c := startFake(t, fake.Options{}, Config{})
	ctx := context.Background()
	cms := For[*corev1.ConfigMap](c).Namespace("default")
	got, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "dry"}}, CreateOptions{DryRun: true})
	if err != nil || got.Name != "dry" {
		t.Fatalf("dry-run create = %v, %v", got, err)
	}
	if _, err := cms.Get(ctx, "dry", GetOptions{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("after a dry-run create: Get = %v, want ErrNotFound", err)
	}
}

// TestFakeFieldValidation writes an object with an unknown field (through
// Dynamic, since typed objects cannot carry one): Strict fails, Warn
// hands the server's warning to the WarningHandler, Ignore is silent.
func TestFakeFieldValidation(t *testing.T) {
	tests := []struct {
		level    FieldValidation
		wantErr  error
		warnings []string
	}{
		{FieldValidationStrict, ErrBadRequest, nil},
		{FieldValidationWarn, nil, []string{`unknown field "bogus"`}},
		{"", nil, []string{`unknown field "bogus"`}}, // the server's default is Warn
		{FieldValidationIgnore, nil, nil},
	}
	for _, tc := range tests {
		t.Run(string(tc.level), func(t *testing.T) {
			var mu sync.Mutex
			var warnings []string
			handler := WarningHandlerFunc(func(w Warning) {
				mu.Lock()
				defer mu.Unlock()
				warnings = append(warnings, w.Text)
			})
			_, c := startFake(t, fake.Options{}, Config{WarningHandler: handler})
			obj := &unstructured.Unstructured{Object: map[string]any{
				"apiVersion": "v1", "kind": "Pod",
				"metadata": map[string]any{"name": "p", "namespace": "default"},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "a", "image": "nginx"}}},
				// top level: the fake reports nested unknown fields without their path
				"bogus": true,
			}}
			_, err := Dynamic(c, podsGVR).Namespace("default").Create(context.Background(), obj, CreateOptions{FieldValidation: tc.level})
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
				t.Fatalf("Create = %v, want %v", err, tc.wantErr)
			}
			if tc.wantErr != nil && !strings.Contains(err.Error(), "bogus") {
				t.Errorf("error %q does not name the field", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff(tc.warnings, warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}
