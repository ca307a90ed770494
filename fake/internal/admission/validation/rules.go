package validation

import (
	"fmt"
	"slices"
	"strings"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/fake/internal/schema"
)

// checkRules evaluates the x-kubernetes-validations rules of a schema
// node and those under it against x, the object's value there (old is
// its previous value on an update, present says there is one). Rules
// that use oldSelf are evaluated only on updates of values that existed
// before. A failed rule is reported as kube-apiserver reports it: its
// message (or messageExpression, or "failed rule: RULE") at the node's
// path, or at the rule's fieldPath under it, as its reason says, with
// the value of a scalar node; a rule that does not evaluate, with the
// node's type and the rule's name.
func checkRules(ev RuleEvaluator, s *schema.Schema, x, old any, present bool, path string) []schema.FieldError {
	if s == nil || x == nil {
		return nil
	}
	var errs []schema.FieldError
	for _, rule := range s.Rules {
		transition := strings.Contains(rule.Rule, "oldSelf")
		optional := rule.OptionalOldSelf != nil && *rule.OptionalOldSelf
		if transition && !present && !optional {
			continue
		}
		var oldSelf any
		switch {
		case transition && optional:
			oldSelf = ev.Optional(old, present)
		case transition:
			oldSelf = old
		}
		ok, err := ev.Check(rule.Rule, x, oldSelf)
		field := path
		if rule.FieldPath != "" {
			field = strings.TrimPrefix(path+rule.FieldPath, ".")
		}
		if field == "" {
			field = "<nil>"
		}
		if err != nil {
			// (the node's schema type stands for its value)
			errs = append(errs, schema.FieldError{Type: schema.Invalid, Field: field, BadValue: s.Type, Detail: err.Error() + " evaluating rule: " + ruleName(rule)})
			continue
		}
		if ok {
			continue
		}
		detail := rule.Message
		if rule.MessageExpression != "" {
			if m, err := ev.Message(rule.MessageExpression, x, oldSelf); err == nil && m != "" {
				detail = m
			}
		}
		if detail == "" {
			detail = "failed rule: " + ruleName(rule)
		}
		// A scalar's value is shown, an object's or a list's is not.
		value := x
		if s.Type == "object" || s.Type == "array" {
			value = schema.Omit
		}
		e := schema.FieldError{Type: schema.Invalid, Field: field, BadValue: value, Detail: detail}
		if rule.Reason != nil {
			switch *rule.Reason {
			case "FieldValueForbidden":
				e.Type = schema.Forbidden
			case "FieldValueRequired":
				e.Type = schema.Required
			case "FieldValueDuplicate":
				e.Type, e.Detail = schema.Duplicate, ""
			}
		}
		errs = append(errs, e)
	}
	switch v := x.(type) {
	case map[string]any:
		oldMap, _ := old.(map[string]any)
		for _, k := range sortedMapKeys(v) {
			sub := s.Properties[k]
			if sub == nil {
				sub = s.Additional
			}
			if sub == nil {
				continue
			}
			ov, ok := oldMap[k]
			errs = append(errs, checkRules(ev, sub, v[k], ov, present && ok, joinField(path, k))...)
		}
	case []any:
		oldList, _ := old.([]any)
		for i, item := range v {
			var ov any
			ok := false
			if s.ListType == "map" || s.ListType == "set" {
				ov, ok = correlate(s, item, oldList)
			}
			errs = append(errs, checkRules(ev, s.Items, item, ov, present && ok, fmt.Sprintf("%s[%d]", path, i))...)
		}
	}
	return errs
}

// ruleName is how an error names a rule: its message, or its text.
func ruleName(rule apiextensionsv1.ValidationRule) string {
	if m := strings.TrimSpace(rule.Message); m != "" {
		return m
	}
	return strings.TrimSpace(rule.Rule)
}

func joinField(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func sortedMapKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// correlate finds the previous version of a map or set list's item: the
// old item with the same keys, or the same value.
func correlate(s *schema.Schema, item any, old []any) (any, bool) {
	for _, o := range old {
		if s.ListType == "set" {
			if fmt.Sprint(o) == fmt.Sprint(item) {
				return o, true
			}
			continue
		}
		im, _ := item.(map[string]any)
		om, _ := o.(map[string]any)
		same := im != nil && om != nil
		for _, k := range s.ListMapKeys {
			if fmt.Sprint(im[k]) != fmt.Sprint(om[k]) {
				same = false
			}
		}
		if same {
			return o, true
		}
	}
	return nil, false
}
