// Package fake is an in-memory Kubernetes API server for tests. It speaks
// kube-apiserver's wire protocol over real HTTP (or in memory, through
// Server.RoundTripper), so a client under test exercises the same code
// paths it uses against a cluster: Accept negotiation, protobuf and JSON
// bodies, resource versions, pagination, selectors, watches, watch-lists,
// bookmarks, 410s, field management and the Status bodies of every error.
//
// # What it implements
//
//   - Every built-in kind of kube-apiserver v1.36 that can be listed
//     (routes from api/registry), and custom resources (JSON and YAML,
//     and CBOR with Options.CBOR, but no protobuf, as on a real server).
//   - Defaulting of built-in kinds as kube-apiserver decodes them
//     (fake/internal/admission/defaults: Pods and pod templates down to probes,
//     ports, volumes and env; Deployments, StatefulSets, DaemonSets,
//     ReplicaSets, Jobs, CronJobs, ReplicationControllers; Services;
//     Secrets, whose stringData is folded into data; PVCs and PVs;
//     RBAC bindings; NetworkPolicies, IngressClasses, StorageClasses,
//     CSIDrivers, PriorityClasses, EndpointSlices, autoscalers), counted
//     as the writer's managed fields as kube-apiserver counts them; and
//     what its registry sets on a create: status reset (a Pod Pending
//     with its QoS class), a Job's generated selector, a Service's
//     cluster IP, IP families and node ports, a DaemonSet's template
//     generation.
//   - The admission plugins kube-apiserver enables by default that change
//     objects, on writes through the API: NamespaceLifecycle (no new
//     objects in a terminating namespace, 403; default, kube-system and
//     kube-public cannot be deleted), ServiceAccount (a Pod runs as its
//     namespace's "default" account, which must exist, and mounts its
//     token), Priority, DefaultTolerationSeconds, TaintNodesByCondition,
//     StorageObjectInUseProtection and DefaultStorageClass; admission
//     hooks a test adds (Options.Admission) that change or refuse writes
//     as webhooks do; and the admission webhooks the server's
//     Mutating- and ValidatingWebhookConfigurations register, called
//     over HTTPS as kube-apiserver calls them (rules, scope, namespace
//     and object selectors, matchPolicy Equivalent for the versions of
//     a custom resource, timeouts and failure policies, JSON patches,
//     denials, warnings; a Service reference is called at the address
//     Options.WebhookServices gives it). Custom resources whose CRD has
//     conversion strategy Webhook are converted by calling it: to the
//     storage version when written, and to the version asked for when
//     read (gets, lists in one review, watch events, the object updates
//     and patches start from).
//   - Validation of every object's metadata with kube-apiserver's rules
//     and messages: names per kind (DNS subdomains, DNS labels for
//     Namespaces and Services, path segments for RBAC),
//     generateName, label keys and values, annotations, finalizer names,
//     ownerReferences, an immutable uid, no new finalizers on an object
//     being deleted; of built-in kinds: Pods and pod templates
//     (containers, init and ephemeral containers, names, images, ports,
//     policies, volumes and their sources' required fields, volume
//     mounts, env and envFrom, probes and lifecycle hooks, affinity,
//     resources and pod-level resources, overhead,
//     resource claims, security contexts, tolerations, topology spread
//     constraints, DNS config, readiness and scheduling gates, host
//     aliases, classes, OS, hostname override) and which fields a Pod
//     update may change (kube-apiserver's Forbidden with the unified
//     diff of its internal specs), Services (ports, selector, type,
//     ExternalName, cluster IPs and IP families, external IPs, traffic
//     policies), Deployments, ReplicaSets and DaemonSets (selector,
//     template, strategy, limits, an immutable selector),
//     StatefulSets (policies, counts, service name, selector, template,
//     claim templates, the spec fields an update may not change),
//     Jobs and CronJobs (counts, limits, completion mode, managedBy,
//     success policy, template, restart policy, selector, the fields a
//     Job update may not change, a running Job's template in
//     kube-apiserver's internal form, the generated selector's labels; a
//     schedule parsed as kube-apiserver's cron parser does, its time zone
//     and concurrency policy), PersistentVolumeClaims (access modes,
//     storage request, classes, volume mode, data sources, the spec an
//     update may not change with its diff), NetworkPolicies (selectors,
//     ports, peers, ipBlock CIDRs, policy types), Ingresses (rules,
//     hosts, paths, backends, TLS, class), EndpointSlices (address type,
//     addresses per type, ports, hints),
//     ConfigMaps and Secrets (keys, size, immutability, typed Secrets'
//     required keys), ServiceAccounts, Leases, PodDisruptionBudgets, RBAC
//     roles and bindings, Events (core/v1's lenient rules,
//     events.k8s.io/v1's required reporter fields and the fields its
//     updates may not change, under the core/v1 field names
//     kube-apiserver reports) and HorizontalPodAutoscalers (counts,
//     scale target, metrics by type, behavior policies; autoscaling/v1
//     ones checked in their v2 form), ReplicationControllers, with
//     kube-apiserver's causes (each as often as it reports it); the
//     warnings of the Service and EndpointSlice strategies and the
//     name warning of Pods and the workloads that make them (a name
//     that is not a DNS label); the IP allocator's refusal of families
//     the fake's single-stack IPv4 cluster lacks (RequireDualStack,
//     an IPv6 family or cluster IP), before validation as there; the
//     RuntimeClass admission plugin (a Pod's class must exist, its
//     overhead and node selector apply) and the Priority plugin's
//     preemption policy; of
//     CustomResourceDefinitions and custom resources (below). The uid an
//     update names is a precondition of its write (409), as on
//     kube-apiserver.
//   - Kinds served under several group/versions and stored once, as on
//     kube-apiserver (fake/internal/convert): core/v1 and
//     events.k8s.io/v1 Events are one store, and autoscaling/v2 and
//     autoscaling/v1 HorizontalPodAutoscalers another. Objects are kept
//     at the storage version (core/v1; autoscaling/v2) and converted
//     field by field on every read at the other (get, list, watch,
//     Tables, the object an update, patch or apply starts from):
//     regarding is involvedObject, note is message, deprecatedSource,
//     deprecatedCount and the deprecated timestamps are source, count
//     and the timestamps; autoscaling/v1 keeps what it has no field for
//     in kube-apiserver's round-trip annotations. Field selectors of
//     either Events API select the one stored event; errors name the
//     internal kind (Event of the core group); field ownership follows
//     kube-apiserver's field manager (entries of the other Events API are
//     dropped on a write, entries of the other autoscaling version lose
//     what the write changed). Events have no garbage collection policy:
//     a delete's propagation policy deletes them at once.
//   - CustomResourceDefinitions through the API, as kube-apiserver's
//     controllers handle them but at once: creating or updating a CRD
//     serves its served versions before the write is answered, then
//     accepts its names (refusing, NamesAccepted=False, names another
//     definition of the group holds) and marks it Established; the CRD
//     is defaulted and validated. Deleting a CRD answers with it marked
//     Terminating, then deletes its objects, stops serving it (open
//     watches of its resources end after their DELETED events, at once
//     where kube-apiserver waits a second; later requests get 404) and
//     removes it. Server.AddCustomResource creates a CRD whose schema
//     keeps any field.
//   - Custom resources: bodies must carry kind and apiVersion; fields the
//     structural schema does not know are pruned (one Warning header per
//     field, or a 400 with fieldValidation=Strict); schema defaults are
//     applied; objects are validated against the schema with
//     kube-apiserver's messages; updates must name a resourceVersion;
//     the status and scale subresources; printer columns; selectable
//     fields.
//   - managedFields on every write and server-side apply, with
//     kube-apiserver's ownership, conflicts (409 unless force=true),
//     entry shapes and order.
//   - One global resource version, a decimal string that grows with every
//     write; uid, creationTimestamp, generateName, metadata.generation.
//   - get, list, watch, create, update (409 on a stale resourceVersion),
//     patch (JSON patch, merge patch, strategic merge patch with
//     kube-apiserver's merge keys and list order, server-side apply),
//     delete, deletecollection, the status subresource, dryRun=All,
//     fieldValidation (unknown and duplicate fields: Strict 400s, one
//     Warning header each), write options validated as kube-apiserver
//     validates them, the scale subresource, Namespaces' /finalize,
//     pods/binding, pods/eviction and serviceaccounts/token.
//   - Deletion as kube-apiserver does it: propagationPolicy Background,
//     Foreground and Orphan (the foregroundDeletion and orphan
//     finalizers; Jobs orphan by default, with the warning), invalid
//     options answered 422, preconditions worded as its storage words
//     them, finalizers holding an object, graceful deletion of Pods
//     bound to a node (deletionTimestamp at the end of the grace period;
//     gracePeriodSeconds=0 deletes at once), deleting a Namespace marks
//     it Terminating, and kube-apiserver's deprecation warnings.
//   - What kube-controller-manager's controllers do, before the write
//     that triggers them is answered (Options.Controllers; see
//     ControllersMode): the garbage collector (dependents of deleted
//     owners, blockOwnerDeletion, foreground and orphan deletions), the
//     namespace controller (a Terminating namespace is emptied, then
//     removed), a "default" ServiceAccount in every namespace, the PVC
//     and PV protection controllers, and a kubelet's removal of a Pod
//     whose grace period is over. ControllersManual leaves it to
//     Server.CollectGarbage, as on a cluster without them.
//   - Lists: limit and continue over a consistent snapshot,
//     remainingItemCount, every row of the resourceVersion /
//     resourceVersionMatch table (Events, which kube-apiserver reads
//     from etcd rather than its watch cache, honour limit at
//     resourceVersion=0), label and field selectors read with
//     kube-apiserver's grammar and refused in its words, and each
//     built-in kind's field label conversion (Services' spec.clusterIP
//     and spec.type, Pods' status.podIPs and spec.host, Jobs' own
//     wording, metadata only for kinds that register none).
//   - Watches in JSON and protobuf framing, from any kept resource
//     version, bookmarks, watch-lists with the initial-events-end
//     bookmark, timeoutSeconds, 410 ERROR events for compacted versions.
//   - CBOR (KEP-4222) with Options.CBOR, as kube-apiserver v1.36 serves
//     it with its CBORServingAndStorage feature gate: application/cbor
//     for objects, lists, PartialObjectMetadata, scale and Status
//     errors of every resource (built-in and custom), watches as
//     application/cbor-seq, CBOR and apply-patch+cbor request bodies;
//     written as that server writes (self-described tag, byte-string
//     keys and strings, keys in a random order, shortest exact floats).
//     Tables stay JSON or YAML. Without it, like a server without the
//     gate, "application/cbor, application/json" gets JSON and
//     application/cbor alone 406 (415 for a CBOR body).
//   - as=Table with kube-apiserver's columns (recorded from v1.36.3,
//     wide ones included) and the cells of its printers for Pods,
//     Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs, CronJobs,
//     ReplicationControllers, PodTemplates, Services, Endpoints,
//     EndpointSlices, ConfigMaps, Secrets, ServiceAccounts, Namespaces,
//     Nodes, Events, PVCs, PVs, Ingresses, IngressClasses,
//     NetworkPolicies, Leases, RBAC bindings, autoscalers, disruption
//     budgets, StorageClasses, PriorityClasses, CSI drivers and nodes,
//     volume attachments, runtime classes, controller revisions and
//     webhook configurations; custom resources with their printer
//     columns; includeObject and meta.k8s.io/v1beta1 Tables.
//     as=PartialObjectMetadata(List) (Tables and metadata in JSON or
//     YAML), YAML, gzip. JSON bodies end
//     with a newline, or are indented when the client asks (pretty=true,
//     or a curl, Wget or browser User-Agent), as kube-apiserver's are;
//     a Status in no media type the client accepts is indented JSON.
//   - Discovery as kube-apiserver v1.36.3 serves it (recorded by the e2e
//     module's fakedata command: legacy /api and /apis, /apis/GROUP,
//     group version resource lists with every subresource and
//     storageVersionHash, aggregated discovery in JSON and protobuf),
//     with custom resource groups added; /version; /healthz, /readyz,
//     /livez; /openapi/v2 (JSON) and /openapi/v3, custom resources in v3
//     as kube-apiserver writes them (their schemas, and paths filled in
//     from a recorded custom resource's, so kubectl apply and explain
//     work on them).
//   - Faults: FailNext for whatever request comes next; Faults.Add for
//     faults aimed by verb, resource, subresource, namespace, name,
//     field manager and user agent; latency, dropped, cut or corrupt
//     watches, refused protobuf, refused or unterminated watch-lists,
//     compaction, restarts and "too large resource version".
//   - Snapshots: Server.Snapshot writes every object, LoadSnapshot loads
//     them into another server.
//
// # Fidelity
//
// The e2e module's TestFidelity sends a catalog of 417 raw requests
// (discovery, health, OpenAPI, CRUD, every patch type, apply with
// conflicts, deletion policies, namespace lifecycle, CRD lifecycle and
// validation, options and error answers, Tables, protobuf, YAML, watches,
// pods/binding, pods/eviction, serviceaccounts/token, and an object of
// every common kind with its Table) to a fresh fake and a fresh
// kube-apiserver v1.36.3 and compares the answers after normalising uids,
// resource versions, timestamps, generated names, allocated addresses and
// continue tokens: all 417 are identical (77.6% of the 331 requests of
// the previous round's catalog were; the 86 added ones cover the kinds,
// defaults, admission, Tables, subresources and graceful deletion this
// round implements, so the figure measures the catalog, not everything
// kube-apiserver does). The e2e cluster runs no kube-controller-manager
// and no kubelet, so the fake is compared with ControllersManual, and the
// 3 requests whose answer depends on those controllers are left out.
// Its versions scenario reads, lists, selects, patches, applies and
// deletes Events and autoscalers through each version that serves them
// (466 requests compared in all, every one identical).
// What still differs from kube-apiserver, by class, beyond the catalog:
//
//   - Defaulting: quantities are not rounded to milli-units, pod-level
//     resources get no defaults, and fields behind feature gates
//     kube-apiserver v1.36 leaves off by default are not defaulted.
//   - Admission: LimitRanger, ResourceQuota, PodSecurity and the
//     validating admission policies are not run; webhooks are called
//     while the server holds its storage's lock for updates, patches and
//     deletes, so a webhook that calls the fake back waits until its
//     timeout; matchConditions and reinvocation are not evaluated (every
//     matching webhook is called once); nothing creates
//     the kube-root-ca.crt ConfigMap a Pod's token volume names.
//   - Validation of built-in kinds is partial: of the kinds above, pod
//     affinity's matchLabelKeys, the stop signal, env's field, resource
//     and file selectors, sysctls, Windows and Linux-only security
//     options, projected, downwardAPI, CSI and
//     ephemeral volume sources, the container restart policy rules, the
//     pod-level resources' consistency with the containers', the
//     changes a scheduling-gated Pod may make to its node selector and
//     affinity; Services' source ranges, load balancer class, session
//     affinity config and update-only rules; a claim's changes once
//     bound beyond its storage request; Jobs' pod failure policies,
//     indexed-completion limits and a suspended Job's template are not
//     checked. kube-apiserver walks resource maps in Go's random order,
//     the fake in sorted order, so causes of several bad resource names
//     may come in another order. An autoscaler's status writes are
//     checked like its spec writes and its create drops a
//     metadata.generation kube-apiserver keeps. The kinds not named
//     above get metadata checks only, so invalid specs of those are
//     stored.
//     Duplicate fields are not reported in YAML bodies.
//   - Deletion: a Pod deleted with a zero grace period gives watchers one
//     DELETED event (kube-apiserver sends MODIFIED, then DELETED).
//   - Controllers: no Deployment, ReplicaSet, Job or other workload
//     controller runs (nothing creates Pods); a Terminating namespace
//     gets no status conditions.
//   - Subresources: discovery lists every one kube-apiserver serves and
//     the fake serves them all: status, scale, /finalize, pods/binding,
//     pods/eviction (disruption budgets are not checked),
//     serviceaccounts/token (a JWT signed with an Ed25519 key the Server
//     makes at start, not kube-apiserver's RS256/ES256),
//     pods/ephemeralcontainers and pods/resize (the spec changes and is
//     validated as kube-apiserver's strategies do; a changed ephemeral
//     container's message has no field diff, the Pod-level resources and
//     init-container resize feature gates are taken as off), and
//     pods/log, exec, attach, portforward and pods, services and nodes
//     /proxy as kube-apiserver answers them with nothing to reach (a Pod
//     with no node: an empty log, 400 "does not have a host assigned"; a
//     Pod on a Node: 500 saying the fake runs no containers, unless
//     Options.Exec or Options.Logs emulates a kubelet; a proxy
//     whose Pod, Endpoints or Node has an address: 503 "error trying to
//     reach service"; Node hostnames are not resolved).
//   - Reviews: selfsubjectaccessreviews, subjectaccessreviews,
//     localsubjectaccessreviews, selfsubjectrulesreviews,
//     selfsubjectreviews and tokenreviews answer as kube-apiserver
//     answers an admin in system:masters (the fake's token is user
//     kubewire-fake:admin): every access review, for any subject, is
//     allowed (no RBAC is evaluated); a TokenReview authenticates the
//     fake's own token and the tokens serviceaccounts/token issued (as
//     the ServiceAccount, while it and a bound Pod exist with the uids
//     they name, for a matching audience, until expiry); a token it
//     does not authenticate gets kube-apiserver's error text ("invalid
//     bearer token", with the reason when the token was the fake's); a
//     review's metadata is not checked to be empty, and its attributes'
//     selectors are not validated.
//   - OpenAPI: /openapi/v2 in JSON only (a protobuf-only Accept gets
//     406) and without custom resources.
//   - Tables of the built-in kinds without a printer here
//     (ResourceQuotas, CertificateSigningRequests, APIServices, flow
//     control, resource.k8s.io, admission policies, IP addresses,
//     service CIDRs) have Name and Age columns; Tables are JSON only.
//   - Custom resources: x-kubernetes-validations (CEL) rules are
//     evaluated only when Options.Rules is set (module fake/cel, with
//     cel-go, lacking kube-apiserver's own CEL functions, cost budget and
//     compile-time type checks); CRDs are accepted whatever their rules
//     say; every served version shares the CRD's objects (with
//     conversion strategy None, kept at the version written and served
//     at the others by changing apiVersion; with Webhook, converted to
//     the storage version when written, as kube-apiserver does); a CRD's
//     objects are deleted with it even if finalizers hold them.
//   - Server-side apply: the applied configuration is checked against
//     the kind's types as kube-apiserver's field manager checks it
//     (values of the wrong type, unknown fields and list items without
//     their keys answer its 500); of the schema defaults that key list
//     items, ports' protocol and required fields' zero values are known,
//     no others; the kubectl last-applied annotation is not reconciled
//     with apply; entries of other versions of a custom resource are not
//     converted, and an apply's conflicts with entries of another
//     version of a kind are computed at the apply's version.
//   - Error causes: metadata errors (ownerReferences) are reported once
//     per update where kube-apiserver repeats them for each validation
//     pass of the kind (two to four times); a strategic merge patch
//     result that does not convert is worded as kube-apiserver's
//     unstructured converter words it except for types with their own
//     decoders (quantities, int-or-strings).
//   - Compaction: kube-apiserver v1.36 serves watches (and, from its
//     cache snapshots, Exact lists and continue tokens) from its watch
//     cache, so after an etcd compaction the resource versions its cache
//     still holds keep working and only older ones get 410. Server.Compact
//     forgets the whole history at once, as a compaction followed by a
//     restart that empties the cache would: a test may expect 410 after
//     Compact, but should not assert that a real cluster answers 410
//     right after an etcd compaction.
//   - Wording: some error messages (protobuf decode errors beyond a
//     truncated envelope, CBOR decode errors, a few option errors)
//     differ.
//
// e2e TestFuzzFidelity measures the whole on random requests built from
// kube-apiserver's OpenAPI (98-99% identical on every seed tried); what it
// still finds are the classes above and two the fake does not reproduce
// on purpose: events kube-apiserver's own controllers write (its cluster
// IP repair controller's, at random times) and reads at resourceVersion
// 0 that a real watch cache, not yet caught up, answers 404 or with
// fewer items.
//
// The scale subresource reads an unset spec.replicas of a built-in kind
// as 1. A request for a resource version newer than the server's
// answers 504 at once instead of waiting. Watches are served in JSON,
// protobuf and (Options.CBOR) CBOR and as Tables (column definitions in
// the first event only).
//
// # Concurrency and ownership
//
// A Server is safe for concurrent use by any number of clients and
// goroutines. Objects are encoded once per write and the stored bytes are
// shared by every response. Writes through the API run the controllers
// (ControllersBackground) before they are answered; a goroutine of the
// server waits for the end of Pods' grace periods while any is pending.
// Server.Close ends every watch and returns after every goroutine the
// server started has exited.
package fake
