package e2e

// kubectlNS is the namespace the kubectl script works in.
const kubectlNS = "kubectl-e2e"

// kubectlStep is one kubectl invocation of the script.
type kubectlStep struct {
	args  []string
	stdin string // sent on standard input (apply -f -, create -f -)
	// uidOf names an object of the script's namespace ("pod/tool")
	// whose uid replaces ${UID} in stdin, as each server assigned it.
	uidOf string
	// edit is a sed script KUBE_EDITOR applies to the file kubectl edit
	// opens.
	edit string
	// watch runs args in the background (kubectl get -w), runs during
	// while it watches, and ends it once it printed lines lines (or
	// after a few seconds); its output is compared, its exit code not.
	watch  bool
	during []kubectlStep
	lines  int
}

func kc(args ...string) kubectlStep { return kubectlStep{args: args} }

// kn is a step in the script's namespace.
func kn(args ...string) kubectlStep { return kc(append(args, "-n", kubectlNS)...) }

func (s kubectlStep) in(stdin string) kubectlStep { s.stdin = stdin; return s }

// about sends stdin with ${UID} replaced by the uid of obj.
func (s kubectlStep) about(obj string) kubectlStep { s.uidOf = obj; return s }

const cm2YAML = `apiVersion: v1
kind: ConfigMap
metadata:
  name: cm2
  labels:
    tier: web
data:
  color: red
`

const cm2YAMLChanged = `apiVersion: v1
kind: ConfigMap
metadata:
  name: cm2
  labels:
    tier: web
    owner: shop
data:
  color: green
  size: large
`

const cm3Apply = `apiVersion: v1
kind: ConfigMap
metadata:
  name: cm3
data:
  mode: fast
`

const cm3ApplyOther = `apiVersion: v1
kind: ConfigMap
metadata:
  name: cm3
data:
  mode: slow
`

const recordedEventYAML = `apiVersion: events.k8s.io/v1
kind: Event
metadata:
  name: tool.recorded
eventTime: "2026-01-01T00:00:00.000000Z"
action: Checking
reason: Checked
note: checked by the operator
reportingController: example.com/operator
reportingInstance: operator-0
type: Normal
regarding:
  apiVersion: v1
  kind: Pod
  name: tool
  namespace: kubectl-e2e
  uid: ${UID}
`

const legacyEventYAML = `apiVersion: v1
kind: Event
metadata:
  name: tool.legacy
involvedObject:
  apiVersion: v1
  kind: Pod
  name: tool
  namespace: kubectl-e2e
  uid: ${UID}
reason: Pulled
message: image already present
source:
  component: kubelet
  host: node-1
count: 2
type: Warning
firstTimestamp: "2026-01-01T00:00:00Z"
lastTimestamp: "2026-01-01T00:05:00Z"
`

const hpaYAML = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
  minReplicas: 2
  maxReplicas: 5
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 70
`

const podYAML = `apiVersion: v1
kind: Pod
metadata:
  name: tool
  labels:
    app: tool
spec:
  containers:
  - name: tool
    image: busybox:1.36
    command: ["sleep", "3600"]
`

// placedPodYAML is a Pod on a node that does not exist.
const placedPodYAML = `apiVersion: v1
kind: Pod
metadata:
  name: placed
spec:
  nodeName: no-such-node
  containers:
  - name: main
    image: busybox:1.36
`

const accessReviewYAML = `apiVersion: authorization.k8s.io/v1
kind: SelfSubjectAccessReview
spec:
  resourceAttributes:
    namespace: kubectl-e2e
    verb: patch
    group: apps
    resource: deployments
    subresource: scale
`

const subjectReviewYAML = `apiVersion: authorization.k8s.io/v1
kind: SubjectAccessReview
spec:
  user: envtest-admin
  groups: ["system:masters"]
  nonResourceAttributes:
    path: /metrics
    verb: get
`

const localReviewYAML = `apiVersion: authorization.k8s.io/v1
kind: LocalSubjectAccessReview
spec:
  user: jane
  groups: ["system:masters"]
  resourceAttributes:
    namespace: kubectl-e2e
    verb: list
    resource: secrets
`

const crontabCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - name: Spec
      type: string
      jsonPath: .spec.cronSpec
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec:
                type: string
              replicas:
                type: integer
                default: 1
`

const crontabYAML = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: nightly
spec:
  cronSpec: "0 3 * * *"
`

const deployStatus = `{"status":{"observedGeneration":1,"replicas":2,"updatedReplicas":2,"readyReplicas":2,"availableReplicas":2}}`

// kubectlScript is what the test runs against each server, in order.
func kubectlScript() []kubectlStep {
	return []kubectlStep{
		kc("create", "namespace", kubectlNS),
		kc("get", "namespace", kubectlNS),
		kc("get", "namespace", kubectlNS, "-o", "yaml"),

		// create, get, list in every output
		kn("create", "configmap", "cm1", "--from-literal=color=blue"),
		kn("get", "configmap", "cm1"),
		kn("get", "configmap", "cm1", "-o", "yaml"),
		kn("get", "configmap", "cm1", "-o", "json"),
		kn("get", "configmaps", "-o", "wide"),
		kn("get", "configmaps", "-o", "name"),
		kn("get", "configmap", "cm1", "-o", "jsonpath={.data.color}"),
		kn("get", "configmap", "missing"),
		kc("get", "configmaps", "-A", "--field-selector", "metadata.namespace="+kubectlNS),

		// client-side apply
		kn("apply", "-f", "-").in(cm2YAML),
		kn("apply", "-f", "-").in(cm2YAML),
		kn("apply", "-f", "-").in(cm2YAMLChanged),
		kn("get", "configmap", "cm2", "-o", "yaml"),
		kn("diff", "-f", "-").in(cm2YAML),

		// server-side apply, a conflict, forcing it
		kn("apply", "--server-side", "-f", "-").in(cm3Apply),
		kn("apply", "--server-side", "--field-manager=other", "-f", "-").in(cm3ApplyOther),
		kn("apply", "--server-side", "--field-manager=other", "--force-conflicts", "-f", "-").in(cm3ApplyOther),
		kn("get", "configmap", "cm3", "-o", "yaml", "--show-managed-fields"),

		// label, annotate, patch, edit
		kn("label", "configmap", "cm1", "env=prod"),
		kn("label", "configmap", "cm1", "env=dev"),
		kn("label", "configmap", "cm1", "env=dev", "--overwrite"),
		kn("get", "configmaps", "-l", "env=dev"),
		kn("get", "configmaps", "--show-labels"),
		kn("label", "configmap", "cm1", "env-"),
		kn("annotate", "configmap", "cm1", "note=hello"),
		kn("patch", "configmap", "cm1", "--type=merge", "-p", `{"data":{"size":"small"}}`),
		kn("patch", "configmap", "cm1", "--type=json", "-p", `[{"op":"replace","path":"/data/color","value":"teal"}]`),
		kn("patch", "configmap", "cm1", "--type=json", "-p", `[{"op":"test","path":"/data/color","value":"nope"}]`),
		{args: []string{"edit", "configmap", "cm1", "-n", kubectlNS}, edit: "s/color: teal/color: violet/"},
		kn("get", "configmap", "cm1", "-o", "yaml"),

		// Deployments: create, status through the subresource, rollout, scale
		kn("create", "deployment", "web", "--image=nginx:1.27", "--replicas=2"),
		kn("get", "deployment", "web"),
		kn("get", "deployment", "web", "-o", "wide"),
		kn("get", "deployment", "web", "-o", "yaml"),
		kn("patch", "deployment", "web", "--subresource=status", "--type=merge", "-p", deployStatus),
		kn("rollout", "status", "deployment/web", "--timeout=10s"),
		kn("get", "deployment", "web"),
		kn("scale", "deployment", "web", "--replicas=3"),
		kn("get", "deployment", "web", "-o", "jsonpath={.spec.replicas} {.metadata.generation}"),
		kn("label", "deployment", "web", "team=shop"),
		kn("get", "deployment", "web", "-o", "jsonpath={.metadata.generation}"),
		kn("patch", "deployment", "web", "-p", `{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.28"}]}}}}`),
		kn("get", "deployment", "web", "-o", "jsonpath={.metadata.generation} {.spec.template.spec.containers[0].image}"),
		kn("rollout", "history", "deployment/web"),

		// Pods and Secrets: kube-apiserver's defaulting and admission (the
		// service account controller made "default" long ago)
		kn("get", "serviceaccount", "default", "-o", "name"),
		kn("create", "-f", "-").in(podYAML),
		kn("get", "pod", "tool"),
		kn("get", "pod", "tool", "-o", "wide"),
		kn("get", "pod", "tool", "-o", "yaml"),
		kn("create", "secret", "generic", "s1", "--from-literal=k=v"),
		kn("get", "secret", "s1", "-o", "yaml"),
		kn("get", "secrets"),
		kn("get", "all"),

		// Events about the Pod, one written through events.k8s.io/v1 (as
		// an operator's recorder writes them), one through core/v1 (as a
		// kubelet does): both APIs serve both, and kubectl shows both
		kn("create", "--validate=false", "-f", "-").in(recordedEventYAML).about("pod/tool"),
		kn("create", "--validate=false", "-f", "-").in(legacyEventYAML).about("pod/tool"),
		kn("get", "events"),
		kc("get", "events", "-A", "--field-selector", "involvedObject.name=tool"),
		kn("get", "events", "--field-selector", "reason=Pulled"),
		kn("get", "event", "tool.recorded", "-o", "yaml"),
		kn("get", "events.v1.events.k8s.io", "tool.legacy", "-o", "yaml"),
		kn("events"),
		kn("events", "--for", "pod/tool"),
		kn("describe", "pod", "tool"),

		// an autoscaling/v2 HorizontalPodAutoscaler
		kn("create", "--validate=false", "-f", "-").in(hpaYAML),
		kn("get", "hpa"),
		kn("get", "hpa", "web", "-o", "wide"),

		// a Pod's logs and streams: no kubelet runs beside either server
		kn("logs", "tool"),
		kn("logs", "tool", "-c", "nope"),
		kn("logs", "missing"),
		kc("exec", "-n", kubectlNS, "tool", "--", "ls"),
		kc("exec", "-n", kubectlNS, "missing", "--", "ls"),
		kn("attach", "tool", "--pod-running-timeout=2s"),
		kn("cp", "tool:/etc/hostname", "hostname-copy"),
		kc("get", "--raw", "/api/v1/namespaces/"+kubectlNS+"/pods/missing/log?tailLines=-2"),
		kc("get", "--raw", "/api/v1/namespaces/"+kubectlNS+"/pods/tool/log?limitBytes=0&sinceSeconds=0&stream=All"),
		kc("get", "--raw", "/api/v1/namespaces/"+kubectlNS+"/pods/tool/log?tailLines=abc"),
		kc("get", "--raw", "/api/v1/watch/namespaces/"+kubectlNS+"/pods/tool/log"),
		kn("port-forward", "pod/tool", "18080:80"),
		kn("create", "-f", "-").in(placedPodYAML),
		kn("logs", "placed"),
		kc("exec", "-n", kubectlNS, "placed", "--", "ls"),
		kn("delete", "pod", "placed", "--grace-period=0", "--force"),

		// a watch while things change
		{watch: true, args: []string{"get", "configmaps", "-w", "--output-watch-events", "-n", kubectlNS, "-l", "watched=yes"}, lines: 5, during: []kubectlStep{
			kn("create", "configmap", "w1", "--from-literal=a=1"),
			kn("label", "configmap", "w1", "watched=yes"),
			kn("annotate", "configmap", "w1", "x=y"),
			kn("delete", "configmap", "w1"),
		}},

		// who the user is and what it may do; a service account's token
		kc("auth", "can-i", "create", "pods"),
		kn("auth", "can-i", "delete", "nodes"),
		kc("auth", "can-i", "get", "/healthz"),
		kn("auth", "can-i", "--list"),
		kc("auth", "whoami"),
		kc("get", "--raw", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"),
		kc("auth", "whoami", "-o", "yaml"),
		// (kubectl validates create-only kinds against OpenAPI v2 in
		// protobuf, which the fake does not serve)
		kc("create", "--validate=false", "-f", "-", "-o", "yaml").in(accessReviewYAML),
		kc("create", "--validate=false", "-f", "-", "-o", "yaml").in(subjectReviewYAML),
		kn("create", "--validate=false", "-f", "-", "-o", "yaml").in(localReviewYAML),
		kn("create", "token", "default"),
		kn("create", "token", "default", "--duration=10m", "--audience=api", "-o", "yaml"),
		kn("create", "token", "missing"),

		// custom resources
		kc("apply", "-f", "-").in(crontabCRD),
		kc("wait", "--for=condition=Established", "crd/crontabs.stable.example.com", "--timeout=10s"),
		kn("apply", "-f", "-").in(crontabYAML),
		kn("get", "crontabs"),
		kn("get", "ct", "nightly", "-o", "yaml"),
		kn("get", "crontab", "nightly", "-o", "wide"),
		kn("patch", "crontab", "nightly", "--type=merge", "-p", `{"spec":{"replicas":3}}`),
		kn("get", "crontabs"),

		// discovery and OpenAPI
		kc("api-versions"),
		kc("api-resources"),
		kc("api-resources", "--namespaced=false", "-o", "name"),
		kc("api-resources", "--api-group=apps", "-o", "wide"),
		kc("explain", "configmap"),
		kc("explain", "deployment.spec.replicas"),
		kc("explain", "pods.spec.containers.image"),
		kc("explain", "crontab.spec"),

		// deletion
		kn("delete", "configmap", "cm2"),
		kn("delete", "configmap", "cm2"),
		kn("delete", "configmap", "cm2", "--ignore-not-found"),
		kn("delete", "configmaps", "-l", "tier=web"),
		kn("delete", "deployment", "web"),
		kn("delete", "pod", "tool", "--grace-period=0", "--force"),
		kn("delete", "crontab", "nightly"),
		kc("delete", "crd", "crontabs.stable.example.com"),
		kn("get", "configmaps"),
		kc("delete", "namespace", kubectlNS, "--timeout=30s"), // waits until the namespace controller removed it
		kc("get", "namespace", kubectlNS),
	}
}
