package fake

import "github.com/kubewire/kubewire/fake/internal/object"

// kube-apiserver tears a CRD's storage down once the CRD is gone, which
// ends every open watch of its resources (cleanly, after their DELETED
// events); later requests find no resource and get 404. Without that,
// an informer of a deleted kind would stay synced on a watch that never
// ends. (kube-apiserver waits a second for in-flight requests first;
// the fake ends them at once.)

// storageEnds returns a channel closed when the storage of r's CRD is
// torn down, nil for a built-in resource, and a closed channel when r's
// CRD is no longer served.
func (s *Server) storageEnds(r *object.Resource) <-chan struct{} {
	if r.CRD == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if ch := s.crdStorageEnds[r.CRD.Name]; ch != nil {
		return ch
	}
	gone := make(chan struct{})
	close(gone)
	return gone
}

// openStorageLocked notes that a CRD's storage serves requests.
func (s *Server) openStorageLocked(name string) {
	if s.crdStorageEnds == nil {
		s.crdStorageEnds = map[string]chan struct{}{}
	}
	if s.crdStorageEnds[name] == nil {
		s.crdStorageEnds[name] = make(chan struct{})
	}
}

// tearDownStorageLocked ends the open watches of a CRD's resources.
func (s *Server) tearDownStorageLocked(name string) {
	if ch := s.crdStorageEnds[name]; ch != nil {
		close(ch)
		delete(s.crdStorageEnds, name)
	}
}
