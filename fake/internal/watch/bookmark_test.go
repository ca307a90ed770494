package watch_test

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/storage"
	"github.com/kubewire/kubewire/fake/internal/watch"
	"google.golang.org/protobuf/encoding/protowire"
)

// The end-of-initial-events bookmark of a protobuf watch-list is, byte
// for byte, the one kube-apiserver v1.36.3 sent (object's
// testdata/bookmarks, recorded with curl): an empty object of the
// watched kind's type, or the metadata alone as PartialObjectMetadata.
// The store is put at the recorded resourceVersion so that the whole
// envelope compares.
func TestWatchListBookmarkProtobufAsRecorded(t *testing.T) {
	files, err := filepath.Glob("../object/testdata/bookmarks/*.pb")
	if err != nil || len(files) < 8 {
		t.Fatalf("fixtures: %v %v", files, err)
	}
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
			accept := codec.MediaTypeProtobuf
			var res *object.Resource
			var rv string
			if u.Kind == "PartialObjectMetadata" {
				accept += ";as=PartialObjectMetadata;g=meta.k8s.io;v=v1"
				var pm metav1.PartialObjectMetadata
				if err := pm.Unmarshal(u.Raw); err != nil {
					t.Fatal(err)
				}
				rv = pm.ResourceVersion
				res = builtin(t, "", "v1", strings.TrimSuffix(strings.TrimSuffix(filepath.Base(f), ".pb"), "-partial"))
			} else {
				group, version, _ := strings.Cut(u.APIVersion, "/")
				if version == "" {
					group, version = "", group
				}
				k, ok := registry.ByKind(group, version, u.Kind)
				if !ok {
					t.Fatalf("no kind %s %s", u.APIVersion, u.Kind)
				}
				res = builtin(t, k.Group, k.Version, k.Resource)
				sent := res.NewTyped()
				if err := sent.Unmarshal(u.Raw); err != nil {
					t.Fatal(err)
				}
				rv = sent.GetObjectMeta().ResourceVersion
			}
			got := watchListBookmark(t, res, accept, rv)
			if !bytes.Equal(got, recorded) {
				t.Errorf("bookmark:\n got %x\nwant %x", got, recorded)
			}
		})
	}
}

func builtin(t *testing.T, group, version, resource string) *object.Resource {
	t.Helper()
	k, ok := registry.ByResource(group, version, resource)
	if !ok {
		t.Fatalf("no resource %s/%s %s", group, version, resource)
	}
	res, ok := object.Builtin(k, &fieldpath.Builtins{})
	if !ok {
		t.Fatalf("no built-in %s", resource)
	}
	return res
}

// watchListBookmark serves a protobuf watch-list of res from an empty
// store at version rv and returns the object of its only event, the end
// bookmark.
func watchListBookmark(t *testing.T, res *object.Resource, accept, rv string) []byte {
	t.Helper()
	st := storage.New(100)
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	st.Rv = n
	s := &watch.Server{Store: st, Faults: noFaults{}, Timeout: time.Minute, BookmarkInterval: time.Minute, Done: make(chan struct{})}
	// The request's context is done: the watch sends what it has and ends.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequestWithContext(ctx, "GET", "/?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan", nil)
	req.Header.Set("Accept", accept)
	w := httptest.NewRecorder()
	s.Serve(w, req, &request.Request{Res: res, Verb: "watch"})
	body := w.Body.Bytes()
	if len(body) < 4 {
		t.Fatalf("answer %d %q", w.Code, body)
	}
	size := int(body[0])<<24 | int(body[1])<<16 | int(body[2])<<8 | int(body[3])
	if len(body) != 4+size {
		t.Fatalf("want one frame, got %d bytes for a frame of %d", len(body), size)
	}
	var typ string
	var raw []byte
	for b := body[4:]; len(b) > 0; {
		num, wt, l := protowire.ConsumeTag(b)
		if l < 0 || wt != protowire.BytesType {
			t.Fatalf("bad event %x", body)
		}
		b = b[l:]
		v, l := protowire.ConsumeBytes(b)
		if l < 0 {
			t.Fatalf("bad event %x", body)
		}
		b = b[l:]
		switch num {
		case 1:
			typ = string(v)
		case 2: // RawExtension{raw: 1}
			_, _, l := protowire.ConsumeTag(v)
			raw, _ = protowire.ConsumeBytes(v[max(l, 0):])
		}
	}
	if typ != "BOOKMARK" {
		t.Fatalf("event %q, want BOOKMARK", typ)
	}
	return raw
}
