package validation

import (
	"fmt"
	"regexp"

	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
)

var dnsSubdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)

// Name checks that metadata.name is set, and a CRD's as an RFC 1123
// subdomain.
func Name(d *object.Draft) *apierr.Error {
	name := d.Meta.Name
	k := d.Res.Kind
	if name == "" {
		return apierr.Invalid(k.Group, k.Kind, name, apierr.Cause{Type: "FieldValueRequired", Field: "metadata.name", Message: "Required value: name or generateName is required"})
	}
	if !d.Res.IsCRD() {
		// checked by Validate with the kind's rule, beside the other
		// metadata and, for a custom resource, its schema's errors
		return nil
	}
	if len(name) > 253 || !dnsSubdomain.MatchString(name) {
		msg := fmt.Sprintf("Invalid value: %q: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')", name)
		return apierr.Invalid(k.Group, k.Kind, name, apierr.Cause{Type: "FieldValueInvalid", Field: "metadata.name", Message: msg})
	}
	return nil
}
