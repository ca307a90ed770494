package e2e

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// fuzzKind is a kind the fuzzer writes: where, its schema, and a valid
// object of it to start from.
type fuzzKind struct {
	name       string // as the report names it
	apiVersion string
	kind       string
	plural     string
	schema     string // OpenAPI component name
	seed       func(name, ns string) map[string]any
	leaves     []fuzzLeaf
}

func (k *fuzzKind) collection() string {
	if !strings.Contains(k.apiVersion, "/") {
		return "/api/" + k.apiVersion + "/namespaces/${ns}/" + k.plural
	}
	return "/apis/" + k.apiVersion + "/namespaces/${ns}/" + k.plural
}

// jsonObj decodes a JSON object literal of the seeds.
func jsonObj(s string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		panic(fmt.Sprintf("seed %s: %v", s, err))
	}
	return m
}

// fuzzKinds are the kinds controllers and their tools write most, each
// with an object as bare as the kind allows.
func fuzzKinds() []*fuzzKind {
	container := `{"name":"c","image":"busybox:1"}`
	podSpec := func(restart string) string {
		if restart != "" {
			restart = `"restartPolicy":"` + restart + `",`
		}
		return `{` + restart + `"containers":[` + container + `]}`
	}
	workload := func(extra string) func(n, ns string) map[string]any {
		return func(n, ns string) map[string]any {
			return jsonObj(`{"metadata":{"name":"` + n + `"},"spec":{` + extra + `"selector":{"matchLabels":{"app":"` + n + `"}},"template":{"metadata":{"labels":{"app":"` + n + `"}},"spec":` + podSpec("") + `}}}`)
		}
	}
	return []*fuzzKind{
		{name: "ConfigMap", apiVersion: "v1", kind: "ConfigMap", plural: "configmaps", schema: "io.k8s.api.core.v1.ConfigMap",
			seed: func(n, ns string) map[string]any {
				return jsonObj(`{"metadata":{"name":"` + n + `","labels":{"app":"fuzz"}},"data":{"a":"1"}}`)
			}},
		{name: "Secret", apiVersion: "v1", kind: "Secret", plural: "secrets", schema: "io.k8s.api.core.v1.Secret",
			seed: func(n, ns string) map[string]any {
				return jsonObj(`{"metadata":{"name":"` + n + `"},"type":"Opaque","data":{"a":"MQ=="}}`)
			}},
		{name: "ServiceAccount", apiVersion: "v1", kind: "ServiceAccount", plural: "serviceaccounts", schema: "io.k8s.api.core.v1.ServiceAccount",
			seed: func(n, ns string) map[string]any { return jsonObj(`{"metadata":{"name":"` + n + `"}}`) }},
		{name: "Pod", apiVersion: "v1", kind: "Pod", plural: "pods", schema: "io.k8s.api.core.v1.Pod",
			seed: func(n, ns string) map[string]any {
				return jsonObj(`{"metadata":{"name":"` + n + `","labels":{"app":"fuzz"}},"spec":` + podSpec("") + `}`)
			}},
		{name: "Service", apiVersion: "v1", kind: "Service", plural: "services", schema: "io.k8s.api.core.v1.Service",
			seed: func(n, ns string) map[string]any {
				return jsonObj(`{"metadata":{"name":"` + n + `"},"spec":{"selector":{"app":"fuzz"},"ports":[{"port":80}]}}`)
			}},
		{name: "PersistentVolumeClaim", apiVersion: "v1", kind: "PersistentVolumeClaim", plural: "persistentvolumeclaims", schema: "io.k8s.api.core.v1.PersistentVolumeClaim",
			seed: func(n, ns string) map[string]any {
				return jsonObj(`{"metadata":{"name":"` + n + `"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}`)
			}},
		{name: "Event", apiVersion: "v1", kind: "Event", plural: "events", schema: "io.k8s.api.core.v1.Event",
			seed: func(n, ns string) map[string]any {
				return jsonObj(`{"metadata":{"name":"` + n + `"},"involvedObject":{"kind":"Pod","name":"p","namespace":"` + ns + `"},"reason":"Tested","message":"m","type":"Normal","source":{"component":"fuzz"}}`)
			}},
		{name: "Deployment", apiVersion: "apps/v1", kind: "Deployment", plural: "deployments", schema: "io.k8s.api.apps.v1.Deployment", seed: workload("")},
		{name: "ReplicaSet", apiVersion: "apps/v1", kind: "ReplicaSet", plural: "replicasets", schema: "io.k8s.api.apps.v1.ReplicaSet", seed: workload("")},
		{name: "StatefulSet", apiVersion: "apps/v1", kind: "StatefulSet", plural: "statefulsets", schema: "io.k8s.api.apps.v1.StatefulSet", seed: workload(`"serviceName":"db",`)},
		{name: "DaemonSet", apiVersion: "apps/v1", kind: "DaemonSet", plural: "daemonsets", schema: "io.k8s.api.apps.v1.DaemonSet", seed: workload("")},
		{name: "Job", apiVersion: "batch/v1", kind: "Job", plural: "jobs", schema: "io.k8s.api.batch.v1.Job",
			seed: func(n, ns string) map[string]any {
				return jsonObj(`{"metadata":{"name":"` + n + `"},"spec":{"template":{"spec":` + podSpec("Never") + `}}}`)
			}},
		{name: "CronJob", apiVersion: "batch/v1", kind: "CronJob", plural: "cronjobs", schema: "io.k8s.api.batch.v1.CronJob",
			seed: func(n, ns string) map[string]any {
				return jsonObj(`{"metadata":{"name":"` + n + `"},"spec":{"schedule":"*/5 * * * *","jobTemplate":{"spec":{"template":{"spec":` + podSpec("OnFailure") + `}}}}}`)
			}},
		{name: "Lease", apiVersion: "coordination.k8s.io/v1", kind: "Lease", plural: "leases", schema: "io.k8s.api.coordination.v1.Lease",
			seed: func(n, ns string) map[string]any {
				return jsonObj(`{"metadata":{"name":"` + n + `"},"spec":{"holderIdentity":"a","leaseDurationSeconds":15}}`)
			}},
		{name: "events.k8s.io Event", apiVersion: "events.k8s.io/v1", kind: "Event", plural: "events", schema: "io.k8s.api.events.v1.Event",
			seed: func(n, ns string) map[string]any {
				return jsonObj(`{"metadata":{"name":"` + n + `"},"eventTime":"2026-01-01T00:00:00.000000Z","reportingController":"fuzz.example.com/c","reportingInstance":"i","action":"Tested","reason":"Tested","type":"Normal","regarding":{"kind":"Pod","name":"p","namespace":"` + ns + `"}}`)
			}},
		{name: "Ingress", apiVersion: "networking.k8s.io/v1", kind: "Ingress", plural: "ingresses", schema: "io.k8s.api.networking.v1.Ingress",
			seed: func(n, ns string) map[string]any {
				return jsonObj(`{"metadata":{"name":"` + n + `"},"spec":{"rules":[{"host":"a.example.com","http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"service":{"name":"s","port":{"number":80}}}}]}}]}}`)
			}},
		{name: "NetworkPolicy", apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", plural: "networkpolicies", schema: "io.k8s.api.networking.v1.NetworkPolicy",
			seed: func(n, ns string) map[string]any {
				return jsonObj(`{"metadata":{"name":"` + n + `"},"spec":{"podSelector":{"matchLabels":{"app":"x"}},"policyTypes":["Ingress"]}}`)
			}},
		{name: "PodDisruptionBudget", apiVersion: "policy/v1", kind: "PodDisruptionBudget", plural: "poddisruptionbudgets", schema: "io.k8s.api.policy.v1.PodDisruptionBudget",
			seed: func(n, ns string) map[string]any {
				return jsonObj(`{"metadata":{"name":"` + n + `"},"spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"x"}}}}`)
			}},
		{name: "HorizontalPodAutoscaler", apiVersion: "autoscaling/v2", kind: "HorizontalPodAutoscaler", plural: "horizontalpodautoscalers", schema: "io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler",
			seed: func(n, ns string) map[string]any {
				return jsonObj(`{"metadata":{"name":"` + n + `"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"d"},"minReplicas":1,"maxReplicas":3}}`)
			}},
		{name: "Role", apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", plural: "roles", schema: "io.k8s.api.rbac.v1.Role",
			seed: func(n, ns string) map[string]any {
				return jsonObj(`{"metadata":{"name":"` + n + `"},"rules":[{"apiGroups":[""],"resources":["pods"],"verbs":["get"]}]}`)
			}},
		{name: "RoleBinding", apiVersion: "rbac.authorization.k8s.io/v1", kind: "RoleBinding", plural: "rolebindings", schema: "io.k8s.api.rbac.v1.RoleBinding",
			seed: func(n, ns string) map[string]any {
				return jsonObj(`{"metadata":{"name":"` + n + `"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"r"},"subjects":[{"kind":"ServiceAccount","name":"default","namespace":"` + ns + `"}]}`)
			}},
		{name: "EndpointSlice", apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice", plural: "endpointslices", schema: "io.k8s.api.discovery.v1.EndpointSlice",
			seed: func(n, ns string) map[string]any {
				return jsonObj(`{"metadata":{"name":"` + n + `"},"addressType":"IPv4","endpoints":[{"addresses":["10.0.0.1"]}],"ports":[{"port":80,"protocol":"TCP"}]}`)
			}},
	}
}

// fuzzGroupVersions are the group versions of fuzzKinds.
func fuzzGroupVersions(kinds []*fuzzKind) []string {
	var out []string
	for _, k := range kinds {
		if !slices.Contains(out, k.apiVersion) {
			out = append(out, k.apiVersion)
		}
	}
	return out
}

// fuzzGen makes requests from a seeded random source.
type fuzzGen struct {
	r     *rand.Rand
	ns    string
	kinds []*fuzzKind
	n     int // objects named so far
}

func (g *fuzzGen) pick(n int) int { return g.r.IntN(n) }

func pickOf[T any](g *fuzzGen, xs []T) T { return xs[g.pick(len(xs))] }

func (g *fuzzGen) name() string {
	g.n++
	return "f" + strconv.Itoa(g.n)
}

// leaf picks a field of a kind to set: half the time one the starting
// object has, else any field of the kind (at most six keys deep).
func (g *fuzzGen) leaf(k *fuzzKind, obj map[string]any) fuzzLeaf {
	if g.pick(2) == 0 {
		var present []fuzzLeaf
		for _, l := range k.leaves {
			if _, ok := getPath(obj, l.path); ok {
				present = append(present, l)
			}
		}
		if len(present) > 0 {
			return pickOf(g, present)
		}
	}
	return pickOf(g, k.leaves)
}

// validValue is a value of a leaf's type that a client would send.
func (g *fuzzGen) validValue(l fuzzLeaf) any {
	if len(l.enum) > 0 {
		return pickOf(g, l.enum)
	}
	switch l.typ {
	case "integer":
		return g.pick(4)
	case "number":
		return 0.5
	case "boolean":
		return g.pick(2) == 0
	case "object":
		return map[string]any{"k": "v"}
	}
	switch l.format {
	case "quantity":
		return pickOf(g, []string{"100m", "1", "1Gi", "500Mi"})
	case "int-or-string":
		return pickOf(g, []any{1, "25%", "http"})
	case "date-time":
		return "2026-01-02T03:04:05Z"
	case "byte":
		return "MQ=="
	}
	return pickOf(g, []string{"a", "b2", "web", "x-y", "example.com", "10.0.0.7", "/data", "v1"})
}

// brokenValue is a value a validating server refuses for a leaf, of one
// kind of mistake picked at random.
func (g *fuzzGen) brokenValue(l fuzzLeaf) any {
	switch g.pick(6) {
	case 0: // the wrong JSON type
		switch l.typ {
		case "string":
			return 7
		case "object":
			return "x"
		}
		return "x"
	case 1: // out of range
		if l.typ == "integer" {
			return pickOf(g, []any{-1, -100, 1 << 40})
		}
		if len(l.enum) > 0 {
			return "Bogus"
		}
		return ""
	case 2:
		return strings.Repeat("a", 300)
	case 3:
		return "Not_Valid!"
	case 4:
		return nil
	}
	if l.typ == "string" {
		return ""
	}
	return -1
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// pointer is a leaf's JSON pointer, "*" as the map key "k1".
func pointer(p []string) string {
	var b strings.Builder
	for _, k := range p {
		switch k {
		case "[0]":
			b.WriteString("/0")
		case "*":
			b.WriteString("/k1")
		default:
			b.WriteString("/" + strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1"))
		}
	}
	return b.String()
}

// nested is a patch setting a path to a value, as nested objects (a list
// item as a one-item list).
func nested(p []string, v any) map[string]any {
	out := map[string]any{}
	setPath(out, p, v)
	return out
}
