package validation

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kubewire/kubewire/fake/internal/schema"
)

// checkRules evaluates the x-kubernetes-validations rules of a schema
// node and those under it against x, the object's value there (old is
// its previous value on an update, present says there is one). Rules
// that use oldSelf are evaluated only on updates of values that existed
// before. A failed rule is reported as kube-apiserver reports it: its
// message (or messageExpression, or "failed rule: RULE") at the node's
// path, or at the rule's fieldPath under it, as its reason says.
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
			errs = append(errs, schema.FieldError{Type: schema.Invalid, Field: field, BadValue: schema.Omit, Detail: err.Error()})
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
			detail = "failed rule: " + strings.TrimSpace(rule.Rule)
		}
		e := schema.FieldError{Type: schema.Invalid, Field: field, BadValue: schema.Omit, Detail: detail}
		if rule.Reason != nil {
			switch *rule.Reason {
			case "FieldValueForbidden":
				e.Type = schema.Forbidden
			case "FieldValueRequired":
				e.Type = schema.Required
			case "FieldValueDuplicate":
				e.Type, e.BadValue, e.Detail = schema.Duplicate, x, ""
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
