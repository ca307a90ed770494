package e2e

import (
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
)

const (
	acceptTable       = "application/json;as=Table;v=v1;g=meta.k8s.io"
	acceptPartial     = "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io"
	acceptPartialList = "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io"
)

func subresourceScenario(c *catalog) {
	c.begin("subresources", "fid-sub")
	deploys := "/apis/apps/v1/namespaces/${ns}/deployments"
	c.post("create deployment", deploys, deployment("d", 2))
	c.get("get status", deploys+"/d/status")
	c.put("update status", deploys+"/d/status", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":7,"selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"main","image":"nginx:1"}]}}},"status":{"replicas":2,"readyReplicas":1}}`)
	c.patch("merge patch status", deploys+"/d/status", ctMerge, `{"status":{"availableReplicas":1}}`)
	c.patch("main resource ignores status", deploys+"/d", ctMerge, `{"status":{"replicas":9}}`)
	c.get("get scale", deploys+"/d/scale")
	c.put("update scale", deploys+"/d/scale", `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"d"},"spec":{"replicas":4}}`)
	c.patch("patch scale", deploys+"/d/scale", ctMerge, `{"spec":{"replicas":5}}`)
	c.get("get after scaling", deploys+"/d")
	c.post("create on status", deploys+"/d/status", deployment("d", 1))
	c.get("status of a kind without one", "/api/v1/namespaces/${ns}/configmaps/x/status")
	c.get("scale of a missing object", deploys+"/missing/scale")
}

// protobufConfigMap is a ConfigMap in kube-apiserver's protobuf envelope.
func protobufConfigMap(name string) []byte {
	obj := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"pb": "yes"}}
	b, err := codec.EncodeProtobuf("v1", "ConfigMap", obj)
	if err != nil {
		panic(err) // a generated type that does not encode is a bug in the catalog
	}
	return b
}

func mediaScenario(c *catalog) {
	c.begin("media", "fid-media")
	cms := "/api/v1/namespaces/${ns}/configmaps"
	c.post("create", cms, cm("a", map[string]string{"k": "v"}, `,"labels":{"app":"a"}`))
	c.post("create second", cms, cm("b", nil, ""))
	c.get("get as table", cms+"/a").accept(acceptTable)
	c.get("list as table", cms).accept(acceptTable)
	c.get("list as table without objects", cms+"?includeObject=None").accept(acceptTable)
	c.get("list as table with objects", cms+"?includeObject=Object").accept(acceptTable)
	c.get("table v1beta1", cms).accept("application/json;as=Table;v=v1beta1;g=meta.k8s.io")
	c.get("namespaces as table", "/api/v1/namespaces/${ns}").accept(acceptTable)
	c.post("create deployment", "/apis/apps/v1/namespaces/${ns}/deployments", deployment("web", 1))
	c.get("deployments as table", "/apis/apps/v1/namespaces/${ns}/deployments").accept(acceptTable)
	c.get("table falls back to json", cms+"/a").accept(acceptTable + ", application/json")
	c.get("table in protobuf", cms+"/a").accept("application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io")
	c.get("get as partial metadata", cms+"/a").accept(acceptPartial)
	c.get("list as partial metadata", cms).accept(acceptPartialList)
	c.get("get in protobuf", cms+"/a").accept(ctProtobuf)
	c.get("list in protobuf", cms).accept(ctProtobuf)
	c.binary("create in protobuf", "POST", cms, protobufConfigMap("pb")).ct(ctProtobuf).accept(ctProtobuf)
	c.get("missing in protobuf", cms+"/missing").accept(ctProtobuf)
	c.binary("corrupt protobuf", "POST", cms, []byte("k8s\x00\x0a\x02")).ct(ctProtobuf)
	c.get("get in YAML", cms+"/a").accept(ctYAML)
	c.get("list in YAML", cms).accept(ctYAML)
	c.post("create from YAML", cms, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y\ndata:\n  k: v\n").ct(ctYAML).accept(ctYAML)
	c.post("bad YAML", cms, "apiVersion: v1\nkind: [\n").ct(ctYAML)
	c.get("missing in YAML", cms+"/missing").accept(ctYAML)
	c.get("JSON preferred by weight", cms+"/a").accept("application/yaml;q=0.5, application/json")
	c.get("wildcard Accept", cms+"/a").accept("*/*")
}

func watchScenario(c *catalog) {
	c.begin("watch", "fid-watch")
	cms := "/api/v1/namespaces/${ns}/configmaps"
	c.post("create", cms, cm("a", map[string]string{"k": "v"}, "")).save("rv0", "metadata.resourceVersion")
	c.put("update", cms+"/a", cm("a", map[string]string{"k": "v2"}, ""))
	c.post("create b", cms, cm("b", nil, `,"labels":{"w":"1"}`))
	c.del("delete", cms+"/a", "")
	c.get("watch from a version", cms+"?watch=true&resourceVersion=${rv0}&timeoutSeconds=1").streamed()
	c.get("watch with selector", cms+"?watch=true&resourceVersion=${rv0}&labelSelector=w%3D1&timeoutSeconds=1").streamed()
	c.get("watch one object", cms+"?watch=true&resourceVersion=${rv0}&fieldSelector=metadata.name%3Da&timeoutSeconds=1").streamed()
	c.get("watch-list", cms+"?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1").streamed()
	c.get("watch as partial metadata", cms+"?watch=true&resourceVersion=${rv0}&timeoutSeconds=1").accept(acceptPartial).streamed()
	c.get("watch as table", cms+"?watch=true&resourceVersion=${rv0}&timeoutSeconds=1").accept(acceptTable).streamed()
	c.get("watch with too old version", cms+"?watch=true&resourceVersion=1&timeoutSeconds=1").streamed()
}
