package codec

import (
	"strings"
)

// Media types kube-apiserver speaks, as they appear in Content-Type and
// Accept headers.
const (
	MediaTypeJSON     = "application/json"
	MediaTypeYAML     = "application/yaml"
	MediaTypeProtobuf = "application/vnd.kubernetes.protobuf"
	// MediaTypeProtobufWatch is the Content-Type of a protobuf watch
	// stream: length-prefixed frames (see FrameReader). A JSON watch
	// stream is sent as plain application/json (see JSONStream).
	MediaTypeProtobufWatch = "application/vnd.kubernetes.protobuf;stream=watch"
)

// Media type parameters with a meaning to kube-apiserver, and their values.
// as, g and v ask the server to convert the response to another kind, for
// example `application/json;as=Table;g=meta.k8s.io;v=v1`.
const (
	ParamAs      = "as"
	ParamGroup   = "g"
	ParamVersion = "v"
	ParamStream  = "stream"

	StreamWatch = "watch"

	AsTable                     = "Table"
	AsPartialObjectMetadata     = "PartialObjectMetadata"
	AsPartialObjectMetadataList = "PartialObjectMetadataList"

	MetaGroup   = "meta.k8s.io"
	MetaVersion = "v1"
)

// Param is one media type parameter. Parsing lower-cases Name and unquotes
// Value, keeping its case.
type Param struct {
	Name, Value string
}

// MediaType is a parsed media type or media range (RFC 9110 section 8.3.1
// and 12.5.1): `type/subtype` followed by parameters.
//
// Type and Subtype are lower case; Params keep their order of appearance.
// A MediaType is a value: methods never modify it, and With returns a copy
// that shares nothing with the receiver. The zero value is an empty media
// type whose String is "".
type MediaType struct {
	Type    string
	Subtype string
	Params  []Param
}

// ParseMediaType parses a Content-Type value such as
// `application/vnd.kubernetes.protobuf;stream=watch`. Type, subtype and
// parameter names are case-insensitive and returned in lower case;
// parameter values may be tokens or quoted strings. Wildcards, duplicate
// parameters and anything after the media type are errors matching
// ErrMalformed.
func ParseMediaType(s string) (MediaType, error) {
	p := mtParser{s: s, what: "media type"}
	p.skipOWS()
	m, _, err := p.mediaType(false)
	if err != nil {
		return MediaType{}, err
	}
	p.skipOWS()
	if p.i < len(s) {
		return MediaType{}, p.fail("unexpected %q after the media type", s[p.i])
	}
	if m.Type == "*" || m.Subtype == "*" {
		return MediaType{}, p.fail("a content type cannot be a wildcard")
	}
	return m, nil
}

// Essence returns "type/subtype" without parameters.
func (m MediaType) Essence() string { return m.Type + "/" + m.Subtype }

// Param returns the value of the named parameter (case-insensitive name),
// or "" when it is absent.
func (m MediaType) Param(name string) string {
	for _, p := range m.Params {
		if strings.EqualFold(p.Name, name) {
			return p.Value
		}
	}
	return ""
}

// IsJSON reports whether m is application/json, whatever its parameters.
func (m MediaType) IsJSON() bool { return m.Type == "application" && m.Subtype == "json" }

// IsYAML reports whether m is application/yaml.
func (m MediaType) IsYAML() bool { return m.Type == "application" && m.Subtype == "yaml" }

// IsProtobuf reports whether m is application/vnd.kubernetes.protobuf.
func (m MediaType) IsProtobuf() bool {
	return m.Type == "application" && m.Subtype == "vnd.kubernetes.protobuf"
}

// IsWatchStream reports whether m carries stream=watch.
func (m MediaType) IsWatchStream() bool { return strings.EqualFold(m.Param(ParamStream), StreamWatch) }

// With returns a copy of m with the parameter name set to value, replacing
// an existing parameter of that name or appending a new one.
func (m MediaType) With(name, value string) MediaType {
	name = strings.ToLower(name)
	params := make([]Param, 0, len(m.Params)+1)
	replaced := false
	for _, p := range m.Params {
		if p.Name == name {
			p.Value = value
			replaced = true
		}
		params = append(params, p)
	}
	if !replaced {
		params = append(params, Param{Name: name, Value: value})
	}
	m.Params = params
	return m
}

// As returns a copy of m asking for the meta.k8s.io/v1 kind as, such as
// AsTable or AsPartialObjectMetadataList: m.With("as", as), then g and v.
func (m MediaType) As(as string) MediaType {
	return m.With(ParamAs, as).With(ParamGroup, MetaGroup).With(ParamVersion, MetaVersion)
}

// String formats m as a header value: `type/subtype;name=value`, with no
// spaces, quoting values that are not tokens. Parsing the result gives m
// back.
func (m MediaType) String() string {
	if m.Type == "" && m.Subtype == "" && len(m.Params) == 0 {
		return ""
	}
	var b strings.Builder
	m.appendTo(&b)
	return b.String()
}

func (m MediaType) appendTo(b *strings.Builder) {
	b.WriteString(m.Type)
	b.WriteByte('/')
	b.WriteString(m.Subtype)
	for _, p := range m.Params {
		b.WriteByte(';')
		b.WriteString(p.Name)
		b.WriteByte('=')
		writeParamValue(b, p.Value)
	}
}

func writeParamValue(b *strings.Builder, v string) {
	if isToken(v) {
		b.WriteString(v)
		return
	}
	b.WriteByte('"')
	for i := 0; i < len(v); i++ {
		if v[i] == '"' || v[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(v[i])
	}
	b.WriteByte('"')
}

// Matches reports whether the media range m (from an Accept header)
// accepts the concrete media type offer. Types and subtypes match when
// equal or when m has "*". Kubernetes reads as, g and v as a request to
// convert the response, so they must be equal in both (absent in one means
// absent in the other): `application/json` does not accept a Table. Every
// other parameter of m must be present in offer with an equal value
// (case-insensitive), except charset=utf-8 and pretty, which never prevent
// a match. Parameters of offer that m does not name are ignored, so
// `application/vnd.kubernetes.protobuf` accepts MediaTypeProtobufWatch.
func (m MediaType) Matches(offer MediaType) bool {
	if m.Type != "*" && m.Type != offer.Type {
		return false
	}
	if m.Subtype != "*" && m.Subtype != offer.Subtype {
		return false
	}
	for _, name := range [...]string{ParamAs, ParamGroup, ParamVersion} {
		if m.Param(name) != offer.Param(name) {
			return false
		}
	}
	for _, p := range m.Params {
		switch {
		case p.Name == ParamAs || p.Name == ParamGroup || p.Name == ParamVersion:
		case p.Name == "pretty":
		case p.Name == "charset" && strings.EqualFold(p.Value, "utf-8"):
		case !strings.EqualFold(offer.Param(p.Name), p.Value):
			return false
		}
	}
	return true
}

// specificity orders media ranges for RFC 9110's rule that the most
// specific matching range gives an offer its weight.
func (m MediaType) specificity() int {
	switch {
	case m.Type == "*":
		return 0
	case m.Subtype == "*":
		return 1
	}
	return 2 + len(m.Params)
}

// isToken reports whether s is a non-empty RFC 9110 token.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isTChar(s[i]) {
			return false
		}
	}
	return true
}

func isTChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}
