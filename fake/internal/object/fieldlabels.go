package object

import (
	"fmt"
	"slices"
)

// fieldLabels is how kube-apiserver v1.36 converts a field selector's
// labels for one built-in kind (the field label conversion registered
// for the kind's group version): the labels it takes, the ones it
// renames, and its wording for the rest. Kinds without an entry take
// metadata.name and metadata.namespace only.
type fieldLabels struct {
	labels  []string          // accepted as they are, metadata.* included
	renamed map[string]string // accepted under another name
	refuse  func(label string) string
}

func notSupported(label string) string { return "field label not supported: " + label }

// builtinFieldLabels are the conversions by "apiVersion/Kind". apps/v1
// registers none: its ReplicaSets and StatefulSets take metadata fields
// only.
func builtinFieldLabels() map[string]fieldLabels {
	return map[string]fieldLabels{
		"v1/Pod": {labels: []string{"metadata.name", "metadata.namespace", "spec.nodeName", "spec.restartPolicy",
			"spec.schedulerName", "spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP",
			"status.podIPs", "status.nominatedNodeName"},
			renamed: map[string]string{"spec.host": "spec.nodeName"}, refuse: notSupported},
		"v1/Node":                  {labels: []string{"metadata.name", "spec.unschedulable"}, refuse: notSupported},
		"v1/ReplicationController": {labels: []string{"metadata.name", "metadata.namespace", "status.replicas"}, refuse: notSupported},
		"v1/Event": {labels: []string{"involvedObject.kind", "involvedObject.namespace", "involvedObject.name",
			"involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion", "involvedObject.fieldPath",
			"reason", "reportingComponent", "source", "type", "metadata.namespace", "metadata.name"}, refuse: notSupported},
		"v1/Namespace": {labels: []string{"status.phase", "metadata.name"}, refuse: notSupported},
		"v1/Secret":    {labels: []string{"type", "metadata.namespace", "metadata.name"}, refuse: notSupported},
		"v1/Service":   {labels: []string{"metadata.namespace", "metadata.name", "spec.clusterIP", "spec.type"}, refuse: notSupported},
		"batch/v1/Job": {labels: []string{"metadata.name", "metadata.namespace", "status.successful"},
			refuse: func(label string) string { return fmt.Sprintf("field label %q not supported for Job", label) }},
		// events.k8s.io names the core/v1 fields after its own: the
		// evaluator reads the object under the name asked for.
		"events.k8s.io/v1/Event": {labels: []string{"reason", "regarding.kind", "regarding.namespace", "regarding.name",
			"regarding.uid", "regarding.apiVersion", "regarding.resourceVersion", "regarding.fieldPath",
			"reportingController", "type", "metadata.namespace", "metadata.name"}, refuse: notSupported},
		"certificates.k8s.io/v1/CertificateSigningRequest": {labels: []string{"metadata.name", "spec.signerName"}, refuse: notSupported},
		"resource.k8s.io/v1/ResourceSlice": {labels: []string{"metadata.name", "spec.nodeName", "spec.driver"},
			refuse: func(label string) string {
				return "field label not supported for resource.k8s.io/v1, Kind=ResourceSlice: " + label
			}},
	}
}

// selectableBeyondMeta lists a conversion's labels other than
// metadata.name and metadata.namespace.
func (f fieldLabels) selectableBeyondMeta() []string {
	var out []string
	for _, l := range f.labels {
		if l != "metadata.name" && l != "metadata.namespace" {
			out = append(out, l)
		}
	}
	return out
}

// ConvertFieldLabel maps a field selector's label to the field the
// kind's objects are matched on, or returns kube-apiserver's words for
// a label the kind does not take (the 400 a list answers).
func (r *Resource) ConvertFieldLabel(label string) (string, error) {
	if r.Custom {
		if label == "metadata.name" || (label == "metadata.namespace" && r.Kind.Namespaced) || slices.Contains(r.Fields, label) {
			return label, nil
		}
		return "", fmt.Errorf("field label not supported: %s", label)
	}
	if r.fieldLabels == nil {
		switch label {
		case "metadata.name", "metadata.namespace":
			return label, nil
		}
		return "", fmt.Errorf("%q is not a known field selector: only %q, %q", label, "metadata.name", "metadata.namespace")
	}
	if slices.Contains(r.fieldLabels.labels, label) {
		return label, nil
	}
	if to, ok := r.fieldLabels.renamed[label]; ok {
		return to, nil
	}
	return "", fmt.Errorf("%s", r.fieldLabels.refuse(label))
}
