package request

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/kubewire/kubewire/fake/internal/apierr"
)

// WriteOptions are the query options of a create, update or patch.
type WriteOptions struct {
	Out       Output
	DryRun    bool
	Level     Validation
	Manager   string // ?fieldManager=, else the User-Agent's program name
	UserAgent string // the User-Agent
	Force     bool   // apply patches only
}

// Kinds of write options, as 422 answers name them.
const (
	CreateOptions = "CreateOptions"
	UpdateOptions = "UpdateOptions"
	PatchOptions  = "PatchOptions"
)

// ParseWriteOptions reads and validates a write's query options the way
// kube-apiserver does: a value that does not parse is a 400, an invalid
// one a 422 naming the options kind (CreateOptions, UpdateOptions or
// PatchOptions). apply says the write is a server-side apply.
func ParseWriteOptions(req *http.Request, kind string, apply bool) (WriteOptions, *apierr.Error) {
	q := req.URL.Query()
	o := WriteOptions{Manager: WriteManager(req), UserAgent: req.UserAgent()}
	var causes []apierr.Cause
	force, hasForce := q["force"]
	if hasForce && len(force) > 0 {
		b, err := strconv.ParseBool(force[0])
		if err != nil {
			return o, apierr.BadRequest(fmt.Sprintf("strconv.ParseBool: parsing %q: invalid syntax", force[0]))
		}
		o.Force = b
	}
	fieldManager := q.Get("fieldManager")
	if kind == PatchOptions {
		if apply && fieldManager == "" {
			causes = append(causes, apierr.Cause{Type: "FieldValueRequired", Field: "fieldManager", Message: "Required value: is required for apply patch"})
		}
		if !apply && hasForce {
			causes = append(causes, ForbiddenCause("force", "may not be specified for non-apply patch"))
		}
	}
	causes = append(causes, fieldManagerCauses(fieldManager)...)
	if vals := q["dryRun"]; len(vals) > 0 {
		for _, v := range vals {
			if v != "All" {
				b, _ := json.Marshal(vals)
				causes = append(causes, apierr.Cause{Type: "FieldValueNotSupported", Field: "dryRun", Message: fmt.Sprintf("Unsupported value: %s: supported values: \"All\"", b)})
				break
			}
		}
		o.DryRun = true
	}
	switch v := q.Get("fieldValidation"); v {
	case "", "Warn":
		o.Level = ValidationWarn
	case "Ignore":
		o.Level = validationIgnore
	case "Strict":
		o.Level = ValidationStrict
	default:
		causes = append(causes, apierr.Cause{Type: "FieldValueNotSupported", Field: "fieldValidation",
			Message: fmt.Sprintf(`Unsupported value: %q: supported values: "", "Ignore", "Strict", "Warn"`, v)})
	}
	if len(causes) > 0 {
		return o, apierr.Invalid("meta.k8s.io", kind, "", causes...)
	}
	return o, nil
}
