package main

import "strings"

// sdkModule is the import path prefix of the generated packages.
const sdkModule = "github.com/kubewire/kubewire"

// apiPackage is one upstream Go package the generator mirrors.
type apiPackage struct {
	upstream string // import path of the upstream package
	local    string // path below the module, for example "api/core/v1"
	alias    string // import alias used when other packages refer to it
	group    string // API group served by this package ("" for core)
	version  string
	// only, when set, restricts generation to these type names (for the
	// apimachinery packages, which hold much besides API types).
	only []string
	// handwritten types live in hand-written files of the target package.
	handwritten []string
	// skip lists upstream types not mirrored at all.
	skip []string
}

// builtinGroups are the group/versions kube-apiserver v1.36.3 serves by
// default (see the aggregated discovery documents in discovery/), plus the
// discovery API itself.
var builtinGroups = []struct{ group, version, dir string }{
	{"", "v1", "core/v1"},
	{"admissionregistration.k8s.io", "v1", "admissionregistration/v1"},
	{"apidiscovery.k8s.io", "v2", "apidiscovery/v2"},
	{"apps", "v1", "apps/v1"},
	{"authentication.k8s.io", "v1", "authentication/v1"},
	{"authorization.k8s.io", "v1", "authorization/v1"},
	{"autoscaling", "v1", "autoscaling/v1"},
	{"autoscaling", "v2", "autoscaling/v2"},
	{"batch", "v1", "batch/v1"},
	{"certificates.k8s.io", "v1", "certificates/v1"},
	{"coordination.k8s.io", "v1", "coordination/v1"},
	{"discovery.k8s.io", "v1", "discovery/v1"},
	{"events.k8s.io", "v1", "events/v1"},
	{"flowcontrol.apiserver.k8s.io", "v1", "flowcontrol/v1"},
	{"networking.k8s.io", "v1", "networking/v1"},
	{"node.k8s.io", "v1", "node/v1"},
	{"policy", "v1", "policy/v1"},
	{"rbac.authorization.k8s.io", "v1", "rbac/v1"},
	{"resource.k8s.io", "v1", "resource/v1"},
	{"scheduling.k8s.io", "v1", "scheduling/v1"},
	{"storage.k8s.io", "v1", "storage/v1"},
}

// packages returns every package to generate, apimachinery first.
func apiPackages() []apiPackage {
	pkgs := []apiPackage{
		{
			upstream:    "k8s.io/apimachinery/pkg/apis/meta/v1",
			local:       "api/meta/v1",
			alias:       "metav1",
			group:       "meta.k8s.io",
			version:     "v1",
			handwritten: []string{"Time", "MicroTime", "Duration", "FieldsV1"},
			skip:        []string{"InternalEvent", "Timestamp", "GroupVersion"},
		},
		{
			upstream:    "k8s.io/apimachinery/pkg/runtime",
			local:       "api/runtime",
			alias:       "runtime",
			handwritten: []string{"TypeMeta", "Unknown", "RawExtension"},
			only:        []string{},
		},
		{
			upstream:    "k8s.io/apimachinery/pkg/api/resource",
			local:       "api/quantity",
			alias:       "quantity",
			handwritten: []string{"Quantity"},
			only:        []string{},
		},
		{
			upstream:    "k8s.io/apimachinery/pkg/util/intstr",
			local:       "api/intstr",
			alias:       "intstr",
			handwritten: []string{"IntOrString"},
			only:        []string{},
		},
		{
			upstream:    "k8s.io/apimachinery/pkg/types",
			local:       "api/types",
			alias:       "types",
			handwritten: []string{"UID", "NodeName", "NamespacedName", "PatchType"},
			only:        []string{},
		},
		{
			upstream:    "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1",
			local:       "api/apiextensions/v1",
			alias:       "apiextensionsv1",
			group:       "apiextensions.k8s.io",
			version:     "v1",
			handwritten: nil,
		},
		{
			upstream: "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1",
			local:    "api/apiregistration/v1",
			alias:    "apiregistrationv1",
			group:    "apiregistration.k8s.io",
			version:  "v1",
		},
	}
	for _, g := range builtinGroups {
		alias := strings.ReplaceAll(g.dir, "/", "")
		pkgs = append(pkgs, apiPackage{
			upstream: "k8s.io/api/" + g.dir,
			local:    "api/" + g.dir,
			alias:    alias,
			group:    g.group,
			version:  g.version,
		})
	}
	return pkgs
}

// uniqueStringFields are fields whose values are unique per object, so the
// generated decoder does not offer them to the string table (they would
// only grow it). Keyed "Type.Field".
var uniqueStringFields = map[string]bool{
	"ObjectMeta.Name":                 true,
	"ObjectMeta.UID":                  true,
	"ObjectMeta.ResourceVersion":      true,
	"ObjectMeta.SelfLink":             true,
	"ListMeta.ResourceVersion":        true,
	"ListMeta.Continue":               true,
	"ListMeta.SelfLink":               true,
	"PodStatus.PodIP":                 true,
	"PodIP.IP":                        true,
	"ContainerStatus.ContainerID":     true,
	"ObjectReference.UID":             true,
	"ObjectReference.ResourceVersion": true,
	"Event.Message":                   true,
	"Lease.HolderIdentity":            true,
}
