package fake

import (
	"slices"
	"strconv"
	"strings"

	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	certificatesv1 "github.com/kubewire/kubewire/api/certificates/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
)

// typedObject is what every generated built-in kind implements: the
// metadata accessors promoted from ObjectMeta and TypeMeta, and the
// generated protobuf codec.
type typedObject interface {
	GetObjectMeta() *metav1.ObjectMeta
	SetKind(string)
	SetAPIVersion(string)
	Marshal() ([]byte, error)
	Unmarshal([]byte) error
}

// CustomResource describes a custom resource to serve, as a
// CustomResourceDefinition would. Objects of custom resources are stored
// and served as JSON only, as kube-apiserver does.
type CustomResource struct {
	Group, Version string
	Kind, ListKind string // ListKind defaults to Kind + "List"
	Resource       string // plural, lowercase: "widgets"
	Namespaced     bool
	// Status enables the status subresource: writes to the main resource
	// then ignore .status and writes to /status change only .status.
	Status bool
	// SelectableFields are extra field selector paths (JSON paths such as
	// "spec.color") besides metadata.name and metadata.namespace.
	SelectableFields []string
	// Scale, when set, enables the scale subresource: an autoscaling/v1
	// Scale read from and written to the paths it names.
	Scale *CustomResourceScale
}

// CustomResourceScale says where a custom resource keeps what its scale
// subresource shows, as a CustomResourceDefinition's
// subresources.scale does: JSON paths such as ".spec.replicas".
type CustomResourceScale struct {
	SpecReplicasPath   string // required
	StatusReplicasPath string // required
	LabelSelectorPath  string // optional
}

// resource is one REST resource the server stores. It is immutable after
// the server registers it.
type resource struct {
	kind       registry.Kind
	custom     bool
	newTyped   func() typedObject   // nil for custom resources
	status     bool                 // has a status subresource
	scale      bool                 // has a scale subresource (autoscaling/v1 Scale)
	scalePaths *CustomResourceScale // where a custom resource's scale lives
	generation bool                 // objects carry metadata.generation
	// annotationsInGeneration: a change of annotations alone is a new
	// generation (Deployments, whose annotations are copied to their
	// ReplicaSets).
	annotationsInGeneration bool
	fields                  []string // selectable fields beyond metadata.name/namespace
	// returnsDeleted: an immediate DELETE answers with the deleted object
	// rather than a Success Status (ReturnDeletedObject in the registry).
	returnsDeleted bool
	// jsonPrefix starts an object's JSON before its stored body (built-ins
	// store JSON without kind and apiVersion, as list items are served).
	jsonPrefix []byte
}

func newBuiltinResource(k registry.Kind, newTyped func() typedObject) *resource {
	r := &resource{
		kind:     k,
		newTyped: newTyped,
		status:   slices.Contains(k.Subresources, "status"),
		fields:   builtinFields()[k.APIVersion()+"/"+k.Kind],
	}
	r.returnsDeleted = returnDeletedObject[k.Group+"/"+k.Resource]
	r.generation = r.status
	r.annotationsInGeneration = k.Group == "apps" && k.Kind == "Deployment"
	r.scale = slices.Contains(k.Subresources, "scale") && scalable(newTyped())
	r.jsonPrefix = []byte(`{"kind":` + strconv.Quote(k.Kind) + `,"apiVersion":` + strconv.Quote(k.APIVersion()) + `,`)
	return r
}

func newCustomResource(c CustomResource) *resource {
	list := c.ListKind
	if list == "" {
		list = c.Kind + "List"
	}
	// kube-apiserver lists a custom resource's verbs in this order.
	verbs := []string{"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"}
	k := registry.Kind{Group: c.Group, Version: c.Version, Kind: c.Kind, ListKind: list, Resource: c.Resource, SingularResource: strings.ToLower(c.Kind), Namespaced: c.Namespaced, Verbs: verbs}
	if c.Status {
		k.Subresources = append(k.Subresources, "status")
	}
	r := &resource{kind: k, custom: true, status: c.Status, generation: true, fields: slices.Clone(c.SelectableFields)}
	if c.Scale != nil {
		k.Subresources = append(k.Subresources, "scale")
		r.kind.Subresources = k.Subresources
		paths := *c.Scale
		r.scale, r.scalePaths = true, &paths
	}
	return r
}

// key is the resource's identity in maps: "group/resource".
func (r *resource) key() string { return r.kind.Group + "/" + r.kind.Resource }

// selectable reports whether a field selector may use field.
func (r *resource) selectable(field string) bool {
	if field == "metadata.name" || (field == "metadata.namespace" && r.kind.Namespaced) {
		return true
	}
	return slices.Contains(r.fields, field)
}

// returnDeletedObject lists, as "group/resource", the built-in resources
// whose kube-apiserver registry (pkg/registry/.../storage) sets
// ReturnDeletedObject, so that an immediate DELETE answers with the
// deleted object; every other resource, custom resources included,
// answers with a Success Status.
var returnDeletedObject = map[string]bool{
	"/namespaces":                            true,
	"/persistentvolumeclaims":                true,
	"/persistentvolumes":                     true,
	"/pods":                                  true,
	"/podtemplates":                          true,
	"/serviceaccounts":                       true,
	"/services":                              true,
	"storage.k8s.io/csidrivers":              true,
	"storage.k8s.io/csinodes":                true,
	"storage.k8s.io/storageclasses":          true,
	"storage.k8s.io/volumeattachments":       true,
	"storage.k8s.io/volumeattributesclasses": true,
}

// builtinFields lists the field selectors kube-apiserver supports per
// kind beyond metadata.name and metadata.namespace.
func builtinFields() map[string][]string {
	return map[string][]string{
		"v1/Pod":                   {"spec.nodeName", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP", "status.nominatedNodeName"},
		"v1/Event":                 {"involvedObject.kind", "involvedObject.namespace", "involvedObject.name", "involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason", "reportingComponent", "source", "type"},
		"events.k8s.io/v1/Event":   {"regarding.kind", "regarding.namespace", "regarding.name", "regarding.uid", "regarding.apiVersion", "regarding.resourceVersion", "regarding.fieldPath", "reason", "reportingController", "type"},
		"v1/Secret":                {"type"},
		"v1/Namespace":             {"status.phase"},
		"v1/Node":                  {"spec.unschedulable"},
		"v1/ReplicationController": {"status.replicas"},
		"apps/v1/ReplicaSet":       {"status.replicas"},
		"batch/v1/Job":             {"status.successful"},
		"certificates.k8s.io/v1/CertificateSigningRequest": {"spec.signerName"},
	}
}

// typedFields returns the values of a built-in object's selectable fields
// beyond metadata.name and metadata.namespace, or nil.
func typedFields(t typedObject) map[string]string {
	switch o := t.(type) {
	case *corev1.Pod:
		return map[string]string{
			"spec.nodeName":            o.Spec.NodeName,
			"spec.restartPolicy":       string(o.Spec.RestartPolicy),
			"spec.schedulerName":       o.Spec.SchedulerName,
			"spec.serviceAccountName":  o.Spec.ServiceAccountName,
			"spec.hostNetwork":         strconv.FormatBool(o.Spec.HostNetwork),
			"status.phase":             string(o.Status.Phase),
			"status.podIP":             o.Status.PodIP,
			"status.nominatedNodeName": o.Status.NominatedNodeName,
		}
	case *corev1.Event:
		ref := o.InvolvedObject
		return map[string]string{
			"involvedObject.kind": ref.Kind, "involvedObject.namespace": ref.Namespace, "involvedObject.name": ref.Name,
			"involvedObject.uid": string(ref.UID), "involvedObject.apiVersion": ref.APIVersion,
			"involvedObject.resourceVersion": ref.ResourceVersion, "involvedObject.fieldPath": ref.FieldPath,
			"reason": o.Reason, "reportingComponent": o.ReportingController, "source": o.Source.Component, "type": o.Type,
		}
	case *eventsv1.Event:
		ref := o.Regarding
		return map[string]string{
			"regarding.kind": ref.Kind, "regarding.namespace": ref.Namespace, "regarding.name": ref.Name,
			"regarding.uid": string(ref.UID), "regarding.apiVersion": ref.APIVersion,
			"regarding.resourceVersion": ref.ResourceVersion, "regarding.fieldPath": ref.FieldPath,
			"reason": o.Reason, "reportingController": o.ReportingController, "type": o.Type,
		}
	case *corev1.Secret:
		return map[string]string{"type": string(o.Type)}
	case *corev1.Namespace:
		return map[string]string{"status.phase": string(o.Status.Phase)}
	case *corev1.Node:
		return map[string]string{"spec.unschedulable": strconv.FormatBool(o.Spec.Unschedulable)}
	case *corev1.ReplicationController:
		return map[string]string{"status.replicas": strconv.Itoa(int(o.Status.Replicas))}
	case *appsv1.ReplicaSet:
		return map[string]string{"status.replicas": strconv.Itoa(int(o.Status.Replicas))}
	case *batchv1.Job:
		return map[string]string{"status.successful": strconv.Itoa(int(o.Status.Succeeded))}
	case *certificatesv1.CertificateSigningRequest:
		return map[string]string{"spec.signerName": o.Spec.SignerName}
	}
	return nil
}
