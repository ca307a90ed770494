package api_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	apidiscoveryv2 "github.com/kubewire/kubewire/api/apidiscovery/v2"
	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/api/version"
	"github.com/kubewire/kubewire/internal/testing/fixture"
)

// message is what every generated kind provides.
type message interface {
	Marshal() ([]byte, error)
	Unmarshal([]byte) error
}

var protobufMagic = []byte("k8s\x00")

// unwrap splits a protobuf body into its envelope and object bytes.
func unwrap(t *testing.T, body []byte) *runtime.Unknown {
	t.Helper()
	if !bytes.HasPrefix(body, protobufMagic) {
		t.Fatalf("body does not start with the protobuf magic: %q", body[:min(8, len(body))])
	}
	env := new(runtime.Unknown)
	if err := env.Unmarshal(body[len(protobufMagic):]); err != nil {
		t.Fatalf("envelope: %v", err)
	}
	return env
}

// objectFixtures are responses holding one object or list, keyed by the
// fixture base name; each is captured in JSON, protobuf or both.
var objectFixtures = []struct {
	base string
	new  func() message
	// differs lists what the JSON and protobuf captures legitimately
	// disagree on, with the reason.
	differs cmp.Option
}{
	{"objects/pods-web-1", func() message { return new(corev1.Pod) }, nil},
	{"objects/configmaps-cm-1", func() message { return new(corev1.ConfigMap) }, nil},
	{"objects/secrets-s1", func() message { return new(corev1.Secret) }, nil},
	{"objects/services-web", func() message { return new(corev1.Service) }, nil},
	{"objects/deployment-web", func() message { return new(appsv1.Deployment) }, nil},
	{"objects/lease-leader", func() message { return new(coordinationv1.Lease) }, nil},
	{"objects/namespace-fixtures", func() message { return new(corev1.Namespace) }, nil},
	{"objects/crd-widgets", func() message { return new(apiextensionsv1.CustomResourceDefinition) }, nil},
	{"lists/pods", func() message { return new(corev1.PodList) }, nil},
	{"lists/pods-page1", func() message { return new(corev1.PodList) },
		// The two pages were captured one write apart.
		cmpopts.IgnoreFields(metav1.ListMeta{}, "ResourceVersion", "Continue")},
	{"lists/pods-page2", func() message { return new(corev1.PodList) }, nil},
	{"lists/pods-rv0-limit", func() message { return new(corev1.PodList) }, nil},
	{"lists/pods-labelselector", func() message { return new(corev1.PodList) }, nil},
	{"lists/pods-fieldselector", func() message { return new(corev1.PodList) }, nil},
	{"lists/configmaps", func() message { return new(corev1.ConfigMapList) }, nil},
	{"meta/pods-partial", func() message { return new(metav1.PartialObjectMetadataList) },
		// JSON items repeat apiVersion and kind; protobuf items have no field for them.
		cmpopts.IgnoreFields(metav1.PartialObjectMetadata{}, "TypeMeta")},
	{"meta/widgets-partial", func() message { return new(metav1.PartialObjectMetadataList) }, nil},
	{"errors/widget-protobuf-only-406", func() message { return new(metav1.Status) }, nil},
	{"errors/notfound", func() message { return new(metav1.Status) }, nil},
	{"errors/alreadyexists", func() message { return new(metav1.Status) }, nil},
	{"errors/conflict", func() message { return new(metav1.Status) }, nil},
	{"errors/invalid", func() message { return new(metav1.Status) }, nil},
	{"errors/bad-continue", func() message { return new(metav1.Status) }, nil},
	{"errors/expired-continue", func() message { return new(metav1.Status) }, nil},
	{"errors/list-exact-gone", func() message { return new(metav1.Status) }, nil},
	{"errors/rvmatch-without-rv", func() message { return new(metav1.Status) }, nil},
	{"errors/strict-unknown-field", func() message { return new(metav1.Status) }, nil},
	{"errors/too-large-rv", func() message { return new(metav1.Status) }, nil},
	{"errors/unauthorized", func() message { return new(metav1.Status) }, nil},
	{"discovery/api", func() message { return new(metav1.APIVersions) }, nil},
	{"discovery/apis", func() message { return new(metav1.APIGroupList) }, nil},
	{"discovery/api-v1", func() message { return new(metav1.APIResourceList) }, nil},
	{"discovery/apis-apps_v1", func() message { return new(metav1.APIResourceList) }, nil},
	{"discovery/aggregated-api", func() message { return new(apidiscoveryv2.APIGroupDiscoveryList) }, nil},
	{"discovery/aggregated-apis", func() message { return new(apidiscoveryv2.APIGroupDiscoveryList) }, nil},
}

// load returns the fixture or nil when it was not captured in that form.
func load(t *testing.T, name string) *fixture.Response {
	t.Helper()
	r, err := fixture.Load(name)
	if err != nil {
		if strings.Contains(err.Error(), "no such file") {
			return nil
		}
		t.Fatal(err)
	}
	return &r
}

// TestFixturesDecode decodes every captured form of each object, checks
// that JSON and protobuf decode to equal Go values, and that re-encoding the
// protobuf decode gives the server's bytes back exactly.
func TestFixturesDecode(t *testing.T) {
	for _, fx := range objectFixtures {
		t.Run(fx.base, func(t *testing.T) {
			var fromJSON, fromProto message
			if r := load(t, fx.base+".json"); r != nil {
				fromJSON = fx.new()
				if err := json.Unmarshal(r.Body, fromJSON); err != nil {
					t.Fatalf("json: %v", err)
				}
			} else if r := load(t, fx.base); r != nil && strings.HasPrefix(r.ContentType(), "application/json") {
				fromJSON = fx.new()
				if err := json.Unmarshal(r.Body, fromJSON); err != nil {
					t.Fatalf("json: %v", err)
				}
			}
			pb := load(t, fx.base+".pb")
			if pb == nil {
				// Some responses are protobuf without the .pb suffix.
				if r := load(t, fx.base); r != nil && strings.HasPrefix(r.ContentType(), "application/vnd.kubernetes.protobuf") {
					pb = r
				}
			}
			if r := pb; r != nil {
				env := unwrap(t, r.Body)
				fromProto = fx.new()
				if err := fromProto.Unmarshal(env.Raw); err != nil {
					t.Fatalf("protobuf: %v", err)
				}
				// The envelope, not the message, carries apiVersion and kind.
				if tm, ok := fromProto.(interface {
					SetAPIVersion(string)
					SetKind(string)
				}); ok {
					tm.SetAPIVersion(env.APIVersion)
					tm.SetKind(env.Kind)
				}
				again, err := fromProto.Marshal()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(again, env.Raw) {
					t.Errorf("re-encoded protobuf differs from the server's bytes:\nserver:   %x\nkubewire: %x", env.Raw, again)
				}
				envAgain, _ := env.Marshal()
				if !bytes.Equal(append(bytes.Clone(protobufMagic), envAgain...), r.Body) {
					t.Errorf("re-encoded envelope differs from the server's body")
				}
			}
			if fromJSON == nil && fromProto == nil {
				t.Fatal("no JSON or protobuf form of this fixture")
			}
			if fromJSON != nil && fromProto != nil {
				if diff := cmp.Diff(fromJSON, fromProto, fx.differs); diff != "" {
					t.Errorf("JSON and protobuf decodes differ (-json +protobuf):\n%s", diff)
				}
			}
		})
	}
}

// TestFixturesJSONRoundTrip checks that encoding a decoded JSON object and
// decoding it again loses nothing.
func TestFixturesJSONRoundTrip(t *testing.T) {
	for _, fx := range objectFixtures {
		r := load(t, fx.base+".json")
		if r == nil {
			continue
		}
		t.Run(fx.base, func(t *testing.T) {
			first := fx.new()
			if err := json.Unmarshal(r.Body, first); err != nil {
				t.Fatal(err)
			}
			out, err := json.Marshal(first)
			if err != nil {
				t.Fatal(err)
			}
			var want, got any
			if err := json.Unmarshal(r.Body, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("JSON round trip differs (-server +kubewire):\n%s", diff)
			}
		})
	}
}

// TestEveryFixtureIsCovered keeps the table above honest: each captured
// object, list, error, discovery and metadata response is either decoded
// by a test in this file or named as covered elsewhere.
func TestEveryFixtureIsCovered(t *testing.T) {
	elsewhere := map[string]string{
		"objects/widget-w1":          "custom resource: api/unstructured",
		"objects/widget-w1-fallback": "custom resource: api/unstructured",
		"lists/widgets":              "custom resource: api/unstructured",
		"errors/warn-unknown-field":  "a Warning header on a ConfigMap: client",
		"errors/watch-gone":          "a watch stream: codec",
		"discovery/version":          "TestVersionFixture",
	}
	covered := map[string]bool{}
	for _, fx := range objectFixtures {
		covered[fx.base] = true
	}
	for _, folder := range []string{"objects", "lists", "meta", "errors", "discovery"} {
		names, err := fixture.List(folder)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, ".json"), ".pb"), ".yaml")
			if covered[base] || elsewhere[base] != "" || (folder == "discovery" && strings.HasPrefix(base, "discovery/apis-")) {
				continue
			}
			t.Errorf("fixture %s is decoded by no test", name)
		}
	}
}

// TestDiscoveryResourceLists decodes every /apis/GROUP/VERSION document.
func TestDiscoveryResourceLists(t *testing.T) {
	names, err := fixture.List("discovery")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, name := range names {
		if !strings.HasPrefix(name, "discovery/apis-") {
			continue
		}
		seen++
		t.Run(name, func(t *testing.T) {
			r := load(t, name)
			var list metav1.APIResourceList
			if err := json.Unmarshal(r.Body, &list); err != nil {
				t.Fatal(err)
			}
			if list.GroupVersion == "" || len(list.APIResources) == 0 {
				t.Fatalf("decoded an empty resource list: %+v", list)
			}
		})
	}
	if seen < 20 {
		t.Fatalf("found %d group/version documents, want at least 20", seen)
	}
}

// TestVersionFixture decodes /version.
func TestVersionFixture(t *testing.T) {
	r := load(t, "discovery/version")
	var info version.Info
	if err := json.Unmarshal(r.Body, &info); err != nil {
		t.Fatal(err)
	}
	if info.Major != "1" || info.Minor != "36" || info.GoVersion == "" {
		t.Fatalf("unexpected version info: %+v", info)
	}
}
