package fake

import (
	"slices"
	"sync"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/managedfields"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

// ControllersMode is how the server does what kube-controller-manager's
// controllers (and a kubelet) do in a cluster: the garbage collector
// (dependents of deleted owners, foregroundDeletion and orphan
// finalizers), the namespace controller (emptying and removing a
// Terminating namespace), the service account controller (a "default"
// ServiceAccount in every namespace), the PVC and PV protection
// controllers, and a kubelet's removal of a Pod whose grace period is
// over.
type ControllersMode int

const (
	// ControllersBackground, the default, runs them after every write
	// through the API, before the write is answered: a client that sees
	// the answer sees what they did (dependents deleted, the namespace
	// emptied and gone, its ServiceAccount created). A Pod's grace
	// period ends on its own (a goroutine of the server waits for it).
	ControllersBackground ControllersMode = iota
	// ControllersManual runs them only when Server.CollectGarbage is
	// called, as on a cluster without kube-controller-manager:
	// namespaces stay Terminating, owners with a foregroundDeletion or
	// orphan finalizer stay, dependents of deleted owners stay, new
	// namespaces get no ServiceAccount.
	ControllersManual
)

// controllerManager is the manager kube-controller-manager's writes
// are recorded for.
const controllerManager = "kube-controller-manager"

// controllers is the state of the server's controllers.
type controllers struct {
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

// objRef names a stored object for the controllers.
type objRef struct {
	res *object.Resource
	key string
}

// CollectGarbage runs the controllers (see ControllersMode) until they
// have nothing left to do, whatever the mode, and returns when done.
// Pods whose grace period is not over by the server's clock stay.
func (s *Server) CollectGarbage() {
	s.ctrl.mu.Lock()
	defer s.ctrl.mu.Unlock()
	s.runControllersLocked()
}

// settle runs the controllers after a write through the API, in
// ControllersBackground mode.
func (s *Server) settle() {
	if s.opts.Controllers != ControllersBackground {
		return
	}
	s.ctrl.mu.Lock()
	defer s.ctrl.mu.Unlock()
	s.runControllersLocked()
}

// runControllersLocked runs passes until one changes nothing.
func (s *Server) runControllersLocked() {
	for range 1000 { // a bound against controllers fighting each other
		if !s.controllerPass() {
			break
		}
	}
	s.scheduleGraceTimer()
}

// controllerPass reads the changes since the last pass, acts on them and
// on the objects it watches, and reports whether it wrote anything.
func (s *Server) controllerPass() bool {
	c := &s.ctrl
	if c.deps == nil {
		c.deps, c.watch = map[string]map[objRef]bool{}, map[objRef]bool{}
	}
	changes, next, _, err := s.store.Since(c.cursor)
	check := map[objRef]bool{}
	if err != nil {
		// History was compacted past the cursor: start over from the
		// live objects.
		s.rebuildControllerIndex(check)
		_, next, _, _ = s.store.Since(1 << 62)
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
func (s *Server) indexChange(ch storage.Change, check map[objRef]bool) {
	c := &s.ctrl
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
func (s *Server) watchOwner(ow metav1.OwnerReference, ns string) {
	if r, key := s.ownerRef(ow, ns); r != nil {
		s.ctrl.watch[objRef{res: r, key: key}] = true
	}
}

func (s *Server) watchNamespace(ns string) {
	s.ctrl.watch[objRef{res: s.lookup("", "v1", "namespaces"), key: ns}] = true
}

// rebuildControllerIndex indexes every live object.
func (s *Server) rebuildControllerIndex(check map[objRef]bool) {
	c := &s.ctrl
	clear(c.deps)
	clear(c.watch)
	for _, r := range s.storedResources() {
		snap, _, _ := s.store.Snapshot(r, 0)
		for _, o := range snap {
			s.indexChange(storage.Change{Type: storage.Added, Obj: o}, check)
		}
	}
}

// storedResources returns one resource for each storage in use.
func (s *Server) storedResources() []*object.Resource {
	s.mu.RLock()
	defer s.mu.RUnlock()
	seen := map[*object.StorageKey]bool{}
	var out []*object.Resource
	for _, r := range s.resources {
		if !seen[r.Storage] {
			seen[r.Storage] = true
			out = append(out, r)
		}
	}
	return out
}

// ownerRef resolves an ownerReference of an object in namespace ns to
// the resource and key its owner would be stored at; nil when the kind
// is not served.
func (s *Server) ownerRef(ow metav1.OwnerReference, ns string) (*object.Resource, string) {
	group, version := object.SplitAPIVersion(ow.APIVersion)
	r := s.lookupKind(group, version, ow.Kind)
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

func (s *Server) ownerStateOf(ow metav1.OwnerReference, ns string) ownerState {
	r, key := s.ownerRef(ow, ns)
	if r == nil {
		return ownerUnknown
	}
	if o := s.store.Get(r, key); o != nil && o.UID == string(ow.UID) {
		return ownerPresent
	}
	return ownerAbsent
}

// checkDependent deletes an object whose owners are all gone, or drops
// the references to the owners that are gone while others remain, as
// the garbage collector does.
func (s *Server) checkDependent(ref objRef) bool {
	o := s.store.Get(ref.res, ref.key)
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
		_, aerr := s.deleteOne(ref.res, ref.key, o.Name, &request.DeleteOptions{PropagationPolicy: &policy}, false, nil)
		return aerr == nil
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
func (s *Server) reconcile(ref objRef) bool {
	o := s.store.Get(ref.res, ref.key)
	if o == nil {
		delete(s.ctrl.watch, ref)
		return false
	}
	k := ref.res.Kind
	if k.Group == "" && k.Resource == "namespaces" {
		return s.reconcileNamespace(ref, o)
	}
	if !o.Deleting {
		delete(s.ctrl.watch, ref)
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
		if s.now().Before(o.DeleteAt) {
			return false
		}
		// The kubelet has stopped the pod: it deletes it for good.
		zero := int64(0)
		_, aerr := s.deleteOne(ref.res, ref.key, o.Name, &request.DeleteOptions{GracePeriodSeconds: &zero}, false, nil)
		return aerr == nil
	}
	delete(s.ctrl.watch, ref)
	return false
}

// orphanDependents removes the references to a deleting owner from its
// dependents, then the owner's orphan finalizer.
func (s *Server) orphanDependents(ref objRef, o *object.Stored) bool {
	wrote := false
	for dep := range s.ctrl.deps[o.UID] {
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
func (s *Server) deleteDependents(ref objRef, o *object.Stored) bool {
	wrote, blocked := false, false
	for dep := range s.ctrl.deps[o.UID] {
		d := s.store.Get(dep.res, dep.key)
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
		if _, aerr := s.deleteOne(dep.res, dep.key, d.Name, &request.DeleteOptions{PropagationPolicy: &policy}, false, nil); aerr == nil {
			wrote = true
		}
	}
	if blocked {
		return wrote
	}
	return s.removeFinalizer(ref, object.FinalizerForeground) || wrote
}

// claimInUse reports whether a pod that has not finished mounts a claim.
func (s *Server) claimInUse(claim *object.Stored) bool {
	pods := s.lookup("", "v1", "pods")
	snap, _, _ := s.store.Snapshot(pods, 0)
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
func (s *Server) removeFinalizer(ref objRef, f string) bool {
	return s.controllerUpdate(ref, func(d *object.Draft) bool {
		n := len(d.Meta.Finalizers)
		d.Meta.Finalizers = slices.DeleteFunc(d.Meta.Finalizers, func(x string) bool { return x == f })
		return len(d.Meta.Finalizers) != n
	})
}

// controllerUpdate changes a stored object with change (which reports
// whether it changed anything), recording the write for
// kube-controller-manager.
func (s *Server) controllerUpdate(ref objRef, change func(*object.Draft) bool) bool {
	res := ref.res
	_, typ, err := s.store.Write(res, ref.key, false, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
		if cur == nil {
			return "", nil, nil
		}
		old, err := res.DraftOf(cur)
		if err != nil {
			return "", nil, err
		}
		next, err := res.DraftOf(cur)
		if err != nil {
			return "", nil, err
		}
		if !change(next) {
			return "", nil, nil
		}
		if err := managedfields.RecordUpdate(s.endpoint(res, ""), old, nil, next, controllerManager); err != nil {
			return "", nil, err
		}
		return s.commitChange(cur, old, next, rv)
	})
	return err == nil && typ != ""
}

// scheduleGraceTimer makes sure a goroutine ends the earliest pending
// Pod grace period on time, in ControllersBackground mode.
func (s *Server) scheduleGraceTimer() {
	c := &s.ctrl
	if s.opts.Controllers != ControllersBackground || c.timer != nil || s.ctx.Err() != nil {
		return
	}
	var next time.Time
	for ref := range c.watch {
		if o := s.store.Get(ref.res, ref.key); o != nil && o.Graceful() && (next.IsZero() || o.DeleteAt.Before(next)) {
			next = o.DeleteAt
		}
	}
	if next.IsZero() {
		return
	}
	wait := max(next.Sub(s.now()), 0) + 10*time.Millisecond
	c.timer = time.NewTimer(wait)
	done := make(chan struct{})
	c.timerDone = done
	s.bg.Add(1)
	go func(t *time.Timer) {
		defer s.bg.Done()
		defer close(done)
		select {
		case <-t.C:
		case <-s.ctx.Done():
			t.Stop()
			return
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		c.timer = nil
		s.runControllersLocked()
	}(c.timer)
}
