package crdschema

import (
	"encoding/json"
	"fmt"
	"go/constant"
	"go/types"
	"slices"
	"strings"

	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/internal/codegen/markers"
)

// apply adds what the markers ms say to the node s.
func (g *Generator) apply(s *Schema, ms markers.Set, p pos) error {
	// The type first: enums and defaults are read for it.
	if m, ok := ms.Get(markers.Type); ok {
		t, err := markers.String(m.Value)
		if err != nil {
			return p.errorf("%v", err)
		}
		s.Type = t
		if t != "string" {
			s.Format = ""
		}
	}
	for _, m := range ms {
		if err := g.applyOne(s, m, p); err != nil {
			return p.errorf("%s: %v", m.Text, err)
		}
	}
	return nil
}

func (g *Generator) applyOne(s *Schema, m markers.Marker, p pos) error {
	name := m.Name
	if last, ok := strings.CutPrefix(name, markers.ItemsPrefix); ok {
		if s.Items == nil || s.Items.Schema == nil {
			return fmt.Errorf("items: markers are for lists")
		}
		return g.applyOne(s.Items.Schema, markers.Marker{Name: "kubebuilder:validation:" + last, Value: m.Value, Args: m.Args, Text: m.Text}, p)
	}
	var err error
	switch name {
	case markers.Minimum:
		s.Minimum, err = float(m.Value)
	case markers.Maximum:
		s.Maximum, err = float(m.Value)
	case markers.ExclusiveMin:
		s.ExclusiveMinimum, err = markers.Bool(m.Value)
	case markers.ExclusiveMax:
		s.ExclusiveMaximum, err = markers.Bool(m.Value)
	case markers.MultipleOf:
		s.MultipleOf, err = float(m.Value)
	case markers.MinLength:
		s.MinLength, err = integer(m.Value)
	case markers.MaxLength:
		s.MaxLength, err = integer(m.Value)
	case markers.MinItems:
		s.MinItems, err = integer(m.Value)
	case markers.MaxItems:
		s.MaxItems, err = integer(m.Value)
	case markers.MinProperties:
		s.MinProperties, err = integer(m.Value)
	case markers.MaxProperties:
		s.MaxProperties, err = integer(m.Value)
	case markers.UniqueItems:
		var unique bool
		if unique, err = markers.Bool(m.Value); err == nil && unique {
			err = fmt.Errorf("kube-apiserver refuses uniqueItems (its cost is quadratic): use +listType=set")
		}
	case markers.Pattern:
		s.Pattern, err = markers.String(m.Value)
	case markers.Format:
		s.Format, err = markers.String(m.Value)
	case markers.KBTitle:
		s.Title, err = markers.String(m.Value)
	case markers.KBEnum:
		var items []string
		if items, err = markers.List(m.Value); err == nil {
			s.Enum = nil
			for _, it := range items {
				v, err := markers.JSON(quoteFor(it, s.Type), s.Type)
				if err != nil {
					return err
				}
				s.Enum = append(s.Enum, apiextv1.JSON{Raw: v})
			}
		}
	case markers.KBDefault, markers.Default:
		var v json.RawMessage
		if v, err = markers.JSON(m.Value, s.Type); err == nil {
			s.Default = &apiextv1.JSON{Raw: v}
		}
	case markers.KBExample:
		var v json.RawMessage
		if v, err = markers.JSON(m.Value, s.Type); err == nil {
			s.Example = &apiextv1.JSON{Raw: v}
		}
	case markers.Nullable, markers.KBNullable:
		s.Nullable = true
	case markers.Preserve, markers.XPreserve:
		s.XPreserveUnknownFields = ptr(true)
	case markers.Embedded, markers.XEmbedded:
		s.XEmbeddedResource = true
		if s.Type == "" {
			s.Type = "object"
		}
	case markers.XIntOrStr:
		s.XIntOrString = true
		s.Type, s.Format = "", ""
		s.AnyOf = []Schema{{Type: "integer"}, {Type: "string"}}
	case markers.ListType:
		var t string
		if t, err = markers.String(m.Value); err == nil {
			if !slices.Contains([]string{"atomic", "set", "map"}, t) {
				return fmt.Errorf("listType %q is not atomic, set or map", t)
			}
			if s.Type != "array" {
				return fmt.Errorf("listType is for lists")
			}
			s.XListType = &t
		}
	case markers.ListKey:
		var k string
		if k, err = markers.String(m.Value); err == nil {
			s.XListMapKeys = append(s.XListMapKeys, k)
		}
	case markers.MapType:
		var t string
		if t, err = markers.String(m.Value); err == nil {
			if t != "atomic" && t != "granular" {
				return fmt.Errorf("mapType %q is not atomic or granular", t)
			}
			s.XMapType = &t
		}
	case markers.StructTyp:
		var t string
		if t, err = markers.String(m.Value); err == nil {
			if t != "atomic" && t != "granular" {
				return fmt.Errorf("structType %q is not atomic or granular", t)
			}
			s.XMapType = &t // structs and maps share the extension
		}
	case markers.XValidation:
		var r apiextv1.ValidationRule
		if r, err = validationRule(m); err == nil {
			s.XValidations = append(s.XValidations, r)
		}
	}
	return err
}

// quoteFor quotes an enum item for a string schema unless it is quoted.
func quoteFor(item, typ string) string {
	if typ == "string" && !strings.HasPrefix(item, `"`) {
		b, _ := json.Marshal(item)
		return string(b)
	}
	return item
}

func float(v string) (*float64, error) {
	f, err := markers.Float(v)
	return &f, err
}

func integer(v string) (*int64, error) {
	n, err := markers.Int(v)
	return &n, err
}

func validationRule(m markers.Marker) (apiextv1.ValidationRule, error) {
	var r apiextv1.ValidationRule
	for _, a := range m.Args {
		v, err := markers.String(a.Value)
		if err != nil {
			return r, err
		}
		switch strings.ToLower(a.Name) {
		case "rule":
			r.Rule = v
		case "message":
			r.Message = v
		case "messageexpression":
			r.MessageExpression = v
		case "reason":
			reason := apiextv1.FieldValueErrorReason(v)
			r.Reason = &reason
		case "fieldpath":
			r.FieldPath = v
		case "optionaloldself":
			b, err := markers.Bool(v)
			if err != nil {
				return r, err
			}
			r.OptionalOldSelf = &b
		default:
			return r, fmt.Errorf("XValidation has no argument %q (rule, message, messageExpression, reason, fieldPath, optionalOldSelf)", a.Name)
		}
	}
	if r.Rule == "" {
		return r, fmt.Errorf("XValidation needs a rule")
	}
	return r, nil
}

// enumOfConstants sets the enum of a named type marked +enum to the
// values of the constants of that type in its package, sorted.
func enumOfConstants(s *Schema, tn *types.TypeName) error {
	scope := tn.Pkg().Scope()
	var values []string
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if !ok || !types.Identical(c.Type(), tn.Type()) {
			continue
		}
		values = append(values, c.Val().ExactString())
		if c.Val().Kind() == constant.String {
			values[len(values)-1] = constant.StringVal(c.Val())
		}
	}
	if len(values) == 0 {
		return fmt.Errorf("type %s is marked +enum but has no constants", tn.Name())
	}
	slices.Sort(values)
	values = slices.Compact(values)
	s.Enum = nil
	for _, v := range values {
		raw, err := markers.JSON(quoteFor(v, s.Type), s.Type)
		if err != nil {
			return err
		}
		s.Enum = append(s.Enum, apiextv1.JSON{Raw: raw})
	}
	return nil
}
