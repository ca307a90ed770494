package fake

import (
	"slices"
	"strings"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/schema"
	"github.com/kubewire/kubewire/fake/internal/table"
)

// A CustomResourceDefinition written through the API (or by
// AddCustomResource) is served the way kube-apiserver's controllers serve
// it, but at once: every write of a CRD reconciles the served resources
// (syncCRD): its served versions are registered with their schemas,
// printer columns and subresources, and its status gets acceptedNames and
// the NamesAccepted and Established conditions (written by manager
// "kube-apiserver" on the status subresource). Deleting a CRD marks it
// with the customresourcecleanup finalizer and a Terminating condition;
// then its objects are deleted, it is no longer served, and the finalizer
// is removed, which deletes it.

const crdCleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io"

// crdResourceKey is the CRD resource's key in Server.resources.
const crdResourceKey = "apiextensions.k8s.io/v1/customresourcedefinitions"

// customResources builds the resources a CRD serves, one per served
// version, sharing the storage of any resource already serving it.
func (s *Server) customResources(crd *apiextensionsv1.CustomResourceDefinition) ([]*object.Resource, error) {
	spec := &crd.Spec
	var out []*object.Resource
	for _, v := range spec.Versions {
		if !v.Served {
			continue
		}
		var props *apiextensionsv1.JSONSchemaProps
		if v.Schema != nil {
			props = v.Schema.OpenAPIV3Schema
		}
		sch, err := schema.New(props)
		if err != nil {
			return nil, err
		}
		k := registry.Kind{
			Group: spec.Group, Version: v.Name, Kind: spec.Names.Kind, ListKind: spec.Names.ListKind,
			Resource: spec.Names.Plural, SingularResource: spec.Names.Singular, Namespaced: spec.Scope == "Namespaced",
			Verbs:      []string{"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"},
			ShortNames: slices.Clone(spec.Names.ShortNames), Categories: slices.Clone(spec.Names.Categories),
		}
		r := &object.Resource{Kind: k, Custom: true, Generation: true}
		convert := s.crdConverter(crd)
		r.CRD = &object.CRDVersion{Name: crd.Name, Storage: object.CRDStorageVersion(crd), Schema: sch, Columns: printerColumns(v.AdditionalPrinterColumns),
			Convert: convert, ToStorage: s.storageConverter(crd, convert), Deprecation: crdDeprecation(spec, v)}
		if sub := v.Subresources; sub != nil {
			if sub.Status != nil {
				r.Status = true
				r.Kind.Subresources = append(r.Kind.Subresources, "status")
			}
			if sub.Scale != nil {
				sc := *sub.Scale
				r.CRD.Scale = &sc
				r.Scale = true
				r.Kind.Subresources = append(r.Kind.Subresources, "scale")
			}
		}
		for _, f := range v.SelectableFields {
			r.Fields = append(r.Fields, strings.TrimPrefix(f.JSONPath, "."))
		}
		r.Ftype = sch.FieldType(s.builtins.ObjectMeta())
		r.Storage = s.storageFor(crd.Name)
		out = append(out, r)
	}
	return out, nil
}

// printerColumns are the columns a custom resource's Tables have: the
// CRD's, or an Age column when it names none.
func printerColumns(cols []apiextensionsv1.CustomResourceColumnDefinition) []apiextensionsv1.CustomResourceColumnDefinition {
	if len(cols) > 0 {
		return cols
	}
	return []apiextensionsv1.CustomResourceColumnDefinition{{Name: "Age", Type: "date", Description: table.CreationTimestampDescription, JSONPath: ".metadata.creationTimestamp"}}
}

// storageFor returns the storage of a CRD's objects, the same for every
// version and every registration of it.
func (s *Server) storageFor(crdName string) *object.StorageKey {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.crdStorage == nil {
		s.crdStorage = map[string]*object.StorageKey{}
	}
	k := s.crdStorage[crdName]
	if k == nil {
		k = &object.StorageKey{Name: crdName}
		s.crdStorage[crdName] = k
	}
	return k
}
