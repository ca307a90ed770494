package e2e

import "strings"

func optionsScenario(c *catalog) {
	c.begin("options", "fid-opt")
	cms := "/api/v1/namespaces/${ns}/configmaps"
	for _, n := range []string{"a", "b", "c"} {
		c.post("create "+n, cms, cm(n, map[string]string{"k": n}, `,"labels":{"tier":"`+n+`"}`))
	}
	c.get("limit 2", cms+"?limit=2").save("cont", "metadata.continue")
	c.get("continue", cms+"?limit=2&continue=${cont}")
	c.get("bad continue", cms+"?limit=2&continue=bogus")
	c.get("limit not a number", cms+"?limit=abc")
	c.get("negative limit", cms+"?limit=-1")
	c.get("label selector in", cms+"?labelSelector=tier+in+(a,b)")
	c.get("label selector not equal", cms+"?labelSelector=tier!=a")
	c.get("bad label selector", cms+"?labelSelector=tier+in+a")
	c.get("field selector name", cms+"?fieldSelector=metadata.name%3Db")
	c.get("unsupported field selector", cms+"?fieldSelector=data.k%3Da")
	c.get("resourceVersion 0", cms+"?resourceVersion=0")
	c.get("resourceVersion not a number", cms+"?resourceVersion=abc")
	c.get("resourceVersionMatch without resourceVersion", cms+"?resourceVersionMatch=NotOlderThan")
	c.get("resourceVersionMatch Exact with 0", cms+"?resourceVersion=0&resourceVersionMatch=Exact")
	c.get("resourceVersionMatch unknown", cms+"?resourceVersion=1&resourceVersionMatch=Newest")
	c.get("sendInitialEvents on list", cms+"?sendInitialEvents=true")
	c.get("too large resourceVersion", cms+"/a?resourceVersion=99999999")
	c.get("timeoutSeconds not a number", cms+"?watch=true&timeoutSeconds=abc")
	c.get("watch resourceVersionMatch without sendInitialEvents", cms+"?watch=true&resourceVersionMatch=NotOlderThan")
	c.post("dryRun unknown", cms+"?dryRun=Some", cm("d", nil, ""))
	c.post("fieldValidation unknown", cms+"?fieldValidation=Loud", cm("d", nil, ""))
	c.post("fieldManager too long", cms+"?fieldManager="+strings.Repeat("m", 129), cm("d", nil, ""))
	c.put("PUT on a collection", cms, cm("d", nil, ""))
	c.post("POST on an object", cms+"/a", cm("a", nil, ""))
	c.get("Accept unsupported", cms+"/a").accept("text/html")
	c.post("Content-Type unsupported", cms, cm("e", nil, "")).ct("text/plain")
	c.get("list across namespaces with selector", "/api/v1/configmaps?labelSelector=tier%3Db")
	c.get("get with a trailing slash", cms+"/a/")
	c.add("deletecollection with selector", "DELETE", cms+"?labelSelector=tier%3Dc", "")
	c.get("list after deletecollection", cms)
}

func patchScenario(c *catalog) {
	c.begin("patch", "fid-patch")
	cms := "/api/v1/namespaces/${ns}/configmaps"
	c.post("create", cms, cm("p", map[string]string{"a": "1", "b": "2"}, `,"labels":{"x":"1"}`))
	c.patch("merge patch", cms+"/p", ctMerge, `{"data":{"b":null,"c":"3"},"metadata":{"labels":{"y":"2"}}}`)
	c.patch("merge patch no change", cms+"/p", ctMerge, `{"data":{"c":"3"}}`)
	c.patch("json patch", cms+"/p", ctJSONPatch, `[{"op":"add","path":"/data/d","value":"4"},{"op":"replace","path":"/data/a","value":"one"},{"op":"remove","path":"/data/c"}]`)
	c.patch("json patch test fails", cms+"/p", ctJSONPatch, `[{"op":"test","path":"/data/a","value":"nope"}]`)
	c.patch("json patch missing path", cms+"/p", ctJSONPatch, `[{"op":"remove","path":"/data/zzz"}]`)
	c.patch("json patch not an array", cms+"/p", ctJSONPatch, `{"op":"add"}`)
	c.patch("strategic merge patch", cms+"/p", ctStrategic, `{"data":{"e":"5"},"metadata":{"finalizers":["example.com/f"]}}`)
	c.patch("strategic delete from primitive list", cms+"/p", ctStrategic, `{"metadata":{"$deleteFromPrimitiveList/finalizers":["example.com/f"]}}`)
	c.patch("merge patch bad json", cms+"/p", ctMerge, `{"data":`)
	c.patch("unsupported patch type", cms+"/p", "application/json", `{"data":{}}`)
	c.patch("patch missing object", cms+"/missing", ctMerge, `{"data":{"a":"1"}}`)
	c.patch("patch stale resourceVersion", cms+"/p", ctMerge, `{"metadata":{"resourceVersion":"1"},"data":{"a":"x"}}`)
	c.patch("patch changes name", cms+"/p", ctMerge, `{"metadata":{"name":"other"}}`)
	c.patch("patch wrong type", cms+"/p", ctMerge, `{"data":{"a":1}}`)
	c.patch("patch unknown field", cms+"/p", ctMerge, `{"bogus":{"x":1}}`)
	c.patch("patch unknown field strict", cms+"/p?fieldValidation=Strict", ctMerge, `{"bogus":{"x":1}}`)
	c.patch("patch dry run", cms+"/p?dryRun=All", ctMerge, `{"data":{"dry":"run"}}`)
	c.patch("patch with fieldManager", cms+"/p?fieldManager=patcher", ctMerge, `{"data":{"f":"6"}}`)
	c.get("get after patches", cms+"/p")
	deploys := "/apis/apps/v1/namespaces/${ns}/deployments"
	c.post("create deployment", deploys, deployment("d", 1))
	c.patch("strategic merge containers by name", deploys+"/d", ctStrategic, `{"spec":{"template":{"spec":{"containers":[{"name":"side","image":"busybox:1"}]}}}}`)
	c.patch("strategic delete container", deploys+"/d", ctStrategic, `{"spec":{"template":{"spec":{"containers":[{"name":"side","$patch":"delete"}]}}}}`)
	c.patch("merge patch replaces containers", deploys+"/d", ctMerge, `{"spec":{"template":{"spec":{"containers":[{"name":"main","image":"nginx:2"}]}}}}`)
	c.patch("patch invalid deployment", deploys+"/d", ctMerge, `{"spec":{"replicas":-1}}`)
}

func applyScenario(c *catalog) {
	c.begin("apply", "fid-apply")
	cms := "/api/v1/namespaces/${ns}/configmaps"
	cfg := func(data string) string {
		return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ap"},"data":{` + data + `}}`
	}
	c.apply("apply creates", cms+"/ap?fieldManager=alice", cfg(`"a":"1","b":"2"`))
	c.apply("apply again, no change", cms+"/ap?fieldManager=alice", cfg(`"a":"1","b":"2"`))
	c.apply("second manager, same value shares", cms+"/ap?fieldManager=bob", cfg(`"a":"1"`))
	c.apply("second manager, other value conflicts", cms+"/ap?fieldManager=bob", cfg(`"b":"3"`))
	c.apply("conflict on two fields", cms+"/ap?fieldManager=carol", cfg(`"a":"x","b":"y"`))
	c.apply("force takes ownership", cms+"/ap?fieldManager=bob&force=true", cfg(`"a":"1","b":"3"`))
	c.apply("first manager drops a field it shares", cms+"/ap?fieldManager=alice", cfg(``))
	c.apply("second manager drops a field it alone owns", cms+"/ap?fieldManager=bob", cfg(`"a":"1"`))
	c.patch("update by another manager", cms+"/ap?fieldManager=editor", ctMerge, `{"data":{"a":"edited","z":"26"}}`)
	c.apply("apply conflicts with the update manager", cms+"/ap?fieldManager=bob", cfg(`"a":"1"`))
	c.put("update without fieldManager uses the user agent", cms+"/ap", cfg(`"a":"put"`))
	c.get("get after applies", cms+"/ap")
	c.apply("apply without fieldManager", cms+"/ap", cfg(`"a":"1"`))
	c.apply("apply YAML", cms+"/yaml?fieldManager=alice", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yaml\n  labels:\n    app: y\ndata:\n  k: v\n")
	c.apply("apply bad YAML", cms+"/yaml?fieldManager=alice", "apiVersion: v1\nkind: [\n")
	c.apply("apply without kind", cms+"/nokind?fieldManager=alice", `{"apiVersion":"v1","metadata":{"name":"nokind"}}`)
	c.apply("apply wrong name", cms+"/wrong?fieldManager=alice", cfg(`"a":"1"`))
	c.apply("apply dry run", cms+"/dry?fieldManager=alice&dryRun=All", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dry"}}`)
	c.patch("force on a merge patch", cms+"/ap?force=true", ctMerge, `{"data":{"q":"1"}}`)
	c.apply("apply with managedFields in the body", cms+"/mf?fieldManager=alice", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"mf","managedFields":[{"manager":"x","operation":"Apply"}]}}`)
	c.apply("apply unknown field", cms+"/unk?fieldManager=alice", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"unk"},"bogus":1}`)
	deploys := "/apis/apps/v1/namespaces/${ns}/deployments"
	c.apply("apply deployment", deploys+"/web?fieldManager=alice", deployment("web", 1))
	c.apply("apply second container", deploys+"/web?fieldManager=bob",
		`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"template":{"spec":{"containers":[{"name":"side","image":"busybox:1"}]}}}}`)
	c.apply("apply conflicting image", deploys+"/web?fieldManager=bob",
		`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"template":{"spec":{"containers":[{"name":"main","image":"nginx:9"}]}}}}`)
	c.apply("apply replicas to scale", deploys+"/web/scale?fieldManager=hpa",
		`{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"web"},"spec":{"replicas":3}}`)
	c.get("get deployment after applies", deploys+"/web")
	c.apply("apply status", deploys+"/web/status?fieldManager=ctrl",
		`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"status":{"replicas":1,"observedGeneration":1}}`)
}

func deleteScenario(c *catalog) {
	c.begin("delete", "fid-del")
	cms := "/api/v1/namespaces/${ns}/configmaps"
	c.post("create", cms, cm("a", nil, "")).save("uidA", "metadata.uid")
	c.del("delete uid precondition mismatch", cms+"/a", `{"preconditions":{"uid":"00000000-0000-0000-0000-000000000000"}}`)
	c.del("delete resourceVersion precondition mismatch", cms+"/a", `{"preconditions":{"resourceVersion":"1"}}`)
	c.del("delete with matching uid", cms+"/a", `{"preconditions":{"uid":"${uidA}"}}`)
	c.del("delete missing", cms+"/a", "")
	c.post("create with finalizer", cms, cm("fin", nil, `,"finalizers":["example.com/hold"]`))
	c.del("delete held by finalizer", cms+"/fin", "")
	c.get("get deleting", cms+"/fin")
	c.del("delete again while deleting", cms+"/fin", "")
	c.patch("add a finalizer while deleting", cms+"/fin", ctMerge, `{"metadata":{"finalizers":["example.com/hold","example.com/more"]}}`)
	c.patch("remove the finalizer", cms+"/fin", ctMerge, `{"metadata":{"finalizers":null}}`)
	c.get("gone after finalizers", cms+"/fin")
	c.post("create for foreground", cms, cm("fg", nil, ""))
	c.del("delete foreground", cms+"/fg?propagationPolicy=Foreground", "")
	c.get("foreground waits for the garbage collector", cms+"/fg").needing("kube-controller-manager")
	c.post("create for orphan", cms, cm("or", nil, ""))
	c.del("delete orphan", cms+"/or", `{"propagationPolicy":"Orphan"}`)
	c.post("create for background", cms, cm("bg", nil, ""))
	c.del("delete background", cms+"/bg?propagationPolicy=Background", "")
	c.post("create for bad policy", cms, cm("bad", nil, ""))
	c.del("delete invalid policy", cms+"/bad?propagationPolicy=Sometimes", "")
	c.del("delete with gracePeriodSeconds", cms+"/bad?gracePeriodSeconds=0", "")
	c.del("delete dry run", cms+"/a?dryRun=All", "")
	c.post("create owner", cms, cm("owner", nil, "")).save("ownerUID", "metadata.uid")
	c.post("create dependent", cms, cm("dep", nil, `,"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"owner","uid":"${ownerUID}"}]`))
	c.del("delete owner", cms+"/owner", "")
	c.get("dependent collected", cms+"/dep").needing("kube-controller-manager")
	c.post("create service account for pods", "/api/v1/namespaces/${ns}/serviceaccounts", `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"default"}}`)
	c.post("create pod", "/api/v1/namespaces/${ns}/pods", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"busybox:1"}]}}`)
	c.del("delete unscheduled pod", "/api/v1/namespaces/${ns}/pods/p", "")
	c.get("pod gone", "/api/v1/namespaces/${ns}/pods/p")
}

func namespaceScenario(c *catalog) {
	c.begin("namespace", "fid-ns")
	c.get("get namespace", "/api/v1/namespaces/${ns}")
	c.post("create invalid namespace name", "/api/v1/namespaces", `{"metadata":{"name":"a.b"}}`)
	c.post("create long namespace name", "/api/v1/namespaces", `{"metadata":{"name":"`+strings.Repeat("n", 64)+`"}}`)
	c.post("create content", "/api/v1/namespaces/${ns}/configmaps", cm("c", nil, ""))
	c.del("delete namespace", "/api/v1/namespaces/${ns}", "")
	c.get("namespace terminating", "/api/v1/namespaces/${ns}")
	c.post("create in terminating namespace", "/api/v1/namespaces/${ns}/configmaps", cm("late", nil, ""))
	c.post("re-create terminating namespace", "/api/v1/namespaces", `{"metadata":{"name":"${ns}"}}`)
	c.get("content still listed", "/api/v1/namespaces/${ns}/configmaps")
	c.get("namespace removed by its controller", "/api/v1/namespaces/${ns}").needing("kube-controller-manager")
	c.post("create namespace to finalize", "/api/v1/namespaces", `{"metadata":{"name":"fid-ns-fin"}}`)
	c.del("delete it", "/api/v1/namespaces/fid-ns-fin", "")
	c.put("finalize", "/api/v1/namespaces/fid-ns-fin/finalize", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"fid-ns-fin"},"spec":{"finalizers":[]}}`)
	c.get("finalized namespace is gone", "/api/v1/namespaces/fid-ns-fin")
	c.post("create service", "/api/v1/namespaces/default/services", `{"apiVersion":"v1","kind":"Service","metadata":{"name":"fid-svc"},"spec":{"ports":[{"port":80}]}}`)
	c.del("delete default namespace", "/api/v1/namespaces/default", "")
	c.del("delete kube-system", "/api/v1/namespaces/kube-system", "")
}
