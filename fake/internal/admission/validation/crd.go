package validation

import (
	"fmt"
	"slices"
	"strings"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/schema"
)

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
