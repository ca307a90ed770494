package fake

import (
	"time"

	"github.com/kubewire/kubewire/fake/internal/managedfields"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
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

// CollectGarbage runs the controllers (see ControllersMode) until they
// have nothing left to do, whatever the mode, and returns when done.
// Pods whose grace period is not over by the server's clock stay.
func (s *Server) CollectGarbage() { s.ctrl.Collect() }

// settle runs the controllers after a write through the API, in
// ControllersBackground mode.
func (s *Server) settle() { s.ctrl.Settle() }

// storedResources returns one resource for each storage in use (the
// storage version's, for a kind stored once under several versions).
func (s *Server) storedResources() []*object.Resource {
	s.mu.RLock()
	defer s.mu.RUnlock()
	seen := map[*object.StorageKey]bool{}
	var out []*object.Resource
	for _, r := range s.resources {
		if !seen[r.Storage] {
			seen[r.Storage] = true
			out = append(out, r.StorageResource())
		}
	}
	return out
}

// controllerHost is the server as its controllers see it.
type controllerHost struct{ s *Server }

func (h controllerHost) Lookup(group, version, resource string) *object.Resource {
	return h.s.lookup(group, version, resource)
}

func (h controllerHost) LookupKind(group, version, kind string) *object.Resource {
	return h.s.lookupKind(group, version, kind)
}

func (h controllerHost) StoredResources() []*object.Resource { return h.s.storedResources() }

func (h controllerHost) Now() time.Time { return h.s.now() }

func (h controllerHost) Delete(res *object.Resource, key, name string, opts *request.DeleteOptions) bool {
	return h.s.controllerDelete(res, key, name, opts)
}

func (h controllerHost) Create(d *object.Draft, ns string) bool { return h.s.controllerCreate(d, ns) }

func (h controllerHost) Write(res *object.Resource, key string, change func(*object.Draft) bool, manager string) bool {
	return h.s.controllerWrite(res, key, change, manager)
}

func (s *Server) controllerDelete(res *object.Resource, key, name string, opts *request.DeleteOptions) bool {
	_, aerr := s.deleteOne(res, key, name, opts, false, nil)
	return aerr == nil
}

func (s *Server) controllerCreate(d *object.Draft, ns string) bool {
	_, aerr := s.create(d, ns, false, nil)
	return aerr == nil
}

// controllerWrite changes a stored object with change (which reports
// whether it changed anything), recording the write for manager.
func (s *Server) controllerWrite(res *object.Resource, key string, change func(*object.Draft) bool, manager string) bool {
	_, typ, err := s.store.Write(res, key, false, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
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
		if err := managedfields.RecordUpdate(s.endpoint(res, ""), old, nil, next, manager); err != nil {
			return "", nil, err
		}
		return s.commitChange(cur, old, next, rv)
	})
	return err == nil && typ != ""
}

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
