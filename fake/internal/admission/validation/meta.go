package validation

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// The metadata rules kube-apiserver v1.36 checks on built-in objects,
// with its messages: names per kind (DNS subdomains; DNS labels for
// Namespaces; RFC 1035 labels for Services; path segments for RBAC),
// generateName, label keys and values, annotation keys and size,
// ownerReferences and finalizer names.

const (
	dnsLabelFmt      = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dnsSubdomainFmt  = dnsLabelFmt + "(\\." + dnsLabelFmt + ")*"
	labelKeyFmt      = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelValueFmt    = "(" + labelKeyFmt + ")?"
	annotationsLimit = 256 << 10
)

// metaPatterns are the compiled patterns of the metadata rules.
type metaPatterns struct {
	label, subdomain, labelKey, labelValue *regexp.Regexp
}

func newPatterns() *metaPatterns {
	return &metaPatterns{
		label:      regexp.MustCompile("^" + dnsLabelFmt + "$"),
		subdomain:  regexp.MustCompile("^" + dnsSubdomainFmt + "$"),
		labelKey:   regexp.MustCompile("^" + labelKeyFmt + "$"),
		labelValue: regexp.MustCompile("^" + labelValueFmt + "$"),
	}
}

// regexError is kube-apiserver's message for a value that does not
// match a pattern, with examples.
func regexError(msg, re string, examples ...string) string {
	if len(examples) == 0 {
		return msg + " (regex used for validation is '" + re + "')"
	}
	msg += " (e.g. "
	for i, e := range examples {
		if i > 0 {
			msg += " or "
		}
		msg += "'" + e + "', "
	}
	return msg + "regex used for validation is '" + re + "')"
}

// unit is "characters" for the name rules and "bytes" for the label
// rules, as kube-apiserver's two validation packages word their limits.
func (p *metaPatterns) subdomainErrors(v, unit string) []string {
	var errs []string
	if len(v) > 253 {
		errs = append(errs, fmt.Sprintf("must be no more than 253 %s", unit))
	}
	if !p.subdomain.MatchString(v) {
		errs = append(errs, regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", dnsSubdomainFmt, "example.com"))
	}
	return errs
}

func (p *metaPatterns) labelErrors(v string) []string {
	var errs []string
	if len(v) > 63 {
		errs = append(errs, "must be no more than 63 characters")
	}
	if !p.label.MatchString(v) {
		if p.subdomain.MatchString(v) {
			errs = append(errs, "must not contain dots")
		} else {
			errs = append(errs, regexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character", dnsLabelFmt, "my-name", "123-abc"))
		}
	}
	return errs
}

func pathSegmentErrors(v string, prefix bool) []string {
	if !prefix && (v == "." || v == "..") {
		return []string{fmt.Sprintf("may not be '%s'", v)}
	}
	var errs []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(v, bad) {
			errs = append(errs, fmt.Sprintf("may not contain '%s'", bad))
		}
	}
	return errs
}

// labelKeyErrors checks a label key, annotation key or finalizer name:
// an optional DNS subdomain prefix and a name part.
func (p *metaPatterns) labelKeyErrors(v string) []string {
	var errs []string
	parts := strings.Split(v, "/")
	name := parts[0]
	switch len(parts) {
	case 1:
	case 2:
		prefix := parts[0]
		name = parts[1]
		if prefix == "" {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			for _, m := range p.subdomainErrors(prefix, "bytes") {
				errs = append(errs, "prefix part "+m)
			}
		}
	default:
		return []string{"a valid label key " + regexError("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", labelKeyFmt, "MyName", "my.name", "123-abc") +
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
	}
	switch {
	case name == "":
		errs = append(errs, "name part must be non-empty")
	case len(name) > 63:
		errs = append(errs, "name part must be no more than 63 bytes")
	}
	if !p.labelKey.MatchString(name) {
		errs = append(errs, "name part "+regexError("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", labelKeyFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

func (p *metaPatterns) labelValueErrors(v string) []string {
	var errs []string
	if len(v) > 63 {
		errs = append(errs, "must be no more than 63 bytes")
	}
	if !p.labelValue.MatchString(v) {
		errs = append(errs, regexError("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// nameErrors checks an object's name (or, with prefix, its
// generateName, whose trailing dash is allowed) by its kind's rule.
func (p *metaPatterns) nameErrors(r *object.Resource, name string, prefix bool) []string {
	if prefix && len(name) > 1 && strings.HasSuffix(name, "-") {
		name = name[:len(name)-2] + "a"
	}
	switch {
	case r.Kind.Group == "" && r.Kind.Resource == "namespaces":
		return p.labelErrors(name)
	case r.Kind.Group == "" && r.Kind.Resource == "services":
		// DNS labels, as RelaxedServiceNameValidation (on in v1.36)
		// allows: a leading digit is fine.
		return p.labelErrors(name)
	case r.Kind.Group == "rbac.authorization.k8s.io":
		return pathSegmentErrors(name, prefix)
	}
	return p.subdomainErrors(name, "characters")
}

func InvalidCause(field string, value any, msg string) apierr.Cause {
	return apierr.Cause{Type: "FieldValueInvalid", Field: field, Message: fmt.Sprintf("Invalid value: %s: %s", quoteValue(value), msg)}
}

// quoteValue writes a value as kube-apiserver's field errors do.
func quoteValue(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case int, int32, int64:
		return fmt.Sprint(x)
	}
	return fmt.Sprintf("%#v", v)
}

// kubeFinalizers are the finalizer names that need no domain.
func kubeFinalizer(f string) bool {
	return f == "kubernetes" || f == object.FinalizerOrphan || f == object.FinalizerForeground
}

// metadataCauses checks a built-in object's metadata on a create (old
// nil) or an update.
func (v *Validator) metadataCauses(r *object.Resource, m, old *metav1.ObjectMeta) []apierr.Cause {
	p := v.patterns
	var causes []apierr.Cause
	if old != nil {
		if old.DeletionTimestamp != nil {
			var added []string
			for _, f := range m.Finalizers {
				if !slices.Contains(old.Finalizers, f) && !slices.Contains(added, f) {
					added = append(added, f)
				}
			}
			if len(added) > 0 {
				slices.Sort(added)
				// Reported twice, as kube-apiserver checks it twice.
				c := request.ForbiddenCause("metadata.finalizers", fmt.Sprintf("no new finalizers can be added if the object is being deleted, found new finalizers %#v", added))
				causes = append(causes, c, c)
			}
		}
	} else if !r.IsCRD() {
		// (A CRD's name is checked by Name, before its other rules.)
		if m.GenerateName != "" {
			for _, msg := range p.nameErrors(r, m.GenerateName, true) {
				causes = append(causes, InvalidCause("metadata.generateName", m.GenerateName, msg))
			}
		}
		for _, msg := range p.nameErrors(r, m.Name, false) {
			causes = append(causes, InvalidCause("metadata.name", m.Name, msg))
		}
	}
	for _, k := range sortedKeys(m.Labels) {
		for _, msg := range p.labelKeyErrors(k) {
			causes = append(causes, InvalidCause("metadata.labels", k, msg))
		}
		for _, msg := range p.labelValueErrors(m.Labels[k]) {
			causes = append(causes, InvalidCause("metadata.labels", m.Labels[k], msg))
		}
	}
	size := 0
	for _, k := range sortedKeys(m.Annotations) {
		size += len(k) + len(m.Annotations[k])
		for _, msg := range p.labelKeyErrors(strings.ToLower(k)) {
			causes = append(causes, InvalidCause("metadata.annotations", k, msg))
		}
	}
	if size > annotationsLimit {
		causes = append(causes, apierr.Cause{Type: "FieldValueTooLong", Field: "metadata.annotations", Message: fmt.Sprintf("Too long: may not be more than %d bytes", annotationsLimit)})
	}
	causes = append(causes, ownerReferenceCauses(m.OwnerReferences)...)
	if old == nil {
		for _, f := range m.Finalizers {
			for _, msg := range p.labelKeyErrors(f) {
				causes = append(causes, InvalidCause("metadata.finalizers", f, msg))
			}
		}
		if slices.Contains(m.Finalizers, object.FinalizerOrphan) && slices.Contains(m.Finalizers, object.FinalizerForeground) {
			causes = append(causes, apierr.Cause{Type: "FieldValueInvalid", Field: "metadata.finalizers", Message: fmt.Sprintf("Invalid value: %#v: finalizer orphan and foregroundDeletion cannot be both set", m.Finalizers)})
		}
	}
	// A custom resource's unqualified finalizer (Argo CD's
	// "resources-finalizer.argocd.argoproj.io") is only a warning on
	// kube-apiserver (apiextensions-apiserver's validator).
	if !r.Custom && !strings.HasPrefix(r.Kind.Group, "rbac.") && !strings.HasPrefix(r.Kind.Group, "admissionregistration.") {
		for i, f := range m.Finalizers {
			if !strings.Contains(f, "/") && !kubeFinalizer(f) {
				causes = append(causes, InvalidCause(fmt.Sprintf("metadata.finalizers[%d]", i), f, "name is neither a standard finalizer name nor is it fully qualified"))
			}
		}
	}
	slices.SortStableFunc(causes, func(a, b apierr.Cause) int { return strings.Compare(a.Field, b.Field) })
	return causes
}

func ownerReferenceCauses(refs []metav1.OwnerReference) []apierr.Cause {
	var causes []apierr.Cause
	controller := ""
	for _, ref := range refs {
		_, version := object.SplitAPIVersion(ref.APIVersion)
		if version == "" {
			causes = append(causes, InvalidCause("metadata.ownerReferences.apiVersion", ref.APIVersion, "version must not be empty"))
		}
		if ref.Kind == "" {
			causes = append(causes, InvalidCause("metadata.ownerReferences.kind", ref.Kind, "must not be empty"))
		}
		if ref.Name == "" {
			causes = append(causes, InvalidCause("metadata.ownerReferences.name", ref.Name, "must not be empty"))
		}
		if ref.UID == "" {
			causes = append(causes, InvalidCause("metadata.ownerReferences.uid", string(ref.UID), "must not be empty"))
		}
		if ref.Controller != nil && *ref.Controller {
			name := ref.Kind + "/" + ref.Name
			if controller != "" {
				causes = append(causes, apierr.Cause{Type: "FieldValueInvalid", Field: "metadata.ownerReferences",
					Message: fmt.Sprintf(`Invalid value: "": Only one reference can have Controller set to true. Found "true" in references for %s and %s`, controller, name)})
			} else {
				controller = name
			}
		}
	}
	return causes
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// A name rule checks a name, or with prefix a generateName (whose
// trailing dash is masked), as kube-apiserver's name functions do.
type nameRule func(p *metaPatterns, name string, prefix bool) []string

func maskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-2] + "a"
	}
	return name
}

func subdomainName(p *metaPatterns, name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return p.subdomainErrors(name, "characters")
}

func labelName(p *metaPatterns, name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return p.labelErrors(name)
}

func pathSegmentName(_ *metaPatterns, name string, prefix bool) []string {
	return pathSegmentErrors(name, prefix)
}

// rbacName checks a generateName as a whole name, as RBAC's rule does.
func rbacName(_ *metaPatterns, name string, _ bool) []string {
	return pathSegmentErrors(name, false)
}

// objectMeta is kube-apiserver's ValidateObjectMeta; core adds the check
// of its core API group's version, that a finalizer without a domain is
// a standard one.
func (v *Validator) objectMeta(m *metav1.ObjectMeta, namespaced bool, name nameRule, core bool) errs {
	p := v.patterns
	var e errs
	if m.GenerateName != "" {
		for _, msg := range name(p, m.GenerateName, true) {
			e.invalid("metadata.generateName", m.GenerateName, msg)
		}
	}
	if m.Name == "" {
		e.required("metadata.name", "name or generateName is required")
	} else {
		for _, msg := range name(p, m.Name, false) {
			e.invalid("metadata.name", m.Name, msg)
		}
	}
	e.addAll(v.metaCommon(m, namespaced))
	for _, f := range m.Finalizers {
		for _, msg := range p.labelKeyErrors(f) {
			e.invalid("metadata.finalizers", f, msg)
		}
	}
	if slices.Contains(m.Finalizers, object.FinalizerOrphan) && slices.Contains(m.Finalizers, object.FinalizerForeground) {
		e.invalid("metadata.finalizers", m.Finalizers, "finalizer orphan and foregroundDeletion cannot be both set")
	}
	e.addAll(managedFieldsErrs(m.ManagedFields))
	if core {
		e.addAll(kubeFinalizerErrs(m.Finalizers))
	}
	return e
}

// metaCommon is what every version of the metadata checks checks: the
// namespace, the generation, labels, annotations and owner references.
func (v *Validator) metaCommon(m *metav1.ObjectMeta, namespaced bool) errs {
	p := v.patterns
	var e errs
	if namespaced {
		if m.Namespace == "" {
			e.required("metadata.namespace", "")
		} else {
			for _, msg := range labelName(p, m.Namespace, false) {
				e.invalid("metadata.namespace", m.Namespace, msg)
			}
		}
	} else if m.Namespace != "" {
		e.forbidden("metadata.namespace", "not allowed on this type")
	}
	if m.Generation < 0 {
		e.invalid("metadata.generation", m.Generation, "must be greater than or equal to 0")
	}
	e.addAll(v.labels(m.Labels, "metadata.labels"))
	e.addAll(v.annotations(m.Annotations, "metadata.annotations"))
	for _, c := range ownerReferenceCauses(m.OwnerReferences) {
		e.add(c)
	}
	return e
}

func (v *Validator) labels(labels map[string]string, path string) errs {
	p := v.patterns
	var e errs
	for _, k := range sortedKeys(labels) {
		for _, msg := range p.labelKeyErrors(k) {
			e.invalid(path, k, msg)
		}
		for _, msg := range p.labelValueErrors(labels[k]) {
			e.invalid(path, labels[k], msg)
		}
	}
	return e
}

func (v *Validator) annotations(ann map[string]string, path string) errs {
	var e errs
	size := 0
	for _, k := range sortedKeys(ann) {
		size += len(k) + len(ann[k])
		for _, msg := range v.patterns.labelKeyErrors(strings.ToLower(k)) {
			e.invalid(path, k, msg)
		}
	}
	if size > annotationsLimit {
		e.tooLong(path, annotationsLimit)
	}
	return e
}

// kubeFinalizerErrs are the core API group's finalizer checks.
func kubeFinalizerErrs(finalizers []string) errs {
	var e errs
	for i, f := range finalizers {
		if !strings.Contains(f, "/") && !kubeFinalizer(f) {
			e.invalid(index("metadata.finalizers", i), f, "name is neither a standard finalizer name nor is it fully qualified")
		}
	}
	return e
}

func managedFieldsErrs(entries []metav1.ManagedFieldsEntry) errs {
	var e errs
	for i, m := range entries {
		p := index("metadata.managedFields", i)
		if m.Operation != "Apply" && m.Operation != "Update" {
			e.invalid(child(p, "operation"), string(m.Operation), "must be `Apply` or `Update`")
		}
		if m.FieldsType != "" && m.FieldsType != "FieldsV1" {
			e.invalid(child(p, "fieldsType"), m.FieldsType, "must be `FieldsV1`")
		}
		if len(m.Manager) > 128 {
			e.tooLong(child(p, "manager"), 128)
		}
		if len(m.Subresource) > 256 {
			e.tooLong(child(p, "subresource"), 256)
		}
	}
	return e
}

// objectMetaUpdate is kube-apiserver's ValidateObjectMetaUpdate; core
// adds its core API group's finalizer check.
func (v *Validator) objectMetaUpdate(m, old *metav1.ObjectMeta, core bool) errs {
	var e errs
	if old.DeletionTimestamp != nil {
		var added []string
		for _, f := range m.Finalizers {
			if !slices.Contains(old.Finalizers, f) && !slices.Contains(added, f) {
				added = append(added, f)
			}
		}
		if len(added) > 0 {
			slices.Sort(added)
			e.forbidden("metadata.finalizers", fmt.Sprintf("no new finalizers can be added if the object is being deleted, found new finalizers %#v", added))
		}
	}
	if m.Generation < old.Generation {
		e.invalid("metadata.generation", m.Generation, "must not be decremented")
	}
	immutable := func(path string, same bool, value any) {
		if !same {
			e.invalid(path, value, "field is immutable")
		}
	}
	immutable("metadata.name", m.Name == old.Name, m.Name)
	immutable("metadata.namespace", m.Namespace == old.Namespace, m.Namespace)
	immutable("metadata.uid", m.UID == old.UID, string(m.UID))
	immutable("metadata.creationTimestamp", m.CreationTimestamp.Equal(&old.CreationTimestamp), m.CreationTimestamp)
	immutable("metadata.deletionTimestamp", timesEqual(m.DeletionTimestamp, old.DeletionTimestamp), timeValue(m.DeletionTimestamp))
	immutable("metadata.deletionGracePeriodSeconds", int64sEqual(m.DeletionGracePeriodSeconds, old.DeletionGracePeriodSeconds), m.DeletionGracePeriodSeconds)
	e.addAll(v.labels(m.Labels, "metadata.labels"))
	e.addAll(v.annotations(m.Annotations, "metadata.annotations"))
	for _, c := range ownerReferenceCauses(m.OwnerReferences) {
		e.add(c)
	}
	e.addAll(managedFieldsErrs(m.ManagedFields))
	if core {
		e.addAll(kubeFinalizerErrs(m.Finalizers))
	}
	return e
}

// genericMeta is what kube-apiserver checks of every built-in object's
// metadata besides its kind's rules: names that are path segments (on a
// create, only once the kind's rules pass; on an update, always).
func (v *Validator) genericMeta(m *metav1.ObjectMeta, namespaced bool) errs {
	return v.objectMeta(m, namespaced, pathSegmentName, false)
}

func timesEqual(a, b *metav1.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(b)
}

func int64sEqual(a, b *int64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// timeValue is a time as kube-apiserver's errors print one (JSON: a
// quoted RFC 3339 time, or null).
func timeValue(t *metav1.Time) any {
	if t == nil {
		return nil
	}
	return *t
}

// immutableMeta are the metadata an update may not change, for the kinds
// whose rules are not written here.
func immutableMeta(m, old *metav1.ObjectMeta) errs {
	var e errs
	if m.UID != old.UID {
		e.invalid("metadata.uid", string(m.UID), "field is immutable")
	}
	if !timesEqual(m.DeletionTimestamp, old.DeletionTimestamp) {
		e.invalid("metadata.deletionTimestamp", timeValue(m.DeletionTimestamp), "field is immutable")
	}
	if !int64sEqual(m.DeletionGracePeriodSeconds, old.DeletionGracePeriodSeconds) {
		e.invalid("metadata.deletionGracePeriodSeconds", m.DeletionGracePeriodSeconds, "field is immutable")
	}
	return e
}
