package fake

import (
	"strings"
	"testing"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// A watch asked for as=PartialObjectMetadata carries only metadata, in
// its events and in its bookmarks, in protobuf and in JSON, in the
// meta.k8s.io version asked for (v1beta1 said v1 before).
func TestWatchAsPartialObjectMetadata(t *testing.T) {
	for _, accept := range []string{
		"application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
		"application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
		"application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1",
		"application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1",
	} {
		t.Run(accept, func(t *testing.T) {
			wantVersion := "meta.k8s.io/" + accept[strings.LastIndex(accept, "v=")+2:]
			_, c := newTestServer(t, Options{})
			c.mustDo(201, "POST", "/api/v1/namespaces/default/configmaps",
				`{"metadata":{"name":"a","labels":{"app":"web"}},"data":{"big":"value"}}`)
			_, dec := c.watch("sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan", accept)
			for _, wantType := range []string{"ADDED", "BOOKMARK"} {
				typ, err := dec.Next()
				if err != nil {
					t.Fatal(err)
				}
				if typ != wantType {
					t.Fatalf("event %s, want %s", typ, wantType)
				}
				var m metav1.PartialObjectMetadata
				if err := dec.Decode(&m); err != nil {
					t.Fatal(err)
				}
				if m.Kind != "PartialObjectMetadata" || m.APIVersion != wantVersion {
					t.Errorf("%s object is %s %s, want %s PartialObjectMetadata", typ, m.APIVersion, m.Kind, wantVersion)
				}
				if n := m.UnknownFields.Len(); n != 0 {
					t.Errorf("%s object carries %d bytes of fields beyond metadata", typ, n)
				}
				if typ == "ADDED" && (m.Name != "a" || m.Labels["app"] != "web") {
					t.Errorf("ADDED metadata = %+v", m.ObjectMeta)
				}
				if typ == "BOOKMARK" && m.Annotations["k8s.io/initial-events-end"] != "true" {
					t.Errorf("bookmark annotations = %v", m.Annotations)
				}
			}
		})
	}
}
