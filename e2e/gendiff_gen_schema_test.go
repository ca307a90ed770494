package e2e

import (
	"fmt"
	"strings"
)

// The generator's schema operations: what operators' CRDs declare and
// the other operations do not reach, written to a custom resource whose
// schema has them all (shapeCRD): structural defaults (nested, in list
// items, with nullable), pruning of unknown fields beside
// x-kubernetes-preserve-unknown-fields, x-kubernetes-int-or-string,
// x-kubernetes-embedded-resource, list types set and map and an atomic
// map written by two appliers, CEL rules with messageExpression, a
// transition rule and one with optionalOldSelf, field validation Strict,
// Warn and Ignore with unknown and duplicate fields, dry run on every
// verb, delete collection by label, the status and scale subresources
// with a label selector path, a deprecated version and one not served,
// and names a custom resource may not have. Seeds from genSchemaFirst on
// use them besides the others, so that the seeds below keep their
// sequences:
//
//	go test -run TestGeneratedSequences -gendiff.seeds 100 -gendiff.first 6000 .
const genSchemaFirst = 6000

var genSchemaOps = []genOp{
	{18, (*genModel).shapeCreate},
	{12, (*genModel).shapeUpdate},
	{15, (*genModel).shapePatch},
	{10, (*genModel).shapeSubresources},
	{5, (*genModel).shapeDelete},
	{6, (*genModel).shapeRead},
}

// shapeSchema is the schema of every version of the Shape kind.
const shapeSchema = `{"openAPIV3Schema":{"type":"object","properties":{
"spec":{"type":"object",
 "x-kubernetes-validations":[{"rule":"!has(self.minimum) || !has(self.maximum) || self.minimum <= self.maximum","messageExpression":"self.minimum > self.maximum + 2 ? 'minimum is far above maximum' : 'minimum is above maximum'"}],
 "properties":{
  "replicas":{"type":"integer","minimum":0,"default":1},
  "mode":{"type":"string","enum":["fast","slow"],"default":"fast"},
  "size":{"x-kubernetes-int-or-string":true},
  "note":{"type":"string","nullable":true,"default":"none"},
  "nested":{"type":"object","default":{},"properties":{"level":{"type":"string","default":"low"},"inner":{"type":"object","default":{},"properties":{"depth":{"type":"integer","default":3}}}}},
  "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"port":{"type":"integer","default":80},"protocol":{"type":"string","default":"TCP"}}}},
  "tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
  "params":{"type":"object","x-kubernetes-map-type":"atomic","additionalProperties":{"type":"string"}},
  "extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
  "template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
  "minimum":{"type":"integer"},
  "maximum":{"type":"integer"},
  "id":{"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf","message":"id is immutable"}]},
  "counter":{"type":"integer","x-kubernetes-validations":[{"rule":"!oldSelf.hasValue() || self >= oldSelf.value()","optionalOldSelf":true,"messageExpression":"self == 0 ? 'counter may not go down to zero' : 'counter may not go down'"}]}}},
"status":{"type":"object","properties":{"replicas":{"type":"integer"},"selector":{"type":"string"},"phase":{"type":"string","default":"New"}}}}}}`

const shapeSubresources = `{"status":{},"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas","labelSelectorPath":".status.selector"}}`

// shapeCRD is the custom resource of the schema operations: v1 stored,
// v1beta1 served and deprecated, v1alpha1 not served.
const shapeCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"shapes.gendiff.example.com"},
"spec":{"group":"gendiff.example.com","scope":"Namespaced","names":{"plural":"shapes","singular":"shape","kind":"Shape","listKind":"ShapeList"},
"versions":[
{"name":"v1","served":true,"storage":true,"subresources":` + shapeSubresources + `,"schema":` + shapeSchema + `},
{"name":"v1beta1","served":true,"storage":false,"deprecated":true,"subresources":` + shapeSubresources + `,"schema":` + shapeSchema + `},
{"name":"v1alpha1","served":false,"storage":false,"schema":` + shapeSchema + `}]}}`

// shapeKind is the Shape kind; it is not in genKinds, whose order the
// older seeds' sequences depend on.
var shapeKind = &genKind{name: "shape", collection: "/apis/gendiff.example.com/v1/namespaces/${ns}/shapes", apiVersion: "gendiff.example.com/v1", kind: "Shape", namespaced: true, status: true, scale: true,
	object: func(name string, labels map[string]string, v int) map[string]any {
		return obj("gendiff.example.com/v1", "Shape", name, labels, "spec", map[string]any{"replicas": v % 3, "id": fmt.Sprint("id", v%2), "counter": v})
	},
	invalid: func(name string) map[string]any {
		return obj("gendiff.example.com/v1", "Shape", name, nil, "spec", map[string]any{"minimum": 5, "maximum": 1})
	},
	statusBody: func(v int) map[string]any {
		return map[string]any{"replicas": v % 3, "selector": "app=a"}
	}}

// shapeVersion is a version of the Shape kind to write or read through:
// mostly the stored one, sometimes the deprecated one or the one not
// served.
func (m *genModel) shapeVersion() string {
	switch r := m.rng.IntN(20); {
	case r < 14:
		return "v1"
	case r < 19:
		return "v1beta1"
	default:
		return "v1alpha1"
	}
}

// shapeCollection is the collection path at a version.
func shapeCollection(version string) string {
	return strings.Replace(shapeKind.collection, "/v1/", "/"+version+"/", 1)
}

// shapeBody is a Shape of version with a random mix of the schema's
// features: fields left to their defaults or sent null, int-or-string
// values, an embedded object, list items, unknown fields, and now and
// then a value the schema refuses.
func (m *genModel) shapeBody(version, name string, labels map[string]string) map[string]any {
	spec := map[string]any{"replicas": m.rng.IntN(4)}
	switch m.rng.IntN(4) {
	case 1:
		spec["mode"] = nil // not nullable: pruned, then defaulted
	case 2:
		spec["mode"] = "slow"
	case 3:
		if m.chance(0.2) {
			spec["mode"] = "bogus"
		}
	}
	switch m.rng.IntN(4) {
	case 1:
		spec["note"] = nil // nullable: kept
	case 2:
		spec["note"] = "n"
	}
	switch m.rng.IntN(5) {
	case 1:
		spec["size"] = 3
	case 2:
		spec["size"] = "50%"
	case 3:
		if m.chance(0.3) {
			spec["size"] = true
		}
	}
	switch m.rng.IntN(5) {
	case 1:
		spec["nested"] = map[string]any{}
	case 2:
		spec["nested"] = map[string]any{"inner": map[string]any{}}
	case 3:
		spec["nested"] = map[string]any{"level": "high", "inner": map[string]any{"depth": 1, "unknown": true}}
	case 4:
		spec["nested"] = nil
	}
	if m.chance(0.5) {
		ports := []any{map[string]any{"name": "http"}, map[string]any{"name": "https", "port": 443}}
		switch {
		case m.chance(0.1):
			ports = append(ports, map[string]any{"name": "http", "port": 81}) // duplicate key
		case m.chance(0.1):
			ports = append(ports, map[string]any{"port": 82}) // no key
		}
		spec["ports"] = ports
	}
	if m.chance(0.4) {
		tags := []any{"a", "b"}
		if m.chance(0.15) {
			tags = append(tags, "a")
		}
		spec["tags"] = tags
	}
	if m.chance(0.3) {
		spec["params"] = map[string]any{"p": "1", "q": "2"}
	}
	if m.chance(0.3) {
		spec["extra"] = map[string]any{"anything": map[string]any{"goes": []any{1, "x"}}}
	}
	if m.chance(0.3) {
		t := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "t", "labels": map[string]any{"x": "y"}}, "data": map[string]any{"k": "v"}}
		switch {
		case m.chance(0.15):
			delete(t, "kind")
		case m.chance(0.15):
			t["metadata"] = map[string]any{"name": "t", "bogus": 1}
		case m.chance(0.15):
			t["metadata"] = map[string]any{"name": "Not_A_Name"}
		}
		spec["template"] = t
	}
	if m.chance(0.3) {
		spec["minimum"] = m.rng.IntN(5)
		spec["maximum"] = m.rng.IntN(5)
	}
	if m.chance(0.6) {
		spec["id"] = fmt.Sprint("id", m.rng.IntN(2))
	}
	if m.chance(0.5) {
		spec["counter"] = m.rng.IntN(5)
	}
	if m.chance(0.15) {
		spec["unknownSpecField"] = "x"
	}
	o := obj("gendiff.example.com/"+version, "Shape", name, labels, "spec", spec)
	if m.chance(0.1) {
		o["unknownTopField"] = 1
	}
	if m.chance(0.05) {
		o["metadata"].(map[string]any)["bogusMeta"] = "x"
	}
	if m.chance(0.15) {
		o["status"] = map[string]any{"replicas": 1}
	}
	return o
}

// shapeName is a new Shape's name, now and then one a custom resource
// may not have.
func (m *genModel) shapeName() (string, bool) {
	name := m.newName(shapeKind)
	if m.chance(0.1) {
		return m.pick([]string{"Upper-" + name, name + "_x", "-" + name, name + ".dotted", strings.Repeat("n", 254)}), false
	}
	return name, true
}

// withDuplicateField turns a JSON body into one with a spec field twice.
func withDuplicateField(body string) string {
	return strings.Replace(body, `"spec":{`, `"spec":{"replicas":9,`, 1)
}

// shapeWriteQuery is the query of a write: dry run, a field manager and
// field validation, each now and then.
func (m *genModel) shapeWriteQuery(dry string, more ...string) string {
	params := append([]string{"dryRun", dry, "fieldManager", m.fieldManager(), "fieldValidation", m.pick([]string{"", "", "Strict", "Warn", "Ignore"})}, more...)
	return m.query(params...)
}

// shapeDryRun is dry run on a quarter of the writes.
func (m *genModel) shapeDryRun() string {
	if m.chance(0.25) {
		return "All"
	}
	return ""
}

func (m *genModel) shapeCreate(_ *genKind) {
	k := shapeKind
	version := m.shapeVersion()
	name, valid := m.shapeName()
	labels := m.labelSet()
	body := jsonBody(m.shapeBody(version, name, labels))
	if m.chance(0.15) {
		body = withDuplicateField(body)
	}
	dry := m.shapeDryRun()
	s := m.c.post("create shape "+version, shapeCollection(version)+m.shapeWriteQuery(dry), body)
	m.add(s)
	if dry == "" && valid && version != "v1alpha1" {
		m.track(s, k, name)
		m.names[k] = append(m.names[k], name)
		m.labels[k.name+"/"+name] = labels
	}
}

func (m *genModel) shapeUpdate(_ *genKind) {
	k := shapeKind
	name := m.target(k)
	version := m.shapeVersion()
	o := m.shapeBody(version, name, m.labels[k.name+"/"+name])
	spec := o["spec"].(map[string]any)
	switch m.rng.IntN(4) {
	case 0:
		spec["id"] = "changed" // the transition rule refuses it
	case 1:
		spec["counter"] = 0 // down, unless it was 0 or absent
	}
	if rv := m.saved("rv", k, name); rv != "" && m.chance(0.85) {
		o["metadata"].(map[string]any)["resourceVersion"] = rv
	}
	body := jsonBody(o)
	if m.chance(0.1) {
		body = withDuplicateField(body)
	}
	dry := m.shapeDryRun()
	s := m.c.put("update shape "+version, shapeCollection(version)+"/"+name+m.shapeWriteQuery(dry), body)
	m.add(s)
	if dry == "" {
		m.track(s, k, name)
	}
}

func (m *genModel) shapePatch(_ *genKind) {
	k := shapeKind
	name := m.target(k)
	version := m.shapeVersion()
	item := shapeCollection(version) + "/" + name
	dry := m.shapeDryRun()
	var s *step
	switch m.rng.IntN(8) {
	case 0:
		s = m.c.patch("merge patch shape nulls", item+m.shapeWriteQuery(dry), ctMerge, m.pick([]string{
			`{"spec":{"note":null}}`, `{"spec":{"mode":null,"nested":null}}`, `{"spec":{"nested":{"inner":null}}}`,
			`{"spec":{"ports":[{"name":"only"}]}}`, `{"spec":{"counter":null}}`, `{"spec":{"id":null}}`,
		}))
	case 1:
		s = m.c.patch("merge patch shape unknown fields", item+m.shapeWriteQuery(dry), ctMerge, m.pick([]string{
			`{"spec":{"unknownSpecField":1,"replicas":2}}`, `{"unknownTopField":{"a":1}}`, `{"spec":{"extra":{"kept":true}}}`,
			`{"spec":{"nested":{"inner":{"depth":2,"bogus":1}}}}`, `{"spec":{"replicas":1,"replicas":2}}`, `{"spec":{"size":"10%"}}`, `{"spec":{"size":1.5}}`,
		}))
	case 2:
		s = m.c.patch("json patch shape", item+m.shapeWriteQuery(dry), ctJSONPatch, m.pick([]string{
			`[{"op":"add","path":"/spec/tags","value":["x","x"]}]`, `[{"op":"add","path":"/spec/tags","value":["x","y"]}]`,
			`[{"op":"add","path":"/spec/ports","value":[{"name":"a"},{"name":"a"}]}]`, `[{"op":"add","path":"/spec/ports","value":[{"name":"a","port":1}]}]`,
			`[{"op":"replace","path":"/spec/id","value":"other"}]`, `[{"op":"add","path":"/spec/counter","value":100}]`,
			`[{"op":"add","path":"/spec/minimum","value":9},{"op":"add","path":"/spec/maximum","value":1}]`,
			`[{"op":"add","path":"/spec/template","value":{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"}}}]`,
			`[{"op":"remove","path":"/spec/nested"}]`,
		}))
	case 3:
		s = m.c.patch("strategic patch shape", item, ctStrategic, `{"spec":{"replicas":2}}`)
	default:
		// Two appliers on the list map, the set and the atomic map.
		manager := m.pick([]string{"alice", "bob"})
		spec := map[string]any{}
		switch m.rng.IntN(3) {
		case 0:
			spec["ports"] = []any{map[string]any{"name": manager, "port": 1000 + m.rng.IntN(3)}}
		case 1:
			spec["tags"] = []any{manager, "shared"}
		case 2:
			spec["params"] = map[string]any{manager: "1"}
		}
		if m.chance(0.2) {
			spec["replicas"] = m.rng.IntN(3)
		}
		o := obj("gendiff.example.com/"+version, "Shape", name, nil, "spec", spec)
		if m.chance(0.1) {
			o["spec"].(map[string]any)["unknownSpecField"] = 1
		}
		force := ""
		if m.chance(0.3) {
			force = "true"
		}
		s = m.c.apply("apply shape as "+manager, item+m.query("dryRun", dry, "fieldManager", manager, "force", force, "fieldValidation", m.pick([]string{"", "Strict", "Warn", "Ignore"})), jsonBody(o))
		if dry == "" && version != "v1alpha1" && !m.contains(m.names[k], name) {
			m.names[k] = append(m.names[k], name)
		}
	}
	m.add(s)
	if dry == "" {
		m.track(s, k, name)
	}
}

func (m *genModel) shapeSubresources(_ *genKind) {
	k := shapeKind
	name := m.target(k)
	version := m.shapeVersion()
	item := shapeCollection(version) + "/" + name
	dry := m.shapeDryRun()
	switch m.rng.IntN(7) {
	case 0:
		m.c.get("get shape scale", item+"/scale")
	case 1:
		scale := map[string]any{"apiVersion": "autoscaling/v1", "kind": "Scale", "metadata": map[string]any{"name": name, "resourceVersion": m.saved("rv", k, name)}, "spec": map[string]any{"replicas": m.rng.IntN(5) - 1}}
		m.track(m.c.put("update shape scale", item+"/scale"+m.query("dryRun", dry), jsonBody(scale)), k, name)
	case 2:
		m.c.patch("merge patch shape scale", item+"/scale"+m.query("dryRun", dry), ctMerge, jsonBody(map[string]any{"spec": map[string]any{"replicas": m.rng.IntN(5)}}))
	case 3:
		if !m.contains(m.names[k], name) {
			m.c.get("get shape status", item+"/status")
			return
		}
		o := obj("gendiff.example.com/"+version, "Shape", name, m.labels[k.name+"/"+name], "status", map[string]any{"replicas": m.rng.IntN(3), "selector": m.pick([]string{"app=a", "app in (a,b)", "bad selector!"})})
		if rv := m.saved("rv", k, name); rv != "" && m.chance(0.8) {
			o["metadata"].(map[string]any)["resourceVersion"] = rv
		}
		if m.chance(0.2) {
			o["status"].(map[string]any)["unknownStatusField"] = 1
		}
		m.track(m.c.put("update shape status", item+"/status"+m.shapeWriteQuery(dry), jsonBody(o)), k, name)
	case 4:
		m.c.patch("merge patch shape status", item+"/status"+m.shapeWriteQuery(dry), ctMerge, m.pick([]string{
			`{"status":{"selector":"app=b","replicas":2}}`, `{"status":{"phase":null}}`, `{"status":{"replicas":"many"}}`, `{"spec":{"replicas":3},"status":{"replicas":1}}`,
		}))
	case 5:
		m.c.apply("apply shape status", item+"/status"+m.query("dryRun", dry, "fieldManager", "statusbot", "force", "true"), jsonBody(obj("gendiff.example.com/"+version, "Shape", name, nil, "status", map[string]any{"selector": "app=a", "replicas": 1})))
	case 6:
		m.c.get("get shape status", item+"/status")
	}
}

func (m *genModel) shapeDelete(_ *genKind) {
	k := shapeKind
	version := m.shapeVersion()
	dry := m.shapeDryRun()
	if m.chance(0.5) {
		sel := genSelectors[m.rng.IntN(len(genSelectors))]
		m.c.del("delete collection shape", shapeCollection(version)+m.query("labelSelector", strings.NewReplacer("=", "%3D", "!", "%21", " ", "+", "(", "%28", ")", "%29", ",", "%2C").Replace(sel.selector), "dryRun", dry), "")
		return
	}
	name := m.target(k)
	m.c.del("delete shape", shapeCollection(version)+"/"+name+m.query("dryRun", dry), "")
	if dry == "" && version != "v1alpha1" {
		m.remove(k, name)
	}
}

func (m *genModel) shapeRead(_ *genKind) {
	k := shapeKind
	version := m.shapeVersion()
	if m.chance(0.2) {
		watches := [][]string{nil, {"resourceVersion", "0"}, {"sendInitialEvents", "true", "resourceVersionMatch", "NotOlderThan", "allowWatchBookmarks", "true"}}
		m.watchWith(k, watches[m.rng.IntN(len(watches))])
		return
	}
	if m.chance(0.5) {
		s := m.c.get("get shape "+version, shapeCollection(version)+"/"+m.target(k))
		if m.chance(0.3) {
			s.accept(m.pick(objectAccepts))
		}
		return
	}
	params := []string{}
	if m.chance(0.5) {
		params = append(params, "labelSelector", m.pick([]string{"app%3Da", "tier", "app+in+%28a%2Cb%29"}))
	}
	s := m.c.get("list shapes "+version, shapeCollection(version)+m.query(params...))
	if m.chance(0.3) {
		s.accept(m.pick(listAccepts))
	}
}
