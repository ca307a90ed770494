package crd

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/internal/codegen/kinds"
	"sigs.k8s.io/yaml"
)

// Version is one version of a kind: what its markers say and its schema.
type Version struct {
	Kind   *kinds.Kind
	Schema *apiextv1.JSONSchemaProps
}

// Build returns the CustomResourceDefinition of one group and kind from
// its versions (at least one; all of the same group and kind). With more
// than one version, exactly one must be marked
// +kubebuilder:storageversion; resource names and scope must agree.
func Build(versions []Version) (*apiextv1.CustomResourceDefinition, error) {
	if len(versions) == 0 {
		return nil, fmt.Errorf("no versions")
	}
	versions = slices.Clone(versions)
	slices.SortFunc(versions, func(a, b Version) int { return CompareVersions(b.Kind.Version, a.Kind.Version) })
	first := versions[0].Kind
	id := first.Group + "/" + first.Kind
	var storage []string
	for _, v := range versions {
		k := v.Kind
		if k.Storage || len(versions) == 1 {
			storage = append(storage, k.Version)
		}
		if k.Plural != first.Plural || k.Singular != first.Singular || k.Namespaced != first.Namespaced ||
			!slices.Equal(k.ShortNames, first.ShortNames) || !slices.Equal(k.Categories, first.Categories) || k.ListKind != first.ListKind {
			return nil, fmt.Errorf("%s: versions %s and %s disagree on resource names or scope (+kubebuilder:resource)", id, first.Version, k.Version)
		}
	}
	if len(storage) != 1 {
		return nil, fmt.Errorf("%s has versions %s: mark exactly one of them +kubebuilder:storageversion (marked: %v)", id, versionNames(versions), storage)
	}
	scope := apiextv1.ResourceScope("Namespaced")
	if !first.Namespaced {
		scope = "Cluster"
	}
	out := &apiextv1.CustomResourceDefinition{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition"},
		ObjectMeta: metav1.ObjectMeta{Name: first.Plural + "." + first.Group},
		Spec: apiextv1.CustomResourceDefinitionSpec{
			Group: first.Group,
			Names: apiextv1.CustomResourceDefinitionNames{
				Kind: first.Kind, ListKind: first.ListKind, Plural: first.Plural, Singular: first.Singular,
				ShortNames: first.ShortNames, Categories: first.Categories,
			},
			Scope: scope,
		},
	}
	for _, v := range versions {
		cv, err := version(v, storage[0])
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", id, v.Kind.Version, err)
		}
		out.Spec.Versions = append(out.Spec.Versions, cv)
	}
	if b, err := json.Marshal(out); err != nil {
		return nil, fmt.Errorf("%s: %w", id, err)
	} else if len(b) > MaxBytes {
		return nil, fmt.Errorf("%s: the CustomResourceDefinition is %d bytes of JSON, more than the %d kube-apiserver stores (etcd's default request limit); its schemas are too large", id, len(b), MaxBytes)
	}
	return out, nil
}

// MaxBytes bounds the JSON of a CustomResourceDefinition Build returns:
// etcd's default --max-request-bytes (1.5 MiB), past which
// kube-apiserver cannot store it.
const MaxBytes = 1536 << 10

func versionNames(vs []Version) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Kind.Version
	}
	return strings.Join(names, ", ")
}

func version(v Version, storage string) (apiextv1.CustomResourceDefinitionVersion, error) {
	k := v.Kind
	cv := apiextv1.CustomResourceDefinitionVersion{
		Name:               k.Version,
		Served:             !k.Unserved,
		Storage:            k.Version == storage,
		Deprecated:         k.Deprecated,
		DeprecationWarning: k.DeprecationWarning,
		Schema:             &apiextv1.CustomResourceValidation{OpenAPIV3Schema: v.Schema},
	}
	if k.Status || k.Scale != nil {
		cv.Subresources = &apiextv1.CustomResourceSubresources{}
	}
	if k.Status {
		if _, ok := v.Schema.Properties["status"]; !ok {
			return cv, fmt.Errorf("+kubebuilder:subresource:status needs a status field")
		}
		cv.Subresources.Status = &apiextv1.CustomResourceSubresourceStatus{}
	}
	if sc := k.Scale; sc != nil {
		type check struct {
			path, typ string
			under     []string
		}
		checks := []check{
			{sc.SpecReplicasPath, "integer", []string{".spec."}},
			{sc.StatusReplicasPath, "integer", []string{".status."}},
		}
		if sc.LabelSelectorPath != "" {
			checks = append(checks, check{sc.LabelSelectorPath, "string", []string{".spec.", ".status."}})
		}
		for _, c := range checks {
			if !slices.ContainsFunc(c.under, func(u string) bool { return strings.HasPrefix(c.path, u) }) {
				return cv, fmt.Errorf("scale path %s must be under %s", c.path, strings.Join(c.under, " or "))
			}
			if t := typeAt(v.Schema, c.path); t != c.typ {
				return cv, fmt.Errorf("scale path %s: the schema has %q there, want a field of type %s", c.path, t, c.typ)
			}
		}
		scale := &apiextv1.CustomResourceSubresourceScale{SpecReplicasPath: sc.SpecReplicasPath, StatusReplicasPath: sc.StatusReplicasPath}
		if sc.LabelSelectorPath != "" {
			scale.LabelSelectorPath = &sc.LabelSelectorPath
		}
		cv.Subresources.Scale = scale
	}
	for _, c := range k.PrintColumns {
		cv.AdditionalPrinterColumns = append(cv.AdditionalPrinterColumns, apiextv1.CustomResourceColumnDefinition{
			Name: c.Name, Type: c.Type, Format: c.Format, Description: c.Description, Priority: c.Priority, JSONPath: c.JSONPath,
		})
	}
	for _, f := range k.SelectableFields {
		cv.SelectableFields = append(cv.SelectableFields, apiextv1.SelectableField{JSONPath: f})
	}
	return cv, nil
}

// typeAt returns the type of the schema node at a simple JSON path
// (.a.b), or "" when there is none.
func typeAt(s *apiextv1.JSONSchemaProps, path string) string {
	for _, name := range strings.Split(strings.TrimPrefix(path, "."), ".") {
		next, ok := s.Properties[name]
		if !ok {
			return ""
		}
		s = &next
	}
	return s.Type
}

// CompareVersions orders Kubernetes API versions by priority as
// kube-apiserver does: GA above beta above alpha, higher numbers first
// within each; other strings sort last, alphabetically. It returns a
// negative number when a sorts below b.
func CompareVersions(a, b string) int {
	ka, kb := versionKey(a), versionKey(b)
	for i := range ka {
		if ka[i] != kb[i] {
			if ka[i] < kb[i] {
				return -1
			}
			return 1
		}
	}
	return -strings.Compare(a, b)
}

// versionKey is [stage, major, minor] with stage 3 for GA, 2 beta,
// 1 alpha, 0 for other strings.
func versionKey(v string) [3]int {
	rest, ok := strings.CutPrefix(v, "v")
	if !ok {
		return [3]int{}
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	major, err := strconv.Atoi(rest[:i])
	if err != nil {
		return [3]int{}
	}
	rest = rest[i:]
	if rest == "" {
		return [3]int{3, major, 0}
	}
	for stage, prefix := range map[int]string{2: "beta", 1: "alpha"} {
		if n, ok := strings.CutPrefix(rest, prefix); ok {
			minor, err := strconv.Atoi(n)
			if err != nil {
				return [3]int{}
			}
			return [3]int{stage, major, minor}
		}
	}
	return [3]int{}
}

// YAML encodes a CustomResourceDefinition as a manifest: keys sorted,
// no status, no empty metadata, starting with header (a "#" comment
// line, or "" for none).
func YAML(c *apiextv1.CustomResourceDefinition, header string) ([]byte, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		return nil, err
	}
	delete(m, "status")
	if b, err = json.Marshal(m); err != nil {
		return nil, err
	}
	y, err := yaml.JSONToYAML(b)
	if err != nil {
		return nil, err
	}
	if header == "" {
		return y, nil
	}
	return append([]byte(header+"\n"), y...), nil
}
