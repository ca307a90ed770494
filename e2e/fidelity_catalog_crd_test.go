package e2e

// gadgetCRD is the catalog's custom resource: a schema with most
// validation keywords, defaults, list types, a CEL rule, the status and
// scale subresources and printer columns.
const gadgetCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"gadgets.fid.example.com"},
"spec":{"group":"fid.example.com","scope":"Namespaced","names":{"plural":"gadgets","kind":"Gadget","shortNames":["gd"],"categories":["fid"]},
"versions":[{"name":"v1","served":true,"storage":true,
"subresources":{"status":{},"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas","labelSelectorPath":".status.selector"}},
"additionalPrinterColumns":[{"name":"Size","type":"integer","jsonPath":".spec.size"},{"name":"Color","type":"string","jsonPath":".spec.color","priority":1},{"name":"Age","type":"date","jsonPath":".metadata.creationTimestamp"}],
"schema":{"openAPIV3Schema":{"type":"object","properties":{
"spec":{"type":"object","required":["size"],"properties":{
"size":{"type":"integer","minimum":1,"maximum":10,"default":3},
"replicas":{"type":"integer","minimum":0},
"color":{"type":"string","enum":["red","blue"]},
"name":{"type":"string","pattern":"^[a-z]+$","maxLength":8,"minLength":2},
"ratio":{"type":"number","exclusiveMaximum":true,"maximum":1,"multipleOf":0.25},
"email":{"type":"string","format":"email"},
"when":{"type":"string","format":"date-time"},
"ports":{"type":"array","maxItems":3,"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["port"],"items":{"type":"object","required":["port"],"properties":{"port":{"type":"integer"},"proto":{"type":"string","default":"TCP"}}}},
"tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
"labels":{"type":"object","additionalProperties":{"type":"string"},"maxProperties":2},
"opt":{"type":"string","nullable":true},
"free":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
"port":{"x-kubernetes-int-or-string":true},
"nested":{"type":"object","default":{},"properties":{"level":{"type":"string","default":"low"}}}
},"x-kubernetes-validations":[{"rule":"self.size <= 5 || has(self.color)","message":"big gadgets need a color"}]},
"status":{"type":"object","properties":{"replicas":{"type":"integer"},"selector":{"type":"string"},"phase":{"type":"string"}}}}}}}]}}`

func established(code int, body any) bool {
	if code != 200 {
		return false
	}
	m, _ := body.(map[string]any)
	st, _ := m["status"].(map[string]any)
	conds, _ := st["conditions"].([]any)
	for _, c := range conds {
		if cm, _ := c.(map[string]any); cm["type"] == "Established" && cm["status"] == "True" {
			return true
		}
	}
	return false
}

func codeIs(want int) func(int, any) bool {
	return func(code int, _ any) bool { return code == want }
}

func crdScenario(c *catalog) {
	c.begin("crd", "fid-crd")
	crds := "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	c.post("create CRD", crds, gadgetCRD)
	c.waitFor("established", crds+"/gadgets.fid.example.com", established)
	gadgets := "/apis/fid.example.com/v1/namespaces/${ns}/gadgets"
	c.waitFor("served", gadgets, codeIs(200))
	c.get("get CRD", crds+"/gadgets.fid.example.com")
	c.get("discovery group version", "/apis/fid.example.com/v1")
	c.get("discovery group", "/apis/fid.example.com")
	c.post("create invalid CRD name", crds, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"wrong.fid.example.com"},"spec":{"group":"fid.example.com","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`)
	c.post("create CRD without schema", crds, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"things.fid.example.com"},"spec":{"group":"fid.example.com","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},"versions":[{"name":"v1","served":true,"storage":true}]}}`)
	c.post("create without kind", gadgets, `{"apiVersion":"fid.example.com/v1","metadata":{"name":"g"},"spec":{"size":2}}`)
	c.post("create without apiVersion", gadgets, `{"kind":"Gadget","metadata":{"name":"g"},"spec":{"size":2}}`)
	c.post("create wrong apiVersion", gadgets, `{"apiVersion":"fid.example.com/v2","kind":"Gadget","metadata":{"name":"g"},"spec":{"size":2}}`)
	c.post("create", gadgets, `{"apiVersion":"fid.example.com/v1","kind":"Gadget","metadata":{"name":"g","labels":{"app":"g"}},"spec":{"size":2,"ports":[{"port":80}],"tags":["a"]}}`).save("rvG", "metadata.resourceVersion")
	c.post("create with defaults only", gadgets, `{"apiVersion":"fid.example.com/v1","kind":"Gadget","metadata":{"name":"d"},"spec":{}}`)
	c.post("create without spec", gadgets, `{"apiVersion":"fid.example.com/v1","kind":"Gadget","metadata":{"name":"nospec"}}`)
	c.get("get", gadgets+"/g")
	c.get("list", gadgets)
	c.get("list by short name path fails", "/apis/fid.example.com/v1/namespaces/${ns}/gd")
	c.get("list as table", gadgets).accept("application/json;as=Table;v=v1;g=meta.k8s.io")
	c.get("get as table", gadgets+"/g").accept("application/json;as=Table;v=v1;g=meta.k8s.io")
	c.get("get in protobuf falls back to JSON", gadgets+"/g").accept(ctProtobuf + ", application/json")
	c.get("get in protobuf only", gadgets+"/g").accept(ctProtobuf)
	c.get("get as PartialObjectMetadata", gadgets+"/g").accept("application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io")
	c.put("update", gadgets+"/g", `{"apiVersion":"fid.example.com/v1","kind":"Gadget","metadata":{"name":"g","resourceVersion":"${rvG}"},"spec":{"size":4,"color":"red"}}`)
	c.put("update stale", gadgets+"/g", `{"apiVersion":"fid.example.com/v1","kind":"Gadget","metadata":{"name":"g","resourceVersion":"${rvG}"},"spec":{"size":5}}`)
	c.put("update ignores status", gadgets+"/g", `{"apiVersion":"fid.example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"size":4,"color":"red"},"status":{"phase":"ignored"}}`)
	c.put("update status", gadgets+"/g/status", `{"apiVersion":"fid.example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"size":9},"status":{"phase":"Ready","replicas":1,"selector":"app=g"}}`)
	c.patch("merge patch", gadgets+"/g", ctMerge, `{"spec":{"tags":["a","b"]}}`)
	c.patch("json patch", gadgets+"/g", ctJSONPatch, `[{"op":"add","path":"/spec/ports/-","value":{"port":443}}]`)
	c.patch("strategic merge patch refused", gadgets+"/g", ctStrategic, `{"spec":{"size":3}}`)
	c.patch("merge patch status", gadgets+"/g/status", ctMerge, `{"status":{"phase":"Done"}}`)
	c.get("get scale", gadgets+"/g/scale")
	c.put("update scale", gadgets+"/g/scale", `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"g"},"spec":{"replicas":2}}`)
	c.patch("patch scale", gadgets+"/g/scale", ctMerge, `{"spec":{"replicas":3}}`)
	c.apply("apply", gadgets+"/a?fieldManager=alice", `{"apiVersion":"fid.example.com/v1","kind":"Gadget","metadata":{"name":"a"},"spec":{"size":1,"ports":[{"port":1},{"port":2}],"tags":["x"]}}`)
	c.apply("apply a list item by another manager", gadgets+"/a?fieldManager=bob", `{"apiVersion":"fid.example.com/v1","kind":"Gadget","metadata":{"name":"a"},"spec":{"ports":[{"port":3,"proto":"UDP"}],"tags":["y"]}}`)
	c.apply("apply conflicting list item", gadgets+"/a?fieldManager=bob", `{"apiVersion":"fid.example.com/v1","kind":"Gadget","metadata":{"name":"a"},"spec":{"ports":[{"port":1,"proto":"UDP"}]}}`)
	c.apply("apply drops a list item", gadgets+"/a?fieldManager=alice", `{"apiVersion":"fid.example.com/v1","kind":"Gadget","metadata":{"name":"a"},"spec":{"size":1,"ports":[{"port":1}]}}`)
	c.get("get after applies", gadgets+"/a")
	c.del("delete", gadgets+"/g", "")
	c.get("get deleted", gadgets+"/g")
	c.get("discovery lists the group", "/apis")
	c.del("delete CRD", crds+"/gadgets.fid.example.com", "")
	c.waitFor("CRD gone", crds+"/gadgets.fid.example.com", codeIs(404))
	c.waitFor("resource gone", gadgets, codeIs(404))
	c.get("list after CRD deletion", gadgets)
	c.get("discovery after CRD deletion", "/apis/fid.example.com/v1")
}

func crdValidationScenario(c *catalog) {
	c.begin("crd-validation", "fid-crdv")
	crds := "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	c.post("create CRD", crds, gadgetCRD)
	c.waitFor("established", crds+"/gadgets.fid.example.com", established)
	gadgets := "/apis/fid.example.com/v1/namespaces/${ns}/gadgets"
	c.waitFor("served", gadgets, codeIs(200))
	g := func(name, spec string) string {
		return `{"apiVersion":"fid.example.com/v1","kind":"Gadget","metadata":{"name":"` + name + `"},"spec":` + spec + `}`
	}
	c.post("unknown fields are pruned with warnings", gadgets, `{"apiVersion":"fid.example.com/v1","kind":"Gadget","metadata":{"name":"prune"},"spec":{"size":2,"bogus":1,"ports":[{"port":80,"extra":true}],"free":{"any":{"thing":1}}},"extra":{"a":1}}`)
	c.post("unknown fields strict", gadgets+"?fieldValidation=Strict", `{"apiVersion":"fid.example.com/v1","kind":"Gadget","metadata":{"name":"strict"},"spec":{"size":2,"bogus":1},"extra":{"a":1}}`)
	c.post("unknown fields ignored", gadgets+"?fieldValidation=Ignore", `{"apiVersion":"fid.example.com/v1","kind":"Gadget","metadata":{"name":"ignore"},"spec":{"size":2,"bogus":1}}`)
	c.post("required missing", gadgets, g("req", `{"color":"red","size":null}`))
	c.post("wrong type", gadgets, g("type", `{"size":"big"}`))
	c.post("enum", gadgets, g("enum", `{"size":2,"color":"green"}`))
	c.post("maximum", gadgets, g("max", `{"size":11}`))
	c.post("minimum", gadgets, g("min", `{"size":0}`))
	c.post("pattern", gadgets, g("pattern", `{"size":2,"name":"ABC"}`))
	c.post("maxLength", gadgets, g("maxlen", `{"size":2,"name":"abcdefghij"}`))
	c.post("minLength", gadgets, g("minlen", `{"size":2,"name":"a"}`))
	c.post("exclusiveMaximum", gadgets, g("exmax", `{"size":2,"ratio":1}`))
	c.post("multipleOf", gadgets, g("multiple", `{"size":2,"ratio":0.3}`))
	c.post("number accepts integers", gadgets, g("ratio", `{"size":2,"ratio":0}`))
	c.post("format email", gadgets, g("email", `{"size":2,"email":"not-an-email"}`))
	c.post("format date-time", gadgets, g("when", `{"size":2,"when":"yesterday"}`))
	c.post("valid formats", gadgets, g("formats", `{"size":2,"email":"a@example.com","when":"2024-01-02T03:04:05Z"}`))
	c.post("maxItems", gadgets, g("maxitems", `{"size":2,"ports":[{"port":1},{"port":2},{"port":3},{"port":4}]}`))
	c.post("duplicate map key", gadgets, g("dupkey", `{"size":2,"ports":[{"port":1},{"port":1}]}`))
	c.post("duplicate set item", gadgets, g("dupset", `{"size":2,"tags":["a","a"]}`))
	c.post("maxProperties", gadgets, g("maxprops", `{"size":2,"labels":{"a":"1","b":"2","c":"3"}}`))
	c.post("null for non-nullable", gadgets, g("null", `{"size":2,"color":null}`))
	c.post("null for nullable", gadgets, g("nullable", `{"size":2,"opt":null}`))
	c.post("int-or-string", gadgets, g("intorstring", `{"size":2,"port":"http"}`))
	c.post("int-or-string wrong type", gadgets, g("intorstringbad", `{"size":2,"port":true}`))
	c.post("CEL rule", gadgets, g("cel", `{"size":7}`))
	c.post("CEL rule passes", gadgets, g("celok", `{"size":7,"color":"blue"}`))
	c.post("many errors", gadgets, g("many", `{"size":11,"color":"green","name":"ABCDEFGHIJ","tags":["a","a"],"replicas":"x","ports":[{"port":1},{"port":1},{"proto":"x"}]}`))
	c.post("invalid name", gadgets, g("Bad_Name", `{"size":2}`))
	c.post("metadata wrong type", gadgets, `{"apiVersion":"fid.example.com/v1","kind":"Gadget","metadata":{"name":"m","labels":"x"},"spec":{"size":2}}`)
	c.put("update to invalid", gadgets+"/prune", g("prune", `{"size":20}`))
	c.patch("patch to invalid", gadgets+"/prune", ctMerge, `{"spec":{"color":"green"}}`)
	c.patch("patch unknown field warns", gadgets+"/prune", ctMerge, `{"spec":{"bogus":2}}`)
	c.patch("patch null removes a default then restores it", gadgets+"/prune", ctMerge, `{"spec":{"nested":null}}`)
	c.get("get pruned", gadgets+"/prune")
	c.del("delete CRD", crds+"/gadgets.fid.example.com", "")
	c.waitFor("CRD gone", crds+"/gadgets.fid.example.com", codeIs(404))
}
