package validation

import (
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// PersistentVolumeClaims, as pkg/apis/core/validation checks them: the
// spec (access modes, storage request, classes, volume mode, data
// sources) on every write, and on an update a spec that may change only
// its storage request and, once bound, its volume name.

const betaStorageClassAnnotation = "volume.beta.kubernetes.io/storage-class"

var accessModes = []string{"ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"}

func pvcKinds(rules map[string]kindRule) {
	rules["/persistentvolumeclaims"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			p := d.Typed.(*corev1.PersistentVolumeClaim)
			e := v.objectMeta(d.Meta, true, subdomainName, true)
			e.addAll(v.pvcSpec(&p.Spec, "spec", false))
			return e
		},
		update: func(v *Validator, d, old *object.Draft) errs {
			n, o := d.Typed.(*corev1.PersistentVolumeClaim), old.Typed.(*corev1.PersistentVolumeClaim)
			e := v.objectMetaUpdate(d.Meta, old.Meta, true)
			e.addAll(v.objectMeta(d.Meta, true, subdomainName, true))
			e.addAll(v.pvcSpec(&n.Spec, "spec", invalidAPIGroupInDataSource(&o.Spec)))
			e.addAll(pvcSpecUpdate(n, o))
			return e
		},
	}
}

// pvcSpec is ValidatePersistentVolumeClaimSpec; keepAPIGroups lets an
// update keep a data source API group that was stored invalid.
func (v *Validator) pvcSpec(s *corev1.PersistentVolumeClaimSpec, path string, keepAPIGroups bool) errs {
	var e errs
	if len(s.AccessModes) == 0 {
		e.required(child(path, "accessModes"), "at least 1 access mode is required")
	}
	e.addAll(v.labelSelector(s.Selector, child(path, "selector"), false))
	rwop, other := false, false
	for _, m := range s.AccessModes {
		switch m {
		case "ReadWriteOncePod":
			rwop = true
		case "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce":
			other = true
		default:
			e.notSupported(child(path, "accessModes"), string(m), accessModes...)
		}
	}
	if rwop && other {
		e.forbidden(child(path, "accessModes"), "may not use ReadWriteOncePod with other access modes")
	}
	storagePath := key(child(path, "resources"), "storage")
	if q, ok := s.Resources.Requests["storage"]; !ok {
		e.required(storagePath, "")
	} else if q.Sign() <= 0 {
		e.invalid(storagePath, q.String(), "must be greater than zero")
	}
	if c := s.StorageClassName; c != nil && *c != "" {
		for _, msg := range v.patterns.subdomainErrors(*c, "characters") {
			e.invalid(child(path, "storageClassName"), *c, msg)
		}
	}
	if m := s.VolumeMode; m != nil && *m != "Block" && *m != "Filesystem" {
		e.notSupported(child(path, "volumeMode"), string(*m), "Block", "Filesystem")
	}
	if ds := s.DataSource; ds != nil {
		e.addAll(v.dataSource(ds.APIGroup, ds.Kind, ds.Name, child(path, "dataSource"), keepAPIGroups))
	}
	if r := s.DataSourceRef; r != nil {
		e.addAll(v.dataSource(r.APIGroup, r.Kind, r.Name, child(path, "dataSourceRef"), keepAPIGroups))
		if r.Namespace != nil && *r.Namespace != "" {
			for _, msg := range v.patterns.labelErrors(*r.Namespace) {
				e.invalid(child(child(path, "dataSourceRef"), "namespace"), *r.Namespace, msg)
			}
		}
	}
	if r := s.DataSourceRef; r != nil && r.Namespace != nil && *r.Namespace != "" {
		if s.DataSource != nil {
			e.invalid(path, fieldPathValue{}, "may not be specified when dataSourceRef.namespace is specified")
		}
	} else if ds := s.DataSource; ds != nil && r != nil {
		if !sameStringPtr(ds.APIGroup, r.APIGroup) || ds.Kind != r.Kind || ds.Name != r.Name {
			e.invalid(path, fieldPathValue{}, "must match dataSourceRef")
		}
	}
	if c := s.VolumeAttributesClassName; c != nil && *c != "" {
		for _, msg := range v.patterns.subdomainErrors(*c, "characters") {
			e.invalid(child(path, "volumeAttributesClassName"), *c, msg)
		}
	}
	return e
}

// dataSource is validateDataSource and validateDataSourceRef's shared
// checks: a name and kind, PersistentVolumeClaim in the core group, and
// a DNS subdomain group otherwise.
func (v *Validator) dataSource(apiGroup *string, kind, name, path string, keepAPIGroup bool) errs {
	var e errs
	if name == "" {
		e.required(child(path, "name"), "")
	}
	if kind == "" {
		e.required(child(path, "kind"), "")
	}
	group := ""
	if apiGroup != nil {
		group = *apiGroup
	}
	if group == "" && kind != "PersistentVolumeClaim" {
		e.invalid(path, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup")
	}
	if group != "" && !keepAPIGroup {
		for _, msg := range v.patterns.subdomainErrors(group, "characters") {
			e.invalid(child(path, "apiGroup"), group, msg)
		}
	}
	return e
}

// invalidAPIGroupInDataSource reports whether a stored claim has a data
// source group kube-apiserver would refuse now, which an update may
// keep (allowInvalidAPIGroupInDataSourceOrRef).
func invalidAPIGroupInDataSource(s *corev1.PersistentVolumeClaimSpec) bool {
	p := newPatterns()
	bad := func(g *string) bool { return g != nil && *g != "" && len(p.subdomainErrors(*g, "characters")) > 0 }
	return (s.DataSource != nil && bad(s.DataSource.APIGroup)) || (s.DataSourceRef != nil && bad(s.DataSourceRef.APIGroup))
}

// pvcSpecUpdate is ValidatePersistentVolumeClaimUpdate's own checks: a
// spec equal to the stored one but for a first volume name, a storage
// class set where there was none, and (bound) its storage request and
// attributes class; a storage request that does not shrink; an
// unchanged volume mode and storage class annotation.
func pvcSpecUpdate(n, o *corev1.PersistentVolumeClaim) errs {
	var e errs
	newSpec, oldSpec := internalPVCSpec(&n.Spec), internalPVCSpec(&o.Spec)
	if o.Spec.VolumeName == "" {
		oldSpec.VolumeName = newSpec.VolumeName
	}
	oldAnn, oldHas := o.Annotations[betaStorageClassAnnotation]
	newAnn, newHas := n.Annotations[betaStorageClassAnnotation]
	if oldHas && o.Spec.StorageClassName == nil && n.Spec.StorageClassName != nil && *n.Spec.StorageClassName == oldAnn && (!newHas || newAnn == oldAnn) {
		// The upgrade from the beta annotation to the field.
		newSpec.StorageClassName = nil
	} else {
		if newAnn != oldAnn {
			e.invalid(key("metadata.annotations", betaStorageClassAnnotation), newAnn, "field is immutable")
		}
		if n.Spec.StorageClassName != nil && o.Spec.StorageClassName == nil && (!oldHas || *n.Spec.StorageClassName == oldAnn) {
			newSpec.StorageClassName = oldSpec.StorageClassName
		}
	}
	if n.Status.Phase == "Bound" {
		if newSpec.Resources.Requests != nil {
			if q, ok := o.Spec.Resources.Requests["storage"]; ok {
				newSpec.Resources.Requests["storage"] = q.String()
			} else {
				newSpec.Resources.Requests["storage"] = "0"
			}
		}
		newSpec.VolumeAttributesClassName = oldSpec.VolumeAttributesClassName
	}
	if !sameJSON(newSpec, oldSpec) {
		e.forbidden("spec", "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n"+specDiff(oldSpec, newSpec))
	}
	oldSize, newSize := o.Spec.Resources.Requests["storage"], n.Spec.Resources.Requests["storage"]
	if newSize.Cmp(oldSize) < 0 {
		// RecoverVolumeExpansionFailure is on in v1.36: a claim may
		// shrink back down to its capacity.
		if newSize.Cmp(o.Status.Capacity["storage"]) <= 0 {
			e.forbidden("spec.resources.requests.storage", "field can not be less than status.capacity")
		}
	}
	if !sameStringPtr((*string)(n.Spec.VolumeMode), (*string)(o.Spec.VolumeMode)) {
		e.invalid("volumeMode", n.Spec.VolumeMode, "field is immutable")
	}
	return e
}

// pvcSpecInternal is a claim's spec as kube-apiserver's internal type
// prints as JSON (Go field names, every field present), for the diff of
// its immutability error.
type pvcSpecInternal struct {
	AccessModes               []corev1.PersistentVolumeAccessMode
	Selector                  *metav1.LabelSelector
	Resources                 resourcesInternal
	VolumeName                string
	StorageClassName          *string
	VolumeMode                *corev1.PersistentVolumeMode
	DataSource                *dataSourceInternal
	DataSourceRef             *dataSourceRefInternal
	VolumeAttributesClassName *string
}

type resourcesInternal struct {
	Limits   map[string]string
	Requests map[string]string
}

type dataSourceInternal struct {
	APIGroup *string
	Kind     string
	Name     string
}

type dataSourceRefInternal struct {
	APIGroup  *string
	Kind      string
	Name      string
	Namespace *string
}

func internalPVCSpec(s *corev1.PersistentVolumeClaimSpec) *pvcSpecInternal {
	out := &pvcSpecInternal{
		AccessModes:               s.AccessModes,
		Selector:                  s.Selector,
		Resources:                 resourcesInternal{Limits: quantityStrings(s.Resources.Limits), Requests: quantityStrings(s.Resources.Requests)},
		VolumeName:                s.VolumeName,
		StorageClassName:          s.StorageClassName,
		VolumeMode:                s.VolumeMode,
		VolumeAttributesClassName: s.VolumeAttributesClassName,
	}
	if ds := s.DataSource; ds != nil {
		out.DataSource = &dataSourceInternal{APIGroup: ds.APIGroup, Kind: ds.Kind, Name: ds.Name}
	}
	if r := s.DataSourceRef; r != nil {
		out.DataSourceRef = &dataSourceRefInternal{APIGroup: r.APIGroup, Kind: r.Kind, Name: r.Name, Namespace: r.Namespace}
	}
	return out
}

// quantityStrings is a resource list with each quantity in its
// canonical string (nil stays nil, as it prints null).
func quantityStrings(l corev1.ResourceList) map[string]string {
	if l == nil {
		return nil
	}
	out := make(map[string]string, len(l))
	for n, q := range l {
		out[string(n)] = q.String()
	}
	return out
}

func sameStringPtr(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// fieldPathValue is how kube-apiserver prints a field path given as an
// error's value: a struct of unexported fields, JSON {}.
type fieldPathValue struct{}
