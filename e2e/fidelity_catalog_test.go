package e2e

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// step is one request of the fidelity catalog, or a wait (wait set)
// that repeats its request until a condition holds and is not compared.
type step struct {
	scenario, ns, name string
	method, path       string
	body               []byte
	binary             bool              // body is not templated
	headers            map[string]string // "" deletes a default header
	saves              map[string]string // variable name -> dotted path in the JSON answer
	wait               func(code int, body any) bool
	needs              string // a component the e2e cluster lacks; the step is not counted
	codeOnly           bool   // compare status code and headers, not the body
	stream             bool   // a watch: the body is a stream of JSON events
}

func (s *step) ct(v string) *step     { return s.header("Content-Type", v) }
func (s *step) accept(v string) *step { return s.header("Accept", v) }

func (s *step) header(k, v string) *step {
	if s.headers == nil {
		s.headers = map[string]string{}
	}
	s.headers[k] = v
	return s
}

// save stores the string at path of the JSON answer as ${name}.
func (s *step) save(name, path string) *step {
	if s.saves == nil {
		s.saves = map[string]string{}
	}
	s.saves[name] = path
	return s
}

func (s *step) needing(what string) *step { s.needs = what; return s }
func (s *step) onlyCode() *step           { s.codeOnly = true; return s }
func (s *step) streamed() *step           { s.stream = true; return s }

// catalog builds the list of steps, scenario by scenario.
type catalog struct {
	steps    []*step
	scenario string
	ns       string
}

// begin starts a scenario; with a namespace, its first step creates it.
func (c *catalog) begin(scenario, ns string) {
	c.scenario, c.ns = scenario, ns
	if ns != "" {
		c.post("create namespace", "/api/v1/namespaces", `{"metadata":{"name":"${ns}"}}`)
	}
}

func (c *catalog) add(name, method, path, body string) *step {
	s := &step{scenario: c.scenario, ns: c.ns, name: name, method: method, path: path}
	if body != "" {
		s.body = []byte(body)
	}
	c.steps = append(c.steps, s)
	return s
}

func (c *catalog) get(name, path string) *step        { return c.add(name, "GET", path, "") }
func (c *catalog) post(name, path, body string) *step { return c.add(name, "POST", path, body) }
func (c *catalog) put(name, path, body string) *step  { return c.add(name, "PUT", path, body) }
func (c *catalog) del(name, path, body string) *step  { return c.add(name, "DELETE", path, body) }
func (c *catalog) patch(name, path, ct, body string) *step {
	return c.add(name, "PATCH", path, body).ct(ct)
}

// apply is a server-side apply patch.
func (c *catalog) apply(name, path, body string) *step {
	return c.patch(name, path, "application/apply-patch+yaml", body)
}

// binary adds a step with a body sent as it is.
func (c *catalog) binary(name, method, path string, body []byte) *step {
	s := c.add(name, method, path, "")
	s.body, s.binary = body, true
	return s
}

// waitFor repeats a GET of path until cond holds; it is not compared.
func (c *catalog) waitFor(name, path string, cond func(code int, body any) bool) {
	s := c.get("wait: "+name, path)
	s.wait = cond
}

// Patch content types.
const (
	ctMerge     = "application/merge-patch+json"
	ctJSONPatch = "application/json-patch+json"
	ctStrategic = "application/strategic-merge-patch+json"
	ctYAML      = "application/yaml"
	ctProtobuf  = "application/vnd.kubernetes.protobuf"
)

// fidelityCatalog is every request of the check, in order.
func fidelityCatalog() []*step {
	c := &catalog{}
	discoveryScenario(c)
	crudScenario(c)
	optionsScenario(c)
	patchScenario(c)
	applyScenario(c)
	deleteScenario(c)
	namespaceScenario(c)
	crdScenario(c)
	crdValidationScenario(c)
	subresourceScenario(c)
	mediaScenario(c)
	kindsScenario(c)
	validateScenario(c)
	watchScenario(c)
	webhookScenario(c)
	versionsScenario(c)
	return c.steps
}

func discoveryScenario(c *catalog) {
	c.begin("discovery", "")
	c.get("version", "/version")
	c.get("legacy api", "/api")
	c.get("legacy apis", "/apis")
	c.get("core v1 resources", "/api/v1")
	c.get("apps v1 resources", "/apis/apps/v1")
	c.get("batch v1 resources", "/apis/batch/v1")
	c.get("apiextensions v1 resources", "/apis/apiextensions.k8s.io/v1")
	c.get("apps group", "/apis/apps")
	const aggregated = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
	c.get("aggregated api", "/api").accept(aggregated)
	c.get("aggregated apis", "/apis").accept(aggregated)
	c.get("unknown group", "/apis/nope.example.com/v1")
	c.get("unknown version", "/apis/apps/v9")
	c.get("unknown resource", "/apis/apps/v1/nothings")
	c.get("unknown core resource", "/api/v1/nothings")
	c.get("healthz", "/healthz").accept("")
	c.get("readyz", "/readyz").accept("")
	c.get("livez", "/livez").accept("")
	c.get("openapi v2", "/openapi/v2").onlyCode()
	c.get("openapi v3 index", "/openapi/v3").onlyCode()
}

// cm is a ConfigMap body.
func cm(name string, data map[string]string, extra string) string {
	var b strings.Builder
	b.WriteString(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + name + `"` + extra + `}`)
	if data != nil {
		b.WriteString(`,"data":{`)
		first := true
		for _, k := range slices.Sorted(maps.Keys(data)) {
			if !first {
				b.WriteString(",")
			}
			first = false
			b.WriteString(`"` + k + `":"` + data[k] + `"`)
		}
		b.WriteString("}")
	}
	b.WriteString("}")
	return b.String()
}

func crudScenario(c *catalog) {
	c.begin("crud", "fid-crud")
	cms := "/api/v1/namespaces/${ns}/configmaps"
	c.post("create configmap", cms, cm("a", map[string]string{"k": "v"}, `,"labels":{"app":"x"}`)).save("rvA", "metadata.resourceVersion")
	c.post("create existing", cms, cm("a", nil, ""))
	c.get("get", cms+"/a")
	c.get("get missing", cms+"/missing")
	c.get("list", cms)
	c.put("update stale", cms+"/a", cm("a", map[string]string{"k": "v2"}, `,"resourceVersion":"1"`))
	c.put("update", cms+"/a", cm("a", map[string]string{"k": "v2"}, `,"resourceVersion":"${rvA}"`))
	c.put("update without resourceVersion", cms+"/a", cm("a", map[string]string{"k": "v3", "l": "w"}, `,"labels":{"app":"x"}`))
	c.put("update unchanged", cms+"/a", cm("a", map[string]string{"k": "v3", "l": "w"}, `,"labels":{"app":"x"}`))
	c.put("update missing", cms+"/missing", cm("missing", nil, ""))
	c.put("update name mismatch", cms+"/a", cm("b", nil, ""))
	c.put("update namespace mismatch", cms+"/a", cm("a", nil, `,"namespace":"other"`))
	c.post("create namespace mismatch", cms, cm("c", nil, `,"namespace":"other"`))
	c.post("create without apiVersion and kind", cms, `{"metadata":{"name":"nokind"},"data":{"a":"b"}}`)
	c.post("create kind mismatch", cms, `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"wrongkind"}}`)
	c.post("create apiVersion mismatch", cms, `{"apiVersion":"apps/v1","kind":"ConfigMap","metadata":{"name":"wrongversion"}}`)
	c.post("create generateName", cms, cm("", nil, `,"generateName":"gen-"`)).save("genName", "metadata.name")
	c.get("get generated", cms+"/${genName}")
	c.post("create invalid name", cms, cm("Bad_Name", nil, ""))
	c.post("create long name", cms, cm(strings.Repeat("a", 254), nil, ""))
	c.post("create without name", cms, cm("", nil, ""))
	c.post("create in missing namespace", "/api/v1/namespaces/fid-missing/configmaps", cm("x", nil, ""))
	c.post("create with invalid label", cms, cm("badlabel", nil, `,"labels":{"a b":"c"}`))
	c.post("create with invalid label value", cms, cm("badvalue", nil, `,"labels":{"a":"`+strings.Repeat("x", 64)+`"}`))
	c.post("create with invalid annotation", cms, cm("badannotation", nil, `,"annotations":{"-x-":"y"}`))
	c.post("create with invalid finalizer", cms, cm("badfinalizer", nil, `,"finalizers":["bad finalizer"]`))
	c.post("create with unknown field", cms, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"unknown","bogus":1},"data":{"a":"b"},"extra":true}`)
	c.post("create unknown field strict", cms+"?fieldValidation=Strict", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"strict"},"extra":true}`)
	c.post("create unknown field ignore", cms+"?fieldValidation=Ignore", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ignore"},"extra":true}`)
	c.post("create duplicate field", cms, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup"},"data":{"a":"1"},"data":{"b":"2"}}`)
	c.post("create duplicate field strict", cms+"?fieldValidation=Strict", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dupstrict"},"data":{"a":"1"},"data":{"b":"2"}}`)
	c.post("create dry run", cms+"?dryRun=All", cm("dry", nil, ""))
	c.get("dry run stored nothing", cms+"/dry")
	c.post("create wrong type", cms, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"wrongtype"},"data":{"a":1}}`)
	c.post("create not json", cms, `{"apiVersion":`)
	c.post("create empty body", cms, "").ct("application/json")
	c.post("create secret", "/api/v1/namespaces/${ns}/secrets", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"stringData":{"user":"me"}}`)
	c.post("create service account", "/api/v1/namespaces/${ns}/serviceaccounts", `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"sa"}}`)
	c.post("create role", "/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles", `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"r"},"rules":[{"apiGroups":[""],"resources":["configmaps"],"verbs":["get","list"]}]}`)
	c.post("create lease", "/apis/coordination.k8s.io/v1/namespaces/${ns}/leases", `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l"},"spec":{"holderIdentity":"me","leaseDurationSeconds":15}}`)
	c.post("create deployment", "/apis/apps/v1/namespaces/${ns}/deployments", deployment("web", 2))
	c.get("get deployment", "/apis/apps/v1/namespaces/${ns}/deployments/web")
	c.post("create cluster role", "/apis/rbac.authorization.k8s.io/v1/clusterroles", `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"fid-crud"},"rules":[]}`)
	c.get("get cluster role", "/apis/rbac.authorization.k8s.io/v1/clusterroles/fid-crud")
	c.get("namespaced path for cluster kind", "/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/clusterroles/fid-crud")
}

// deployment is a Deployment body with one container.
func deployment(name string, replicas int) string {
	r := ""
	if replicas >= 0 {
		r = `"replicas":` + strconv.Itoa(replicas) + `,`
	}
	return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"` + name + `"},"spec":{` + r +
		`"selector":{"matchLabels":{"app":"` + name + `"}},"template":{"metadata":{"labels":{"app":"` + name + `"}},` +
		`"spec":{"containers":[{"name":"main","image":"nginx:1"}]}}}}`
}
