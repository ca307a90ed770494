package e2e

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The generator's controller operations: what controllers send that the
// generator did not (server-side apply by two managers on the same
// fields, with and without force, and an update manager between them;
// applies of list-map items, a Deployment's containers by name and a
// Service's ports by port and protocol, each manager its own item; a
// custom resource's list with no list type, atomic; lists paged with
// limit and continue while the collection changes; Pods bound to a node
// and selected by spec.nodeName, status.phase and metadata.namespace
// with set-based label selectors, listed and watched). Seeds from
// genControllerFirst on use them besides the others, so that the seeds
// below keep their sequences:
//
//	go test -run TestGeneratedSequences -gendiff.seeds 100 -gendiff.first 4000 .
const genControllerFirst = 4000

var genControllerOps = []genOp{
	{4, (*genModel).applyConflicts},
	{3, (*genModel).applyListItems},
	{3, (*genModel).pagesAcrossWrites},
	{3, (*genModel).podsByNode},
}

// applyPath is the apply patch URL of an object for a field manager.
func (m *genModel) applyPath(k *genKind, name, manager string, force bool) string {
	f := ""
	if force {
		f = "true"
	}
	return m.item(k, name) + m.query("fieldManager", manager, "force", f)
}

// applyConflicts has alice apply an object, bob apply other values of
// the same fields (a conflict, then forced), alice apply hers again, an
// update by carol take fields over, and alice apply once more, then
// give up a field by leaving it out.
func (m *genModel) applyConflicts(k *genKind) {
	if k.kind == "Namespace" || k.kind == "Secret" {
		k = genKinds[0]
	}
	name := m.newName(k)
	labels := m.labelSet()
	v := m.rng.IntN(10)
	mine := jsonBody(m.object(k, name, labels, v))
	theirs := jsonBody(m.object(k, name, labels, v+1))
	m.track(m.c.apply("apply "+k.name+" as alice", m.applyPath(k, name, "alice", false), mine), k, name)
	m.names[k] = append(m.names[k], name)
	m.labels[k.name+"/"+name] = labels
	m.c.apply("apply other values to "+k.name+" as bob", m.applyPath(k, name, "bob", false), theirs)
	if m.chance(0.7) {
		m.track(m.c.apply("force apply "+k.name+" as bob", m.applyPath(k, name, "bob", true), theirs), k, name)
		m.c.apply("apply "+k.name+" as alice after bob forced", m.applyPath(k, name, "alice", m.chance(0.4)), mine)
	}
	if m.chance(0.5) {
		o := m.object(k, name, labels, v+2)
		o["metadata"].(map[string]any)["resourceVersion"] = m.saved("rv", k, name)
		m.track(m.c.put("update "+k.name+" as carol", m.item(k, name)+m.query("fieldManager", "carol"), jsonBody(o)), k, name)
		m.c.apply("apply "+k.name+" as alice after carol", m.applyPath(k, name, "alice", m.chance(0.3)), mine)
	}
	if m.chance(0.5) {
		// alice gives up every field but the name: fields she alone
		// owned go, shared ones stay.
		o := m.object(k, name, nil, v)
		for f := range maps.Clone(o) {
			if f != "apiVersion" && f != "kind" && f != "metadata" {
				delete(o, f)
			}
		}
		m.track(m.c.apply("apply "+k.name+" as alice without her fields", m.applyPath(k, name, "alice", false), jsonBody(o)), k, name)
	}
	m.c.get("get "+k.name+" after the applies", m.item(k, name))
}

// applyListItems has two managers apply items of one list: a
// Deployment's containers (a map keyed by name), a Service's ports (keyed
// by port and protocol), or a Gizmo's list without a list type (atomic:
// the managers conflict on the whole list).
func (m *genModel) applyListItems(k *genKind) {
	var alice, bob, bobConflict, bobEmpty map[string]any
	switch m.rng.IntN(3) {
	case 0:
		k = genKinds[3]
		name := m.newName(k)
		alice = k.object(name, nil, m.rng.IntN(10))
		containers := func(cs ...any) map[string]any {
			return obj(k.apiVersion, k.kind, name, nil, "spec", map[string]any{"template": map[string]any{"spec": map[string]any{"containers": cs}}})
		}
		bob = containers(map[string]any{"name": "sidecar", "image": "busybox:2"})
		bobConflict = containers(map[string]any{"name": "c", "image": "busybox:3"})
		bobEmpty = obj(k.apiVersion, k.kind, name, nil)
	case 1:
		k = genKinds[2]
		name := m.newName(k)
		alice = k.object(name, nil, 0)
		ports := func(ps ...any) map[string]any {
			return obj(k.apiVersion, k.kind, name, nil, "spec", map[string]any{"ports": ps})
		}
		bob = ports(map[string]any{"name": "https", "port": 443, "targetPort": 8443})
		bobConflict = ports(map[string]any{"name": "http", "port": 80, "targetPort": 9090})
		if m.chance(0.5) {
			// the same port over UDP is another item
			bobConflict = ports(map[string]any{"name": "dns", "port": 80, "protocol": "UDP", "targetPort": 53})
		}
		bobEmpty = obj(k.apiVersion, k.kind, name, nil)
	default:
		k = genKinds[7]
		name := m.newName(k)
		items := func(who string) map[string]any {
			return obj(k.apiVersion, k.kind, name, nil, "spec", map[string]any{"items": []any{map[string]any{"name": who}}})
		}
		alice = k.object(name, nil, 1)
		alice["spec"].(map[string]any)["items"] = []any{map[string]any{"name": "a"}}
		bob = items("b")
		bobConflict = items("c")
		bobEmpty = obj(k.apiVersion, k.kind, name, nil)
	}
	name := alice["metadata"].(map[string]any)["name"].(string)
	m.track(m.c.apply("apply "+k.name+" list items as alice", m.applyPath(k, name, "alice", false), jsonBody(alice)), k, name)
	m.names[k] = append(m.names[k], name)
	m.c.apply("apply "+k.name+" list item as bob", m.applyPath(k, name, "bob", false), jsonBody(bob))
	m.c.apply("apply "+k.name+" alice's list item as bob", m.applyPath(k, name, "bob", m.chance(0.3)), jsonBody(bobConflict))
	if m.chance(0.5) {
		m.c.apply("apply "+k.name+" without list items as bob", m.applyPath(k, name, "bob", false), jsonBody(bobEmpty))
	}
	if m.chance(0.3) {
		m.c.patch("strategic patch "+k.name+" list item", m.item(k, name)+m.query("fieldManager", "carol"), ctStrategic, jsonBody(bob))
	}
	m.c.get("get "+k.name+" after the list applies", m.item(k, name))
}

// pagesAcrossWrites lists a collection a page at a time while objects
// are created, changed and deleted between the pages: the pages are
// of the first page's version, and an Exact or NotOlderThan list of
// that version is too.
func (m *genModel) pagesAcrossWrites(k *genKind) {
	if !k.namespaced {
		k = genKinds[0]
	}
	var created []string
	for range 2 + m.rng.IntN(2) {
		name := m.newName(k)
		m.track(m.c.post("create "+k.name+" to page", k.collection, jsonBody(m.object(k, name, nil, m.rng.IntN(10)))), k, name)
		m.names[k] = append(m.names[k], name)
		created = append(created, name)
	}
	m.saves++
	cont, rv := fmt.Sprintf("cont%d", m.saves), fmt.Sprintf("listrv%d", m.saves)
	m.c.get("list "+k.name+" first page", k.collection+m.query("limit", "1")).save(cont, "metadata.continue").save(rv, "metadata.resourceVersion")
	switch m.rng.IntN(3) {
	case 0:
		m.c.del("delete "+k.name+" between pages", m.item(k, created[len(created)-1]), "")
		m.remove(k, created[len(created)-1])
	case 1:
		name := m.newName(k)
		m.track(m.c.post("create "+k.name+" between pages", k.collection, jsonBody(m.object(k, name, nil, 0))), k, name)
		m.names[k] = append(m.names[k], name)
	case 2:
		m.c.patch("merge patch "+k.name+" between pages", m.item(k, created[0]), ctMerge, `{"metadata":{"labels":{"paged":"yes"}}}`)
	}
	limit := m.pick([]string{"1", "2", ""})
	m.saves++
	cont2 := fmt.Sprintf("cont%d", m.saves)
	m.c.get("list "+k.name+" next page", k.collection+m.query("limit", limit, "continue", "${"+cont+"}")).save(cont2, "metadata.continue")
	if limit == "1" {
		m.c.get("list "+k.name+" last pages", k.collection+m.query("continue", "${"+cont2+"}"))
	}
	m.conts = append(m.conts, "${"+cont+"}", "${"+cont2+"}")
	m.rvs = append(m.rvs, "${"+rv+"}")
	switch m.rng.IntN(3) {
	case 0:
		m.c.get("list "+k.name+" at the first page's version", k.collection+m.query("limit", "2", "resourceVersion", "${"+rv+"}", "resourceVersionMatch", "Exact"))
	case 1:
		m.c.get("list "+k.name+" not older than the first page", k.collection+m.query("limit", "2", "resourceVersion", "${"+rv+"}", "resourceVersionMatch", "NotOlderThan"))
	case 2:
		m.c.get("list "+k.name+" continued with a version", k.collection+m.query("continue", "${"+cont+"}", "resourceVersion", "${"+rv+"}"))
	}
}

// podsByNode creates Pods, binds some to nodes (once more: a conflict),
// writes a phase, and lists and watches them by spec.nodeName,
// status.phase and metadata.namespace, with set-based label selectors.
func (m *genModel) podsByNode(_ *genKind) {
	k := genKinds[4]
	node := m.pick([]string{"node-a", "node-b"})
	var pods []string
	for range 1 + m.rng.IntN(2) {
		name := m.newName(k)
		labels := m.labelSet()
		m.track(m.c.post("create pod to bind", k.collection, jsonBody(m.object(k, name, labels, m.rng.IntN(10)))), k, name)
		m.names[k] = append(m.names[k], name)
		m.labels[k.name+"/"+name] = labels
		pods = append(pods, name)
	}
	bind := func(pod, node string) string {
		return jsonBody(map[string]any{"apiVersion": "v1", "kind": "Binding", "metadata": map[string]any{"name": pod}, "target": map[string]any{"kind": "Node", "name": node}})
	}
	m.c.post("bind pod", m.item(k, pods[0])+"/binding", bind(pods[0], node))
	if m.chance(0.3) {
		m.c.post("bind pod again", m.item(k, pods[0])+"/binding", bind(pods[0], "node-c"))
	}
	if m.chance(0.2) {
		missing := m.newName(k)
		m.c.post("bind a missing pod", m.item(k, missing)+"/binding", bind(missing, node))
	}
	if m.chance(0.1) {
		m.c.post("bind naming another pod", m.item(k, pods[0])+"/binding", bind("other", node))
	}
	if m.chance(0.5) {
		o := m.object(k, pods[0], m.labels[k.name+"/"+pods[0]], 0)
		o["status"] = map[string]any{"phase": m.pick([]string{"Running", "Succeeded"})}
		m.c.put("update status of the bound pod", m.item(k, pods[0])+"/status", jsonBody(o))
	}
	fields := m.pick([]string{
		"spec.nodeName%3D" + node,
		"spec.nodeName%3D",
		"spec.nodeName%21%3D",
		"status.phase%3DRunning",
		"status.phase%21%3DPending%2Cspec.nodeName%3D" + node,
		"metadata.namespace%3D" + m.ns + "%2Cspec.nodeName%3D" + node,
	})
	labels := m.pick([]string{"", "app+in+%28a%2Cb%29", "app+notin+%28a%29", "tier", "%21tier", "app%2C%21tier"})
	params := []string{"fieldSelector", fields, "labelSelector", labels}
	if m.chance(0.3) {
		params = append(params, "limit", "1")
	}
	m.c.get("list pods by node", k.collection+m.query(params...))
	if m.chance(0.5) {
		// every namespace's Pods of this node, by namespace and node
		m.c.get("list pods of every namespace by node", "/api/v1/pods"+m.query("fieldSelector", "metadata.namespace%3D"+m.ns+"%2Cspec.nodeName%3D"+node))
	}
	if m.chance(0.5) {
		m.count++
		sentinel := fmt.Sprintf("zz-sentinel-%d", m.count)
		s := m.c.get("watch pods by node", k.collection+m.query("watch", "true", "fieldSelector", "spec.nodeName%3D"+node)).streamed()
		body := m.object(k, sentinel, nil, 0)
		body["spec"].(map[string]any)["nodeName"] = node
		m.sentinels[s] = genSentinel{name: sentinel, create: &step{scenario: s.scenario, ns: s.ns, name: "sentinel", method: "POST", path: k.collection, body: []byte(jsonBody(body))}}
		m.names[k] = append(m.names[k], sentinel)
	}
}

// The generator's later operations, used by seeds from genLaterFirst
// on (besides all the above): resourceVersionMatch in the combinations
// programs get wrong, on lists and watches, and applies of maps and sets
// (labels, finalizers) by two managers, each owning its own keys.
//
//	go test -run TestGeneratedSequences -gendiff.seeds 100 -gendiff.first 5000 .
const genLaterFirst = 5000

var genLaterOps = []genOp{
	{3, (*genModel).versionMatches},
	{3, (*genModel).applyMapsAndSets},
}

// versionMatches lists and watches with resourceVersionMatch set with
// and without a version, with a continue token, and on a watch.
func (m *genModel) versionMatches(k *genKind) {
	rv := "${listrv-none}"
	if len(m.rvs) > 0 {
		rv = m.pick(m.rvs)
	}
	lists := [][]string{
		{"resourceVersionMatch", "NotOlderThan"},
		{"resourceVersionMatch", "Exact", "resourceVersion", "0"},
		{"resourceVersionMatch", "Exact", "resourceVersion", rv, "limit", "1"},
		{"resourceVersionMatch", "NotOlderThan", "resourceVersion", rv, "limit", "1"},
		{"resourceVersionMatch", "Bogus", "resourceVersion", "0"},
		{"resourceVersionMatch", "Exact", "resourceVersion", rv, "continue", "bm90LWEtdG9rZW4"},
	}
	if len(m.conts) > 0 {
		lists = append(lists, []string{"resourceVersionMatch", "NotOlderThan", "resourceVersion", rv, "continue", m.pick(m.conts)})
	}
	if !strings.HasPrefix(rv, "${listrv-") {
		params := lists[m.rng.IntN(len(lists))]
		params = append(slices.Clone(params), "labelSelector", m.collectionSelector(k, ""))
		m.c.get("list "+k.name+" with a version match", k.collection+m.query(params...))
	}
	if m.chance(0.5) {
		watches := [][]string{
			{"resourceVersionMatch", "Exact", "resourceVersion", "0"},
			{"resourceVersionMatch", "NotOlderThan", "resourceVersion", "0"},
			{"resourceVersionMatch", "NotOlderThan", "sendInitialEvents", "false"},
			{"resourceVersionMatch", "NotOlderThan", "sendInitialEvents", "true", "resourceVersion", "0", "allowWatchBookmarks", "true"},
			{"sendInitialEvents", "true", "resourceVersion", "0", "allowWatchBookmarks", "true"},
		}
		m.watchWith(k, watches[m.rng.IntN(len(watches))])
	}
}

// watchWith opens a watch of k's collection with more parameters, ended
// by a sentinel object as the watch operation's.
func (m *genModel) watchWith(k *genKind, params []string) {
	params = append([]string{"watch", "true", "labelSelector", m.collectionSelector(k, "")}, params...)
	m.count++
	sentinel := fmt.Sprintf("zz-sentinel-%d", m.count)
	if !k.namespaced {
		sentinel = fmt.Sprintf("%s-zz-sentinel-%d", m.ns, m.count)
	}
	s := m.c.get("watch "+k.name+" with a version match", k.collection+m.query(params...)).streamed()
	m.sentinels[s] = genSentinel{name: sentinel, create: &step{scenario: s.scenario, ns: s.ns, name: "sentinel", method: "POST", path: k.collection, body: []byte(jsonBody(m.object(k, sentinel, nil, 0)))}}
	m.names[k] = append(m.names[k], sentinel)
}

// applyMapsAndSets has alice and bob apply their own labels and
// finalizers to one ConfigMap (each keeps the other's), then bob apply
// alice's label key with another value (a conflict), alice give up her
// finalizer, and a merge patch take the rest off.
func (m *genModel) applyMapsAndSets(_ *genKind) {
	k := genKinds[0]
	name := m.newName(k)
	meta := func(labels map[string]any, finalizers ...any) string {
		md := map[string]any{"name": name, "labels": labels}
		if len(finalizers) > 0 {
			md["finalizers"] = finalizers
		}
		return jsonBody(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": md})
	}
	m.track(m.c.apply("apply labels and a finalizer as alice", m.applyPath(k, name, "alice", false), meta(map[string]any{"a": "1"}, "example.com/alice")), k, name)
	m.names[k] = append(m.names[k], name)
	m.c.apply("apply labels and a finalizer as bob", m.applyPath(k, name, "bob", false), meta(map[string]any{"b": "1"}, "example.com/bob"))
	m.c.apply("apply alice's label as bob", m.applyPath(k, name, "bob", m.chance(0.3)), meta(map[string]any{"a": "2", "b": "1"}, "example.com/bob"))
	if m.chance(0.5) {
		m.c.apply("apply the same finalizer as bob", m.applyPath(k, name, "bob", false), meta(map[string]any{"b": "1"}, "example.com/bob", "example.com/alice"))
	}
	m.c.apply("apply without her finalizer as alice", m.applyPath(k, name, "alice", false), meta(map[string]any{"a": "1"}))
	m.c.get("get cm after the applies", m.item(k, name))
	if m.chance(0.5) {
		m.c.del("delete cm held by bob's finalizer", m.item(k, name), "")
	}
	m.c.patch("merge patch away the finalizers of cm", m.item(k, name), ctMerge, `{"metadata":{"finalizers":null}}`)
}
