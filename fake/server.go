package fake

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"github.com/kubewire/kubewire/fake/internal/schema"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/kubewire/kubewire/fake/internal/admission"
	"github.com/kubewire/kubewire/fake/internal/admission/defaults"
	"github.com/kubewire/kubewire/fake/internal/admission/strategy"
	"github.com/kubewire/kubewire/fake/internal/admission/validation"
	"github.com/kubewire/kubewire/fake/internal/controllers"
	"github.com/kubewire/kubewire/fake/internal/managedfields"
	"github.com/kubewire/kubewire/fake/internal/patch"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/discovery"
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/table"
	"github.com/kubewire/kubewire/fake/internal/watch"

	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

// Options configure a Server. The zero value gives kube-apiserver's
// defaults where it has them.
type Options struct {
	// Token is the bearer token every request must carry
	// ("Authorization: Bearer TOKEN"); requests without it get 401.
	// Empty means a random token, see Server.Token.
	Token string
	// BookmarkInterval is how often a watch that allows bookmarks gets
	// one. Default one minute, like kube-apiserver.
	BookmarkInterval time.Duration
	// WatchTimeout ends watches that set no timeoutSeconds. Default 30
	// minutes (kube-apiserver picks 30 to 60).
	WatchTimeout time.Duration
	// HistoryLimit is how many changes the server keeps for watches,
	// continue tokens and Exact lists; when exceeded the older half is
	// compacted away. Default 100,000. Compact compacts on demand.
	HistoryLimit int
	// GzipThreshold is the smallest body compressed for clients that send
	// Accept-Encoding: gzip. Default 128 KiB, like kube-apiserver.
	GzipThreshold int
	// Namespaces are created at start. Nil means default, kube-system,
	// kube-public and kube-node-lease. Objects in a namespace that does
	// not exist are refused with 404, as kube-apiserver does.
	Namespaces []string
	// Now is the clock for creation and deletion timestamps, Table ages
	// and the watch cache's window: as kube-apiserver's, each
	// resource's keeps at least 75 s of its changes (more while they
	// come fast), and a watch from a version older than its oldest kept
	// change gets 410 "too old resource version". Default time.Now.
	Now func() time.Time
	// Logger gets one line per request at debug level. Default silent.
	Logger *slog.Logger
	// LegacyDiscoveryOnly makes /api and /apis answer every Accept with
	// the legacy APIVersions and APIGroupList, like a server without
	// aggregated discovery (before 1.30, or an aggregated API server).
	// By default an Accept asking for apidiscovery.k8s.io/v2
	// APIGroupDiscoveryList (JSON or protobuf) gets the aggregated
	// document, as kube-apiserver v1.36 does.
	LegacyDiscoveryOnly bool
	// TLS serves HTTPS with a self-signed certificate (and HTTP/2) from
	// Start; Client trusts it. Default plain HTTP.
	TLS bool
	// Rules evaluates the x-kubernetes-validations (CEL) rules of custom
	// resources. Nil leaves them unevaluated: an object is then refused
	// only for the schema's other constraints. Module
	// github.com/kubewire/kubewire/fake/cel provides one built on cel-go,
	// kept out of this module's dependencies.
	Rules RuleEvaluator
	// Controllers is how the server does what kube-controller-manager's
	// controllers do (see ControllersMode). Default
	// ControllersBackground.
	Controllers ControllersMode
	// Admission are admission hooks, called in order for the writes
	// they match, as kube-apiserver calls admission webhooks (see
	// AdmissionHook).
	Admission []AdmissionHook
	// IgnoreShardSelector makes the server ignore the shardSelector of
	// lists and watches (and send no shardInfo), like a kube-apiserver
	// without the ShardedListAndWatch feature gate. By default it
	// shards lists and watches as kube-apiserver v1.36 with the gate
	// does (KEP-5866).
	IgnoreShardSelector bool
	// WebhookServices maps the Services that webhook configurations and
	// conversion webhooks name ("namespace/name") to the address
	// ("host:port") the server calls them at over HTTPS; a webhook whose
	// clientConfig has a url needs no entry. A Service not listed
	// cannot be called (the failure policy applies).
	WebhookServices map[string]string
	// CBOR serves application/cbor as kube-apiserver v1.36 does with its
	// CBORServingAndStorage feature gate (KEP-4222): reads and writes of
	// every resource answer CBOR to an Accept that prefers it (watches
	// as application/cbor-seq), CBOR request bodies are taken
	// (application/cbor, and application/apply-patch+cbor for
	// server-side apply) and a Status error is CBOR when CBOR is
	// asked for. Default off, like the gate: "application/cbor,
	// application/json" gets JSON and application/cbor alone 406.
	CBOR bool
	// Exec, when set, is every Node's kubelet for exec and attach: a
	// request that passes kube-apiserver's checks (a scheduled Pod, its
	// container, a Node with an address) runs it over a WebSocket
	// (v5.channel.k8s.io or v4) with the request's streams; see
	// ExecRequest. Nil answers as kube-apiserver with no kubelet.
	Exec func(ctx context.Context, req *ExecRequest) error
	// Logs, when set, is every Node's kubelet for pods/log: for a
	// request that passes kube-apiserver's checks and the kubelet's
	// check of the container's status (a container without status is
	// taken as running), it returns the lines the container wrote so
	// far and, for Follow, a channel of the lines it writes later,
	// closed when it stops (nil: none). The server applies sinceSeconds,
	// sinceTime, tailLines, timestamps and limitBytes. An error is the
	// kubelet's: the client gets a 400 with its text. Nil answers as
	// kube-apiserver with no kubelet.
	Logs func(ctx context.Context, req *LogRequest) (past []LogLine, later <-chan LogLine, err error)
}

// RuleEvaluator evaluates CEL expressions of x-kubernetes-validations
// rules against a value of a custom resource: self is the value at the
// rule's schema node and oldSelf its previous value on an update (nil on
// a create). Values are decoded JSON (map[string]any, []any, string,
// bool, int64, float64, nil). It must be safe for concurrent use.
type RuleEvaluator interface {
	// Check reports whether a rule holds, or why it cannot be evaluated.
	// For a rule with optionalOldSelf, oldSelf is an OptionalValue (CEL's
	// optional type: none on a create); otherwise the old value itself,
	// or nil when the rule does not use it.
	Check(rule string, self, oldSelf any) (bool, error)
	// Message evaluates a messageExpression to its string.
	Message(expr string, self, oldSelf any) (string, error)
}

// OptionalValue is oldSelf for a rule with optionalOldSelf: the old value
// when Present, CEL's optional.none() otherwise (a create, or a value that
// was not there before).
type OptionalValue struct {
	Value   any
	Present bool
}

// Server is an in-memory Kubernetes API server for tests: it stores
// objects of every built-in kind and of custom resources registered with
// AddCustomResource, and serves them with kube-apiserver's wire protocol
// (see the package documentation for what it implements).
//
// A Server is an http.Handler; Start also serves it on loopback. All
// methods are safe for concurrent use. Close ends every watch and
// returns after every goroutine the server started has exited.
type Server struct {
	opts   Options
	saKey  ed25519.PrivateKey // signs serviceaccounts/token tokens
	store  *storage.Store
	faults faults

	mu        sync.RWMutex
	resources map[string]*object.Resource // "group/version/resource"

	builtins   fieldpath.Builtins            // shapes of the built-in kinds
	disc       *discovery.Server             // discovery, health and OpenAPI
	ctrl       *controllers.Manager          // what kube-controller-manager does
	admission  *admission.Chain              // admission, validation and strategies of writes
	bg         sync.WaitGroup                // the controllers' goroutines
	crdStorage map[string]*object.StorageKey // by CRD name; guarded by mu
	// crdStorageEnds are closed when a CRD's storage is torn down, by
	// CRD name; guarded by mu.
	crdStorageEnds map[string]chan struct{}
	// builtinGroups are the API groups of built-in kinds (immutable).
	builtinGroups map[string]bool

	webhooks  *webhookHooks  // calls the admission webhooks of the configurations
	hooksHTTP webhookClients // the webhooks' HTTP clients

	ctx    context.Context // canceled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // in-flight requests served through RoundTripper
	http   *httptest.Server
}

// New returns a Server that is not listening; serve it with ServeHTTP,
// RoundTripper or Start.
func New(opts Options) *Server {
	if opts.Token == "" {
		var b [16]byte
		_, _ = rand.Read(b[:])
		opts.Token = hex.EncodeToString(b[:])
	}
	if opts.BookmarkInterval <= 0 {
		opts.BookmarkInterval = time.Minute
	}
	if opts.WatchTimeout <= 0 {
		opts.WatchTimeout = 30 * time.Minute
	}
	if opts.HistoryLimit <= 0 {
		opts.HistoryLimit = 100_000
	}
	if opts.GzipThreshold <= 0 {
		opts.GzipThreshold = 128 << 10
	}
	if opts.Namespaces == nil {
		// in the order kube-apiserver creates them
		opts.Namespaces = []string{"kube-system", "kube-public", "default", "kube-node-lease"}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{opts: opts, store: storage.New(opts.HistoryLimit), resources: map[string]*object.Resource{}, builtinGroups: map[string]bool{}, saKey: newServiceAccountKey()}
	s.store.Now = opts.Now
	var rules validation.RuleEvaluator
	if opts.Rules != nil {
		rules = optionalRules{opts.Rules}
	}
	hooks := []admission.Hook{}
	if len(opts.Admission) > 0 {
		hooks = append(hooks, userHooks(opts.Admission))
	}
	s.webhooks = &webhookHooks{s: s}
	hooks = append(hooks, s.webhooks)
	s.admission = &admission.Chain{
		Lookup: s.lookup, Hooks: hooks, Now: s.nowTime,
		Validator: validation.New(rules),
		Strategy:  &strategy.Strategy{Now: s.nowTime},
	}
	s.disc = &discovery.Server{
		Docs: &discovery.Docs{}, Resources: s.servedResources, BuiltinGroup: s.isBuiltinGroup, CRD: s.storedCRD, Addr: s.listenAddr,
		LegacyOnly: opts.LegacyDiscoveryOnly, GzipThreshold: opts.GzipThreshold,
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.ctrl = &controllers.Manager{Store: s.store, Cluster: controllerHost{s}, Background: opts.Controllers == ControllersBackground, Context: s.ctx, Goroutines: &s.bg}
	s.faults.init()
	var builtins []*object.Resource
	for _, k := range registry.All() {
		if r, ok := object.Builtin(k, &s.builtins); ok {
			s.resources[k.Group+"/"+k.Version+"/"+k.Resource] = r
			s.builtinGroups[k.Group] = true
			builtins = append(builtins, r)
		}
	}
	object.LinkVersions(builtins)
	for _, ns := range opts.Namespaces {
		if err := s.createNamespace(ns); err != nil {
			panic(fmt.Sprintf("fake: create namespace %q: %v", ns, err)) // only a bad Options.Namespaces entry gets here
		}
	}
	s.settle()
	s.store.WatchCachesAtNewest()
	s.webhooks.refresh()
	return s
}

// Start returns a new Server listening on loopback (HTTP, or HTTPS when
// opts.TLS). Close stops it.
func Start(opts Options) *Server {
	s := New(opts)
	s.http = httptest.NewUnstartedServer(s)
	if opts.TLS {
		s.http.EnableHTTP2 = true
		s.http.StartTLS()
	} else {
		s.http.Start()
	}
	return s
}

// URL is the base URL of a started server ("http://127.0.0.1:PORT"), or
// "" when the server was not started.
func (s *Server) URL() string {
	if s.http == nil {
		return ""
	}
	return s.http.URL
}

// Token is the bearer token requests must carry.
func (s *Server) Token() string { return s.opts.Token }

// Client returns an HTTP client for a started server (trusting its
// certificate when it serves TLS), or one that serves requests in memory
// through RoundTripper when it was not started. Requests still need the
// bearer token.
func (s *Server) Client() *http.Client {
	if s.http != nil {
		return s.http.Client()
	}
	return &http.Client{Transport: s.RoundTripper()}
}

// Close ends every open watch and request, stops listening and returns
// after every goroutine the server started has exited. Close is
// idempotent.
func (s *Server) Close() {
	s.cancel()
	defer s.hooksHTTP.close()
	if s.http != nil {
		s.http.CloseClientConnections()
		s.http.Close()
	}
	s.wg.Wait()
	s.bg.Wait()
}

// AddCustomResource serves a custom resource by creating its
// CustomResourceDefinition (named RESOURCE.GROUP, with a schema that
// keeps any field), as an administrator would; the resource is served
// when AddCustomResource returns. It returns an error if the resource is
// already served.
func (s *Server) AddCustomResource(c CustomResource) error {
	if c.Group == "" || c.Version == "" || c.Kind == "" || c.Resource == "" {
		return fmt.Errorf("fake: custom resource needs group, version, kind and resource: %+v", c)
	}
	if s.lookup(c.Group, c.Version, c.Resource) != nil {
		return fmt.Errorf("fake: resource %s/%s/%s is already served", c.Group, c.Version, c.Resource)
	}
	crdRes := s.lookup("apiextensions.k8s.io", "v1", "customresourcedefinitions")
	crd := c.definition()
	if s.store.Get(crdRes, crd.Name) != nil {
		// Another version of a resource already added: serve this one too.
		if err := s.addCRDVersion(crdRes, crd); err != nil {
			return fmt.Errorf("fake: add custom resource %s: %w", crd.Name, err)
		}
	} else {
		d := &object.Draft{Res: crdRes, Typed: crd, Meta: crd.GetObjectMeta()}
		defaults.Draft(d)
		if _, aerr := s.create(d, "", false, nil); aerr != nil {
			return fmt.Errorf("fake: add custom resource %s: %w", crd.Name, aerr)
		}
	}
	if s.lookup(c.Group, c.Version, c.Resource) == nil {
		return fmt.Errorf("fake: resource %s/%s/%s is already served by another definition", c.Group, c.Version, c.Resource)
	}
	return nil
}

// lookup finds a served resource.
func (s *Server) lookup(group, version, res string) *object.Resource {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.resources[group+"/"+version+"/"+res]
}

func (s *Server) now() time.Time { return s.opts.Now() }

// CurrentResourceVersion returns the newest resource version, as a list
// would report it.
func (s *Server) CurrentResourceVersion() string {
	return fmt.Sprint(s.store.CurrentRV())
}

// The server's views of what the request package does, with its options
// and faults applied.

func (s *Server) negotiate(req *http.Request, r *object.Resource, list, watch bool) (request.Output, *apierr.Error) {
	return request.Negotiate(req, r, list, watch, s.faults.refuseProtobuf())
}

func (s *Server) startBody(w http.ResponseWriter, req *http.Request, code int, contentType string, size int) *request.BodyWriter {
	return request.StartBody(w, req, code, contentType, size, s.opts.GzipThreshold)
}

func (s *Server) writeBody(w http.ResponseWriter, req *http.Request, code int, contentType string, body []byte) {
	request.WriteBody(w, req, code, contentType, body, s.opts.GzipThreshold)
}

// printer renders the server's Tables.
func (s *Server) printer() table.Printer {
	return table.Printer{Columns: s.disc.Docs.TableColumns, Now: s.now}
}

func (s *Server) encodeObject(o *object.Stored, out request.Output) ([]byte, string, error) {
	return request.EncodeObject(o, out, s.printer())
}

func (s *Server) writeList(w io.Writer, r *object.Resource, out request.Output, items []*object.Stored, lm metav1.ListMeta) error {
	return request.WriteList(w, r, out, items, lm, s.printer())
}

func (s *Server) bodyType(req *http.Request, r *object.Resource) (codec.MediaType, *apierr.Error) {
	return request.BodyType(req, r, s.faults.refuseProtobufBodies())
}

// served reports whether the server serves a resource.
func (s *Server) served(group, version, resource string) bool {
	return s.lookup(group, version, resource) != nil
}

// decodeDraft decodes a create or update body and applies the kind's
// defaults, as kube-apiserver decodes it.
func (s *Server) decodeDraft(w http.ResponseWriter, body []byte, mt codec.MediaType, r *object.Resource, level request.Validation) (*object.Draft, *apierr.Error) {
	d, aerr := request.DecodeDraft(w, body, mt, r, level, s.served)
	if aerr != nil {
		return nil, aerr
	}
	defaults.Draft(d)
	return d, nil
}

// isBuiltinGroup reports whether an API group has built-in kinds.
func (s *Server) isBuiltinGroup(group string) bool { return s.builtinGroups[group] }

// servedResources returns every served resource.
func (s *Server) servedResources() []*object.Resource {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]*object.Resource, 0, len(s.resources))
	for _, r := range s.resources {
		out = append(out, r)
	}
	return out
}

// storedCRD returns the stored CustomResourceDefinition of that name.
func (s *Server) storedCRD(name string) *apiextensionsv1.CustomResourceDefinition {
	crdRes := s.lookup("apiextensions.k8s.io", "v1", "customresourcedefinitions")
	o := s.store.Get(crdRes, name)
	if o == nil {
		return nil
	}
	d, err := crdRes.DraftOf(o)
	if err != nil {
		return nil
	}
	return d.Typed.(*apiextensionsv1.CustomResourceDefinition)
}

// listenAddr is the address a started server listens on, else nil.
func (s *Server) listenAddr() net.Addr {
	if s.http == nil {
		return nil
	}
	return s.http.Listener.Addr()
}

// watches serves the server's watches.
func (s *Server) watches() *watch.Server {
	return &watch.Server{
		Store: s.store, Faults: faultsForWatches{&s.faults}, Printer: s.printer(),
		Timeout: s.opts.WatchTimeout, BookmarkInterval: s.opts.BookmarkInterval,
		IgnoreShardSelector: s.opts.IgnoreShardSelector, Done: s.ctx.Done(),
		StorageEnds: s.storageEnds,
	}
}

// endpoint is the field management view of a write to r (sub is "" or
// a subresource), timed by the server's clock.
func (s *Server) endpoint(r *object.Resource, sub string) managedfields.Endpoint {
	return managedfields.ForResource(r, sub, s.nowTime())
}

// writeEndpoint is the field management view of an update or patch of r
// whose request made sent; a write to a custom resource's main resource
// keeps sent (see managedfields.Endpoint.Sent). (kube-apiserver gives
// its status subresource the reset fields of every version.)
func (s *Server) writeEndpoint(r *object.Resource, sub string, sent *object.Draft) (managedfields.Endpoint, error) {
	ep := s.endpoint(r, sub)
	if !r.Custom || sub != "" {
		return ep, nil
	}
	m, err := sent.ObjectMap()
	if err != nil {
		return ep, err
	}
	ep.Sent, _ = schema.DeepCopy(m).(map[string]any)
	return ep, nil
}

// patcher patches and applies to the server's objects.
func (s *Server) patcher() *patch.Patcher {
	return &patch.Patcher{Builtins: &s.builtins, Defaults: defaults.Draft, Now: s.nowTime}
}

// optionalRules gives a RuleEvaluator the optional values of the fake's
// public API.
type optionalRules struct{ RuleEvaluator }

func (optionalRules) Optional(value any, present bool) any {
	return OptionalValue{Value: value, Present: present}
}
