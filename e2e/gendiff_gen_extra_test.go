package e2e

import (
	"fmt"
)

// The generator's extended operations: request sequences programs send
// that the first generator did not (finalizers held through a delete and
// removed by a later write, owner references with blockOwnerDeletion and
// the three propagation policies, a terminating namespace, patches
// whose values have the wrong type, set-based label selectors with bad
// syntax, field selectors on fields a kind does not support). Seeds from
// genExtendedFirst on use them besides the others, so that the seeds
// below keep their sequences:
//
//	go test -run TestGeneratedSequences -gendiff.seeds 200 -gendiff.first 1000 .
const genExtendedFirst = 1000

var genExtraOps = []genOp{
	{4, (*genModel).finalizerLifecycle},
	{3, (*genModel).ownedObjects},
	{2, (*genModel).terminatingNamespace},
	{3, (*genModel).badPatch},
	{3, (*genModel).oddSelectors},
}

// finalizerLifecycle creates an object held by a finalizer, deletes it
// (it stays, with a deletionTimestamp), reads it, changes it while it is
// deleted, and removes the finalizer, which ends it.
func (m *genModel) finalizerLifecycle(k *genKind) {
	if k.kind == "Namespace" {
		k = genKinds[0]
	}
	name := m.newName(k)
	o := m.object(k, name, m.labelSet(), m.rng.IntN(10))
	o["metadata"].(map[string]any)["finalizers"] = []any{"example.com/hold"}
	m.track(m.c.post("create "+k.name+" with a finalizer", k.collection, jsonBody(o)), k, name)
	params := []string{}
	if m.chance(0.5) {
		params = append(params, "propagationPolicy", m.pick([]string{"Orphan", "Foreground", "Background"}))
	}
	m.track(m.c.del("delete "+k.name+" held by a finalizer", m.item(k, name)+m.query(params...), ""), k, name)
	m.track(m.c.get("get "+k.name+" being deleted", m.item(k, name)), k, name)
	if m.chance(0.5) {
		m.track(m.c.patch("merge patch "+k.name+" being deleted", m.item(k, name), ctMerge, `{"metadata":{"labels":{"late":"yes"}}}`), k, name)
	}
	if m.chance(0.3) {
		// A new finalizer on an object being deleted is refused.
		m.c.patch("add a finalizer to "+k.name+" being deleted", m.item(k, name), ctMerge, `{"metadata":{"finalizers":["example.com/hold","example.com/late"]}}`)
	}
	switch m.rng.IntN(3) {
	case 0:
		m.c.patch("merge patch away the finalizers of "+k.name, m.item(k, name), ctMerge, `{"metadata":{"finalizers":null}}`)
	case 1:
		m.c.patch("json patch away the finalizers of "+k.name, m.item(k, name), ctJSONPatch, `[{"op":"remove","path":"/metadata/finalizers"}]`)
	case 2:
		o := m.object(k, name, nil, 0)
		meta := o["metadata"].(map[string]any)
		meta["resourceVersion"] = m.saved("rv", k, name)
		meta["finalizers"] = []any{}
		m.c.put("update away the finalizers of "+k.name, m.item(k, name), jsonBody(o))
	}
	m.c.get("get "+k.name+" after its finalizers", m.item(k, name))
	m.gone[k] = append(m.gone[k], name)
}

// ownedObjects creates an owner ConfigMap and dependents naming it (one
// with blockOwnerDeletion), then deletes the owner with a propagation
// policy and reads the dependents. (No garbage collector runs on either
// server: the owner's finalizers are what differ.)
func (m *genModel) ownedObjects(k *genKind) {
	cm := genKinds[0]
	owner := m.newName(cm)
	m.track(m.c.post("create owner", cm.collection, jsonBody(m.object(cm, owner, nil, 0))), cm, owner)
	if !k.namespaced {
		k = cm
	}
	dependent := m.newName(k)
	o := m.object(k, dependent, m.labelSet(), m.rng.IntN(10))
	ref := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": owner, "uid": m.saved("uid", cm, owner)}
	if m.chance(0.5) {
		ref["blockOwnerDeletion"] = true
	}
	if m.chance(0.3) {
		ref["controller"] = true
	}
	if m.chance(0.15) {
		ref["uid"] = "" // refused: a reference needs a uid
	}
	o["metadata"].(map[string]any)["ownerReferences"] = []any{ref}
	m.track(m.c.post("create dependent "+k.name, k.collection, jsonBody(o)), k, dependent)
	m.names[k] = append(m.names[k], dependent)
	policy := m.pick([]string{"Orphan", "Foreground", "Background", ""})
	m.c.del("delete owner", m.item(cm, owner)+m.query("propagationPolicy", policy), "")
	m.c.get("get owner after its delete", m.item(cm, owner))
	m.c.get("get dependent "+k.name, m.item(k, dependent))
	if policy == "Orphan" || policy == "Foreground" {
		// The owner waits for the garbage collector: take its
		// finalizer off by hand, as a program cleaning up would.
		m.c.patch("merge patch away the owner's finalizers", m.item(cm, owner), ctMerge, `{"metadata":{"finalizers":null}}`)
	}
	m.gone[cm] = append(m.gone[cm], owner)
}

// terminatingNamespace creates a namespace and an object in it, deletes
// the namespace (it stays Terminating: its spec finalizer has no
// controller here) and writes to it again.
func (m *genModel) terminatingNamespace(k *genKind) {
	nsKind := genKinds[6]
	ns := m.newName(nsKind)
	m.c.post("create namespace to terminate", nsKind.collection, jsonBody(m.object(nsKind, ns, nil, 0)))
	cm := genKinds[0]
	in := "/api/v1/namespaces/" + ns + "/configmaps"
	m.c.post("create in the namespace", in, jsonBody(m.object(cm, "a", nil, 0)))
	m.c.del("delete namespace", nsKind.collection+"/"+ns+m.query("propagationPolicy", m.pick([]string{"", "Foreground", "Orphan"})), "")
	m.c.get("get terminating namespace", nsKind.collection+"/"+ns)
	m.c.post("create in the terminating namespace", in, jsonBody(m.object(cm, "b", nil, 0)))
	m.c.put("update in the terminating namespace", in+"/a", jsonBody(m.object(cm, "a", map[string]string{"app": "a"}, 1)))
	m.c.del("delete in the terminating namespace", in+"/a", "")
	m.c.get("list in the terminating namespace", in)
	m.c.del("delete terminating namespace again", nsKind.collection+"/"+ns, "")
}

// badPatch sends patches that do not apply: values of the wrong type,
// a JSON patch test against a stale resourceVersion, an apply changing
// another manager's field without force.
func (m *genModel) badPatch(k *genKind) {
	name := m.target(k)
	item := m.item(k, name)
	switch m.rng.IntN(6) {
	case 0:
		m.c.patch("merge patch with a wrong type "+k.name, item, ctMerge, `{"metadata":{"labels":"not-a-map"}}`)
	case 1:
		m.c.patch("merge patch with a number label "+k.name, item, ctMerge, `{"metadata":{"labels":{"n":1}}}`)
	case 2:
		if k.strategic {
			m.c.patch("strategic patch with a wrong type "+k.name, item, ctStrategic, `{"metadata":{"finalizers":"x"}}`)
			return
		}
		m.c.patch("merge patch with a wrong type "+k.name, item, ctMerge, `{"metadata":{"annotations":[1]}}`)
	case 3:
		m.c.patch("json patch testing a stale version "+k.name, item, ctJSONPatch, `[{"op":"test","path":"/metadata/resourceVersion","value":"1"},{"op":"add","path":"/metadata/labels","value":{"x":"y"}}]`)
	case 4:
		m.c.patch("json patch with a wrong type "+k.name, item, ctJSONPatch, `[{"op":"add","path":"/metadata/labels","value":"x"}]`)
	case 5:
		o := m.object(k, name, map[string]string{"app": fmt.Sprint("c", m.rng.IntN(3))}, m.rng.IntN(10))
		m.c.patch("apply patch "+k.name+" as carol", item+m.query("fieldManager", "carol"), "application/apply-patch+yaml", jsonBody(o))
	}
}

// oddSelectors lists and watches with selectors programs get wrong.
func (m *genModel) oddSelectors(k *genKind) {
	sel := m.pick([]string{"app+in+a", "app+in+%28%29", "app+notin+%28a%2Cb%29", "%21app%2Ctier+in+%28x%2Cy%29", "app%3D", "app%3D%3D", "app+in+%28a%2C%29", "a%2Fb%2Fc%3Dx", "app%3Da%2C"})
	field := m.pick([]string{"", "data.k%3Dv", "metadata.name%3D%3Dx", "metadata.namespace%21%3D" + m.ns, "metadata.name%3Dx%2Cmetadata.name%3Dy", "status.phase%3DRunning"})
	params := []string{"labelSelector", m.collectionSelector(k, sel), "fieldSelector", field}
	if m.chance(0.3) {
		params = append(params, "limit", "1", "resourceVersion", m.pick([]string{"0", ""}))
	}
	s := m.c.get("list "+k.name+" with an odd selector", k.collection+m.query(params...))
	if m.chance(0.3) {
		s.accept(m.pick(listAccepts))
	}
}
