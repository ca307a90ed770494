package crgen

import (
	"fmt"
	"hash/fnv"
	"strconv"
)

// workflow is an Argo Workflow of a CI pipeline, run to completion: a DAG
// (checkout, build, tests, package, deploy) whose tests task is a steps
// template of two parallel steps then a report, nine templates in all,
// and a status node per template run. The spec repeats across the
// workflows of one pipeline but for the revision; the status, its node
// ids and times, and the controller's managedFields entry (which names
// the node ids) are each workflow's own.
func workflow(i int) map[string]any {
	app := fmt.Sprintf("svc-%d", i%50)
	name := fmt.Sprintf("ci-%s-%06d", app, i)
	rev := fmt.Sprintf("%040x", uint64(i)*0x9e3779b97f4a7c15)
	start := i % 10000
	labels := map[string]any{
		"workflows.argoproj.io/completed": "true", "workflows.argoproj.io/phase": "Succeeded",
		"workflows.argoproj.io/workflow-template": "ci-pipeline", "app.kubernetes.io/name": app,
	}
	meta := map[string]any{
		"name": name, "namespace": Namespaces()[i%20], "labels": labels,
		"annotations": map[string]any{"workflows.argoproj.io/pod-name-format": "v2"},
	}
	param := func(name, value string) map[string]any { return map[string]any{"name": name, "value": value} }
	task := func(name, template string, deps ...string) map[string]any {
		t := map[string]any{"name": name, "template": template,
			"arguments": map[string]any{"parameters": []any{param("revision", "{{workflow.parameters.revision}}")}}}
		if len(deps) > 0 {
			d := make([]any, len(deps))
			for k := range deps {
				d[k] = deps[k]
			}
			t["dependencies"] = d
		}
		return t
	}
	container := func(image string, args ...string) map[string]any {
		a := make([]any, len(args))
		for k := range args {
			a[k] = args[k]
		}
		return map[string]any{"name": "main", "image": image, "command": []any{"/bin/sh", "-c"}, "args": a,
			"env":        []any{map[string]any{"name": "REVISION", "value": "{{inputs.parameters.revision}}"}, map[string]any{"name": "CI", "value": "true"}},
			"resources":  map[string]any{"requests": map[string]any{"cpu": "500m", "memory": "512Mi"}, "limits": map[string]any{"cpu": "2", "memory": "2Gi"}},
			"workingDir": "/src"}
	}
	source := map[string]any{"name": "source", "path": "/src", "s3": map[string]any{"key": "ci/{{workflow.name}}/source.tgz"}}
	inputs := map[string]any{"parameters": []any{map[string]any{"name": "revision"}}, "artifacts": []any{source}}
	retry := map[string]any{"limit": int64(2), "retryPolicy": "OnFailure", "backoff": map[string]any{"duration": "10s", "factor": int64(2), "maxDuration": "5m"}}
	templates := []any{
		map[string]any{"name": "main", "dag": map[string]any{"tasks": []any{
			task("checkout", "checkout"), task("build", "build", "checkout"), task("tests", "tests", "build"),
			task("package", "package", "tests"), task("deploy", "deploy", "package"),
		}}},
		map[string]any{"name": "checkout", "inputs": map[string]any{"parameters": []any{map[string]any{"name": "revision"}}},
			"container": container("alpine/git:2.45.2", "git clone https://git.example.com/"+app+".git /src && git -C /src checkout {{inputs.parameters.revision}}"),
			"outputs":   map[string]any{"artifacts": []any{source}}},
		map[string]any{"name": "build", "inputs": inputs, "retryStrategy": retry,
			"container": container("golang:1.26", "go build -trimpath -o /src/bin/ ./..."),
			"outputs":   map[string]any{"artifacts": []any{map[string]any{"name": "binaries", "path": "/src/bin", "s3": map[string]any{"key": "ci/{{workflow.name}}/bin.tgz"}}}}},
		map[string]any{"name": "tests", "inputs": inputs, "steps": []any{
			[]any{
				map[string]any{"name": "unit", "template": "go-test", "arguments": map[string]any{"parameters": []any{param("revision", "{{inputs.parameters.revision}}")}}},
				map[string]any{"name": "lint", "template": "go-lint", "arguments": map[string]any{"parameters": []any{param("revision", "{{inputs.parameters.revision}}")}}, "continueOn": map[string]any{"failed": true}},
			},
			[]any{map[string]any{"name": "report", "template": "report"}},
		}},
		map[string]any{"name": "go-test", "inputs": inputs, "container": container("golang:1.26", "go test -race -coverprofile=/tmp/cover.out ./...")},
		map[string]any{"name": "go-lint", "inputs": inputs, "container": container("golangci/golangci-lint:v2.5", "golangci-lint run ./...")},
		map[string]any{"name": "report", "container": container("registry.example.com/ci/reporter:3.1", "report --format junit /tmp/results")},
		map[string]any{"name": "package", "inputs": inputs, "container": container("gcr.io/kaniko-project/executor:v1.23.2",
			"/kaniko/executor --context=/src --destination=registry.example.com/"+app+":{{inputs.parameters.revision}}")},
		map[string]any{"name": "deploy", "inputs": inputs, "container": container("registry.example.com/ci/deployer:1.8",
			"deploy --app="+app+" --revision={{inputs.parameters.revision}} --env=staging")},
	}
	spec := map[string]any{
		"entrypoint": "main", "serviceAccountName": "ci-workflow",
		"arguments":   map[string]any{"parameters": []any{param("revision", rev), param("repo", "https://git.example.com/"+app+".git")}},
		"podGC":       map[string]any{"strategy": "OnPodSuccess"},
		"ttlStrategy": map[string]any{"secondsAfterCompletion": int64(86400)},
		"templates":   templates,
		"podMetadata": map[string]any{"labels": map[string]any{"app.kubernetes.io/part-of": "ci"}},
	}

	// Nodes: the DAG, its five tasks, and within tests two step groups,
	// their steps (unit, lint, report).
	type run struct{ name, display, typ, template, boundary string }
	runs := []run{
		{name, name, "DAG", "main", ""},
		{name + ".checkout", "checkout", "Pod", "checkout", name},
		{name + ".build", "build", "Pod", "build", name},
		{name + ".tests", "tests", "Steps", "tests", name},
		{name + ".tests[0]", "[0]", "StepGroup", "tests", name + ".tests"},
		{name + ".tests[0].unit", "unit", "Pod", "go-test", name + ".tests"},
		{name + ".tests[0].lint", "lint", "Pod", "go-lint", name + ".tests"},
		{name + ".tests[1]", "[1]", "StepGroup", "tests", name + ".tests"},
		{name + ".tests[1].report", "report", "Pod", "report", name + ".tests"},
		{name + ".package", "package", "Pod", "package", name},
		{name + ".deploy", "deploy", "Pod", "deploy", name},
	}
	children := map[int][]int{0: {1}, 1: {2}, 2: {3}, 3: {4}, 4: {5, 6}, 5: {7}, 6: {7}, 7: {8}, 8: {9}, 9: {10}}
	id := func(r run) string {
		if r.name == name {
			return name
		}
		h := fnv.New32a()
		h.Write([]byte(r.name))
		return name + "-" + strconv.FormatUint(uint64(h.Sum32()), 10)
	}
	nodes := map[string]any{}
	completed := map[string]any{}
	nodeFields := map[string]any{}
	for k, r := range runs {
		nid := id(r)
		n := map[string]any{
			"id": nid, "name": r.name, "displayName": r.display, "type": r.typ, "templateName": r.template,
			"templateScope": "local/" + name, "phase": "Succeeded", "startedAt": stamp(start + k), "finishedAt": stamp(start + k + 1),
			"progress": "1/1", "resourcesDuration": map[string]any{"cpu": int64(3 + k%4), "memory": int64(41 + 7*(k%4))},
		}
		if r.boundary != "" {
			n["boundaryID"] = id(run{name: r.boundary})
		}
		if cs := children[k]; len(cs) > 0 {
			c := make([]any, len(cs))
			for j, ch := range cs {
				c[j] = id(runs[ch])
			}
			n["children"] = c
		}
		if r.typ == "Pod" {
			n["hostNodeName"] = fmt.Sprintf("ci-pool-node-%03d", (i+k)%120)
			n["inputs"] = map[string]any{"parameters": []any{param("revision", rev)}}
			n["outputs"] = map[string]any{"exitCode": "0", "artifacts": []any{map[string]any{"name": "main-logs",
				"s3": map[string]any{"key": name + "/" + nid + "/main.log"}}}}
			completed[nid] = true
		}
		if r.typ == "DAG" {
			n["outboundNodes"] = []any{id(runs[10])}
		}
		nodes[nid] = n
		nodeFields["f:"+nid] = fieldSet(".", "f:displayName", "f:finishedAt", "f:id", "f:name", "f:phase", "f:progress", "f:startedAt", "f:templateName", "f:templateScope", "f:type")
	}
	status := map[string]any{
		"phase": "Succeeded", "startedAt": stamp(start), "finishedAt": stamp(start + len(runs) + 1), "progress": "7/7",
		"nodes":                       nodes,
		"conditions":                  []any{map[string]any{"type": "PodRunning", "status": "False"}, map[string]any{"type": "Completed", "status": "True"}},
		"resourcesDuration":           map[string]any{"cpu": int64(31 + i%7), "memory": int64(420 + i%13)},
		"artifactRepositoryRef":       map[string]any{"configMap": "artifact-repositories", "key": "default-v1", "namespace": meta["namespace"], "default": true},
		"artifactGCStatus":            map[string]any{"notSpecified": true},
		"taskResultsCompletionStatus": completed,
	}
	meta["managedFields"] = []any{
		managedEntry("argo", "Update", "argoproj.io/v1alpha1", stamp(start), "", map[string]any{
			"f:spec": fieldSet(".", "f:arguments", "f:entrypoint", "f:podGC", "f:podMetadata", "f:serviceAccountName", "f:templates", "f:ttlStrategy"),
		}),
		managedEntry("workflow-controller", "Update", "argoproj.io/v1alpha1", stamp(start+len(runs)+1), "", map[string]any{
			"f:metadata": map[string]any{
				"f:annotations": fieldSet(".", "f:workflows.argoproj.io/pod-name-format"),
				"f:labels":      fieldSet(".", "f:app.kubernetes.io/name", "f:workflows.argoproj.io/completed", "f:workflows.argoproj.io/phase", "f:workflows.argoproj.io/workflow-template"),
			},
			"f:status": map[string]any{"f:nodes": nodeFields, "f:phase": map[string]any{}, "f:progress": map[string]any{}, "f:startedAt": map[string]any{}, "f:finishedAt": map[string]any{}},
		}),
	}
	return map[string]any{"apiVersion": "argoproj.io/v1alpha1", "kind": "Workflow", "metadata": meta, "spec": spec, "status": status}
}
