package fake

import "github.com/kubewire/kubewire/fake/internal/object"

// conditionalOnly are the built-in resources (group/resource) whose
// kube-apiserver strategy refuses an update that names no
// resourceVersion (AllowUnconditionalUpdate false), as it refuses one of
// a custom resource.
var conditionalOnly = map[string]bool{
	"coordination.k8s.io/leases":                                     true,
	"coordination.k8s.io/leasecandidates":                            true,
	"node.k8s.io/runtimeclasses":                                     true,
	"policy/poddisruptionbudgets":                                    true,
	"certificates.k8s.io/podcertificaterequests":                     true,
	"certificates.k8s.io/clustertrustbundles":                        true,
	"storagemigration.k8s.io/storageversionmigrations":               true,
	"resource.k8s.io/resourcepoolstatusrequests":                     true,
	"internal.apiserver.k8s.io/storageversions":                      true,
	"storage.k8s.io/csidrivers":                                      true,
	"storage.k8s.io/csinodes":                                        true,
	"storage.k8s.io/csistoragecapacities":                            true,
	"storage.k8s.io/volumeattachments":                               true,
	"admissionregistration.k8s.io/validatingadmissionpolicies":       true,
	"admissionregistration.k8s.io/mutatingadmissionpolicies":         true,
	"admissionregistration.k8s.io/validatingwebhookconfigurations":   true,
	"admissionregistration.k8s.io/mutatingwebhookconfigurations":     true,
	"admissionregistration.k8s.io/validatingadmissionpolicybindings": true,
	"admissionregistration.k8s.io/mutatingadmissionpolicybindings":   true,
	"apiextensions.k8s.io/customresourcedefinitions":                 true,
	"apiregistration.k8s.io/apiservices":                             true,
}

// needsResourceVersion reports whether an update of res (through
// subresource sub) must name the resourceVersion it replaces.
func needsResourceVersion(res *object.Resource, sub string) bool {
	return res.Custom || sub == "" && conditionalOnly[res.Key()]
}
