package request

import (
	"net/url"
	"testing"

	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
)

func builtinResource(t *testing.T, group, version, resource string) *object.Resource {
	t.Helper()
	k, ok := registry.ByResource(group, version, resource)
	if !ok {
		t.Fatalf("no kind for %s/%s %s", group, version, resource)
	}
	r, ok := object.Builtin(k, &fieldpath.Builtins{})
	if !ok {
		t.Fatalf("no built-in resource for %s", resource)
	}
	return r
}

// The messages are kube-apiserver v1.36.3's answers to the same
// queries (e2e TestFuzzFidelity's reports).
func TestListSelectorErrorsAsKubeAPIServer(t *testing.T) {
	res := map[string]*object.Resource{
		"services":    builtinResource(t, "", "v1", "services"),
		"configmaps":  builtinResource(t, "", "v1", "configmaps"),
		"pods":        builtinResource(t, "", "v1", "pods"),
		"jobs":        builtinResource(t, "batch", "v1", "jobs"),
		"replicasets": builtinResource(t, "apps", "v1", "replicasets"),
		"nodes":       builtinResource(t, "", "v1", "nodes"),
		"events":      builtinResource(t, "events.k8s.io", "v1", "events"),
	}
	for _, tt := range []struct {
		resource, query, want string
	}{
		{"services", "labelSelector=a b", "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"},
		{"pods", "labelSelector=app in (web", "unable to parse requirement: found '', expected: ',' or ')'"},
		{"configmaps", "labelSelector=app=web=x", "found '=', expected: ',' or 'end of string'"},
		{"configmaps", "labelSelector=app=web,", "found '', expected: identifier after ','"},
		{"configmaps", "labelSelector=,a", "found ',', expected: !, identifier, or 'end of string'"},
		{"configmaps", "labelSelector=a in web", "unable to parse requirement: found 'web' expected: '('"},
		{"configmaps", "labelSelector=a>x", `unable to parse requirement: values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"configmaps", "labelSelector=a=b!", "found '!', expected: ',' or 'end of string'"},
		{"configmaps", "labelSelector=Example.com/app=1", `unable to parse requirement: <nil>: Invalid value: "Example.com/app": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{"configmaps", "labelSelector=a=-x", `unable to parse requirement: values[0][a]: Invalid value: "-x": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`},
		// The label selector is read before the field selector.
		{"configmaps", "labelSelector=a b&fieldSelector==a", "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"},
		{"services", "fieldSelector==a", "field label not supported: "},
		{"configmaps", "fieldSelector==a", `"" is not a known field selector: only "metadata.name", "metadata.namespace"`},
		{"services", "labelSelector=app in ()&fieldSelector=metadata.uid=u", "field label not supported: metadata.uid"},
		{"configmaps", "fieldSelector=metadata.name", "invalid selector: 'metadata.name'; can't understand 'metadata.name'"},
		{"configmaps", "fieldSelector=metadata.name=a,b", "invalid selector: 'metadata.name=a,b'; can't understand 'b'"},
		{"configmaps", "fieldSelector=metadata.name=a=b", "invalid field selector: unescaped character in value: 61"},
		{"configmaps", `fieldSelector=metadata.name=a\x`, `invalid field selector: invalid escape sequence: \x`},
		// Terms are converted in sorted order.
		{"pods", "fieldSelector=spec.zz=1,spec.aa=1", "field label not supported: spec.aa"},
		{"jobs", "fieldSelector=spec.x=1", `field label "spec.x" not supported for Job`},
		{"replicasets", "fieldSelector=status.replicas=1", `"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"`},
		{"nodes", "fieldSelector=metadata.namespace=x", "field label not supported: metadata.namespace"},
		{"events", "fieldSelector=involvedObject.kind=Pod", "field label not supported: involvedObject.kind"},
	} {
		q, err := url.ParseQuery(tt.query)
		if err != nil {
			t.Fatal(err)
		}
		_, aerr := ParseListOptions(q, res[tt.resource], false)
		if aerr == nil {
			t.Errorf("%s ?%s: accepted, want 400 %q", tt.resource, tt.query, tt.want)
			continue
		}
		if aerr.Status.Code != 400 || aerr.Status.Message != tt.want {
			t.Errorf("%s ?%s:\n got %d %q\nwant 400 %q", tt.resource, tt.query, aerr.Status.Code, aerr.Status.Message, tt.want)
		}
	}
}

func TestListSelectorsAcceptedAsKubeAPIServer(t *testing.T) {
	svc := builtinResource(t, "", "v1", "services")
	pods := builtinResource(t, "", "v1", "pods")
	for _, tt := range []struct {
		res   *object.Resource
		query string
	}{
		{svc, "fieldSelector=spec.clusterIP=None"},
		{svc, "fieldSelector=spec.type=ClusterIP,metadata.namespace!=x"},
		{svc, "labelSelector=x in (foo,,baz),y,z notin ()"},
		{svc, "labelSelector=app in (),!tier"},
		{svc, "labelSelector=a in (in, notin)"},
		{svc, "labelSelector=a==b , c!=d"},
		{pods, "fieldSelector=spec.host=n1,status.podIPs="},
		{pods, `fieldSelector=metadata.name=a\,b,,`},
	} {
		q, err := url.ParseQuery(tt.query)
		if err != nil {
			t.Fatal(err)
		}
		if _, aerr := ParseListOptions(q, tt.res, false); aerr != nil {
			t.Errorf("?%s: %d %s", tt.query, aerr.Status.Code, aerr.Status.Message)
		}
	}
}

func TestLabelSelectorMatches(t *testing.T) {
	labels := map[string]string{"app": "web", "tier": "front", "n": "5"}
	for sel, want := range map[string]bool{
		"":                         true,
		"app=web":                  true,
		"app==web,tier":            true,
		"app!=web":                 false,
		"app in (db, web)":         true,
		"app notin (web)":          false,
		"!canary":                  true,
		"!app":                     false,
		"missing notin (x)":        true,
		"n>4":                      true,
		"n<5":                      false,
		"app in (),tier in (,x)":   false,
		"tier in (front),app=web,": false, // refused, see below
	} {
		s, err := parseLabelSelector(sel, newLabelRules())
		if sel == "tier in (front),app=web," {
			if err == nil {
				t.Errorf("%q: accepted", sel)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", sel, err)
			continue
		}
		if got := s.matches(labels); got != want {
			t.Errorf("%q matches %v = %v, want %v", sel, labels, got, want)
		}
	}
}
