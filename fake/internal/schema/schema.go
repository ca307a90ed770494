package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
)

// Schema is one node of a custom resource's structural schema, converted
// from apiextensions/v1 JSONSchemaProps once so that validating, pruning
// and defaulting objects needs no further parsing. A Schema is immutable
// and safe for concurrent use.
type Schema struct {
	Type     string // "object", "array", "string", "integer", "number", "boolean" or "" (any)
	Format   string
	Nullable bool

	Properties map[string]*Schema
	propNames  []string // sorted
	Required   []string
	// Additional is the schema of keys that are not properties
	// (additionalProperties); AdditionalForbidden is additionalProperties:
	// false.
	Additional          *Schema
	AdditionalForbidden bool
	Items               *Schema

	PreserveUnknown bool // x-kubernetes-preserve-unknown-fields
	Embedded        bool // x-kubernetes-embedded-resource
	IntOrString     bool // x-kubernetes-int-or-string
	ListType        string
	ListMapKeys     []string
	MapType         string

	DefaultValue any // decoded JSON; nil when there is none
	HasDefault   bool
	Enum         []any

	Maximum, Minimum                   *float64
	ExclusiveMaximum, ExclusiveMinimum bool
	MultipleOf                         *float64
	MaxLength, MinLength               *int64
	Pattern                            *regexp.Regexp
	patternText                        string
	MaxItems, MinItems                 *int64
	UniqueItems                        bool
	MaxProperties, MinProperties       *int64

	AllOf, AnyOf, OneOf []*Schema
	Not                 *Schema

	// Rules are the node's x-kubernetes-validations (CEL).
	Rules []apiextensionsv1.ValidationRule
}

// New converts a JSONSchemaProps tree. A nil props is a schema that
// accepts and keeps anything.
func New(props *apiextensionsv1.JSONSchemaProps) (*Schema, error) {
	if props == nil {
		return &Schema{PreserveUnknown: true}, nil
	}
	return convert(props)
}

func convert(p *apiextensionsv1.JSONSchemaProps) (*Schema, error) {
	s := &Schema{
		Type: p.Type, Format: p.Format, Nullable: p.Nullable, Required: p.Required,
		Embedded: p.XEmbeddedResource, IntOrString: p.XIntOrString, ListMapKeys: p.XListMapKeys,
		Maximum: p.Maximum, Minimum: p.Minimum, ExclusiveMaximum: p.ExclusiveMaximum, ExclusiveMinimum: p.ExclusiveMinimum,
		MultipleOf: p.MultipleOf, MaxLength: p.MaxLength, MinLength: p.MinLength,
		MaxItems: p.MaxItems, MinItems: p.MinItems, UniqueItems: p.UniqueItems,
		MaxProperties: p.MaxProperties, MinProperties: p.MinProperties, Rules: p.XValidations,
	}
	if p.XPreserveUnknownFields != nil {
		s.PreserveUnknown = *p.XPreserveUnknownFields
	}
	if p.XListType != nil {
		s.ListType = *p.XListType
	}
	if p.XMapType != nil {
		s.MapType = *p.XMapType
	}
	if p.Pattern != "" {
		re, err := regexp.Compile(p.Pattern)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", p.Pattern, err)
		}
		s.Pattern, s.patternText = re, p.Pattern
	}
	if p.Default != nil && len(p.Default.Raw) > 0 {
		v, err := decodeJSON(p.Default.Raw)
		if err != nil {
			return nil, fmt.Errorf("default: %w", err)
		}
		s.DefaultValue, s.HasDefault = v, true
	}
	for _, e := range p.Enum {
		v, err := decodeJSON(e.Raw)
		if err != nil {
			return nil, fmt.Errorf("enum: %w", err)
		}
		s.Enum = append(s.Enum, v)
	}
	if len(p.Properties) > 0 {
		s.Properties = make(map[string]*Schema, len(p.Properties))
		for name, sub := range p.Properties {
			c, err := convert(&sub)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			s.Properties[name] = c
			s.propNames = append(s.propNames, name)
		}
		slices.Sort(s.propNames)
	}
	if a := p.AdditionalProperties; a != nil {
		switch {
		case a.Schema != nil:
			c, err := convert(a.Schema)
			if err != nil {
				return nil, err
			}
			s.Additional = c
		case !a.Allows:
			s.AdditionalForbidden = true
		}
	}
	if it := p.Items; it != nil && it.Schema != nil {
		c, err := convert(it.Schema)
		if err != nil {
			return nil, err
		}
		s.Items = c
	}
	for _, group := range []struct {
		in  []apiextensionsv1.JSONSchemaProps
		out *[]*Schema
	}{{p.AllOf, &s.AllOf}, {p.AnyOf, &s.AnyOf}, {p.OneOf, &s.OneOf}} {
		for i := range group.in {
			c, err := convert(&group.in[i])
			if err != nil {
				return nil, err
			}
			*group.out = append(*group.out, c)
		}
	}
	if p.Not != nil {
		c, err := convert(p.Not)
		if err != nil {
			return nil, err
		}
		s.Not = c
	}
	return s, nil
}

// decodeJSON decodes a JSON value with integers as int64 and other
// numbers as float64, as kube-apiserver decodes custom resources.
func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return numbers(v), nil
}

func numbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			x[k] = numbers(val)
		}
	case []any:
		for i := range x {
			x[i] = numbers(x[i])
		}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

// property returns the schema of an object's key: its property, else the
// additionalProperties schema, else nil.
func (s *Schema) property(key string) (*Schema, bool) {
	if s == nil {
		return nil, false
	}
	if p, ok := s.Properties[key]; ok {
		return p, true
	}
	if s.Additional != nil {
		return s.Additional, true
	}
	return nil, false
}

// HasRules reports whether the schema or any node under it has
// x-kubernetes-validations rules.
func (s *Schema) HasRules() bool {
	if s == nil {
		return false
	}
	if len(s.Rules) > 0 {
		return true
	}
	for _, p := range s.Properties {
		if p.HasRules() {
			return true
		}
	}
	return s.Additional.HasRules() || s.Items.HasRules()
}
