package e2e

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
)

// The generated-sequence check (TestGeneratedSequences) sends request
// sequences nobody wrote to the fake and to kube-apiserver. This file is
// the generator: a seed gives one sequence of steps (the fidelity
// catalog's step type) in a namespace of its own, drawn from the
// operations below over a few built-in kinds and a custom resource. The
// generator keeps a rough model of which objects exist only to aim most
// requests at them; both servers get the same requests whatever they
// answer, so the model need not be right.

// gizmoCRD is the custom resource of the generated sequences: a spec
// that keeps any field, and the status and scale subresources.
const gizmoCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"gizmos.gendiff.example.com"},
"spec":{"group":"gendiff.example.com","scope":"Namespaced","names":{"plural":"gizmos","singular":"gizmo","kind":"Gizmo","listKind":"GizmoList"},
"versions":[{"name":"v1","served":true,"storage":true,
"subresources":{"status":{},"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas"}},
"schema":{"openAPIV3Schema":{"type":"object","properties":{
"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"replicas":{"type":"integer","minimum":0}}},
"status":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"replicas":{"type":"integer"}}}}}}}]}}`

// genKind is a kind the generator writes.
type genKind struct {
	name       string // short name in step names and variables
	collection string // path of the collection, ${ns} for the namespace
	apiVersion string
	kind       string
	namespaced bool
	strategic  bool // accepts strategic merge patches
	status     bool // has the status subresource
	scale      bool // has the scale subresource
	// object returns the body of a valid object with these labels and a
	// variant number that changes its content.
	object func(name string, labels map[string]string, variant int) map[string]any
	// invalid returns a body kube-apiserver's validation refuses.
	invalid func(name string) map[string]any
	// statusBody is the status written through the status subresource.
	statusBody func(variant int) map[string]any
}

var genKinds = []*genKind{
	{name: "cm", collection: "/api/v1/namespaces/${ns}/configmaps", apiVersion: "v1", kind: "ConfigMap", namespaced: true, strategic: true,
		object: func(name string, labels map[string]string, v int) map[string]any {
			return obj("v1", "ConfigMap", name, labels, "data", map[string]any{"k": fmt.Sprint("v", v), fmt.Sprint("k", v%3): "x"})
		},
		invalid: func(name string) map[string]any {
			return obj("v1", "ConfigMap", name, nil, "data", map[string]any{"bad key!": "x"})
		}},
	{name: "secret", collection: "/api/v1/namespaces/${ns}/secrets", apiVersion: "v1", kind: "Secret", namespaced: true, strategic: true,
		object: func(name string, labels map[string]string, v int) map[string]any {
			o := obj("v1", "Secret", name, labels, "type", "Opaque")
			if v%2 == 0 {
				o["data"] = map[string]any{"k": "dmFsdWU="}
			} else {
				o["stringData"] = map[string]any{"s": fmt.Sprint("v", v)}
			}
			return o
		},
		invalid: func(name string) map[string]any {
			return obj("v1", "Secret", name, nil, "data", map[string]any{"k": "not base64!"})
		}},
	{name: "svc", collection: "/api/v1/namespaces/${ns}/services", apiVersion: "v1", kind: "Service", namespaced: true, strategic: true, status: true,
		object: func(name string, labels map[string]string, v int) map[string]any {
			return obj("v1", "Service", name, labels, "spec", map[string]any{
				"selector": map[string]any{"app": name},
				"ports":    []any{map[string]any{"name": "http", "port": 80 + v%3, "targetPort": 8080}},
			})
		},
		invalid: func(name string) map[string]any {
			return obj("v1", "Service", name, nil, "spec", map[string]any{"ports": []any{map[string]any{"port": 70000}}})
		},
		statusBody: func(v int) map[string]any {
			return map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": "True", "reason": fmt.Sprint("R", v), "message": "m", "lastTransitionTime": "2026-01-01T00:00:00Z"}}}
		}},
	{name: "deploy", collection: "/apis/apps/v1/namespaces/${ns}/deployments", apiVersion: "apps/v1", kind: "Deployment", namespaced: true, strategic: true, status: true, scale: true,
		object: func(name string, labels map[string]string, v int) map[string]any {
			return obj("apps/v1", "Deployment", name, labels, "spec", map[string]any{
				"replicas": v % 4,
				"selector": map[string]any{"matchLabels": map[string]any{"app": name}},
				"template": map[string]any{
					"metadata": map[string]any{"labels": map[string]any{"app": name}},
					"spec":     map[string]any{"containers": []any{map[string]any{"name": "c", "image": fmt.Sprint("busybox:1.", v%5)}}},
				},
			})
		},
		invalid: func(name string) map[string]any {
			return obj("apps/v1", "Deployment", name, nil, "spec", map[string]any{
				"selector": map[string]any{"matchLabels": map[string]any{"app": "a"}},
				"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "b"}}},
			})
		},
		statusBody: func(v int) map[string]any {
			return map[string]any{"observedGeneration": 1, "replicas": v % 3, "readyReplicas": v % 2}
		}},
	{name: "pod", collection: "/api/v1/namespaces/${ns}/pods", apiVersion: "v1", kind: "Pod", namespaced: true, strategic: true, status: true,
		object: func(name string, labels map[string]string, v int) map[string]any {
			return obj("v1", "Pod", name, labels, "spec", map[string]any{
				"automountServiceAccountToken": false,
				"containers":                   []any{map[string]any{"name": "c", "image": fmt.Sprint("busybox:1.", v%5)}},
			})
		},
		invalid: func(name string) map[string]any {
			return obj("v1", "Pod", name, nil, "spec", map[string]any{"containers": []any{}})
		},
		statusBody: func(v int) map[string]any {
			return map[string]any{"phase": []string{"Pending", "Running", "Succeeded"}[v%3], "message": fmt.Sprint("m", v)}
		}},
	{name: "lease", collection: "/apis/coordination.k8s.io/v1/namespaces/${ns}/leases", apiVersion: "coordination.k8s.io/v1", kind: "Lease", namespaced: true, strategic: true,
		object: func(name string, labels map[string]string, v int) map[string]any {
			return obj("coordination.k8s.io/v1", "Lease", name, labels, "spec", map[string]any{"holderIdentity": fmt.Sprint("h", v), "leaseDurationSeconds": 10 + v%5})
		},
		invalid: func(name string) map[string]any {
			return obj("coordination.k8s.io/v1", "Lease", name, nil, "spec", map[string]any{"leaseDurationSeconds": -1})
		}},
	{name: "ns", collection: "/api/v1/namespaces", apiVersion: "v1", kind: "Namespace", strategic: true, status: true,
		object: func(name string, labels map[string]string, v int) map[string]any {
			return obj("v1", "Namespace", name, labels)
		},
		invalid: func(name string) map[string]any {
			return obj("v1", "Namespace", name+".dots", nil)
		},
		statusBody: func(v int) map[string]any {
			return map[string]any{"phase": "Active"}
		}},
	{name: "gizmo", collection: "/apis/gendiff.example.com/v1/namespaces/${ns}/gizmos", apiVersion: "gendiff.example.com/v1", kind: "Gizmo", namespaced: true, status: true, scale: true,
		object: func(name string, labels map[string]string, v int) map[string]any {
			return obj("gendiff.example.com/v1", "Gizmo", name, labels, "spec", map[string]any{"replicas": v % 4, "color": fmt.Sprint("c", v%3)})
		},
		invalid: func(name string) map[string]any {
			return obj("gendiff.example.com/v1", "Gizmo", name, nil, "spec", map[string]any{"replicas": -1})
		},
		statusBody: func(v int) map[string]any {
			return map[string]any{"replicas": v % 3, "phase": fmt.Sprint("p", v)}
		}},
}

// obj builds an object with apiVersion, kind, a name and labels, and
// more top-level fields as key, value pairs.
func obj(apiVersion, kind, name string, labels map[string]string, more ...any) map[string]any {
	meta := map[string]any{"name": name}
	if len(labels) > 0 {
		l := map[string]any{}
		for k, v := range labels {
			l[k] = v
		}
		meta["labels"] = l
	}
	o := map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": meta}
	for i := 0; i+1 < len(more); i += 2 {
		o[more[i].(string)] = more[i+1]
	}
	return o
}

// genSelector is a label selector and labels that match it (a watch's
// sentinel object carries them).
type genSelector struct {
	selector string
	matching map[string]string
}

var genSelectors = []genSelector{
	{"app=a", map[string]string{"app": "a"}},
	{"app!=a", map[string]string{"app": "b"}},
	{"app in (a,b)", map[string]string{"app": "b"}},
	{"app notin (a)", map[string]string{"tier": "x"}},
	{"tier", map[string]string{"tier": "y"}},
	{"!tier", map[string]string{"app": "a"}},
	{"app=a,tier=x", map[string]string{"app": "a", "tier": "x"}},
	{"app=b,!tier", map[string]string{"app": "b"}},
}

var genLabelSets = []map[string]string{
	nil, {"app": "a"}, {"app": "b"}, {"tier": "x"}, {"app": "a", "tier": "x"}, {"app": "b", "tier": "y"},
}

// Accept headers of reads.
var (
	objectAccepts = []string{
		"application/json",
		"application/yaml",
		"application/vnd.kubernetes.protobuf",
		"application/vnd.kubernetes.protobuf, application/json",
		"application/json;as=Table;v=v1;g=meta.k8s.io",
		"application/json;as=Table;v=v1;g=meta.k8s.io, application/json",
		"application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io",
		"application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io, application/json",
		"application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io",
		"text/plain",
		"application/json;charset=latin1",
		"application/json;foo=bar",
	}
	listAccepts = []string{
		"application/json",
		"application/yaml",
		"application/vnd.kubernetes.protobuf",
		"application/json;as=Table;v=v1;g=meta.k8s.io",
		"application/json;as=Table;v=v1;g=meta.k8s.io;includeObject=Metadata",
		"application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io",
		"application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io",
		"application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io, application/json",
	}
)

// genModel is the generator's rough idea of the server.
type genModel struct {
	rng    *rand.Rand
	seed   uint64
	ns     string
	c      *catalog
	names  map[*genKind][]string // objects believed to exist
	gone   map[*genKind][]string // objects believed deleted
	count  int                   // objects named so far
	saves  int                   // variables saved so far
	conts  []string              // saved continue tokens
	rvs    []string              // saved resource versions of objects
	labels map[string]map[string]string
	// tracked are the objects whose resource version and uid some
	// answer saved (kind/name).
	tracked map[string]bool
	// sentinels end the watches.
	sentinels map[*step]genSentinel
}

// genSentinel is the object a watch step's runner creates once the watch
// is open; the watch is read up to its event.
type genSentinel struct {
	name   string
	create *step
}

// genSeq is a generated sequence.
type genSeq struct {
	seed      uint64
	steps     []*step
	sentinels map[*step]genSentinel
}

// genSequence returns the generated sequence of seed: steps in
// namespace gd-SEED, the first of which create it and its default
// ServiceAccount.
func genSequence(seed uint64, steps int) genSeq {
	m := &genModel{
		rng:    rand.New(rand.NewPCG(seed, 0x6b756265)),
		seed:   seed,
		ns:     fmt.Sprintf("gd-%d", seed),
		c:      &catalog{},
		names:  map[*genKind][]string{},
		gone:   map[*genKind][]string{},
		labels: map[string]map[string]string{},

		sentinels: map[*step]genSentinel{},
		tracked:   map[string]bool{},
	}
	m.c.begin(fmt.Sprintf("seed %d", seed), m.ns)
	m.c.post("create service account", "/api/v1/namespaces/${ns}/serviceaccounts", `{"metadata":{"name":"default"}}`)
	for len(m.c.steps) < steps {
		m.next()
	}
	return genSeq{seed: seed, steps: m.c.steps, sentinels: m.sentinels}
}

// op is one kind of operation, with its weight.
type genOp struct {
	weight int
	run    func(m *genModel, k *genKind)
}

var genOps = []genOp{
	{12, (*genModel).create},
	{10, (*genModel).get},
	{10, (*genModel).list},
	{8, (*genModel).update},
	{12, (*genModel).patch},
	{6, (*genModel).delete},
	{2, (*genModel).deleteCollection},
	{6, (*genModel).subresource},
	{5, (*genModel).watch},
}

func (m *genModel) next() {
	k := genKinds[m.rng.IntN(len(genKinds))]
	ops := genOps
	if m.seed >= genExtendedFirst {
		ops = append(slices.Clone(genOps), genExtraOps...)
	}
	if m.seed >= genControllerFirst {
		ops = append(ops, genControllerOps...)
	}
	if m.seed >= genLaterFirst {
		ops = append(ops, genLaterOps...)
	}
	if m.seed >= genSchemaFirst {
		ops = append(ops, genSchemaOps...)
	}
	total := 0
	for _, o := range ops {
		total += o.weight
	}
	n := m.rng.IntN(total)
	for _, o := range ops {
		if n < o.weight {
			o.run(m, k)
			return
		}
		n -= o.weight
	}
}

// object is k.object; a namespace also gets the label of its sequence,
// which the sequence's namespace lists and watches select, so that one
// sequence's namespaces (and their differences) stay out of another's.
func (m *genModel) object(k *genKind, name string, labels map[string]string, variant int) map[string]any {
	if k.kind == "Namespace" {
		labels = maps.Clone(labels)
		if labels == nil {
			labels = map[string]string{}
		}
		labels[genSeqLabel] = fmt.Sprint(m.seed)
	}
	return k.object(name, labels, variant)
}

// genSeqLabel labels the namespaces a sequence creates with its seed.
const genSeqLabel = "gendiff-seed"

// collectionSelector adds to a namespace list's or watch's label
// selector (URL-encoded, or "") the term selecting the sequence's own.
func (m *genModel) collectionSelector(k *genKind, sel string) string {
	if k.kind != "Namespace" {
		return sel
	}
	own := genSeqLabel + "%3D" + fmt.Sprint(m.seed)
	if sel == "" {
		return own
	}
	return sel + "%2C" + own
}

func (m *genModel) pick(xs []string) string { return xs[m.rng.IntN(len(xs))] }
func (m *genModel) chance(p float64) bool   { return m.rng.Float64() < p }

// newName is a name no object had; namespaces get the sequence's prefix.
func (m *genModel) newName(k *genKind) string {
	m.count++
	if k.namespaced {
		return fmt.Sprintf("%s-%d", k.name, m.count)
	}
	return fmt.Sprintf("%s-%s-%d", m.ns, k.name, m.count)
}

// target names an object of k: mostly one believed to exist, sometimes
// a deleted one or one never created.
func (m *genModel) target(k *genKind) string {
	switch {
	case len(m.names[k]) > 0 && m.chance(0.8):
		return m.pick(m.names[k])
	case len(m.gone[k]) > 0 && m.chance(0.5):
		return m.pick(m.gone[k])
	default:
		return m.newName(k)
	}
}

func (m *genModel) collection(k *genKind) string { return k.collection }
func (m *genModel) item(k *genKind, name string) string {
	return k.collection + "/" + name
}

// varName is the variable holding a value of an object, saved from the
// answers of the steps that touch it.
func varName(what string, k *genKind, name string) string {
	// (a generated name is itself a reference, "${genN}", which may
	// not nest in another)
	name = strings.NewReplacer("${", "", "}", "").Replace(name)
	return what + "." + k.name + "." + name
}

// track saves the resource version and uid of the object in the answer.
func (m *genModel) track(s *step, k *genKind, name string) *step {
	s.save(varName("rv", k, name), "metadata.resourceVersion")
	s.save(varName("uid", k, name), "metadata.uid")
	m.tracked[k.name+"/"+name] = true
	return s
}

// saved is the reference to a saved value of an object, or "" when no
// step saved it (the request then leaves it out).
func (m *genModel) saved(what string, k *genKind, name string) string {
	if !m.tracked[k.name+"/"+name] {
		return ""
	}
	return "${" + varName(what, k, name) + "}"
}

func (m *genModel) add(s *step) {
	if s.headers["Accept"] == "" && m.chance(0.1) {
		s.accept(m.pick([]string{"application/yaml", "application/vnd.kubernetes.protobuf", "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io, application/json"}))
	}
}

func jsonBody(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func (m *genModel) query(params ...string) string {
	var q []string
	for i := 0; i+1 < len(params); i += 2 {
		if params[i+1] != "" {
			q = append(q, params[i]+"="+params[i+1])
		}
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + strings.Join(q, "&")
}

func (m *genModel) dryRun() string {
	if m.chance(0.15) {
		return "All"
	}
	return ""
}

func (m *genModel) labelSet() map[string]string { return genLabelSets[m.rng.IntN(len(genLabelSets))] }

func (m *genModel) create(k *genKind) {
	labels := m.labelSet()
	dry := m.dryRun()
	switch r := m.rng.IntN(20); {
	case r == 0:
		// Invalid object.
		m.c.post("create invalid "+k.name, k.collection, jsonBody(k.invalid(m.newName(k))))
		return
	case r == 1:
		// Name missing.
		o := m.object(k, "", labels, m.rng.IntN(10))
		delete(o["metadata"].(map[string]any), "name")
		m.c.post("create "+k.name+" without a name", k.collection, jsonBody(o))
		return
	case r == 2 && k.namespaced:
		// The body names another namespace.
		o := m.object(k, m.newName(k), labels, 0)
		o["metadata"].(map[string]any)["namespace"] = "elsewhere"
		m.c.post("create "+k.name+" in another namespace", k.collection, jsonBody(o))
		return
	case r == 3:
		// Wrong kind in the body.
		o := m.object(k, m.newName(k), labels, 0)
		o["kind"] = "Widget"
		m.c.post("create "+k.name+" of the wrong kind", k.collection, jsonBody(o))
		return
	case r == 4 && len(m.names[k]) > 0:
		// Already exists.
		name := m.pick(m.names[k])
		m.c.post("create existing "+k.name, k.collection+m.query("dryRun", dry), jsonBody(m.object(k, name, labels, 1)))
		return
	case r == 5:
		m.saves++
		gen := fmt.Sprintf("gen%d", m.saves)
		o := m.object(k, "", labels, m.rng.IntN(10))
		meta := o["metadata"].(map[string]any)
		delete(meta, "name")
		prefix := k.name + "-gen-"
		if !k.namespaced {
			prefix = m.ns + "-gen-"
		}
		meta["generateName"] = prefix
		s := m.c.post("create "+k.name+" with generateName", k.collection+m.query("dryRun", dry), jsonBody(o))
		if dry == "" {
			s.save(gen, "metadata.name")
			name := "${" + gen + "}"
			m.track(s, k, name)
			m.names[k] = append(m.names[k], name)
			m.labels[k.name+"/"+name] = labels
		}
		return
	}
	name := m.newName(k)
	q := m.query("dryRun", dry, "fieldManager", m.fieldManager(), "fieldValidation", m.fieldValidation())
	o := m.object(k, name, labels, m.rng.IntN(10))
	if m.chance(0.1) {
		o["unknownField"] = 1
	}
	s := m.c.post("create "+k.name, k.collection+q, jsonBody(o))
	m.add(s)
	if dry == "" {
		m.track(s, k, name)
		m.names[k] = append(m.names[k], name)
		m.labels[k.name+"/"+name] = labels
	}
}

func (m *genModel) fieldManager() string {
	if m.chance(0.2) {
		return m.pick([]string{"alice", "bob"})
	}
	return ""
}

func (m *genModel) fieldValidation() string {
	if m.chance(0.15) {
		return m.pick([]string{"Strict", "Warn", "Ignore", "Wrong"})
	}
	return ""
}

func (m *genModel) get(k *genKind) {
	name := m.target(k)
	q := ""
	if m.chance(0.15) {
		q = m.query("resourceVersion", m.pick([]string{"0", m.saved("rv", k, name)}))
	}
	s := m.c.get("get "+k.name, m.item(k, name)+q)
	if m.chance(0.5) {
		s.accept(m.pick(objectAccepts))
	} else {
		m.track(s, k, name)
	}
}

func (m *genModel) list(k *genKind) {
	var params []string
	labelSel := ""
	if m.chance(0.4) {
		labelSel = m.pick([]string{"app%3Da", "app%21%3Da", "app+in+%28a%2Cb%29", "tier", "%21tier", "app%3Da%2Ctier%3Dx", "app%3D%3Da", "bad%20selector%21"})
	}
	if labelSel = m.collectionSelector(k, labelSel); labelSel != "" {
		params = append(params, "labelSelector", labelSel)
	}
	if m.chance(0.2) {
		params = append(params, "fieldSelector", m.pick(m.fieldSelectors(k)))
	}
	limit := ""
	if m.chance(0.4) {
		limit = fmt.Sprint(m.rng.IntN(3))
		params = append(params, "limit", limit)
	}
	switch r := m.rng.IntN(10); {
	case r == 0:
		params = append(params, "resourceVersion", "0")
	case r == 1:
		params = append(params, "resourceVersion", "0", "resourceVersionMatch", "NotOlderThan")
	case r == 2 && len(m.rvs) > 0:
		params = append(params, "resourceVersion", m.pick(m.rvs), "resourceVersionMatch", m.pick([]string{"Exact", "NotOlderThan", ""}))
	case r == 3:
		params = append(params, "resourceVersionMatch", "Exact")
	case r == 4 && len(m.conts) > 0:
		params = append(params, "continue", m.pick(m.conts))
	case r == 5:
		params = append(params, "continue", "bm90LWEtdG9rZW4")
	}
	s := m.c.get("list "+k.name, k.collection+m.query(params...))
	if m.chance(0.4) {
		s.accept(m.pick(listAccepts))
	} else {
		m.saves++
		cont := fmt.Sprintf("cont%d", m.saves)
		rv := fmt.Sprintf("listrv%d", m.saves)
		s.save(cont, "metadata.continue")
		s.save(rv, "metadata.resourceVersion")
		if limit != "" {
			m.conts = append(m.conts, "${"+cont+"}")
		}
		m.rvs = append(m.rvs, "${"+rv+"}")
	}
}

func (m *genModel) fieldSelectors(k *genKind) []string {
	out := []string{"metadata.name%3D" + m.target(k), "metadata.name%21%3D" + m.target(k), "metadata.namespace%3D" + m.ns, "spec.unknown%3Dx"}
	switch k.kind {
	case "Secret":
		out = append(out, "type%3DOpaque")
	case "Pod":
		out = append(out, "status.phase%3DRunning", "spec.nodeName%3D")
	case "Namespace":
		out = append(out, "status.phase%3DActive")
	}
	return out
}

// fresh returns the object's body for an update: its model content
// changed, with the saved resource version (or a stale or no one).
func (m *genModel) update(k *genKind) {
	name := m.target(k)
	o := m.object(k, name, m.labels[k.name+"/"+name], m.rng.IntN(10))
	meta := o["metadata"].(map[string]any)
	switch r := m.rng.IntN(10); {
	case r < 6:
		if rv := m.saved("rv", k, name); rv != "" {
			meta["resourceVersion"] = rv
		}
	case r == 6:
		meta["resourceVersion"] = "1"
	case r == 7:
		meta["resourceVersion"] = "abc"
	case r == 8:
		meta["name"] = name + "-other"
	}
	if m.chance(0.1) {
		meta["uid"] = "00000000-0000-0000-0000-000000000000"
	}
	dry := m.dryRun()
	s := m.c.put("update "+k.name, m.item(k, name)+m.query("dryRun", dry, "fieldManager", m.fieldManager(), "fieldValidation", m.fieldValidation()), jsonBody(o))
	m.add(s)
	if dry == "" {
		m.track(s, k, name)
	}
}

func (m *genModel) patch(k *genKind) {
	name := m.target(k)
	dry := m.dryRun()
	var ct, body, what string
	force := ""
	switch r := m.rng.IntN(5); r {
	case 0:
		ct, what = ctMerge, "merge"
		body = jsonBody(map[string]any{"metadata": map[string]any{"labels": map[string]any{"tier": m.pick([]string{"x", "y"}), "app": nil}, "annotations": map[string]any{"a": fmt.Sprint(m.rng.IntN(3))}}})
	case 1:
		ct, what = ctStrategic, "strategic"
		o := m.object(k, name, nil, m.rng.IntN(10))
		delete(o, "apiVersion")
		delete(o, "kind")
		delete(o["metadata"].(map[string]any), "name")
		o["metadata"].(map[string]any)["labels"] = map[string]any{"app": m.pick([]string{"a", "b"})}
		if m.chance(0.3) {
			o["metadata"].(map[string]any)["$patch"] = "replace"
		}
		body = jsonBody(o)
	case 2:
		ct, what = ctJSONPatch, "json"
		ops := []string{
			`[{"op":"add","path":"/metadata/labels","value":{"app":"a"}}]`,
			`[{"op":"replace","path":"/metadata/labels/app","value":"b"}]`,
			`[{"op":"remove","path":"/metadata/labels/tier"}]`,
			`[{"op":"test","path":"/metadata/name","value":"` + name + `"},{"op":"add","path":"/metadata/annotations","value":{"t":"1"}}]`,
			`[{"op":"test","path":"/metadata/name","value":"other"}]`,
			`[{"op":"move","from":"/metadata/labels","path":"/metadata/annotations"}]`,
			`[{"op":"copy","from":"/metadata/name","path":"/metadata/generateName"}]`,
			`[{"op":"add","path":"/metadata/resourceVersion","value":"1"}]`,
			`[{"op":"bogus"}]`,
			`{"op":"add"}`,
		}
		body = m.pick(ops)
	case 3, 4:
		ct, what = "application/apply-patch+yaml", "apply"
		o := m.object(k, name, m.labelSet(), m.rng.IntN(10))
		if m.chance(0.1) {
			delete(o, "kind")
		}
		body = jsonBody(o)
		if m.chance(0.3) {
			force = "true"
		}
	}
	manager := m.fieldManager()
	if what == "apply" && (manager == "" || m.chance(0.1)) {
		manager = m.pick([]string{"alice", "bob", ""})
	}
	path := m.item(k, name)
	if k.status && m.contains(m.names[k], name) && m.chance(0.2) {
		// (an apply to the status of a missing object creates it on
		// kube-apiserver, a known difference that would cascade)
		path += "/status"
		what += " status"
	}
	s := m.c.patch(what+" patch "+k.name, path+m.query("dryRun", dry, "fieldManager", manager, "force", force), ct, body)
	m.add(s)
	if dry == "" {
		m.track(s, k, name)
		if what == "apply" && !m.contains(m.names[k], name) {
			m.names[k] = append(m.names[k], name)
		}
	}
}

func (m *genModel) contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (m *genModel) delete(k *genKind) {
	name := m.target(k)
	var opts map[string]any
	var params []string
	switch r := m.rng.IntN(8); r {
	case 0:
		if uid := m.saved("uid", k, name); uid != "" {
			opts = map[string]any{"preconditions": map[string]any{"uid": uid}}
		}
	case 1:
		opts = map[string]any{"preconditions": map[string]any{"uid": "00000000-0000-0000-0000-000000000000"}}
	case 2:
		if rv := m.saved("rv", k, name); rv != "" {
			opts = map[string]any{"preconditions": map[string]any{"resourceVersion": rv}}
		}
	case 3:
		opts = map[string]any{"preconditions": map[string]any{"resourceVersion": "1"}}
	case 4:
		params = append(params, "propagationPolicy", m.pick([]string{"Orphan", "Background", "Foreground", "Sideways"}))
	case 5:
		params = append(params, "gracePeriodSeconds", m.pick([]string{"0", "5", "-1"}))
	}
	dry := m.dryRun()
	params = append(params, "dryRun", dry)
	body := ""
	if opts != nil {
		opts["apiVersion"], opts["kind"] = "v1", "DeleteOptions"
		body = jsonBody(opts)
	}
	s := m.c.del("delete "+k.name, m.item(k, name)+m.query(params...), body)
	m.add(s)
	if dry == "" && r0(opts) {
		m.remove(k, name)
	}
	_ = s
}

// r0 says whether a delete without a precondition, which takes effect
// if the object exists (a precondition might fail).
func r0(opts map[string]any) bool { return opts == nil }

func (m *genModel) remove(k *genKind, name string) {
	if k.kind == "Namespace" || k.kind == "Pod" {
		// Namespaces and Pods linger (no controllers, graceful
		// deletion) in either server alike; keep aiming at them.
		return
	}
	out := m.names[k][:0]
	for _, n := range m.names[k] {
		if n != name {
			out = append(out, n)
		}
	}
	m.names[k] = out
	m.gone[k] = append(m.gone[k], name)
}

func (m *genModel) deleteCollection(k *genKind) {
	if !k.namespaced {
		m.list(k)
		return
	}
	sel := genSelectors[m.rng.IntN(len(genSelectors))]
	dry := m.dryRun()
	s := m.c.del("delete collection "+k.name, k.collection+m.query("labelSelector", strings.NewReplacer("=", "%3D", "!", "%21", " ", "+", "(", "%28", ")", "%29", ",", "%2C").Replace(sel.selector), "dryRun", dry), "")
	m.add(s)
}

func (m *genModel) subresource(k *genKind) {
	name := m.target(k)
	switch {
	case k.scale && m.chance(0.5):
		scale := m.item(k, name) + "/scale"
		switch m.rng.IntN(4) {
		case 0:
			m.c.get("get scale "+k.name, scale)
		case 1:
			s := m.c.put("update scale "+k.name, scale, jsonBody(map[string]any{"apiVersion": "autoscaling/v1", "kind": "Scale", "metadata": map[string]any{"name": name, "resourceVersion": m.saved("rv", k, name)}, "spec": map[string]any{"replicas": m.rng.IntN(5)}}))
			m.track(s, k, name)
		case 2:
			m.c.put("update scale "+k.name+" without a version", scale, jsonBody(map[string]any{"apiVersion": "autoscaling/v1", "kind": "Scale", "metadata": map[string]any{"name": name}, "spec": map[string]any{"replicas": m.rng.IntN(5) - 1}}))
		case 3:
			m.c.patch("merge patch scale "+k.name, scale, ctMerge, jsonBody(map[string]any{"spec": map[string]any{"replicas": m.rng.IntN(5)}}))
		}
	case k.status:
		if !m.contains(m.names[k], name) {
			// (a status write to a missing Service creates it on
			// kube-apiserver, a known difference that would cascade)
			m.get(k)
			return
		}
		status := m.item(k, name) + "/status"
		if m.chance(0.4) {
			s := m.c.get("get status "+k.name, status)
			m.track(s, k, name)
			return
		}
		o := m.object(k, name, m.labels[k.name+"/"+name], m.rng.IntN(10))
		o["status"] = k.statusBody(m.rng.IntN(10))
		if rv := m.saved("rv", k, name); rv != "" && m.chance(0.8) {
			o["metadata"].(map[string]any)["resourceVersion"] = rv
		}
		s := m.c.put("update status "+k.name, status+m.query("dryRun", m.dryRun()), jsonBody(o))
		m.track(s, k, name)
	default:
		m.get(k)
	}
}

// watch opens a watch of the collection; the runner ends it by creating
// a sentinel object its selector matches and reading up to that object's
// event, so that it waits for nothing but the servers.
func (m *genModel) watch(k *genKind) {
	params := []string{"watch", "true"}
	sel := genSelector{}
	labelSel := ""
	if m.chance(0.4) {
		sel = genSelectors[m.rng.IntN(len(genSelectors))]
		labelSel = strings.NewReplacer("=", "%3D", "!", "%21", " ", "+", "(", "%28", ")", "%29", ",", "%2C").Replace(sel.selector)
	}
	if labelSel = m.collectionSelector(k, labelSel); labelSel != "" {
		params = append(params, "labelSelector", labelSel)
	}
	if m.chance(0.15) {
		params = append(params, "fieldSelector", "metadata.name%21%3Dnothing")
	}
	switch r := m.rng.IntN(8); {
	case r == 0:
		params = append(params, "resourceVersion", "0")
	case r <= 2 && len(m.rvs) > 0:
		params = append(params, "resourceVersion", m.pick(m.rvs))
	case r == 3:
		params = append(params, "sendInitialEvents", "true", "allowWatchBookmarks", "true", "resourceVersionMatch", "NotOlderThan")
	case r == 4:
		params = append(params, "sendInitialEvents", "true", "resourceVersionMatch", "NotOlderThan")
	case r == 5:
		params = append(params, "resourceVersion", "1")
	}
	m.count++
	sentinel := fmt.Sprintf("zz-sentinel-%d", m.count)
	if !k.namespaced {
		sentinel = fmt.Sprintf("%s-zz-sentinel-%d", m.ns, m.count)
	}
	s := m.c.get("watch "+k.name, k.collection+m.query(params...)).streamed()
	if m.chance(0.2) {
		s.accept("application/json;as=Table;v=v1;g=meta.k8s.io")
	}
	m.sentinels[s] = genSentinel{name: sentinel, create: &step{scenario: s.scenario, ns: s.ns, name: "sentinel", method: "POST", path: k.collection, body: []byte(jsonBody(m.object(k, sentinel, sel.matching, 0)))}}
	m.names[k] = append(m.names[k], sentinel)
	m.labels[k.name+"/"+sentinel] = sel.matching
}
