package fake

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

// snapshotKind names the document Snapshot writes.
const (
	snapshotAPIVersion = "fake.kubewire.dev/v1"
	snapshotKind       = "ServerSnapshot"
)

// snapshot is the document Snapshot writes and LoadSnapshot reads.
type snapshot struct {
	APIVersion      string            `json:"apiVersion"`
	Kind            string            `json:"kind"`
	ResourceVersion string            `json:"resourceVersion"`
	Items           []json.RawMessage `json:"items"`
}

// Snapshot writes every object the server stores, at one resource
// version, to w as one JSON document (CustomResourceDefinitions first,
// then Namespaces, then the rest by kind, namespace and name), for
// LoadSnapshot: a program can save its server's state and load it into
// the next one. Objects are written as the server serves them in JSON,
// with their uids, timestamps, managedFields and statuses. Snapshot is
// safe to call while the server serves requests; it does not block
// writes for long (the objects are shared, not copied).
func (s *Server) Snapshot(w io.Writer) error {
	s.store.Mu.RLock()
	rv := s.store.Rv
	var objs []*object.Stored
	for _, c := range s.store.Colls {
		for _, o := range c.Items {
			objs = append(objs, o)
		}
	}
	s.store.Mu.RUnlock()
	rank := func(o *object.Stored) int {
		switch {
		case o.Res.IsCRD():
			return 0
		case o.Res.Kind.Group == "" && o.Res.Kind.Resource == "namespaces":
			return 1
		}
		return 2
	}
	slices.SortFunc(objs, func(a, b *object.Stored) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		if c := strings.Compare(a.Res.Kind.APIVersion()+"/"+a.Res.Kind.Kind, b.Res.Kind.APIVersion()+"/"+b.Res.Kind.Kind); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `{"apiVersion":%q,"kind":%q,"resourceVersion":%q,"items":[`, snapshotAPIVersion, snapshotKind, strconv.FormatUint(rv, 10))
	for i, o := range objs {
		if i > 0 {
			_ = bw.WriteByte(',')
		}
		_, _ = bw.Write(o.CompleteJSON())
		_ = bw.WriteByte('\n')
	}
	_, _ = bw.WriteString("]}\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("fake: write snapshot: %w", err)
	}
	return nil
}

// LoadSnapshot stores the objects of a document Snapshot wrote, as they
// were (uids, timestamps, managedFields and statuses kept; no defaults,
// admission or validation), with new resource versions: an object the
// server already has (the default namespaces) is replaced, the others
// are created, and CustomResourceDefinitions are served. Watches see
// each object arrive. It stops at the first object it cannot store and
// names it.
func (s *Server) LoadSnapshot(r io.Reader) error {
	var snap snapshot
	if err := json.NewDecoder(r).Decode(&snap); err != nil {
		return fmt.Errorf("fake: read snapshot: %w", err)
	}
	if snap.APIVersion != snapshotAPIVersion || snap.Kind != snapshotKind {
		return fmt.Errorf("fake: read snapshot: not a %s %s but %q %q", snapshotAPIVersion, snapshotKind, snap.APIVersion, snap.Kind)
	}
	for i, item := range snap.Items {
		if err := s.loadObject(item); err != nil {
			return fmt.Errorf("fake: load snapshot item %d: %w", i, err)
		}
	}
	return nil
}

func (s *Server) loadObject(item json.RawMessage) error {
	var tm struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := json.Unmarshal(item, &tm); err != nil {
		return err
	}
	group, version := object.SplitAPIVersion(tm.APIVersion)
	r := s.lookupKind(group, version, tm.Kind)
	if r == nil {
		return fmt.Errorf("kind %s %s is not served", tm.APIVersion, tm.Kind)
	}
	d, _, err := r.DecodeJSON(item)
	if err != nil {
		return err
	}
	if svc, ok := d.Typed.(*corev1.Service); ok {
		for _, ip := range svc.Spec.ClusterIPs {
			s.admission.Strategy.Reserve(ip, 0)
		}
		for _, p := range svc.Spec.Ports {
			s.admission.Strategy.Reserve("", p.NodePort)
		}
	}
	key := object.Key(d.Meta.Namespace, d.Meta.Name)
	_, _, err = s.write(r, key, false, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
		next, err := d.Seal(rv)
		if err != nil {
			return "", nil, err
		}
		if cur != nil {
			return storage.Modified, next, nil
		}
		return storage.Added, next, nil
	})
	return err
}
