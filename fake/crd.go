package fake

import (
	"fmt"
	"slices"
	"strings"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/apierr"
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

// defaultCRD sets what kube-apiserver defaults in a CRD.
func defaultCRD(crd *apiextensionsv1.CustomResourceDefinition) {
	n := &crd.Spec.Names
	if n.Singular == "" {
		n.Singular = strings.ToLower(n.Kind)
	}
	if n.ListKind == "" && n.Kind != "" {
		n.ListKind = n.Kind + "List"
	}
	if crd.Spec.Conversion == nil {
		crd.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{Strategy: "None"}
	}
}

// storageVersion is the version marked as stored, or "".
func storageVersion(crd *apiextensionsv1.CustomResourceDefinition) string {
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

// prepareCRDCreate sets a new CRD's status: the stored version, no
// accepted names and no conditions yet.
func prepareCRDCreate(crd *apiextensionsv1.CustomResourceDefinition) {
	crd.Status = apiextensionsv1.CustomResourceDefinitionStatus{}
	if v := storageVersion(crd); v != "" {
		crd.Status.StoredVersions = []string{v}
	}
}

// prepareCRDUpdate keeps the status of a CRD and records a new storage
// version as stored.
func prepareCRDUpdate(old, crd *apiextensionsv1.CustomResourceDefinition) {
	crd.Status = old.Status
	if v := storageVersion(crd); v != "" && !slices.Contains(crd.Status.StoredVersions, v) {
		crd.Status.StoredVersions = append(slices.Clone(crd.Status.StoredVersions), v)
	}
}

// validateCRD checks what kube-apiserver checks of a CRD that the fake
// relies on, with kube-apiserver's wording.
func validateCRD(crd *apiextensionsv1.CustomResourceDefinition) []apierr.Cause {
	var causes []apierr.Cause
	invalid := func(f string, v any, detail string) {
		causes = append(causes, causeOf(schema.FieldError{Type: schema.Invalid, Field: f, BadValue: v, Detail: detail}))
	}
	required := func(f string) {
		causes = append(causes, causeOf(schema.FieldError{Type: schema.Required, Field: f}))
	}
	spec := &crd.Spec
	if crd.Name != spec.Names.Plural+"."+spec.Group {
		invalid("metadata.name", crd.Name, `must be spec.names.plural+"."+spec.group`)
	}
	switch {
	case spec.Group == "":
		required("spec.group")
	case !dnsSubdomain.MatchString(spec.Group):
		invalid("spec.group", spec.Group, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")
	case !strings.Contains(spec.Group, "."):
		invalid("spec.group", spec.Group, "should be a domain with at least one dot")
	}
	switch spec.Scope {
	case "Cluster", "Namespaced":
	case "":
		required("spec.scope")
	default:
		causes = append(causes, causeOf(schema.FieldError{Type: schema.NotSupported, Field: "spec.scope", BadValue: string(spec.Scope), Detail: `supported values: "Cluster", "Namespaced"`}))
	}
	for i, v := range spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			required(fmt.Sprintf("spec.versions[%d].schema.openAPIV3Schema", i))
		}
	}
	storages := 0
	names := map[string]bool{}
	for _, v := range spec.Versions {
		if v.Storage {
			storages++
		}
		names[v.Name] = true
	}
	if len(spec.Versions) == 0 {
		required("spec.versions")
	} else {
		if len(names) != len(spec.Versions) {
			invalid("spec.versions", spec.Versions, "must contain unique version names")
		}
		if storages != 1 {
			invalid("spec.versions", spec.Versions, "must have exactly one version marked as storage version")
		}
	}
	for _, f := range []struct{ name, value string }{{"plural", spec.Names.Plural}, {"singular", spec.Names.Singular}, {"kind", spec.Names.Kind}, {"listKind", spec.Names.ListKind}} {
		if f.value == "" {
			required("spec.names." + f.name)
		}
	}
	for i, v := range spec.Versions {
		for j, c := range v.AdditionalPrinterColumns {
			if !slices.Contains([]string{"boolean", "date", "integer", "number", "string"}, c.Type) {
				invalid(fmt.Sprintf("spec.versions[%d].additionalPrinterColumns[%d].type", i, j), c.Type, "must be one of boolean,date,integer,number,string")
			}
		}
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			if _, err := schema.New(v.Schema.OpenAPIV3Schema); err != nil {
				invalid(fmt.Sprintf("spec.versions[%d].schema.openAPIV3Schema", i), "", err.Error())
			}
		}
	}
	return causes
}

// causeOf turns a schema field error into a Status cause.
func causeOf(e schema.FieldError) apierr.Cause {
	return apierr.Cause{Type: metav1.CauseType(e.Type), Field: e.Field, Message: e.Body()}
}

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
		r.CRD = &object.CRDVersion{Name: crd.Name, Storage: storageVersion(crd), Schema: sch, Columns: printerColumns(v.AdditionalPrinterColumns)}
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
