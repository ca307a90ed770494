package api_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	"github.com/kubewire/kubewire/api/cborwire"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/jsonwire"
	"github.com/kubewire/kubewire/api/wire"
)

// builtinCBOR is a built-in type custom resources embed, with a generated
// DecodeCBOR and DecodeJSON.
type builtinCBOR interface {
	cborwire.Decodable
	jsonwire.Decodable
}

// viaJSONDecoder reads a value as the generated decoders read a
// built-in type before it had a CBOR decoder: the item transcoded to
// JSON, then DecodeJSON.
type viaJSONDecoder struct{ v jsonwire.Decodable }

func (x viaJSONDecoder) DecodeCBOR(d *cborwire.Decoder) error {
	cborwire.ViaJSON(d, x.v, "value")
	return d.Err()
}

// The built-in objects kube-apiserver served as JSON (a Pod list, a
// Deployment, a Service) read the same through the generated CBOR
// decoders as through their JSON decoders, and as through the transcoder
// the generated code used before; plain and through a ReadOnly table.
// The CBOR is what kube-apiserver writes for a custom resource holding
// the same JSON (cborwire.FromJSON: maps keyed in order, integers as
// integers).
func TestBuiltinCBORDecodesAsJSON(t *testing.T) {
	cases := []struct {
		fixture string
		new     func() builtinCBOR
	}{
		{"lists/pods.json", func() builtinCBOR { return new(corev1.PodList) }},
		{"objects/pods-web-1.json", func() builtinCBOR { return new(corev1.Pod) }},
		{"objects/deployment-web.json", func() builtinCBOR { return new(appsv1.Deployment) }},
		{"objects/services-web.json", func() builtinCBOR { return new(corev1.Service) }},
	}
	for _, c := range cases {
		t.Run(c.fixture, func(t *testing.T) {
			js := load(t, c.fixture).Body
			cb, err := cborwire.FromJSON(js)
			if err != nil {
				t.Fatal(err)
			}
			want := c.new()
			if err := jsonwire.Decode(js, want, nil); err != nil {
				t.Fatal(err)
			}
			for _, table := range []*wire.Decoder{nil, {ReadOnly: true}} {
				for round := range 2 { // the second finds the first's values in the table
					got := c.new()
					if err := cborwire.Decode(cb, got, table); err != nil {
						t.Fatal(err)
					}
					if d := cmp.Diff(want, got); d != "" {
						t.Fatalf("round %d: CBOR decodes differently (-json +cbor):\n%s", round, d)
					}
				}
				via := c.new()
				if err := cborwire.Decode(cb, viaJSONDecoder{via}, table); err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(want, via); d != "" {
					t.Fatalf("through the transcoder (-json +transcoded):\n%s", d)
				}
			}
		})
	}
}

// A custom resource's embedded templates: a PodTemplateSpec with every
// kind of field a Deployment's holds (probes with IntOrString ports,
// quantities, env from secrets, volumes, affinity), a JobTemplateSpec and
// a Deployment strategy with IntOrString percentages.
var embeddedJSON = []struct {
	name string
	js   string
	new  func() builtinCBOR
}{
	{"PodTemplateSpec", `{"metadata":{"labels":{"app":"web"},"annotations":{"prometheus.io/scrape":"true"}},"spec":{"serviceAccountName":"web","terminationGracePeriodSeconds":30,"containers":[{"name":"web","image":"registry.example.com/web:1.2.3","args":["--port=8080"],"ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],"env":[{"name":"MODE","value":"production"},{"name":"TOKEN","valueFrom":{"secretKeyRef":{"name":"web","key":"token","optional":true}}},{"name":"POD","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],"resources":{"requests":{"cpu":"100m","memory":"128Mi"},"limits":{"cpu":2,"memory":"1Gi"}},"readinessProbe":{"httpGet":{"path":"/ready","port":"http"},"periodSeconds":5},"livenessProbe":{"tcpSocket":{"port":8080},"failureThreshold":3},"volumeMounts":[{"name":"config","mountPath":"/etc/web","readOnly":true}],"securityContext":{"runAsNonRoot":true,"allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]}}}],"volumes":[{"name":"config","configMap":{"name":"web-config","defaultMode":420}},{"name":"tmp","emptyDir":{"sizeLimit":"1Gi"}}],"affinity":{"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":100,"podAffinityTerm":{"topologyKey":"kubernetes.io/hostname","labelSelector":{"matchLabels":{"app":"web"}}}}]}},"tolerations":[{"key":"dedicated","operator":"Equal","value":"web","effect":"NoSchedule","tolerationSeconds":null}],"nodeSelector":{"kubernetes.io/os":"linux"}}}`, func() builtinCBOR { return new(corev1.PodTemplateSpec) }},
	{"JobTemplateSpec", `{"metadata":{"labels":{"job":"backup"}},"spec":{"backoffLimit":4,"completions":1,"ttlSecondsAfterFinished":600,"template":{"spec":{"restartPolicy":"OnFailure","containers":[{"name":"backup","image":"backup:1","command":["/bin/backup"],"resources":{"requests":{"cpu":"0.5"}}}]}}}}`, func() builtinCBOR { return new(batchv1.JobTemplateSpec) }},
	{"DeploymentStrategy", `{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":0}}`, func() builtinCBOR { return new(appsv1.DeploymentStrategy) }},
	{"ResourceRequirements", `{"requests":{"cpu":"250m","memory":"64Mi","nvidia.com/gpu":1},"limits":{"memory":"512Mi"},"claims":[{"name":"gpu"}]}`, func() builtinCBOR { return new(corev1.ResourceRequirements) }},
}

func TestEmbeddedBuiltinCBORDecodesAsJSON(t *testing.T) {
	for _, c := range embeddedJSON {
		t.Run(c.name, func(t *testing.T) {
			cb, err := cborwire.FromJSON([]byte(c.js))
			if err != nil {
				t.Fatal(err)
			}
			want := c.new()
			if err := jsonwire.Decode([]byte(c.js), want, nil); err != nil {
				t.Fatal(err)
			}
			for _, table := range []*wire.Decoder{nil, {ReadOnly: true}} {
				got := c.new()
				if err := cborwire.Decode(cb, got, table); err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Fatalf("CBOR decodes differently (-json +cbor):\n%s", d)
				}
			}
		})
	}
}

// FuzzPodTemplateSpecCBOR checks that the generated PodTemplateSpec
// decoder never panics and agrees with the transcoder path it replaces:
// an error exactly when that path has one, else the same value.
func FuzzPodTemplateSpecCBOR(f *testing.F) {
	for _, c := range embeddedJSON {
		cb, err := cborwire.FromJSON([]byte(c.js))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(cb)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var native, via corev1.PodTemplateSpec
		nerr := cborwire.Decode(in, &native, nil)
		verr := cborwire.Decode(in, viaJSONDecoder{&via}, nil)
		if nerr == nil && verr != nil && strings.Contains(verr.Error(), "duplicate key") {
			// The transcoder refuses a map with a key twice (its JSON
			// would be ambiguous); generated decoders, meta/v1's before
			// these, read it as the JSON decoders do, the last one
			// winning. kube-apiserver never writes one.
			return
		}
		if (nerr == nil) != (verr == nil) {
			t.Fatalf("natively: %v; through JSON: %v", nerr, verr)
		}
		if nerr != nil {
			return
		}
		a, errA := json.Marshal(&native)
		b, errB := json.Marshal(&via)
		if (errA == nil) != (errB == nil) || !bytes.Equal(a, b) {
			t.Fatalf("natively %s (%v), through JSON %s (%v)", a, errA, b, errB)
		}
	})
}
