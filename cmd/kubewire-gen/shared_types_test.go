package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A version reusing another version's struct (v2's status is v1's
// GizmoStatus, which holds a slice) generates in one run from nothing:
// v2 copies it through the DeepCopyInto the same run writes into v1.
// Before, the first run failed with "type .../v1.GizmoStatus holds
// references but has no DeepCopyInto method", and so did every later
// one, since a run reads its packages without their generated files.
func TestVersionsSharingATypeGenerateTogether(t *testing.T) {
	dir, err := os.MkdirTemp("testdata", "shared-") // in the module, so that the packages load
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	files := map[string]string{
		"v1/gizmo.go": `// +groupName=shared.kubewire.dev
package v1

import metav1 "github.com/kubewire/kubewire/api/meta/v1"

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
type Gizmo struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `
	Status GizmoStatus ` + "`json:\"status,omitempty\"`" + `
}

type GizmoStatus struct {
	Conditions []metav1.Condition ` + "`json:\"conditions,omitempty\"`" + `
}
`,
		"v2/gizmo.go": `// +groupName=shared.kubewire.dev
package v2

import (
	metav1 "github.com/kubewire/kubewire/api/meta/v1"

	v1 "github.com/kubewire/kubewire/cmd/kubewire-gen/` + filepath.ToSlash(dir) + `/v1"
)

// +kubebuilder:object:root=true
type Gizmo struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `
	Status v1.GizmoStatus ` + "`json:\"status,omitempty\"`" + `
}
`,
	}
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := generate(options{patterns: []string{"./" + dir + "/v1", "./" + dir + "/v2"}, crdDir: filepath.Join(dir, "crd")})
	if err != nil {
		t.Fatal(err)
	}
	for p, b := range out.files {
		if strings.HasSuffix(p, filepath.Join("v2", typesFile)) {
			if !strings.Contains(string(b), "in.Status.DeepCopyInto(&out.Status)") {
				t.Errorf("v2's deep copy does not copy the status through v1's method:\n%s", b)
			}
			return
		}
	}
	t.Errorf("no %s written for v2: %v", typesFile, out.files)
}
