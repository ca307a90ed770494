package fake

import (
	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// CustomResource describes a custom resource to serve, as a
// CustomResourceDefinition would. Objects of custom resources are stored
// and served as JSON, as kube-apiserver does by default (it serves CBOR
// only behind its CBORServingAndStorage feature gate).
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
	// Scale read from and written to the paths it names, as the
	// definition's subresources.scale.
	Scale *CustomResourceScale
}

// CustomResourceScale says where a custom resource keeps what its scale
// subresource shows, as a CustomResourceDefinition's subresources.scale
// does: JSON paths such as ".spec.replicas".
type CustomResourceScale struct {
	SpecReplicasPath   string // required
	StatusReplicasPath string // required
	LabelSelectorPath  string // optional
}

// definition is the CustomResourceDefinition that serves c: one
// version, served and stored, whose schema keeps any field.
func (c CustomResource) definition() *apiextensionsv1.CustomResourceDefinition {
	preserve := true
	scope := apiextensionsv1.ResourceScope("Cluster")
	if c.Namespaced {
		scope = "Namespaced"
	}
	v := apiextensionsv1.CustomResourceDefinitionVersion{
		Name: c.Version, Served: true, Storage: true,
		Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{Type: "object", XPreserveUnknownFields: &preserve}},
	}
	if c.Status || c.Scale != nil {
		v.Subresources = &apiextensionsv1.CustomResourceSubresources{}
	}
	if c.Status {
		v.Subresources.Status = &apiextensionsv1.CustomResourceSubresourceStatus{}
	}
	if c.Scale != nil {
		sc := &apiextensionsv1.CustomResourceSubresourceScale{SpecReplicasPath: c.Scale.SpecReplicasPath, StatusReplicasPath: c.Scale.StatusReplicasPath}
		if c.Scale.LabelSelectorPath != "" {
			sel := c.Scale.LabelSelectorPath
			sc.LabelSelectorPath = &sel
		}
		v.Subresources.Scale = sc
	}
	for _, f := range c.SelectableFields {
		v.SelectableFields = append(v.SelectableFields, apiextensionsv1.SelectableField{JSONPath: "." + f})
	}
	return &apiextensionsv1.CustomResourceDefinition{
		TypeMeta:   metav1.TypeMeta{Kind: "CustomResourceDefinition", APIVersion: "apiextensions.k8s.io/v1"},
		ObjectMeta: metav1.ObjectMeta{Name: c.Resource + "." + c.Group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: c.Group, Scope: scope, Versions: []apiextensionsv1.CustomResourceDefinitionVersion{v},
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: c.Resource, Kind: c.Kind, ListKind: c.ListKind},
		},
	}
}
