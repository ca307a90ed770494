package fake

import (
	"slices"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/managedfields"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

// write commits a write to the store and then does what kube-apiserver's
// controllers would do about it (syncCRD for CRDs). The follow-up runs
// after the store's lock is released, before the request is answered.
func (s *Server) write(r *object.Resource, key string, dry bool, fn storage.WriteFunc) (*object.Stored, string, error) {
	o, typ, err := s.store.Write(r, key, dry, fn)
	if err == nil && !dry && typ != "" && r.IsCRD() && o != nil {
		s.syncCRD(o.Name)
	}
	if err == nil && !dry && typ != "" {
		s.webhooks.observe(r)
	}
	return o, typ, err
}

// syncCRD brings the served custom resources in line with a CRD: serves
// its versions and establishes it, or, when it is being deleted, deletes
// its objects and lets it go.
func (s *Server) syncCRD(name string) {
	crdRes := s.lookup("apiextensions.k8s.io", "v1", "customresourcedefinitions")
	o := s.store.Get(crdRes, name)
	if o == nil {
		s.unserveCRD(name)
		return
	}
	d, err := crdRes.DraftOf(o)
	if err != nil {
		return
	}
	crd := d.Typed.(*apiextensionsv1.CustomResourceDefinition)
	if crd.DeletionTimestamp != nil {
		s.finalizeCRD(crdRes, crd)
		return
	}
	if names, reason, msg := s.namesConflict(crdRes, crd); reason != "" {
		// kube-apiserver serves nothing under names it has not accepted.
		s.refuseNames(crdRes, name, names, reason, msg)
		if !crdEstablished(crd) {
			s.unserveCRD(name)
		}
		return
	}
	rs, err := s.customResources(crd)
	if err != nil {
		return // refused when the CRD was written
	}
	if !s.serveCRD(name, rs) {
		return
	}
	s.establishCRD(crdRes, name)
}

// crdEstablished reports whether crd has the condition Established=True.
func crdEstablished(crd *apiextensionsv1.CustomResourceDefinition) bool {
	for _, c := range crd.Status.Conditions {
		if c.Type == "Established" {
			return c.Status == "True"
		}
	}
	return false
}

// refuseNames writes NamesAccepted=False (and, for a CRD never
// established, Established=False) with the names it may have, as
// kube-apiserver's naming controller does.
func (s *Server) refuseNames(crdRes *object.Resource, name string, names apiextensionsv1.CustomResourceDefinitionNames, reason, msg string) {
	s.writeCRDStatus(crdRes, name, func(crd *apiextensionsv1.CustomResourceDefinition, now metav1.Time) {
		crd.Status.AcceptedNames = names
		setCRDCondition(crd, apiextensionsv1.CustomResourceDefinitionCondition{Type: "NamesAccepted", Status: "False", Reason: reason, Message: msg}, now)
		if !crdEstablished(crd) {
			setCRDCondition(crd, apiextensionsv1.CustomResourceDefinitionCondition{Type: "Established", Status: "False", Reason: "NotAccepted", Message: "not all names are accepted"}, now)
		}
	})
}

// writeCRDStatus changes a CRD's status as kube-apiserver's CRD
// controllers do: a status write of theirs, recorded in managedFields.
func (s *Server) writeCRDStatus(crdRes *object.Resource, name string, change func(*apiextensionsv1.CustomResourceDefinition, metav1.Time)) {
	_, _, _ = s.store.Write(crdRes, name, false, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
		if cur == nil || cur.Deleting {
			return "", nil, nil
		}
		old, err := crdRes.DraftOf(cur)
		if err != nil {
			return "", nil, err
		}
		next, err := crdRes.DraftOf(cur)
		if err != nil {
			return "", nil, err
		}
		change(next.Typed.(*apiextensionsv1.CustomResourceDefinition), s.nowTime())
		if err := managedfields.RecordUpdate(s.endpoint(crdRes, "status"), old, nil, next, crdController); err != nil {
			return "", nil, err
		}
		return s.commitChange(cur, old, next, rv)
	})
}

// serveCRD registers a CRD's resources in place of those it served
// before. It reports false, serving nothing, when another CRD or a
// built-in kind already serves one of the names.
func (s *Server) serveCRD(name string, rs []*object.Resource) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range rs {
		if cur := s.resources[r.Kind.Group+"/"+r.Kind.Version+"/"+r.Kind.Resource]; cur != nil && (cur.CRD == nil || cur.CRD.Name != name) {
			return false
		}
	}
	s.unserveLocked(name)
	for _, r := range rs {
		s.resources[r.Kind.Group+"/"+r.Kind.Version+"/"+r.Kind.Resource] = r
		s.store.StartWatchCacheOf(r)
	}
	s.openStorageLocked(name)
	return true
}

// unserveCRD stops serving a CRD's resources and tears down their
// storage.
func (s *Server) unserveCRD(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unserveLocked(name)
	s.tearDownStorageLocked(name)
}

func (s *Server) unserveLocked(name string) {
	for k, r := range s.resources {
		if r.CRD != nil && r.CRD.Name == name {
			delete(s.resources, k)
		}
	}
}

// servedBy returns one resource a CRD serves, or nil.
func (s *Server) servedBy(name string) *object.Resource {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, r := range s.resources {
		if r.CRD != nil && r.CRD.Name == name {
			return r
		}
	}
	return nil
}

// crdController is the manager kube-apiserver's CRD controllers write as.
const crdController = "kube-apiserver"

// establishCRD accepts a CRD's names and marks it Established, as
// kube-apiserver's naming and establishing controllers do, unless it
// already is.
func (s *Server) establishCRD(crdRes *object.Resource, name string) {
	s.writeCRDStatus(crdRes, name, func(crd *apiextensionsv1.CustomResourceDefinition, now metav1.Time) {
		crd.Status.AcceptedNames = crd.Spec.Names
		setCRDCondition(crd, apiextensionsv1.CustomResourceDefinitionCondition{Type: "NamesAccepted", Status: "True", Reason: "NoConflicts", Message: "no conflicts found"}, now)
		setCRDCondition(crd, apiextensionsv1.CustomResourceDefinitionCondition{Type: "Established", Status: "True", Reason: "InitialNamesAccepted", Message: "the initial names have been accepted"}, now)
	})
}

// setCRDCondition sets a condition, keeping its transition time when its
// status does not change.
func setCRDCondition(crd *apiextensionsv1.CustomResourceDefinition, c apiextensionsv1.CustomResourceDefinitionCondition, now metav1.Time) {
	c.LastTransitionTime = now
	for i, cur := range crd.Status.Conditions {
		if cur.Type == c.Type {
			if cur.Status == c.Status {
				c.LastTransitionTime = cur.LastTransitionTime
			}
			crd.Status.Conditions[i] = c
			return
		}
	}
	crd.Status.Conditions = append(crd.Status.Conditions, c)
}

// markCRDDeleted is what deleting a CRD does first: it sets the deletion
// timestamp, the cleanup finalizer and the Terminating condition.
func (s *Server) markCRDDeleted(d *object.Draft) {
	crd := d.Typed.(*apiextensionsv1.CustomResourceDefinition)
	now := s.nowTime()
	if crd.DeletionTimestamp == nil {
		crd.DeletionTimestamp = &now
	}
	if !slices.Contains(crd.Finalizers, crdCleanupFinalizer) {
		crd.Finalizers = append(crd.Finalizers, crdCleanupFinalizer)
	}
	setCRDCondition(crd, apiextensionsv1.CustomResourceDefinitionCondition{Type: "Terminating", Status: "True", Reason: "InstanceDeletionPending",
		Message: "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon"}, now)
}

// finalizeCRD deletes every object of a CRD being deleted, stops serving
// it and removes its cleanup finalizer, as kube-apiserver's finalizer
// controller does.
func (s *Server) finalizeCRD(crdRes *object.Resource, crd *apiextensionsv1.CustomResourceDefinition) {
	if !slices.Contains(crd.Finalizers, crdCleanupFinalizer) {
		return
	}
	if r := s.servedBy(crd.Name); r != nil {
		snap, _, _ := s.store.Snapshot(r, 0)
		for _, o := range snap {
			_, _, _ = s.store.Write(r, o.Key, false, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
				if cur == nil {
					return "", nil, nil
				}
				d, err := r.DraftOf(cur)
				if err != nil {
					return "", nil, err
				}
				next, err := d.Seal(rv)
				return storage.Deleted, next, err
			})
		}
	}
	s.unserveCRD(crd.Name)
	_, _, _ = s.store.Write(crdRes, crd.Name, false, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
		if cur == nil {
			return "", nil, nil
		}
		old, err := crdRes.DraftOf(cur)
		if err != nil {
			return "", nil, err
		}
		next, err := crdRes.DraftOf(cur)
		if err != nil {
			return "", nil, err
		}
		next.Meta.Finalizers = slices.DeleteFunc(next.Meta.Finalizers, func(f string) bool { return f == crdCleanupFinalizer })
		return s.commitChange(cur, old, next, rv)
	})
}

// addCRDVersion adds the (only) version of add to the stored CRD of the
// same name, served and not stored.
func (s *Server) addCRDVersion(crdRes *object.Resource, add *apiextensionsv1.CustomResourceDefinition) error {
	_, _, err := s.write(crdRes, add.Name, false, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
		if cur == nil {
			return "", nil, apierr.NotFound(crdRes.Kind, add.Name)
		}
		old, err := crdRes.DraftOf(cur)
		if err != nil {
			return "", nil, err
		}
		next, err := crdRes.DraftOf(cur)
		if err != nil {
			return "", nil, err
		}
		crd := next.Typed.(*apiextensionsv1.CustomResourceDefinition)
		v := add.Spec.Versions[0]
		v.Storage = false
		crd.Spec.Versions = append(crd.Spec.Versions, v)
		if aerr := s.admission.Validate(next, old, nil); aerr != nil {
			return "", nil, aerr
		}
		return s.commitChange(cur, old, next, rv)
	})
	return err
}
