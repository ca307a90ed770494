package strategy

import corev1 "github.com/kubewire/kubewire/api/core/v1"

// preparePVC is what kube-apiserver's claim strategy does to a spec
// before validation (old is nil on a create): a dataSourceRef naming
// another namespace is dropped (CrossNamespaceVolumeDataSource is off
// in v1.36) unless the stored claim has one; a new dataSource that is
// neither a claim nor a VolumeSnapshot, with no dataSourceRef, is
// dropped; then whichever of dataSource and dataSourceRef is missing
// is copied from the other.
func preparePVC(s, old *corev1.PersistentVolumeClaimSpec) {
	if r := s.DataSourceRef; r != nil && r.Namespace != nil && *r.Namespace != "" && (old == nil || old.DataSourceRef == nil) {
		s.DataSourceRef = nil
	}
	if (old == nil || old.DataSource == nil && old.DataSourceRef == nil) && s.DataSourceRef == nil && !claimOrSnapshot(s.DataSource) {
		s.DataSource = nil
	}
	normalizeDataSources(s)
}

func claimOrSnapshot(ds *corev1.TypedLocalObjectReference) bool {
	if ds == nil {
		return false
	}
	group := ""
	if ds.APIGroup != nil {
		group = *ds.APIGroup
	}
	return ds.Kind == "PersistentVolumeClaim" && group == "" || ds.Kind == "VolumeSnapshot" && group == "snapshot.storage.k8s.io"
}

func normalizeDataSources(s *corev1.PersistentVolumeClaimSpec) {
	copyGroup := func(g *string) *string {
		if g == nil {
			return nil
		}
		c := *g
		return &c
	}
	switch ds, r := s.DataSource, s.DataSourceRef; {
	case ds != nil && r == nil:
		s.DataSourceRef = &corev1.TypedObjectReference{APIGroup: copyGroup(ds.APIGroup), Kind: ds.Kind, Name: ds.Name}
	case r != nil && ds == nil && (r.Namespace == nil || *r.Namespace == ""):
		s.DataSource = &corev1.TypedLocalObjectReference{APIGroup: copyGroup(r.APIGroup), Kind: r.Kind, Name: r.Name}
	}
}

// keepSecretNames keeps only the name of each secret a ServiceAccount
// references, as kube-apiserver's ServiceAccount strategy does.
func keepSecretNames(sa *corev1.ServiceAccount) {
	for i, s := range sa.Secrets {
		sa.Secrets[i] = corev1.ObjectReference{Name: s.Name}
	}
}
