package controllers

import (
	"context"
	"slices"
	"sync"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

// controllerManager is the manager kube-controller-manager's writes
// are recorded for.
const controllerManager = "kube-controller-manager"

// Manager does what kube-controller-manager's controllers (and a
// kubelet) do, acting on the server's storage through its cluster.
type Manager struct {
	Store      *storage.Store
	Cluster    Cluster
	Background bool            // act after every write; end grace periods on time
	Context    context.Context // the server's: ends the grace period goroutine
	Goroutines *sync.WaitGroup // the server's goroutines

	mu     sync.Mutex // serializes passes
	cursor int        // log position of the first change not seen
	// deps maps an owner's uid to the objects naming it.
	deps map[string]map[objRef]bool
	// watch are the objects every pass looks at until they are gone or
	// settled: deleting owners, terminating namespaces and pods,
	// protected claims and volumes.
	watch map[objRef]bool
	// timer is set while a goroutine waits for the next Pod grace
	// period to end.
	timer     *time.Timer
	timerDone chan struct{}
}

// Cluster is how the controllers write: as the API server's
// own writes, without admission.
type Cluster interface {
	Lookup(group, version, resource string) *object.Resource
	LookupKind(group, version, kind string) *object.Resource
	// StoredResources returns one resource for each storage in use.
	StoredResources() []*object.Resource
	// Delete deletes one object as a delete with opts does; it reports
	// whether it deleted or marked it.
	Delete(res *object.Resource, key, name string, opts *request.DeleteOptions) bool
	// Create creates d in namespace ns.
	Create(d *object.Draft, ns string) bool
	// Write changes a stored object with change (which reports whether
	// it changed anything), recorded for manager.
	Write(res *object.Resource, key string, change func(*object.Draft) bool, manager string) bool
	Now() time.Time
}

// Collect runs passes until the controllers have nothing left to do.
func (s *Manager) Collect() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runControllersLocked()
}

// Settle runs the controllers after a write through the API, in the
// background mode.
func (s *Manager) Settle() {
	if !s.Background {
		return
	}
	s.Collect()
}

// objRef names a stored object for the controllers.
type objRef struct {
	res *object.Resource
	key string
}

// runControllersLocked runs passes until one changes nothing.
func (s *Manager) runControllersLocked() {
	for range 1000 { // a bound against controllers fighting each other
		if !s.controllerPass() {
			break
		}
	}
	s.scheduleGraceTimer()
}

// controllerPass reads the changes since the last pass, acts on them and
// on the objects it watches, and reports whether it wrote anything.
func (s *Manager) controllerPass() bool {
	c := s
	if c.deps == nil {
		c.deps, c.watch = map[string]map[objRef]bool{}, map[objRef]bool{}
	}
	changes, next, _, err := s.Store.Since(c.cursor)
	check := map[objRef]bool{}
	if err != nil {
		// History was compacted past the cursor: start over from the
		// live objects.
		s.rebuildControllerIndex(check)
		_, next, _, _ = s.Store.Since(1 << 62)
		changes = nil
	}
	c.cursor = next
	for _, ch := range changes {
		s.indexChange(ch, check)
	}
	wrote := false
	for ref := range check {
		wrote = s.checkDependent(ref) || wrote
	}
	for _, ref := range slices.Collect(mapKeys(c.watch)) {
		wrote = s.reconcile(ref) || wrote
	}
	return wrote
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// indexChange updates the owner index for one change and notes what
// it makes worth a look: dependents of a deleted object, an object
// naming owners, an object to watch.
func (s *Manager) indexChange(ch storage.Change, check map[objRef]bool) {
	c := s
	o := ch.Obj
	ref := objRef{res: o.Res, key: o.Key}
	if ch.Prev != nil {
		for _, ow := range ch.Prev.Owners {
			if m := c.deps[string(ow.UID)]; m != nil {
				delete(m, ref)
				if len(m) == 0 {
					delete(c.deps, string(ow.UID))
				}
			}
		}
	}
	if ch.Type == storage.Deleted {
		delete(c.watch, ref)
		for dep := range c.deps[o.UID] {
			check[dep] = true
		}
		// Owners deleted in the foreground wait for their dependents.
		for _, ow := range o.Owners {
			s.watchOwner(ow, o.Namespace)
		}
		if o.Namespace != "" {
			s.watchNamespace(o.Namespace)
		}
		return
	}
	for _, ow := range o.Owners {
		m := c.deps[string(ow.UID)]
		if m == nil {
			m = map[objRef]bool{}
			c.deps[string(ow.UID)] = m
		}
		m[ref] = true
	}
	if len(o.Owners) > 0 {
		check[ref] = true
	}
	if o.Deleting || o.Res.Kind.Group == "" && o.Res.Kind.Resource == "namespaces" && ch.Type == storage.Added {
		c.watch[ref] = true
	}
}

// watchOwner watches the owner an ownerReference names, if stored.
func (s *Manager) watchOwner(ow metav1.OwnerReference, ns string) {
	if r, key := s.ownerRef(ow, ns); r != nil {
		s.watch[objRef{res: r, key: key}] = true
	}
}

func (s *Manager) watchNamespace(ns string) {
	s.watch[objRef{res: s.Cluster.Lookup("", "v1", "namespaces"), key: ns}] = true
}

// rebuildControllerIndex indexes every live object.
func (s *Manager) rebuildControllerIndex(check map[objRef]bool) {
	c := s
	clear(c.deps)
	clear(c.watch)
	for _, r := range s.Cluster.StoredResources() {
		snap, _, _ := s.Store.Snapshot(r, 0)
		for _, o := range snap {
			s.indexChange(storage.Change{Type: storage.Added, Obj: o}, check)
		}
	}
}

// ownerRef resolves an ownerReference of an object in namespace ns to
// the resource and key its owner would be stored at; nil when the kind
// is not served.
func (s *Manager) ownerRef(ow metav1.OwnerReference, ns string) (*object.Resource, string) {
	group, version := object.SplitAPIVersion(ow.APIVersion)
	r := s.Cluster.LookupKind(group, version, ow.Kind)
	if r == nil {
		return nil, ""
	}
	if !r.Kind.Namespaced {
		ns = ""
	}
	return r, object.Key(ns, ow.Name)
}

// ownerState is what became of an object's owner.
type ownerState int

const (
	ownerPresent ownerState = iota
	ownerAbsent
	ownerUnknown // its kind is not served: left alone, as the garbage collector cannot tell
)

func (s *Manager) ownerStateOf(ow metav1.OwnerReference, ns string) ownerState {
	r, key := s.ownerRef(ow, ns)
	if r == nil {
		return ownerUnknown
	}
	if o := s.Store.Get(r, key); o != nil && o.UID == string(ow.UID) {
		return ownerPresent
	}
	return ownerAbsent
}

// checkDependent deletes an object whose owners are all gone, or drops
// the references to the owners that are gone while others remain, as
// the garbage collector does.
func (s *Manager) checkDependent(ref objRef) bool {
	o := s.Store.Get(ref.res, ref.key)
	if o == nil || o.Deleting || len(o.Owners) == 0 {
		return false
	}
	var absent []string
	for _, ow := range o.Owners {
		switch s.ownerStateOf(ow, o.Namespace) {
		case ownerAbsent:
			absent = append(absent, string(ow.UID))
		}
	}
	switch {
	case len(absent) == 0:
		return false
	case len(absent) == len(o.Owners):
		policy := request.PropagateBackground
		return s.Cluster.Delete(ref.res, ref.key, o.Name, &request.DeleteOptions{PropagationPolicy: &policy})
	}
	return s.controllerUpdate(ref, func(d *object.Draft) bool {
		n := len(d.Meta.OwnerReferences)
		d.Meta.OwnerReferences = slices.DeleteFunc(d.Meta.OwnerReferences, func(ow metav1.OwnerReference) bool { return slices.Contains(absent, string(ow.UID)) })
		return len(d.Meta.OwnerReferences) != n
	})
}

// reconcile acts on a watched object: a deleting owner's garbage
// collector finalizers, a namespace's life, protected claims and
// volumes, a pod whose grace period is over. It stops watching what
// needs nothing more.
func (s *Manager) reconcile(ref objRef) bool {
	o := s.Store.Get(ref.res, ref.key)
	if o == nil {
		delete(s.watch, ref)
		return false
	}
	k := ref.res.Kind
	if k.Group == "" && k.Resource == "namespaces" {
		return s.reconcileNamespace(ref, o)
	}
	if !o.Deleting {
		delete(s.watch, ref)
		return false
	}
	switch {
	case slices.Contains(o.Finalizers, object.FinalizerOrphan):
		return s.orphanDependents(ref, o)
	case slices.Contains(o.Finalizers, object.FinalizerForeground):
		return s.deleteDependents(ref, o)
	case k.Group == "" && k.Resource == "persistentvolumeclaims" && slices.Contains(o.Finalizers, "kubernetes.io/pvc-protection"):
		if s.claimInUse(o) {
			return false
		}
		return s.removeFinalizer(ref, "kubernetes.io/pvc-protection")
	case k.Group == "" && k.Resource == "persistentvolumes" && slices.Contains(o.Finalizers, "kubernetes.io/pv-protection"):
		return s.removeFinalizer(ref, "kubernetes.io/pv-protection")
	case o.Graceful():
		if s.Cluster.Now().Before(o.DeleteAt) {
			return false
		}
		// The kubelet has stopped the pod: it deletes it for good.
		zero := int64(0)
		return s.Cluster.Delete(ref.res, ref.key, o.Name, &request.DeleteOptions{GracePeriodSeconds: &zero})
	}
	delete(s.watch, ref)
	return false
}

// orphanDependents removes the references to a deleting owner from its
// dependents, then the owner's orphan finalizer.
func (s *Manager) orphanDependents(ref objRef, o *object.Stored) bool {
	wrote := false
	for dep := range s.deps[o.UID] {
		wrote = s.controllerUpdate(dep, func(d *object.Draft) bool {
			n := len(d.Meta.OwnerReferences)
			d.Meta.OwnerReferences = slices.DeleteFunc(d.Meta.OwnerReferences, func(ow metav1.OwnerReference) bool { return string(ow.UID) == o.UID })
			return len(d.Meta.OwnerReferences) != n
		}) || wrote
	}
	return s.removeFinalizer(ref, object.FinalizerOrphan) || wrote
}

// deleteDependents deletes the dependents of an owner deleted in the
// foreground (in the foreground themselves when they block their
// owner's deletion) and removes its foregroundDeletion finalizer once
// no dependent that blocks it is left.
func (s *Manager) deleteDependents(ref objRef, o *object.Stored) bool {
	wrote, blocked := false, false
	for dep := range s.deps[o.UID] {
		d := s.Store.Get(dep.res, dep.key)
		if d == nil {
			continue
		}
		block := slices.ContainsFunc(d.Owners, func(ow metav1.OwnerReference) bool {
			return string(ow.UID) == o.UID && ow.BlockOwnerDeletion != nil && *ow.BlockOwnerDeletion
		})
		blocked = blocked || block
		if d.Deleting {
			continue
		}
		policy := request.PropagateBackground
		if block {
			policy = request.PropagateForeground
		}
		if s.Cluster.Delete(dep.res, dep.key, d.Name, &request.DeleteOptions{PropagationPolicy: &policy}) {
			wrote = true
		}
	}
	if blocked {
		return wrote
	}
	return s.removeFinalizer(ref, object.FinalizerForeground) || wrote
}

// claimInUse reports whether a pod that has not finished mounts a claim.
func (s *Manager) claimInUse(claim *object.Stored) bool {
	pods := s.Cluster.Lookup("", "v1", "pods")
	snap, _, _ := s.Store.Snapshot(pods, 0)
	lo, hi := storage.NamespaceRange(snap, claim.Namespace)
	for _, o := range snap[lo:hi] {
		d, err := pods.DraftOf(o)
		if err != nil {
			continue
		}
		p := d.Typed.(*corev1.Pod)
		if p.Status.Phase == "Succeeded" || p.Status.Phase == "Failed" {
			continue
		}
		for _, v := range p.Spec.Volumes {
			if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == claim.Name {
				return true
			}
		}
	}
	return false
}

// removeFinalizer removes one finalizer from an object; an object being
// deleted whose last finalizer goes is gone.
func (s *Manager) removeFinalizer(ref objRef, f string) bool {
	return s.controllerUpdate(ref, func(d *object.Draft) bool {
		n := len(d.Meta.Finalizers)
		d.Meta.Finalizers = slices.DeleteFunc(d.Meta.Finalizers, func(x string) bool { return x == f })
		return len(d.Meta.Finalizers) != n
	})
}

// scheduleGraceTimer makes sure a goroutine ends the earliest pending
// Pod grace period on time, in ControllersBackground mode.
func (s *Manager) scheduleGraceTimer() {
	c := s
	if !s.Background || c.timer != nil || s.Context.Err() != nil {
		return
	}
	var next time.Time
	for ref := range c.watch {
		if o := s.Store.Get(ref.res, ref.key); o != nil && o.Graceful() && (next.IsZero() || o.DeleteAt.Before(next)) {
			next = o.DeleteAt
		}
	}
	if next.IsZero() {
		return
	}
	wait := max(next.Sub(s.Cluster.Now()), 0) + 10*time.Millisecond
	c.timer = time.NewTimer(wait)
	done := make(chan struct{})
	c.timerDone = done
	s.Goroutines.Add(1)
	go func(t *time.Timer) {
		defer s.Goroutines.Done()
		defer close(done)
		select {
		case <-t.C:
		case <-s.Context.Done():
			t.Stop()
			return
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		c.timer = nil
		s.runControllersLocked()
	}(c.timer)
}

// controllerUpdate changes a stored object with change (which reports
// whether it changed anything), recording the write for
// kube-controller-manager.
func (s *Manager) controllerUpdate(ref objRef, change func(*object.Draft) bool) bool {
	return s.Cluster.Write(ref.res, ref.key, change, controllerManager)
}
