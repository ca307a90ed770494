package v1

import (
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// VirtualService routes traffic to a host: matches, destinations with
// weights, retries, timeouts, faults and CORS.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type VirtualService struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec VirtualServiceSpec `json:"spec"`
	// +optional
	Status IstioStatus `json:"status,omitempty"`
}

// VirtualServiceSpec are the hosts and their routes.
type VirtualServiceSpec struct {
	// +optional
	Hosts []string `json:"hosts,omitempty"`
	// +optional
	Gateways []string `json:"gateways,omitempty"`
	// +optional
	HTTP []HTTPRoute `json:"http,omitempty"`
	// +optional
	TCP []TCPRoute `json:"tcp,omitempty"`
	// +optional
	ExportTo []string `json:"exportTo,omitempty"`
}

// HTTPRoute is one HTTP rule: its matches and what matching requests get.
type HTTPRoute struct {
	// +optional
	Name string `json:"name,omitempty"`
	// +optional
	Match []HTTPMatchRequest `json:"match,omitempty"`
	// +optional
	Route []HTTPRouteDestination `json:"route,omitempty"`
	// +optional
	Rewrite *HTTPRewrite `json:"rewrite,omitempty"`
	// +optional
	Timeout string `json:"timeout,omitempty"`
	// +optional
	Retries *HTTPRetry `json:"retries,omitempty"`
	// +optional
	Fault *HTTPFaultInjection `json:"fault,omitempty"`
	// +optional
	Mirror *Destination `json:"mirror,omitempty"`
	// +optional
	MirrorPercentage *Percent `json:"mirrorPercentage,omitempty"`
	// +optional
	CorsPolicy *CorsPolicy `json:"corsPolicy,omitempty"`
	// +optional
	Headers *Headers `json:"headers,omitempty"`
}

// HTTPMatchRequest is what a request must be to match.
type HTTPMatchRequest struct {
	// +optional
	Name string `json:"name,omitempty"`
	// +optional
	URI *StringMatch `json:"uri,omitempty"`
	// +optional
	Method *StringMatch `json:"method,omitempty"`
	// +optional
	Headers map[string]StringMatch `json:"headers,omitempty"`
	// +optional
	Port uint32 `json:"port,omitempty"`
	// +optional
	SourceLabels map[string]string `json:"sourceLabels,omitempty"`
	// +optional
	QueryParams map[string]StringMatch `json:"queryParams,omitempty"`
	// +optional
	IgnoreURICase bool `json:"ignoreUriCase,omitempty"`
}

// StringMatch is one of an exact value, a prefix or a regular expression.
type StringMatch struct {
	// +optional
	Exact string `json:"exact,omitempty"`
	// +optional
	Prefix string `json:"prefix,omitempty"`
	// +optional
	Regex string `json:"regex,omitempty"`
}

// HTTPRouteDestination is a destination and its share of traffic.
type HTTPRouteDestination struct {
	Destination Destination `json:"destination"`
	// +optional
	Weight int32 `json:"weight,omitempty"`
	// +optional
	Headers *Headers `json:"headers,omitempty"`
}

// Destination is a service (and subset and port) in the mesh.
type Destination struct {
	Host string `json:"host"`
	// +optional
	Subset string `json:"subset,omitempty"`
	// +optional
	Port *PortSelector `json:"port,omitempty"`
}

// PortSelector is a port number.
type PortSelector struct {
	// +optional
	Number uint32 `json:"number,omitempty"`
}

// HTTPRewrite rewrites the URI and authority.
type HTTPRewrite struct {
	// +optional
	URI string `json:"uri,omitempty"`
	// +optional
	Authority string `json:"authority,omitempty"`
}

// HTTPRetry is the retry policy.
type HTTPRetry struct {
	Attempts int32 `json:"attempts"`
	// +optional
	PerTryTimeout string `json:"perTryTimeout,omitempty"`
	// +optional
	RetryOn string `json:"retryOn,omitempty"`
	// +optional
	RetryRemoteLocalities *bool `json:"retryRemoteLocalities,omitempty"`
}

// HTTPFaultInjection delays or aborts a share of requests.
type HTTPFaultInjection struct {
	// +optional
	Delay *Delay `json:"delay,omitempty"`
	// +optional
	Abort *Abort `json:"abort,omitempty"`
}

// Delay is a fixed delay for a share of requests.
type Delay struct {
	// +optional
	FixedDelay string `json:"fixedDelay,omitempty"`
	// +optional
	Percentage *Percent `json:"percentage,omitempty"`
}

// Abort answers a share of requests with a status.
type Abort struct {
	// +optional
	HTTPStatus int32 `json:"httpStatus,omitempty"`
	// +optional
	Percentage *Percent `json:"percentage,omitempty"`
}

// Percent is a percentage, fractions allowed (a protobuf double in
// Istio's API).
type Percent struct {
	// +optional
	// +kubebuilder:validation:Type=number
	Value float64 `json:"value,omitempty"`
}

// CorsPolicy is the CORS answer.
type CorsPolicy struct {
	// +optional
	AllowOrigins []StringMatch `json:"allowOrigins,omitempty"`
	// +optional
	AllowMethods []string `json:"allowMethods,omitempty"`
	// +optional
	AllowHeaders []string `json:"allowHeaders,omitempty"`
	// +optional
	ExposeHeaders []string `json:"exposeHeaders,omitempty"`
	// +optional
	MaxAge string `json:"maxAge,omitempty"`
	// +optional
	AllowCredentials *bool `json:"allowCredentials,omitempty"`
}

// Headers are header changes to requests and responses.
type Headers struct {
	// +optional
	Request *HeaderOperations `json:"request,omitempty"`
	// +optional
	Response *HeaderOperations `json:"response,omitempty"`
}

// HeaderOperations set, add and remove headers.
type HeaderOperations struct {
	// +optional
	Set map[string]string `json:"set,omitempty"`
	// +optional
	Add map[string]string `json:"add,omitempty"`
	// +optional
	Remove []string `json:"remove,omitempty"`
}

// TCPRoute routes TCP connections.
type TCPRoute struct {
	// +optional
	Match []L4MatchAttributes `json:"match,omitempty"`
	// +optional
	Route []RouteDestination `json:"route,omitempty"`
}

// L4MatchAttributes match a connection.
type L4MatchAttributes struct {
	// +optional
	DestinationSubnets []string `json:"destinationSubnets,omitempty"`
	// +optional
	Port uint32 `json:"port,omitempty"`
	// +optional
	SourceLabels map[string]string `json:"sourceLabels,omitempty"`
}

// RouteDestination is a TCP destination and its weight.
type RouteDestination struct {
	Destination Destination `json:"destination"`
	// +optional
	Weight int32 `json:"weight,omitempty"`
}

// IstioStatus is what istiod's analysis found.
type IstioStatus struct {
	// +optional
	Conditions []IstioCondition `json:"conditions,omitempty"`
	// +optional
	ValidationMessages []AnalysisMessage `json:"validationMessages,omitempty"`
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// IstioCondition is a condition of Istio's status.
type IstioCondition struct {
	// +optional
	Type string `json:"type,omitempty"`
	// +optional
	Status string `json:"status,omitempty"`
	// +optional
	LastProbeTime *metav1.Time `json:"lastProbeTime,omitempty"`
	// +optional
	LastTransitionTime *metav1.Time `json:"lastTransitionTime,omitempty"`
	// +optional
	Reason string `json:"reason,omitempty"`
	// +optional
	Message string `json:"message,omitempty"`
}

// AnalysisMessage is one of istiod's analysis findings.
type AnalysisMessage struct {
	// +optional
	Type *AnalysisMessageType `json:"type,omitempty"`
	// +optional
	Level int32 `json:"level,omitempty"`
	// +optional
	Message string `json:"message,omitempty"`
}

// AnalysisMessageType names a finding.
type AnalysisMessageType struct {
	// +optional
	Name string `json:"name,omitempty"`
	// +optional
	Code string `json:"code,omitempty"`
}
