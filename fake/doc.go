// Package fake is an in-memory Kubernetes API server for tests. It speaks
// kube-apiserver's wire protocol over real HTTP (or in memory, through
// Server.RoundTripper), so a client under test exercises the same code
// paths it uses against a cluster: Accept negotiation, protobuf and JSON
// bodies, resource versions, pagination, selectors, watches, watch-lists,
// bookmarks, 410s and the Status bodies of every error.
//
// # What it implements
//
//   - Every built-in kind of kube-apiserver v1.36 that can be listed
//     (routes from api/registry), and custom resources registered with
//     Server.AddCustomResource (JSON and YAML only, as on a real server).
//   - One global resource version, a decimal string that grows with every
//     write; uid, creationTimestamp, generateName, metadata.generation
//     (kinds with a status subresource and custom resources).
//   - get, list, watch, create, update (409 on a stale resourceVersion),
//     patch (JSON patch, merge patch, strategic merge patch with the
//     common list merge keys, server-side apply: see below), delete
//     (a Success Status naming the deleted object, or the object itself
//     for the kinds whose kube-apiserver registry returns it: pods,
//     services, serviceaccounts, namespaces, persistent volumes and
//     claims, podtemplates and several storage.k8s.io kinds; finalizers
//     hold an object, answered with its deletionTimestamp, until they
//     are removed), deletecollection, the status subresource, dryRun=All,
//     fieldValidation (Strict 400s and one Warning header per unknown
//     field, each named by its full path such as
//     "spec.template.spec.containers[0].bogus"), the scale subresource
//     of deployments, replicasets, statefulsets,
//     replicationcontrollers and custom resources registered with
//     CustomResource.Scale (autoscaling/v1 Scale, get and update).
//   - Lists: limit and continue over a consistent snapshot, the
//     remainingItemCount, every row of the resourceVersion /
//     resourceVersionMatch table (invalid combinations get the same 400
//     and 422 Status bodies as kube-apiserver), resourceVersion=0 ignores
//     limit, label selectors (=, ==, !=, in, notin, exists, !exists, gt,
//     lt) and field selectors (metadata.name, metadata.namespace and the
//     per-kind fields kube-apiserver supports, such as spec.nodeName and
//     status.phase).
//   - Watches in JSON and protobuf framing; resourceVersion unset, "0" and
//     exact; bookmarks (Options.BookmarkInterval); sendInitialEvents with
//     the k8s.io/initial-events-end bookmark; timeoutSeconds; a 410 ERROR
//     event for a compacted resource version; objects entering or leaving
//     a selector arrive as ADDED and DELETED.
//   - as=Table (Name and Age columns), as=PartialObjectMetadata and
//     PartialObjectMetadataList, YAML, gzip above Options.GzipThreshold.
//   - Discovery: /version, the legacy /api, /apis and group version
//     resource lists, and, unless Options.LegacyDiscoveryOnly, aggregated
//     discovery (apidiscovery.k8s.io/v2 in JSON or protobuf, with an
//     ETag) including registered custom resources.
//   - Faults switched at run time (Server.Faults): failing requests with
//     429, 406 or 5xx, latency, dropped watches, refused protobuf
//     responses or request bodies (415), refused or
//     unterminated watch-lists, cut or corrupt watch events, compaction,
//     restarts and "too large resource version".
//
// # Fidelity limits
//
// Server-side apply merges the applied configuration into the live object
// like a strategic merge patch and records one Apply entry per field
// manager in managedFields; it does not detect conflicts between managers
// or remove fields a manager stops applying. Other writes do not record
// managedFields. There is no admission, defaulting or API validation
// beyond metadata.name, no garbage collector (ownerReferences and
// propagationPolicy are stored, not acted on) and no kubelet: a deleted
// Pod goes away at once unless finalizers hold it. Custom resources have
// no schema, so no field is unknown; duplicate fields are not reported.
// The scale subresource serves get and update but not patch (405), and
// reads an unset spec.replicas as 1 (there is no defaulting). Aggregated
// discovery orders groups by name (built-in groups first, then custom resources) rather
// than by kube-apiserver's group priorities. Tables are served in JSON
// only and not to watches (such Accept headers get 406); watches do
// convert to PartialObjectMetadata. Custom resources are served in JSON
// only, also as PartialObjectMetadata (kube-apiserver can encode their
// metadata in protobuf). A request for a resource version newer than the
// server's answers 504 at once instead of waiting.
//
// # Concurrency and ownership
//
// A Server is safe for concurrent use by any number of clients and
// goroutines. Objects are encoded once per write and the stored bytes are
// shared by every response. Server.Close ends every watch and returns
// after every goroutine the server started has exited.
package fake
