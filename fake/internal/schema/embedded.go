package schema

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// ValidateEmbedded checks the objects the schema marks as embedded
// resources (x-kubernetes-embedded-resource) as kube-apiserver does after
// the OpenAPI validation: each must carry apiVersion and kind, as
// non-empty strings, the kind a DNS-1035 label in any case.
func (s *Schema) ValidateEmbedded(obj map[string]any) []FieldError {
	var errs []FieldError
	s.embedded(obj, "", &errs)
	return errs
}

var dns1035 = regexp.MustCompile(`^[a-z]([-a-z0-9]*[a-z0-9])?$`)

func (s *Schema) embedded(x any, path string, errs *[]FieldError) {
	if s == nil {
		return
	}
	switch val := x.(type) {
	case map[string]any:
		if s.Embedded && path != "" {
			checkEmbedded(val, path, errs)
		}
		keys := make([]string, 0, len(val))
		for k := range val {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			sub := s.Properties[k]
			if sub == nil {
				sub = s.Additional
			}
			sub.embedded(val[k], child(path, k), errs)
		}
	case []any:
		for i, item := range val {
			s.Items.embedded(item, path+"["+strconv.Itoa(i)+"]", errs)
		}
	}
}

func checkEmbedded(x map[string]any, path string, errs *[]FieldError) {
	for _, f := range []string{"apiVersion", "kind"} {
		v, found := x[f]
		p := child(path, f)
		switch s, isString := v.(string); {
		case !found:
			*errs = append(*errs, FieldError{Type: Required, Field: field(p), BadValue: Omit})
		case !isString:
			*errs = append(*errs, FieldError{Type: Invalid, Field: field(p), BadValue: v, Detail: "must be a string"})
		case s == "":
			*errs = append(*errs, FieldError{Type: Invalid, Field: field(p), BadValue: s, Detail: "must not be empty"})
		case f == "kind" && len(s) > 63:
			*errs = append(*errs, FieldError{Type: Invalid, Field: field(p), BadValue: s, Detail: "may have mixed case, but should otherwise match: must be no more than 63 characters"})
		case f == "kind" && !dns1035.MatchString(strings.ToLower(s)):
			*errs = append(*errs, FieldError{Type: Invalid, Field: field(p), BadValue: s,
				Detail: "may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"})
		}
	}
}
