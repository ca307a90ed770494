package webhookcfg_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewire/kubewire/internal/codegen/webhookcfg"
)

func collect(t *testing.T, src ...string) (*webhookcfg.Markers, error) {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	for i, s := range src {
		f, err := parser.ParseFile(fset, "f"+string(rune('0'+i))+".go", s, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	m := &webhookcfg.Markers{}
	_, err := m.Collect(fset, files)
	return m, err
}

// The tutorial's markers (validating before mutating, versions in two
// files, a marker on a type and one free-standing) give the manifest
// controller-gen writes for them.
func TestTutorialMarkers(t *testing.T) {
	v1 := `package v1

// +kubebuilder:webhook:path=/validate-batch-tutorial-kubebuilder-io-v1-cronjob,mutating=false,failurePolicy=fail,sideEffects=None,groups=batch.tutorial.kubebuilder.io,resources=cronjobs,verbs=create;update,versions=v1,name=vcronjob-v1.kb.io,admissionReviewVersions=v1

// CronJobValidator validates.
type CronJobValidator struct{}

// +kubebuilder:webhook:path=/mutate-batch-tutorial-kubebuilder-io-v1-cronjob,mutating=true,failurePolicy=fail,sideEffects=None,groups=batch.tutorial.kubebuilder.io,resources=cronjobs,verbs=create;update,versions=v1,name=mcronjob-v1.kb.io,admissionReviewVersions=v1
type CronJobDefaulter struct{}
`
	v2 := strings.ReplaceAll(strings.ReplaceAll(v1, "-v1", "-v2"), "versions=v1", "versions=v2")
	m, err := collect(t, v1, v2)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Manifests(webhookcfg.DefaultService, "# header")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/manifests.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("manifests (-want +got):\n%s", d)
	}
}

func TestOptionsAndNames(t *testing.T) {
	m, err := collect(t, `package p
// +kubebuilder:webhookconfiguration:mutating=true,name=my-mutating
// +kubewire:webhook:url="https://hooks.example.com/m",mutating=true,failurePolicy=Ignore,matchPolicy=exact,sideEffects=NoneOnDryRun,timeoutSeconds=5,groups=core;apps,resources=pods;deployments/scale,verbs=*,versions=v1,name=m.example.com,admissionReviewVersions=v1;v1beta1,reinvocationPolicy=IfNeeded
// +kubebuilder:webhook:path=/v,mutating=false,failurePolicy=fail,sideEffects=none,groups="",resources=configmaps,verbs=delete,versions=v1,name=v.example.com,admissionReviewVersions=v1,serviceName=hooks,serviceNamespace=ops,servicePort=8443
`)
	if err != nil {
		t.Fatal(err)
	}
	mut, val, err := m.Build(webhookcfg.Service{Namespace: "ns", Name: "svc"})
	if err != nil {
		t.Fatal(err)
	}
	if mut.Name != "my-mutating" || val.Name != "validating-webhook-configuration" {
		t.Errorf("names %s %s", mut.Name, val.Name)
	}
	w := mut.Webhooks[0]
	if *w.ClientConfig.URL != "https://hooks.example.com/m" || *w.FailurePolicy != "Ignore" || *w.MatchPolicy != "Exact" || *w.SideEffects != "NoneOnDryRun" ||
		*w.TimeoutSeconds != 5 || *w.ReinvocationPolicy != "IfNeeded" || w.Rules[0].APIGroups[0] != "" || w.Rules[0].Operations[0] != "*" || len(w.AdmissionReviewVersions) != 2 {
		t.Errorf("mutating webhook %+v %+v", w, w.Rules)
	}
	v := val.Webhooks[0]
	if s := v.ClientConfig.Service; s.Name != "hooks" || s.Namespace != "ops" || *s.Port != 8443 || *s.Path != "/v" || *v.SideEffects != "None" || v.Rules[0].Operations[0] != "DELETE" {
		t.Errorf("validating webhook %+v %+v", v, s)
	}
}

func TestBadMarkers(t *testing.T) {
	const ok = `path=/p,mutating=true,failurePolicy=fail,sideEffects=None,groups=g,resources=r,verbs=create,versions=v1,name=a.b.c,admissionReviewVersions=v1`
	cases := []struct{ marker, want string }{
		{strings.Replace(ok, "name=a.b.c,", "", 1), "name= is required"},
		{strings.Replace(ok, "path=/p,", "", 1), "give one of path= (a Service of the cluster) and url="},
		{ok + `,url="https://x"`, "give one of path="},
		{strings.Replace(ok, "sideEffects=None", "sideEffects=Some", 1), `sideEffects "Some" is not one of None, NoneOnDryRun`},
		{strings.Replace(ok, "sideEffects=None,", "", 1), "sideEffects= is required"},
		{strings.Replace(ok, "failurePolicy=fail", "failurePolicy=maybe", 1), `failurePolicy "maybe" is not one of Fail, Ignore`},
		{strings.Replace(ok, "verbs=create", "verbs=patch", 1), `verbs "patch" is not one of CREATE, UPDATE, DELETE, CONNECT, *`},
		{ok + ",timeoutSeconds=31", "timeoutSeconds must be between 1 and 30"},
		{ok + ",colour=red", "unknown argument colour"},
		{ok + ",patch=x", "patch= is not supported"},
		{ok + ",webhookVersions=v1beta1", "only v1 is served"},
		{strings.Replace(ok, "name=a.b.c", "name=short", 1), "fully qualified domain name"},
		{strings.Replace(ok, "mutating=true", "mutating=perhaps", 1), "mutating"},
		{strings.Replace(ok, "admissionReviewVersions=v1", "admissionReviewVersions=v2", 1), `admissionReviewVersions: "v2"`},
		{strings.Replace(ok, "path=/p", "path=p", 1), `path "p" does not start with /`},
		{strings.Replace(ok, "mutating=true", "mutating=false", 1) + ",reinvocationPolicy=Never", "reinvocationPolicy is for mutating webhooks"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			m, err := collect(t, "package p\n// +kubebuilder:webhook:"+c.marker+"\n")
			if err == nil {
				_, _, err = m.Build(webhookcfg.DefaultService)
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one saying %q", err, c.want)
			}
		})
	}
	_, err := collect(t, "package p\n// +kubebuilder:webhook:"+ok+"\n", "package p\n// +kubebuilder:webhook:"+ok+"\n")
	if err == nil {
		m, _ := collect(t, "package p\n// +kubebuilder:webhook:"+ok+"\n// +kubebuilder:webhook:"+ok+"\n")
		_, _, err = m.Build(webhookcfg.DefaultService)
	}
	if err == nil || !strings.Contains(err.Error(), "declared twice") {
		t.Errorf("a webhook twice: %v", err)
	}
	if _, err := collect(t, "package p\n// +kubebuilder:webhok:path=/x\n"); err == nil {
		t.Error("a misspelt webhook marker was ignored")
	}
}
