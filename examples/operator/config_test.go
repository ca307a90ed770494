package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// runMainEnv makes the test binary run the operator's main instead of
// the tests.
const runMainEnv = "OPERATOR_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// manifest is the part of an object the checks below read.
type manifest struct {
	Kind     string `json:"kind"`
	Metadata struct {
		Name, Namespace string
	} `json:"metadata"`
	RoleRef  struct{ Kind, Name string } `json:"roleRef"`
	Subjects []struct {
		Kind, Name, Namespace string
	} `json:"subjects"`
	Spec struct {
		Template struct {
			Spec struct {
				ServiceAccountName string `json:"serviceAccountName"`
				Containers         []struct {
					Args []string `json:"args"`
				} `json:"containers"`
			} `json:"spec"`
		} `json:"template"`
	} `json:"spec"`
	Resources []string `json:"resources"`
}

// readManifests reads every object of the YAML files under dir.
func readManifests(t *testing.T, dir string) map[string][]manifest {
	t.Helper()
	byFile := map[string][]manifest{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, doc := range bytes.Split(data, []byte("\n---")) {
			var m manifest
			if err := yaml.Unmarshal(doc, &m); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if m.Kind != "" || len(m.Resources) > 0 {
				byFile[path] = append(byFile[path], m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return byFile
}

// The deploy manifests hang together: every kustomization lists files
// that exist, the bindings name roles of role.yaml and the
// ServiceAccount the Deployment runs as, everything namespaced is in the
// operator's namespace, and the Deployment's arguments are flags of the
// operator. (e2e/TestOperatorRBAC applies the RBAC to kube-apiserver and
// runs the operator with it.)
func TestDeployManifests(t *testing.T) {
	byFile := readManifests(t, "config")
	objects := map[string]manifest{} // kind/name
	for path, ms := range byFile {
		for _, m := range ms {
			if filepath.Base(path) == "kustomization.yaml" {
				for _, r := range m.Resources {
					if _, err := os.Stat(filepath.Join(filepath.Dir(path), r)); err != nil {
						t.Errorf("%s lists %s: %v", path, r, err)
					}
				}
				continue
			}
			objects[m.Kind+"/"+m.Metadata.Name] = m
		}
	}
	const ns = "widget-operator-system"
	sa, ok := objects["ServiceAccount/widget-operator"]
	if !ok || sa.Metadata.Namespace != ns {
		t.Fatalf("no ServiceAccount widget-operator in %s: %+v", ns, sa)
	}
	for _, kind := range []string{"ClusterRoleBinding", "RoleBinding"} {
		b, ok := objects[kind+"/widget-operator"]
		if !ok {
			t.Errorf("no %s widget-operator", kind)
			continue
		}
		if _, ok := objects[b.RoleRef.Kind+"/"+b.RoleRef.Name]; !ok {
			t.Errorf("%s binds %s %s, which role.yaml does not have", kind, b.RoleRef.Kind, b.RoleRef.Name)
		}
		if len(b.Subjects) != 1 || b.Subjects[0].Name != sa.Metadata.Name || b.Subjects[0].Namespace != ns {
			t.Errorf("%s subjects %+v, want the ServiceAccount", kind, b.Subjects)
		}
	}
	if r := objects["Role/widget-operator"]; r.Metadata.Namespace != ns {
		t.Errorf("the leader election Role is in %q, want %s", r.Metadata.Namespace, ns)
	}
	d, ok := objects["Deployment/widget-operator"]
	if !ok {
		t.Fatal("no Deployment widget-operator")
	}
	if d.Metadata.Namespace != ns || d.Spec.Template.Spec.ServiceAccountName != sa.Metadata.Name {
		t.Errorf("Deployment in %q runs as %q", d.Metadata.Namespace, d.Spec.Template.Spec.ServiceAccountName)
	}
	// The arguments are flags of the operator: main parses them, then
	// -h, which makes it print its usage and exit 0 (an unknown flag
	// exits 2 first).
	for _, c := range d.Spec.Template.Spec.Containers {
		cmd := exec.Command(os.Args[0], append(slices.Clone(c.Args), "-h")...)
		cmd.Env = append(os.Environ(), runMainEnv+"=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("the operator refuses the Deployment's args %v: %v\n%s", c.Args, err, out)
		}
	}
	for key, m := range objects {
		if m.Metadata.Namespace != "" && m.Metadata.Namespace != ns {
			t.Errorf("%s is in namespace %s", key, m.Metadata.Namespace)
		}
	}
	if !slices.ContainsFunc(byFile[filepath.Join("config", "rbac", "role.yaml")], func(m manifest) bool { return m.Kind == "ClusterRole" }) {
		t.Error("config/rbac/role.yaml has no ClusterRole")
	}
}
