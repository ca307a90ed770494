package object_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// The protobuf bookmarks kube-apiserver v1.36.3 sent (testdata/bookmarks,
// the end-of-initial-events bookmark of a watch-list in
// application/vnd.kubernetes.protobuf, recorded with curl) are an empty
// object of the watched kind's type holding the bookmark's metadata:
// every field the type always writes is there (empty strings, zero
// numbers, empty messages), a Deployment's replicas 0. BookmarkTyped
// encodes to the same bytes; metadata alone, what the fake's watch sent
// before, does not.
func TestBookmarkTypedProtobuf(t *testing.T) {
	files, err := filepath.Glob("testdata/bookmarks/*.pb")
	if err != nil || len(files) < 8 {
		t.Fatalf("fixtures: %v %v", files, err)
	}
	metaOnlyDiffers := 0 // fixtures metadata alone does not match
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			recorded, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			u, err := codec.DecodeEnvelope(recorded)
			if err != nil {
				t.Fatal(err)
			}
			if u.Kind == "PartialObjectMetadata" {
				var pm metav1.PartialObjectMetadata
				if err := pm.Unmarshal(u.Raw); err != nil {
					t.Fatal(err)
				}
				if got := object.PartialBookmarkProto(pm.ObjectMeta); !bytes.Equal(got, u.Raw) {
					t.Errorf("PartialObjectMetadata bookmark:\n got %x\nwant %x", got, u.Raw)
				}
				return
			}
			group, version, _ := strings.Cut(u.APIVersion, "/")
			if version == "" {
				group, version = "", group
			}
			k, ok := registry.ByKind(group, version, u.Kind)
			if !ok {
				t.Fatalf("no kind %s %s", u.APIVersion, u.Kind)
			}
			res, ok := object.Builtin(k, &fieldpath.Builtins{})
			if !ok {
				t.Fatalf("no resource for %s", u.Kind)
			}
			sent := res.NewTyped()
			if err := sent.Unmarshal(u.Raw); err != nil {
				t.Fatal(err)
			}
			meta := metav1.ObjectMeta{ResourceVersion: sent.GetObjectMeta().ResourceVersion, Annotations: sent.GetObjectMeta().Annotations}
			if meta.Annotations["k8s.io/initial-events-end"] != "true" {
				t.Fatalf("fixture's annotations %v", meta.Annotations)
			}
			got, err := res.BookmarkTyped(meta).Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, u.Raw) {
				t.Errorf("%s bookmark:\n got %x\nwant %x", u.Kind, got, u.Raw)
			}
			if !bytes.Equal(object.PartialBookmarkProto(meta), u.Raw) {
				metaOnlyDiffers++
			}
		})
	}
	// Only a ConfigMap's bookmark is metadata alone (a Secret's has its
	// empty type).
	if metaOnlyDiffers != len(files)-2 {
		t.Errorf("metadata alone differs from %d of %d typed fixtures, want all but the ConfigMap's", metaOnlyDiffers, len(files)-1)
	}
}
