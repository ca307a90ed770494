// Package client is a Kubernetes REST client: configuration (see also
// package client/kubeconfig and LoadInCluster), an HTTP transport with
// HTTP/2 health checks, bounded gzip, rate limiting, retries and warning
// handling, and typed access to resources generic over the object type.
//
//	c, err := client.New(cfg)
//	pods := client.For[*corev1.Pod](c).Namespace("default")
//	pod, err := pods.Get(ctx, "web-1", client.GetOptions{})
//	list, err := pods.List(ctx, client.ListOptions{Limit: 500})
//	w, err := pods.Watch(ctx, client.WatchOptions{ResourceVersion: list.ResourceVersion, AllowWatchBookmarks: true})
//
// # Resources
//
// A Resource[T] reads and writes one REST resource: For builds it from a
// generated kind's KindInfo (group, version, plural, scope), Dynamic for
// any group/version/resource as *unstructured.Unstructured, Metadata for
// any resource as *metav1.PartialObjectMetadata. Each verb takes its own
// options struct whose zero value asks for the server's defaults;
// combinations the API concepts call invalid fail with ErrInvalidOptions
// before anything is sent.
//
// Built-in kinds are read as protobuf with a JSON fallback in the same
// Accept header; the decoder follows the answer's Content-Type, and a
// 406 makes the client use JSON for that resource for five minutes, then
// offer protobuf once more. Creates and updates of built-in kinds send
// protobuf bodies (in their envelope); a 415 makes the client repeat the
// write as JSON and write that resource as JSON for five minutes
// (Config.JSONWrites sends JSON always).
// Resources without protobuf (custom resources, dynamic reads) offer CBOR
// first (application/cbor, KEP-4222), which kube-apiserver serves with
// the CBORServingAndStorage feature gate; others answer JSON. While a
// resource's reads are answered in CBOR its creates and updates are CBOR
// (answers back in JSON put them on JSON), falling back to JSON on a 415
// until the answers turn to CBOR again or five minutes pass
// (Config.DisableCBOR keeps everything on JSON). Server-side applies
// follow the same rule (application/apply-patch+cbor, and Patch with
// ApplyCBORPatch sends a CBOR body of the user's own); other patches are
// JSON. Custom resources are typed the same way as built-in kinds:
// kubewire-gen gives a user's struct a KindInfo method whose Protobuf is
// false, and one-pass JSON and CBOR decoders.
//
// Apply sends an ApplyConfiguration as a server-side apply: the generated
// apply configurations (api/<group>/<version>/applyconfig, and the
// applyconfig package kubewire-gen writes beside a custom resource's
// types) hold only the fields that were set, so a controller sends, and
// owns, exactly its fields.
//
// # Lists and watches
//
// List returns a *List[T]: the list's ListMeta (resourceVersion, continue,
// remainingItemCount) and its items as pointers. Watch returns a
// *Watcher[T], read with Next or ranged over with Events; it starts no
// goroutine and ends, releasing its connection, when ctx ends, on Close,
// on an ERROR event (a *StatusError, ErrExpired for 410), when the server
// ends it (io.EOF) or after WatchOptions.IdleTimeout. Bookmarks are
// events, and the bookmark closing the initial events of a streaming list
// has Event.InitialEventsEnd set. ListOptions.Decoder and
// WatchOptions.Decoder let a cache decode everything through one
// long-lived ReadOnly wire.Decoder. WatchTable watches as kubectl get
// --watch prints: each event carries a Table of the server's columns.
// WaitFor and WaitForDeletion wait on one object (list, then watch).
//
// # Pod subresources
//
// Logs streams a container's log. Exec and Attach run a command in a
// container, or join its main process, over kube-apiserver's WebSocket
// remote-command protocol (v5.channel.k8s.io, v4 as a fallback): stdin,
// stdout, stderr, a TTY and its resizes, through the Client's own
// credentials and TLS; a redirect on the upgrade is refused, and a
// non-zero exit is an *ExitError carrying the code.
//
// # Errors
//
// A failure the server reports is a *StatusError (an alias of codec's)
// matched with errors.Is against ErrNotFound, ErrConflict, ErrExpired and
// the other sentinels. After retries the error says how many tries were
// made. A response that cannot be decoded (a body without the protobuf
// magic, a proxy's HTML page with a 200, malformed JSON, a truncated
// watch frame) matches ErrMalformed; one over a size bound also matches
// codec.ErrTooLarge.
//
// # Logs and metrics
//
// Config.Logger gets the client's log lines (server warnings, once per
// text; content type fallbacks), and is the default logger of the
// informers and reflectors reading through the client. Config.Metrics,
// one method, is told about each request once: the final answer's code
// (0 when none came) and the time from the first try, retries included;
// package metrics implements it with client-go's series. A client made
// without them takes those Client.Inherit gives, as package manager does
// with its own, so one logger and one registry serve a whole program.
//
// # Security defaults
//
// Redirects are never followed: kube-apiserver does not redirect API
// requests, so a 3xx comes from something in between, and following it
// would carry the credential (and a write's body) to wherever Location
// points. The answer becomes a *RedirectError (errors.Is ErrRedirected)
// naming the request and the Location, and nothing is sent there.
// Credentials are added only to requests for the configured scheme, host
// and port.
//
// The server's certificate is verified against TLSConfig's authority, or
// the system roots without one; only TLSConfig.Insecure turns that off,
// and a verification failure is never retried. Credentials never appear
// in errors or log lines: a Config, its TLSConfig and its plugin's
// arguments and environment print redacted (fmt and slog), a Host with a
// password is refused, and an error answer or Warning header that echoes
// the request's credential has it replaced with "[redacted]". A token
// file (BearerTokenFile, a kubeconfig's tokenFile, the in-cluster token)
// is read again after TokenFileRefresh and after a 401, so rotated tokens
// are picked up; client certificate files (TLSConfig.CertFile and
// KeyFile, a kubeconfig's client-certificate and client-key) are read
// again after CertFileRefresh, and the connections made with the old
// certificate are closed when they change.
//
// An answer must be what was asked for: a typed read whose answer is
// another kind, or has no kind, fails with ErrMalformed, and so does a
// list or watch of one namespace that hands over an object of another
// (a cache of that namespace would hold it); a Status in an
// error answer is shown as one printable line of at most 2 KiB, with the
// HTTP status code, whatever the body claims.
//
// Exec credential plugins run with a bound on their output (1 MiB of
// stdout, 4 KiB of stderr kept; a plugin writing more is stopped), in a
// process group of their own that is killed at ExecConfig.Timeout
// (default 1 minute) along with anything the plugin started. Requests
// waiting for a plugin each give up at their own context's end (their
// error says which plugin they waited for); the run, shared by all of
// them, goes on under its own timeout, and on Linux ends with the
// program if that exits first.
//
// # Limits
//
// Every size the server controls is bounded, with a default that a
// healthy server never reaches, and every bound holds at 1x: buffers
// never grow past it.
//
//	Config.MaxResponseBytes    256 MiB a response body other than a watch, after gzip
//	Config.MaxWatchEventBytes  16 MiB  one watch event (frame or JSON document)
//	error answer body          64 KiB  read for the StatusError, the rest dropped
//	JSON nesting               10,000  levels (encoding/json's, and the watch scanner's)
//	protobuf nesting           10,000  levels (wire.DefaultMaxDepth)
//	exec plugin output         1 MiB   stdout; 4 KiB of stderr
//	response headers           1 MiB   all of an answer's headers; over it the answer is refused, not retried
//	Warning headers            64      per answer handed to the WarningHandler, each text cut to 16 KiB
//	Warning header text        4 KiB   kept and logged by the default WarningHandler (kube-apiserver sends no more)
//	names quoted in errors     64 B    a kind, apiVersion or event type the server chose
//	token file                 1 MiB   BearerTokenFile (a FIFO or /dev/zero fails, not hangs)
//	certificate and key files  16 MiB  CAFile, CertFile, KeyFile; a kubeconfig 64 MiB
//
// Decompression happens as a body is read, so a gzip bomb costs no more
// than the bound it runs into.
//
// # Waits
//
// Every wait has an end without options:
//
//	Config.ResponseHeaderTimeout  1 minute  from sending a request to its answer's headers,
//	                                        and while the server takes none of a request's body
//	watch with timeoutSeconds     +30 s     the client ends a watch the server keeps past it (ErrWatchIdle)
//	WatchOptions.IdleTimeout      off       per event; the reflector sets one
//	HTTP/2 health check           30 s+15 s Config.PingAfter, PingTimeout: a dead connection fails its requests
//	Retry-After                   capped    at RetryPolicy.MaxWait (10 s) here; the reflector caps its waits too
//	exec plugin                   1 minute  ExecConfig.Timeout
//	a FIFO as a token or cert     10 s      for its writer (none at all: it reads empty)
//	proxy CONNECT answer          context   a refusal (3xx, 4xx) is final, a 5xx retried
//
// A Retry-After the server sends is never trusted to be sane: a value too
// large for a time.Duration saturates, a date in the past or 0 means the
// backoff floor, and the wait is capped.
//
// Requests other than watches are retried by go-retryablehttp (see
// RetryPolicy): connection failures, including a connection that breaks
// while the answer's body arrives (ErrConnectionLost), for safe methods;
// 429 for all; 5xx for safe methods. Every error names its request
// (*RequestError) and says how often it was tried. Discovery asks a group
// version once when it answers 5xx without Retry-After (an aggregated
// API whose server is down) and reports it with ErrGroupDiscoveryFailed
// beside every other group's resources; such a partial discovery is
// fetched again after 10 seconds. Legacy discovery (one request per
// group version) asks 8 group versions at once and refuses a server
// naming more than 5000.
//
// # Concurrency
//
// Client and Resource are safe for concurrent use; a Watcher is read by
// one goroutine (Close may be called from any). The package has no global
// state.
package client
